"""The witness stepper's static list marks the action where the readings part ways (issue 35 item 8, the
planted slip "the highlight one action off in the static list").  The mark is checked against what says
where the readings part, on its own: for a move one reading allows and the other refuses, the action the
witness names; for a difference in payments or outcome, the first step whose chips or payments differ
between the two readings as ``comet replay`` plays them (R-REC-PAYMENTS, and every ruling with a witness)."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from comet.diverge.store import load
from comet.site.witness import record_with, side

WITNESS = re.compile(
    r'<details class="witness" data-key="([^"]+)"[^>]*>(.*?)</details>\s*(?=<details class="witness"|<h3|<div class="witness|</section>)',
    re.S,
)
NAMED = re.compile(r"^'(.+)': (A|B) allows it, (A|B) does not$")


def _listed(block: str) -> tuple[list[str], list[int]]:
    """The static list's actions and the positions (0-based) marked as where the readings part."""
    ol = block.split('<ol class="actions">', 1)[1].split("</ol>", 1)[0]
    items = re.findall(r"<li([^>]*)>(.*?)</li>", ol, re.S)
    return [html.unescape(t) for _, t in items], [i for i, (a, _) in enumerate(items) if 'class="diff"' in a]


def _first_step_apart(entry: dict[str, Any]) -> int | None:
    """The first step (1-based: after that many actions) whose chips or payments differ between the readings."""
    rec = entry["record"]
    a: Any = side(record_with(rec, str(entry["field"]), None))
    b: Any = side(record_with(rec, str(entry["field"]), entry["b"]))
    if a["refused"] or b["refused"]:
        return None
    for k in range(1, min(len(a["steps"]), len(b["steps"]))):
        sa, sb = a["steps"][k], b["steps"][k]
        if sa["chips"] != sb["chips"] or sa["pays"] != sb["pays"] or sa.get("finished") != sb.get("finished"):
            return k
    return None


def highlight_problems(site: Path) -> tuple[list[str], int]:
    """Every witness whose marked action is not where the readings part; and how many were checked."""
    entries = load()
    problems: list[str] = []
    checked = 0
    for page in sorted((site / "ruling").glob("RUL-*.html")):
        text = page.read_text(encoding="utf-8")
        for key, block in WITNESS.findall(text):
            e = entries[html.unescape(key)]
            actions, marked = _listed(block)
            detail = str(e.get("detail", ""))
            named = NAMED.match(detail)
            where = f"{page.name} {key}"
            if named:
                want = named.group(1)
                if want in actions or marked:  # a named move past the record's end is marked nowhere
                    checked += 1
                    if [actions[i] for i in marked] != [want]:
                        problems.append(f"{where}: marks {[actions[i] for i in marked]}, the readings part at {want!r}")
                continue
            k = _first_step_apart(e)
            if k is None or k > len(actions):
                continue
            checked += 1
            if marked != [k - 1]:
                problems.append(
                    f"{where}: marks action {[i + 1 for i in marked]} ({[actions[i] for i in marked]}), the chips or "
                    f"payments first differ after action {k} ({actions[k - 1]!r})"
                )
    return problems, checked


def test_the_static_list_marks_the_action_where_the_readings_part(built_site: Path) -> None:
    problems, checked = highlight_problems(built_site)
    assert checked >= 40, f"only {checked} witnesses checked"
    assert not problems, f"{len(problems)} witnesses marked wrongly:\n" + "\n".join(problems[:10])


@pytest.mark.parametrize("shift", [1, -1])
def test_a_highlight_one_action_off_is_caught(built_site: Path, tmp_path: Path, shift: int) -> None:
    """Planted slip: the mark moved one action later (or earlier; the other way where the list ends there) on
    every witness of more than one action."""
    site = tmp_path / "site"
    shutil.copytree(built_site / "ruling", site / "ruling")
    moved = 0
    for page in sorted((site / "ruling").glob("RUL-*.html")):
        text = page.read_text(encoding="utf-8")

        def move(m: re.Match[str]) -> str:
            nonlocal moved
            items = re.findall(r"<li[^>]*>.*?</li>", m.group(2), re.S)
            at = [i for i, li in enumerate(items) if li.startswith('<li class="diff"')]
            if len(at) != 1 or len(items) < 2:
                return m.group(0)
            to = at[0] + shift if 0 <= at[0] + shift < len(items) else at[0] - shift
            moved += 1
            items = [re.sub(r'^<li class="diff">', "<li>", li) for li in items]
            items[to] = '<li class="diff">' + items[to].removeprefix("<li>")
            return m.group(1) + "".join(items) + m.group(3)

        text = re.sub(r'(<ol class="actions">)(.*?)(</ol>)', move, text, flags=re.S)
        page.write_text(text, encoding="utf-8")
    assert moved >= 10, f"only {moved} witnesses of more than one action"
    problems, _ = highlight_problems(site)
    # a witness where one reading refuses the deal has no step apart to check against: most are caught
    assert len(problems) >= moved * 3 // 4, f"{moved} marks moved, only {len(problems)} caught"
