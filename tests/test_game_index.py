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
