"""Which test modules need an optional extra, found from their imports (issue 32: the core's tests run in a
bare install, .ci/run's "bare" step with ``COMET_CORE_ONLY=1``).

A test module needs an extra when one of its imports (anywhere in it) reaches, through the first-party
modules' *module-level* imports, a package that only an extra installs (``comet.cli.EXTRAS``).  A model
module that loads such a package inside a function (the proofs' solver, a command's heavy part) does not make
its importers need the extra: a test that calls it does, which the bare run shows by failing.  A test module
that loads modules by name (``importlib``) says what it needs in a module-level ``NEEDS_EXTRAS = (...)``.
"""

from __future__ import annotations

import ast
import importlib.util
import os
from functools import cache
from pathlib import Path

import pytest
from comet.cli import extra_for

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "model", ROOT / "proofs", ROOT / "tests")


@cache
def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for root in SOURCES:
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts:
                out[".".join(parts)] = path
    return out


def _imports(path: Path, module: str, anywhere: bool) -> list[str]:
    """Dotted names imported by the file (at module level only, unless ``anywhere``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if anywhere else _module_level(tree)
    out: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.append(base)
            out.extend(f"{base}.{a.name}" for a in node.names)
    return out


def _module_level(tree: ast.Module) -> list[ast.stmt]:
    """Statements run on import: the body, into ``if``/``try`` blocks, not under ``if TYPE_CHECKING``."""
    out: list[ast.stmt] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                stack.extend(node.body)
            stack.extend(node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend([*node.body, *node.orelse, *node.finalbody])
    return out


def _known(name: str) -> list[str]:
    """The first-party modules importing ``name`` runs: the longest known prefix and its parent packages."""
    parts = name.split(".")
    out = []
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in _modules():
            out.append(".".join(parts[:i]))
    return out


@cache
def _reached(module: str) -> frozenset[str]:
    """The extras a first-party module needs on import (module-level imports, followed)."""
    seen: set[str] = set()
    extras: set[str] = set()
    stack = [module]
    while stack:
        m = stack.pop()
        if m in seen:
            continue
        seen.add(m)
        for name in _imports(_modules()[m], m, anywhere=False):
            extra = extra_for(name)
            if extra is not None:
                extras.add(extra)
            stack.extend(_known(name))
    return frozenset(extras)


def extras_needed(test_file: Path) -> frozenset[str]:
    """The extras the test module at ``test_file`` needs: what any of its imports, anywhere in it, reaches."""
    module = test_file.with_suffix("").name
    out: set[str] = set()
    for node in ast.parse(test_file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "NEEDS_EXTRAS" for t in targets) and node.value is not None:
                out |= set(ast.literal_eval(node.value))
    for name in _imports(test_file, module, anywhere=True):
        extra = extra_for(name)
        if extra is not None:
            out.add(extra)
        for m in _known(name):
            out |= _reached(m)
    return frozenset(out)


def unless_installed(*modules: str) -> pytest.MarkDecorator:
    """For one case of a core test that needs an extra: skipped in the bare install's run
    (``COMET_CORE_ONLY``) when a module is missing, run (and failing if it is missing) everywhere else."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    return pytest.mark.skipif(
        bool(os.environ.get("COMET_CORE_ONLY")) and bool(missing),
        reason=f"the bare install's run: {', '.join(missing)} comes with an extra",
    )
