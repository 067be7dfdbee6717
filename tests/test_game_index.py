"""Every game family's folder indexes where the rest of it lives (proofs, fast engine, tests, spec), and the
index cannot rot: each path must exist, each Markdown anchor must be a heading, and the game's proofs
folder (encoding, behaviour classes, witness scenarios) must be named (issue 21: find all of one variant
from one index)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import comet.games

ROOT = Path(__file__).resolve().parent.parent


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^a-z0-9 -]", "", heading.strip().lower()).replace(" ", "-")


def index_problems(name: str, doc: str) -> list[str]:
    """What is wrong with game family ``name``'s index (its package docstring)."""
    if "Index:" not in doc:
        return [f"{name}: the folder's docstring has no 'Index:' section"]
    out: list[str] = []
    for ref in re.findall(r"``([\w./#-]+/[\w./#-]+)``", doc.split("Index:", 1)[1]):
        path, _, anchor = ref.partition("#")
        target = ROOT / path
        if not target.exists():
            out.append(f"{name}: {path} does not exist")
            continue
        if anchor:
            headings = {slug(h) for h in re.findall(r"^#+ (.+)$", target.read_text(), re.M)}
            if anchor not in headings:
                out.append(f"{name}: {path} has no heading #{anchor}")
    proofs = ROOT / "proofs" / "comet_proofs" / "games" / name
    for part in ("encoding", "classes", "scenarios"):
        path = f"proofs/comet_proofs/games/{name}/{part}.py"
        if (proofs / f"{part}.py").exists() and f"``{path}``" not in doc:
            out.append(f"{name}: the index does not name {path}")
    return out


def test_every_game_folder_has_an_index_that_resolves() -> None:
    """Each ``comet/games/<name>/`` package names its encoding, behaviour classes, fast kernel, tests and spec."""
    problems: list[str] = []
    families = [i.name for i in pkgutil.iter_modules(comet.games.__path__) if i.ispkg]
    assert {"standard", "opera", "two_player", "old_comet", "commit_hoyle", "commit_cats", "red_nines"} <= set(families)
    for name in families:
        doc = importlib.import_module(f"comet.games.{name}").__doc__ or ""
        problems += index_problems(name, doc)
    assert not problems, "\n".join(problems)


def test_a_rotten_index_is_reported() -> None:
    """Planted: a missing file, a missing heading and a proofs file of the game left out are each named."""
    doc = (
        "Index: x\n- ``proofs/comet_proofs/variants/nothing.py``; ``spec/rules-variants.md#no-such-game``;"
        " ``proofs/comet_proofs/games/opera/encoding.py``, ``proofs/comet_proofs/games/opera/scenarios.py``"
    )
    assert index_problems("opera", doc) == [
        "opera: proofs/comet_proofs/variants/nothing.py does not exist",
        "opera: spec/rules-variants.md has no heading #no-such-game",
        "opera: the index does not name proofs/comet_proofs/games/opera/classes.py",
    ]
    assert index_problems("toy", "no index") == ["toy: the folder's docstring has no 'Index:' section"]


#: The shared core (issue 21): the engine, the game loop and the invariant checker of the model, and the
#: proofs' modules outside ``games/``.  A game family reaches it through its ``Variant`` hooks and options,
#: or its encoding's class attributes, never by name.
CORE = (
    "model/comet/engine.py",
    "model/comet/deal.py",
    "model/comet/legal.py",
    "model/comet/plan.py",
    "model/comet/game.py",
    "model/comet/checks",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "proofs" / "comet_proofs").glob("*.py")),
)


def family_words() -> set[str]:
    """Every registered family's name and the names of its presets and options, as a reader would grep
    for them (``old_comet`` and ``old comet``)."""
    from comet.variant import families

    words: set[str] = set()
    for v in families():
        words |= {v.name, *(p.name for p in v.presets), *(o.name for o in v.options)}
    return words | {w.replace("_", " ") for w in words} | {w.replace("_", "-") for w in words}


def naming(paths: tuple[str, ...], words: set[str]) -> list[str]:
    """``file:line: word`` for every line of ``paths`` (files or folders of .py files, from the checkout's
    root or absolute) that names one of ``words`` (case-insensitive), also as part of an identifier."""
    # letters may not touch the name, an underscore may: ``two_player_sets`` names the family, ``operator`` does not
    pattern = re.compile(
        r"(?<![a-z])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")(?![a-z])", re.I
    )
    out: list[str] = []
    for p in paths:
        base = ROOT / p
        for f in sorted(base.rglob("*.py")) if base.is_dir() else [base]:
            for n, line in enumerate(f.read_text().splitlines(), 1):
                if (m := pattern.search(line)) is not None:
                    out.append(f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}:{n}: {m.group(1)}")
    return out


def test_the_core_names_no_game_family() -> None:
    words = family_words() - {"standard"}  # the standard game is the core's own
    assert {"two_player", "old comet", "opera", "red-nines"} <= words
    assert naming(CORE, words) == []


def test_a_family_named_in_the_core_is_found(tmp_path: Path) -> None:
    """The check can fail: a line naming a family (as code or as prose) is reported with its place."""
    planted = tmp_path / "engine.py"
    planted.write_text('x = 1\nif rules.variant == "red_nines":  # Red Nines only\n    pass\n')
    found = naming((str(planted),), {"red_nines", "red nines", "opera"})
    assert [f.rsplit(":", 2)[1:] for f in found] == [["2", " red_nines"]]
    planted.write_text("x = rules.red_nines_king\nimport operator\n")  # a field named after it; not a longer word
    assert [f.rsplit(":", 2)[1:] for f in naming((str(planted),), {"red_nines", "opera"})] == [["1", " red_nines"]]
