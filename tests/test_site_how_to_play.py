"""How to play every preset, not the standard game alone (issue 35 item 1): each other preset has a page
saying what differs from the standard game in plain words: its facts (players, pack, wild card, scoring,
end: R-RED9-GAME, R-2P-GAME, R-COMMIT-C-GAME …) as the model has them, each rule of its own chapter of
spec/rules-variants.md linked to its id, each reading where it departs from the standard game linked to
its ruling, and a worked deal; the standard page and the preset's own page link to it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from comet.presets import PRESETS
from comet.ruleset import RULING_FIELDS, RULING_OF
from comet.variant import applies

ROOT = Path(__file__).resolve().parent.parent
# Each preset's chapter of spec/rules-variants.md, named here by hand (the site finds it from the sources).
CHAPTER = {
    "opera": "Opera",
    "two_player": "Two players",
    "old_comet": "Old Comet",
    "commit_hoyle": "Commit (000)",
    "commit_cats": "Commit (002)",
    "red_nines": "Red Nines",
}
# Implementation detail a player's page must not show: a module path, the Ruleset, a decorator, a test.
CODE_MARKS = re.compile(r"\bcomet\.[a-z_]+\.[a-z_]|Ruleset|@rule|\btest_")


def chapter_rules() -> dict[str, list[str]]:
    """Chapter heading -> the rule ids under it, from spec/rules-variants.md."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (ROOT / "spec" / "rules-variants.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = out.setdefault(line[3:].strip(), [])
        elif current is not None and (m := re.match(r"^### (R-[A-Z0-9-]+):", line)):
            current.append(m.group(1))
    return out


def how_to_play_problems(site: Path) -> list[str]:
    problems: list[str] = []
    chapters = chapter_rules()
    std = PRESETS["standard"]
    front = (site / "how-to-play.html").read_text(encoding="utf-8")
    for name, chapter in CHAPTER.items():
        rel = f"how-to-play/{name}.html"
        if not (site / rel).exists():
            problems.append(f"{rel} is missing")
            continue
        if f'href="{rel}"' not in front:
            problems.append(f"how-to-play.html does not link {rel}")
        if f'href="../{rel}"' not in (site / "preset" / f"{name}.html").read_text(encoding="utf-8"):
            problems.append(f"preset/{name}.html does not link {rel}")
        page = (site / rel).read_text(encoding="utf-8")
        main = page.split('<main id="main" tabindex="-1">', 1)[1].split("</main>", 1)[0]
        for rid in chapters.get(chapter, []):
            if not re.search(rf'href="\.\./rules-variants\.html#{rid}"', main):
                problems.append(f"{rel} does not say its own rule {rid} (chapter {chapter!r})")
        pr = PRESETS[name]
        v = pr.variant
        counts = sorted(v.player_counts)
        if f"{counts[0]} to {counts[-1]} players" not in main:
            problems.append(f"{rel} does not say {counts[0]} to {counts[-1]} players")
        if ("the lowest total wins" in main) != v.lower_wins:
            problems.append(f"{rel} gets the winner wrong (lowest wins: {v.lower_wins})")
        if v.game_end == "target" and f"reaches {v.target} points" not in main:
            problems.append(f"{rel} does not say the game ends at {v.target} points")
        choices = main.split('<h2 id="readings">', 1)[1].split("</section>", 1)[0] if 'id="readings"' in main else ""
        for f in RULING_FIELDS:
            rid = RULING_OF.get(f, "")
            if not rid or not applies(f, pr.rules.variant):
                continue
            if applies(f, std.rules.variant) and getattr(std.rules, f) == getattr(pr.rules, f):
                continue
            if f'href="../ruling/{rid}.html"' not in choices:
                problems.append(f"{rel} does not name its reading of {rid} ({f} = {getattr(pr.rules, f)})")
        if 'class="hand"' not in main:
            problems.append(f"{rel} has no worked deal drawn as cards")
        marks = CODE_MARKS.findall(re.sub(r'href="[^"]*"', "", main))
        if marks:
            problems.append(f"{rel} names code: {marks}")
    return problems


def test_every_preset_has_a_how_to_play_page(built_site: Path) -> None:
    assert set(CHAPTER) == set(PRESETS) - {"standard"}, "a preset was added: name its chapter in CHAPTER"
    assert all(chapter_rules().get(c) for c in CHAPTER.values()), "a chapter of rules-variants.md was renamed"
    problems = how_to_play_problems(built_site)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("slip", ["rule", "reading", "link"])
def test_a_gap_in_a_how_to_play_page_is_caught(built_site: Path, tmp_path: Path, slip: str) -> None:
    """Planted: Old Comet's page loses a rule (R-OLD-DECK), a reading, or the standard page's link to it."""
    site = tmp_path / "site"
    for rel in ("how-to-play.html", "how-to-play", "preset"):
        src = built_site / rel
        if src.is_dir():
            shutil.copytree(src, site / rel)
        else:
            site.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, site / rel)
    path = site / "how-to-play" / "old_comet.html"
    text = path.read_text(encoding="utf-8")
    if slip == "rule":
        text = text.replace('href="../rules-variants.html#R-OLD-DECK"', 'href="#gone"')
        needle = "R-OLD-DECK"
    elif slip == "reading":
        text = re.sub(r'<li>[^<]*<a class="rule-ref" href="\.\./ruling/RUL-OLD-[A-Z-]+\.html"', "<li>", text, count=1)
        needle = "reading of RUL-OLD"
    else:
        path = site / "how-to-play.html"
        text = path.read_text(encoding="utf-8").replace('href="how-to-play/old_comet.html"', 'href="#"')
        needle = "does not link how-to-play/old_comet.html"
    path.write_text(text, encoding="utf-8")
    problems = how_to_play_problems(site)
    assert any(needle in p for p in problems), problems
