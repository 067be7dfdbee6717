"""The site's "extremes of Comet" pages (issue 37 item 2; comet.site.extremes): every exact row of spec/extremes.md
is quoted with its figure, and every deal shown ends, on the page and in its stepper, with the chips (points)
the model's replay of the shipped record gives (R-END-OUT, R-SETTLE-POINTS, R-SETTLE-COMET-LAST).  Planted: a
wrong figure in the table stops the build, and a wrong final score or a dropped fact on a page is reported."""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("z3")

from comet.engine import deal_points, returns
from comet.records.deal_record import parse_record, replay_record
from comet.site.core import Site
from comet.site.extremes import REL, build_extremes
from comet.variant import variant_of
from comet_proofs.bounds.extremes import witnesses_root
from comet_proofs.bounds.page import NAMES, ROW, SAYS
from site_checks import link_problems, scan, site_files

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "spec" / "extremes.md"


def _build(root: Path, out: Path) -> Path:
    build_extremes(Site(root, out, [], [], {}, [], {}))
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(ROOT, tmp_path_factory.mktemp("extremes"))


def _exact_rows(text: str) -> list[tuple[str, int, str, int]]:
    """(preset, players, quantity, figure) of every row the table calls exact (read with the page writer's own
    pattern, not the site's)."""
    out = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m and m.group(6) == "exact":
            out.append((m.group(1), int(m.group(2)), m.group(3), int(m.group(4))))
    return out


class _Deals(HTMLParser):
    """Each ``section.extreme`` holding a deal: its shipped file, its stated final score and its stepper data."""

    def __init__(self) -> None:
        super().__init__()
        self.deals: list[dict[str, str]] = []
        self._json: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "section" and "extreme" in a.get("class", "") and a.get("data-file"):
            self.deals.append({"id": a["id"], "file": a["data-file"]})
        elif tag == "p" and a.get("class") == "final" and self.deals:
            self.deals[-1]["final"] = a["data-final"]
        elif tag == "script" and a.get("type") == "application/json" and self.deals:
            self._json = ""

    def handle_data(self, data: str) -> None:
        if self._json is not None:
            self._json += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._json is not None:
            self.deals[-1]["data"] = self._json
            self._json = None


def final_problems(site: Path) -> list[str]:
    """Every deal on the preset pages whose stated final score, or its stepper's last step, differs from the
    model's replay of the shipped record (one readable line each)."""
    problems: list[str] = []
    for page in sorted((site / "extremes").glob("*.html")):
        parser = _Deals()
        parser.feed(page.read_text(encoding="utf-8"))
        for d in parser.deals:
            trace = json.loads((witnesses_root() / d["file"]).read_text(encoding="utf-8"))
            final = replay_record(parse_record(trace["#meta"]["record"])).final
            points = variant_of(final.rules).scoring != "chips"
            want = list(deal_points(final) if points else returns(final))
            where = f"{page.name}#{d['id']} ({d['file']})"
            if json.loads(d["final"]) != want:
                problems.append(f"{where}: the page says the deal ends {d['final']}, the model's replay {want}")
            last = json.loads(d["data"])["sides"][0]["steps"][-1]
            if last["chips"] != list(returns(final)) or not last["finished"]:
                problems.append(
                    f"{where}: the stepper ends on {last['chips']}, the model's replay {list(returns(final))}"
                )
            if points and last.get("points") != want:
                problems.append(f"{where}: the stepper ends on points {last.get('points')}, the model's replay {want}")
    return problems


def fact_problems(site: Path, text: str) -> list[str]:
    """Every exact row of the table not quoted, with its figure, on the index page and on its preset's page."""
    index = (site / REL).read_text(encoding="utf-8")
    problems = []
    for preset, players, quantity, figure in _exact_rows(text):
        what, unit = SAYS[quantity]
        game = html.escape(f"{players}-player {NAMES.get(preset, preset)}")
        said = (
            f'In {game}, {html.escape(what)} is <strong class="figure" data-figure="{figure}">{figure} {unit}</strong>'
        )
        if said not in index:
            problems.append(f"{REL}: no '{preset} {players}p {quantity} = {figure}'")
        own = (site / "extremes" / f"{preset}.html").read_text(encoding="utf-8")
        if said not in own:
            problems.append(f"extremes/{preset}.html: no '{preset} {players}p {quantity} = {figure}'")
    return problems


