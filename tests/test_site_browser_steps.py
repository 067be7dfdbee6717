"""The witness stepper as the browser draws it (issue 35 item 8), step by step: each step shows that action's
own payments (the chips each side shows move, from the step before, by exactly the payments it lists:
R-REC-PAYMENTS), and at the first difference the action the page marks as current is the one the static list
highlights.  Two planted slips are caught: a page script listing every payment so far at each step, and one
marking the current action one off.  Chromium from Debian, driven by Playwright (test_site_browser.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_site_browser import _url, _watch, browser  # noqa: F401  (browser: the module's fixture, reused)

NEEDS_EXTRAS = ("browser",)
# pages whose witnesses pay in several steps, and some of more than one action before the difference
PAGES = (
    "ruling/RUL-COMET-LEAD.html",
    "ruling/RUL-OPERA.html",
    "ruling/RUL-2P-SETS.html",
    "ruling/RUL-CATS-NEW-RUN.html",
    "ruling/RUL-COMET-AFTER.html",
)
READ_STEP = """root => Array.from(root.querySelectorAll('.side')).map(s => {
  const o = s.querySelector('output.chips');
  return [o ? o.dataset.chips : null, Array.from(s.querySelectorAll('ul.pays li')).map(li => li.textContent),
          s.querySelector('p.stopped') !== null];
})"""
PAY = re.compile(r"^(.+) pays (.+) (\d+) \((R-[A-Z0-9-]+)\)$")


def step_problems(page: Any, limit: int = 6) -> tuple[list[str], int]:
    """Step every witness of the page (its first ``limit``) to the end and compare, at each step, each side's
    chips with the step before and the payments it lists; and the current action with the highlighted one
    at the first difference.  The problems in words, and how many steps moved chips."""
    problems: list[str] = []
    paid_steps = 0
    boxes = page.locator("details.witness")
    for n in range(min(boxes.count(), limit)):
        box = boxes.nth(n)
        key = box.get_attribute("data-key")
        box.evaluate("d => { d.open = true; d.dispatchEvent(new Event('toggle')); }")
        root = box.locator(".stepper")
        names = root.locator(".side").first.locator("tbody th").all_inner_texts()
        before = root.evaluate(READ_STEP)
        nxt = root.locator("button[data-go=next]")
        k = 0
        while nxt.is_enabled() and k < 400:
            nxt.click()
            k += 1
            now = root.evaluate(READ_STEP)
            status = root.locator(".status").inner_text()
            if "(first difference)" in status:
                current = root.locator("ol.actions li.current")
                marked = root.locator("ol.actions li.diff")
                if marked.count() and (not current.count() or current.inner_text() != marked.inner_text()):
                    problems.append(
                        f"{key} step {k}: the current action is {current.inner_text() if current.count() else None!r}, "
                        f"the highlighted one {marked.inner_text()!r}"
                    )
            for s, ((was, _, _), (chips, pays, stopped)) in enumerate(zip(before, now, strict=True)):
                if was is None or chips is None or "refused" in (was, chips) or stopped:
                    continue  # refused, or past this reading's end ("stopped at action N": its last step again)
                a, b = [int(x) for x in re.findall(r"-?\d+", was)], [int(x) for x in re.findall(r"-?\d+", chips)]
                net = [0] * len(b)
                for p in pays:
                    m = PAY.match(p)
                    if m is None:
                        problems.append(f"{key} step {k} side {s}: a payment reads {p!r}")
                        continue
                    net[names.index(m.group(1))] -= int(m.group(3))
                    net[names.index(m.group(2))] += int(m.group(3))
                moved = [y - x for x, y in zip(a, b, strict=False)] if len(a) == len(b) else net
                if moved != net:
                    problems.append(f"{key} step {k} side {s}: lists {pays} but the chips move by {moved}")
                paid_steps += bool(pays)
            before = now
    return problems, paid_steps


def test_each_step_shows_its_own_payments_and_the_marked_action(built_site: Path, browser: Any) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 360, "height": 800})
    errors: list[str] = []
    _watch(page, errors)
    problems: list[str] = []
    paid = 0
    for rel in PAGES:
        page.goto(_url(built_site, rel))
        found, n = step_problems(page)
        problems += [f"{rel}: {p}" for p in found]
        paid += n
    page.close()
    assert paid >= 10, f"only {paid} steps with payments were stepped through"
    assert not problems, "\n".join(problems[:10])
    assert errors == []


SLIPS = {
    # every payment so far at each step, instead of that action's own
    "payments so far": (
        'var ul = el("ul", { "class": "pays"',
        "var soFar = []; for (var j = 1; j <= i; j++) soFar = soFar.concat(steps[j].pays); st = Object.assign({}, st, "
        '{ pays: soFar }); var ul = el("ul", { "class": "pays"',
    ),
    # the current action marked one later than the step shown
    "current one off": ('li.classList.toggle("current", n + 1 === k)', 'li.classList.toggle("current", n === k)'),
}


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_a_planted_stepper_slip_is_caught(built_site: Path, browser: Any, tmp_path: Path, slip: str) -> None:  # noqa: F811
    """The two slips the suite missed before, planted in a copy of the site's script, are each reported."""
    site = tmp_path / "site"
    shutil.copytree(built_site / "assets", site / "assets", ignore=shutil.ignore_patterns("pyodide"))
    shutil.copytree(built_site / "ruling", site / "ruling")
    js = site / "assets" / "site.js"
    old, new = SLIPS[slip]
    text = js.read_text(encoding="utf-8")
    assert old in text, f"the site's script changed: plant the slip {slip!r} anew"
    js.write_text(text.replace(old, new, 1), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    for rel in PAGES:
        page.goto(_url(site, rel))
        problems += step_problems(page)[0]
    page.close()
    assert problems, f"the slip {slip!r} went unnoticed"
