"""Issue 21: no import circle in model/ and proofs/ is closed by an import inside a function.

An import inside a function that points back at a module which (through module-level imports) imports
the function's own module hides a circle: the two modules are one concern split in two, or their shared
records belong in a third module (as ``comet.diverge.records`` holds what ``diverge.witness`` and
``diverge.store`` both read).  Function-level imports that close no circle (an optional package such as
``comet_proofs`` or ``z3``, a heavy one loaded only when used) are allowed.  Imports made at run time by
``importlib`` (the registries loading the game folders) are not followed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "model", ROOT / "proofs")

# circles left on purpose, each with its reason in DESIGN.md ("Import circles"): none
ALLOWED: frozenset[tuple[str, str]] = frozenset()


def modules(roots: tuple[Path, ...]) -> dict[str, Path]:
    """Every module under ``roots`` by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts:
                out[".".join(parts)] = path
    return out


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The module of ``known`` that importing ``name`` loads (its longest known prefix)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def imports(module: str, path: Path, known: dict[str, Path]) -> tuple[set[str], list[tuple[str, int]]]:
    """(modules imported at module level, (module, line) imported inside a function) of ``known``;
    imports under ``if TYPE_CHECKING`` are not run and are left out."""
    top: set[str] = set()
    inner: list[tuple[str, int]] = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            fn = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            tc = typing_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            names: list[str] = []
            line = getattr(child, "lineno", 0)
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                names = [base, *(f"{base}.{a.name}" for a in child.names)]
            for name in names:
                target = _known(name, known)
                if target is None or target == module or tc:
                    continue
                if fn:
                    inner.append((target, line))
                else:
                    top.add(target)
            visit(child, fn, tc)

    visit(ast.parse(path.read_text(encoding="utf-8")), False, False)
    return top, inner


def circles(roots: tuple[Path, ...]) -> list[str]:
    """Each function-level import that closes a circle: the imported module reaches the importer through
    module-level imports (a module also loads its parent packages)."""
    known = modules(roots)
    parsed = {m: imports(m, p, known) for m, p in known.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, stack = {start}, [start]
        while stack:
            m = stack.pop()
            parents = [".".join(m.split(".")[:i]) for i in range(1, m.count(".") + 1)]
            for n in [*parsed[m][0], *(p for p in parents if p in known)]:
                if n == goal:
                    return True
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return False

    found = []
    for m, (_, inner) in sorted(parsed.items()):
        for target, line in inner:
            if (m, target) not in ALLOWED and reaches(target, m):
                where = next(known[m].relative_to(r) for r in roots if known[m].is_relative_to(r))
                found.append(f"{where.as_posix()}:{line}: {m} -> {target}")
    return sorted(set(found))


def test_no_function_level_import_closes_a_circle() -> None:
    """Issue 21: model/ and proofs/ have no import circle closed by a function-level import."""
    assert circles(SOURCES) == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_circle_is_found(tmp_path: Path) -> None:
    """Planted bug: ``pkg.a`` imports ``pkg.b`` at the top, ``pkg.b`` imports ``pkg.a`` inside a function
    (directly, and through ``pkg.c``); a relative import is resolved, an optional or typing-only import is
    not a circle."""
    _write(
        tmp_path / "src",
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\nimport json\n",
            "pkg/b.py": "def f():\n    from . import a\n    return a\n",
            "pkg/c.py": "from pkg.a import b\n",
            "pkg/d.py": "def g():\n    from pkg.c import b\n    import z3\n    return b, z3\n",
            "pkg/e.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.f import X\n"
                "def h():\n    from pkg.f import X\n    return X\n"
            ),
            "pkg/f.py": "X = 1\n",
        },
    )
    found = circles((tmp_path / "src",))
    assert [f.split(": ", 1)[1] for f in found] == ["pkg.b -> pkg.a"]
    assert found[0].startswith("pkg/b.py:2")
    _write(tmp_path / "src", {"pkg/b.py": "from pkg import d\ndef f():\n    from . import a\n    return a\n"})
    # now pkg.d's function-level import of pkg.c closes a longer circle: c -> a -> b -> d at module level
    assert [f.split(": ", 1)[1] for f in circles((tmp_path / "src",))] == ["pkg.b -> pkg.a", "pkg.d -> pkg.c"]