def test_every_exact_row_is_quoted_with_its_figure(pages: Path) -> None:
    """R-END-OUT: each exact row of spec/extremes.md, in plain words with its figure, on both pages."""
    text = TABLE.read_text(encoding="utf-8")
    assert len(_exact_rows(text)) >= 40, "the table lost its exact rows"
    assert fact_problems(pages, text) == []


def test_every_deal_ends_as_the_model_replays_it(pages: Path) -> None:
    """R-SETTLE-POINTS, R-SETTLE-COMET-LAST: the final chips (points) shown, and the stepper's last step, are the
    model's replay of each shipped deal; every row with a shipped deal has its deal drawn."""
    n = sum(
        1 for line in TABLE.read_text(encoding="utf-8").splitlines() if (m := ROW.match(line)) and m.group(5) != "none"
    )
    shown = sum(
        len(re.findall(r'<section class="extreme"[^>]*data-file=', p.read_text(encoding="utf-8")))
        for p in (pages / "extremes").glob("*.html")
    )
    assert shown == n, f"{n} rows have a shipped deal, {shown} are drawn"
    assert final_problems(pages) == []


def test_the_pages_links_resolve(pages: Path) -> None:
    """Every link among the extremes pages (and to their anchors) resolves."""
    ids, links = scan(pages)
    ours = {
        p: [h for h in hs if h.partition("#")[0].startswith(("extremes", "../extremes")) or h.startswith("#")]
        for p, hs in links.items()
    }
    assert link_problems(site_files(pages), ids, ours) == []


def test_a_planted_wrong_final_or_missing_fact_is_reported(pages: Path, tmp_path: Path) -> None:
    """Planted: one deal's final score one chip off, and one exact fact dropped from the index page."""
    site = tmp_path / "site"
    shutil.copytree(pages, site)
    page = site / "extremes" / "standard.html"
    shown = page.read_text(encoding="utf-8")
    m = re.search(r'data-final="\[(-?\d+)', shown)
    assert m
    page.write_text(shown[: m.start(1)] + str(int(m.group(1)) + 1) + shown[m.end(1) :], encoding="utf-8")
    wrong = final_problems(site)
    assert len(wrong) == 1 and "the model's replay" in wrong[0], wrong
    index = site / REL
    text = TABLE.read_text(encoding="utf-8")
    preset, players, quantity, figure = _exact_rows(text)[0]
    index.write_text(
        index.read_text(encoding="utf-8").replace(f'data-figure="{figure}">{figure}', "", 1), encoding="utf-8"
    )
    assert fact_problems(site, text) == [f"{REL}: no '{preset} {players}p {quantity} = {figure}'"]


def test_a_planted_wrong_figure_stops_the_build(tmp_path: Path) -> None:
    """Planted: the table says an exact row's deal reaches one more than it does; the build names the row."""
    root = tmp_path / "checkout"
    (root / "spec").mkdir(parents=True)
    text = TABLE.read_text(encoding="utf-8")
    preset, players, quantity, figure = _exact_rows(text)[0]
    old = f"| {preset} | {players} | {quantity} | {figure} | {figure} | exact |"
    assert old in text
    planted = f"| {preset} | {players} | {quantity} | {figure + 1} | {figure + 1} | exact |"
    (root / "spec" / "extremes.md").write_text(text.replace(old, planted), encoding="utf-8")
    with pytest.raises(
        ValueError,
        match=rf"{preset} {players}p {quantity}: the table says its deal reaches {figure + 1}, the model's replay gives {figure}",
    ):
        _build(root, tmp_path / "out")
