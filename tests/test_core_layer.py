"""Issue 32: the rules engine is one layer that runs on the standard library alone, with no import circle.

The core is every module at the top of ``comet`` except the command line (``cli``: it loads the
sub-commands), plus the game families (``comet.games``: their rules and independent checks) and the one
checker (``comet.checks``).  Everything else in ``comet`` (the oracle, records, frameworks, the fast
engine, the divergence explorer, fuzzing, vectors, the site, the commands) is a client of the core.

Three things are checked over the source text, counting *every* import (module level, inside a function,
and under ``if TYPE_CHECKING``, since a type-only import is still a dependency a reader must follow):
the core's imports form no circle, the core imports no client of itself, and the core imports nothing
outside the standard library.  A fresh interpreter then plays a deal of every preset and shows that no
third-party module was loaded (so the core keeps loading in Pyodide, where only the standard library is).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "model"
#: The subpackages that belong to the core (found by the registry at run time, or read by the game folders).
CORE_PACKAGES = ("comet.games", "comet.checks")
#: Top-level modules of ``comet`` that are not the core.
NOT_CORE = frozenset({"comet.cli", "comet.__main__"})


def module_names(root: Path) -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            out[".".join(parts)] = path
    return out


def is_core(name: str, known: dict[str, Path]) -> bool:
    """Is module ``name`` part of the core (a top-level module of the package, or in a core subpackage)?"""
    if name in NOT_CORE:
        return False
    if any(name == p or name.startswith(p + ".") for p in CORE_PACKAGES):
        return True
    _, _, rest = name.partition(".")
    if not rest:  # the package itself
        return True
    return "." not in rest and known[name].name != "__init__.py"


def all_imports(module: str, path: Path) -> list[tuple[str, int]]:
    """(dotted name, line) of every import in the module's text, wherever it stands; relative imports
    resolved; ``from a import b`` gives both ``a`` and ``a.b`` (b may be a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.append((base, node.lineno))
            out.extend((f"{base}.{a.name}", node.lineno) for a in node.names)
    return out


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of ``known`` that importing ``name`` loads (its longest known prefix)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def core_graph(root: Path) -> tuple[dict[str, set[str]], list[str], list[str]]:
    """(edges between core modules, imports of a non-core first-party module, third-party imports), the
    last two as readable lines 'path:line: module -> target'."""
    known = module_names(root)
    first_party = {n.split(".")[0] for n in known}
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    edges: dict[str, set[str]] = {}
    upward: list[str] = []
    foreign: list[str] = []
    for name, path in known.items():
        if not is_core(name, known):
            continue
        edges.setdefault(name, set())
        where = path.relative_to(root).as_posix()
        for target, line in all_imports(name, path):
            top = target.split(".")[0]
            if top not in first_party:
                if top not in stdlib:
                    foreign.append(f"{where}:{line}: {name} -> {target}")
                continue
            mod = resolve(target, known)
            if mod is None or mod == name:
                continue
            if is_core(mod, known):
                edges[name].add(mod)
            else:
                upward.append(f"{where}:{line}: {name} -> {mod}")
    return edges, sorted(set(upward)), sorted(set(foreign))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, and a module that
    imports itself through a package's own name does not count (``comet`` -> ``comet.x`` -> ``comet`` is
    the package loading its parts, which Python allows by construction, not a dependency circle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def without_package_roots(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The edges with every import *of a package's ``__init__``* by one of its own modules dropped (a module
    of ``comet.games.x`` naming ``comet.games.x`` or ``comet`` is loading its parent, which Python does
    first anyway): what is left are the dependencies a reader follows."""
    out: dict[str, set[str]] = {}
    for a, targets in edges.items():
        out[a] = {b for b in targets if not a.startswith(b + ".")}
    return out


def test_the_core_has_no_import_circle_counting_type_only_imports() -> None:
    """Issue 32, item 1: engine, game, policy, ruleset, state and variant were one circle (types included)."""
    edges, _, _ = core_graph(MODEL)
    assert circles(without_package_roots(edges)) == []


def test_the_core_imports_none_of_its_clients() -> None:
    """The core never calls up into the oracle, records, frameworks, fast engine, studies or commands."""
    _, upward, _ = core_graph(MODEL)
    assert upward == []


def test_the_core_imports_only_the_standard_library() -> None:
    _, _, foreign = core_graph(MODEL)
    assert foreign == []


def test_a_deal_of_every_preset_loads_no_third_party_module() -> None:
    """``import comet``, every preset's deal played to its end and a whole game: the interpreter has loaded
    only the standard library and ``comet``'s core (what Pyodide and a bare ``pip install`` give)."""
    code = textwrap.dedent(
        """
        import sys
        import comet
        from comet import PRESETS, apply, legal_actions, play_game, shuffled_deal
        for name, p in PRESETS.items():
            s = shuffled_deal(p.rules, players=p.variant.default_players, dealer=0, seed=1)
            while not s.terminal:
                s = apply(s, legal_actions(s)[0])
        play_game(PRESETS["standard"].rules, 3, None, seed=2)
        std = set(sys.stdlib_module_names)
        bad = sorted({m.split(".")[0] for m in sys.modules} - std - {"comet", "__main__", "_distutils_hack"}
                     - {m for m in sys.modules if m.startswith("_")})
        print("third-party:", bad)
        """
    )
    env = {"PYTHONPATH": str(MODEL), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "third-party: []"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_planted_type_only_circle_upward_import_and_foreign_import_are_found(tmp_path: Path) -> None:
    """Planted: a type-only import that closes a circle (as variant.py naming game.GameState did), a core
    module importing a client, and a core module importing numpy inside a function."""
    _write(
        tmp_path,
        {
            "comet/__init__.py": "",
            "comet/ruleset.py": "X = 1\n",
            "comet/variant.py": (
                "from typing import TYPE_CHECKING\nfrom comet.ruleset import X\n"
                "if TYPE_CHECKING:\n    from comet.game import GameState\n"
            ),
            "comet/game.py": "from comet.variant import X\nclass GameState: ...\n",
            "comet/engine.py": "def f():\n    from comet.oracle.protocol import g\n    import numpy\n    return g, numpy\n",
            "comet/oracle/__init__.py": "",
            "comet/oracle/protocol.py": "from comet.engine import f\ndef g(): ...\n",
            "comet/cli.py": "from comet.oracle.protocol import g\n",
        },
    )
    edges, upward, foreign = core_graph(tmp_path)
    assert circles(without_package_roots(edges)) == [["comet.game", "comet.variant"]]
    assert upward == ["comet/engine.py:2: comet.engine -> comet.oracle.protocol"]
    assert foreign == ["comet/engine.py:3: comet.engine -> numpy"]


def test_the_core_suite_leaves_out_exactly_the_modules_that_need_an_extra(tmp_path: Path) -> None:
    """The bare install's test run (``COMET_CORE_ONLY=1``) collects a test module only when its imports reach
    no extra: the fast engine's tests need [fast], the proofs' need [proofs], the rules' need nothing; a
    planted test module importing a first-party module that imports numpy at its top is left out."""
    from extras_needed import extras_needed

    tests = ROOT / "tests"
    assert extras_needed(tests / "test_fast_engine.py") >= {"fast"}
    assert "proofs" in extras_needed(tests / "test_proofs.py")
    assert extras_needed(tests / "test_rules_standard.py") == frozenset()
    assert extras_needed(tests / "test_record.py") == frozenset()
    planted = tmp_path / "test_planted.py"
    planted.write_text("def test_x() -> None:\n    from comet.diverge.measure import Paired\n", encoding="utf-8")
    assert extras_needed(planted) == {"fast"}
