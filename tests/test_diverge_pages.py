"""The divergence report as pages people can open (issue 33): an index well under 100 KB, one page per ruling
under 200 KB, no Markdown file in spec/ over 300 KB, every link between the pages resolving, and a plain answer
of at most 40 lines at 100 columns.  Cites R-DEAL (the deals every answer is measured over)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from comet.commands.diverge_pages import INDEX_LIMIT, PAGE_LIMIT, pages, plain_lines
from comet.commands.diverge_published import published_lines
from comet.diverge.measure import Paired
from comet.diverge.pairs import pairs_for
from comet.diverge.records import Search
from comet.diverge.report import PairReport
from comet.diverge.store import load, search_of
from comet.diverge.study import Measured

ROOT = Path(__file__).resolve().parents[1]
DIVERGENCE = ROOT / "spec" / "divergence"
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")


def broken_links(folder: Path) -> list[str]:
    """Relative links of the Markdown pages in ``folder`` (not in its sub-folders) that name no file."""
    bad = []
    for page in sorted(folder.glob("*.md")):
        for m in LINK.finditer(page.read_text(encoding="utf-8")):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                bad.append(f"{page.name} -> {target}")
    return bad


def oversized(folder: Path) -> list[str]:
    """The pages over their limit: the index over ``INDEX_LIMIT``, any other over ``PAGE_LIMIT`` bytes."""
    out = []
    for page in sorted(folder.glob("*.md")):
        limit = INDEX_LIMIT if page.name == "README.md" else PAGE_LIMIT
        if page.stat().st_size > limit:
            out.append(f"{page.name}: {page.stat().st_size:,} bytes > {limit:,}")
    return out


def offered(deals: int = 10_000) -> Paired:
    """Three seats: the readings' options differ in a tenth of the deals and no deal changes."""
    return Paired(
        deals=deals,
        classes=(deals - deals // 10, 0, deals // 10, 0, 0),
        chips_a=(0, 0, 0),
        chips_d=(0, 0, 0),
        chips_d2=(0, 0, 0),
        wins_a=(0, 0, deals),
        wins_d=(0, 0, 0),
        wins_d2=(0, 0, 0),
    )


def small_reports() -> list[PairReport]:
    """Two rulings' pairs in the standard game, with hand-made figures at 3 players."""
    stored = load()
    out = []
    for field in ("comet_bonus_last", "stuck_restart"):
        for pair in pairs_for(field, ["standard"]):
            e = stored.get(pair.key)
            s = search_of(pair, e) if e is not None else Search(pair, None, "", 0, 0, 0.0)
            m = Measured(3, {"random": offered()})
            out.append(PairReport(pair, s, [m]))
    return out


def args_for(out: Path | None) -> argparse.Namespace:
    return argparse.Namespace(
        out=out,
        deals=10_000,
        games=0,
        backend="reference",
        policies="random",
        rules=None,
        against=None,
        ruling_a=[],
        ruling_b=[],
    )


def write(tmp_path: Path) -> dict[str, str]:
    written = pages([], small_reports(), args_for(tmp_path), (), 12)
    for name, text in written.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return written


def test_pages_are_an_index_and_a_page_per_ruling_with_links_that_resolve(tmp_path: Path) -> None:
    written = write(tmp_path)
    assert {"README.md", "method.md", "summary.md", "RUL-COMET-BONUS-LAST.md", "RUL-STUCK-RESTART.md"} <= set(written)
    index = written["README.md"]
    rows = [line for line in index.splitlines() if line.startswith("| <a id=")]
    assert len(rows) == 2, rows
    assert all("no effect" in row for row in rows), rows
    # the anchors spec/rulings.md links to (``divergence/README.md#rul-…-field``) land on the ruling's row
    assert '<a id="rul-stuck-restart-stuck_restart"></a>[RUL-STUCK-RESTART](RUL-STUCK-RESTART.md)' in index
    assert broken_links(tmp_path) == [] and oversized(tmp_path) == []
    assert "## Words" in written["method.md"] and "zero by design" in written["method.md"]


def test_a_broken_link_and_an_oversized_page_are_caught(tmp_path: Path) -> None:
    write(tmp_path)
    # planted: a page linked from the index goes missing, and a ruling page grows past its limit
    (tmp_path / "RUL-STUCK-RESTART.md").unlink()
    assert "README.md -> RUL-STUCK-RESTART.md" in broken_links(tmp_path)
    (tmp_path / "RUL-COMET-BONUS-LAST.md").write_text("x" * (PAGE_LIMIT + 1), encoding="utf-8")
    assert oversized(tmp_path) == [f"RUL-COMET-BONUS-LAST.md: {PAGE_LIMIT + 1:,} bytes > {PAGE_LIMIT:,}"]


def test_the_plain_answer_fits_forty_lines_of_a_hundred_columns() -> None:
    reports = small_reports()
    lines = plain_lines(reports * 20)
    assert len(lines) <= 40 and all(len(line) <= 100 for line in lines), lines
    assert lines[-1].endswith("method.md.") or "--full" in "\n".join(lines[-3:])
    assert any(line.startswith("RUL-STUCK-RESTART") for line in plain_lines(reports))


@pytest.mark.skipif(not (DIVERGENCE / "method.md").is_file(), reason="the report is not in pages yet")
def test_the_published_report_opens() -> None:
    """spec/divergence/: the index under 100 KB, every page under 200 KB, every link resolving."""
    assert oversized(DIVERGENCE) == []
    assert broken_links(DIVERGENCE) == []


def test_no_markdown_file_in_spec_is_over_300_kb() -> None:
    big = [str(p.relative_to(ROOT)) for p in (ROOT / "spec").rglob("*.md") if p.stat().st_size > 300_000]
    assert big == [] or (big == ["spec/divergence/README.md"] and not (DIVERGENCE / "method.md").is_file()), big


def test_every_reading_compared_has_a_plain_label() -> None:
    """Every reading a divergence pair compares is named in words from its ruling's **Readings.** list (a whole
    number, e.g. a stake, may be named by its value); planted: a field the rulings do not list falls back to
    ``field = value``, which this test would report."""
    from comet.commands.reading_labels import label_of, reading_labels
    from comet.diverge.pairs import all_pairs, value_text

    labels = reading_labels(ROOT / "spec")
    missing = sorted(
        {
            f"{p.field} = {value_text(v)}"
            for p in all_pairs()
            for v in (p.value_a, p.value_b)
            if not isinstance(v, int) or isinstance(v, bool)
            if label_of(labels, p.field, v) == f"{p.field} = {value_text(v)}"
        }
    )
    assert missing == [], missing
    # a bullet wrapped over lines is read whole: no label stops inside a parenthesis (RUL-RED9-HOLDING's "(the")
    whole = [x for by in labels.values() for x in by.values() if not x.endswith(" …")]  # not cut at the limit
    cut = sorted(x for x in whole if x.count("(") != x.count(")"))
    assert cut == [], cut
    assert label_of(labels, "no_such_field", "x") == "no_such_field = x"
    assert label_of(labels, "comet_bonus_last", "plain").startswith("the bonus is the Comet's current value")


def test_comet_rulings_json_carries_the_labels() -> None:
    from comet.commands.rules import default_spec_dir, ruling_list

    rows = {str(r["field"]): r for r in ruling_list(default_spec_dir())}
    labels = rows["stuck_restart"]["labels"]
    assert isinstance(labels, dict) and set(labels) >= {"may"}, labels


def test_answers_that_rest_on_weaker_players_are_listed(tmp_path: Path) -> None:
    """Issue 33 item 7: whole games are played by random, greedy and hoarder only, so the index and the ruling's
    page list every ruling whose answer rests on a weaker player than the search player (whole games, pimc not
    measured, or not measurably stronger than greedy), and not one where pimc answers and is stronger."""
    from comet.diverge.measure import GamePaired
    from comet.diverge.strength import Strength

    stored = load()
    strong = Strength("greedy", 3, 2000, 900, 600, 300, 500, 0, 0)
    weak = Strength("greedy", 3, 2000, 600, 600, 0, 2000, 0, 0)
    made = {
        "first_dealer_tie": Measured(3, games={"random": GamePaired(100, played=100)}),
        "stuck_restart": Measured(3, {"random": offered()}),
        "comet_bonus_last": Measured(3, {"pimc": offered(), "random": offered()}, strength=strong),
        "comet_lead": Measured(3, {"pimc": offered(), "random": offered()}, strength=weak),
    }
    reports = []
    for field, m in made.items():
        pair = pairs_for(field, ["standard"])[0]
        e = stored.get(pair.key)
        s = search_of(pair, e) if e is not None else Search(pair, None, "", 0, 0, 0.0)
        reports.append(PairReport(pair, s, [m]))
    written = pages([], reports, args_for(tmp_path), (), 12)
    index = written["README.md"].split("## Answers that rest on weaker players", 1)
    assert len(index) == 2, "the index does not list the answers that rest on weaker players"
    listed = [line for line in index[1].splitlines() if line.startswith("- [RUL-")]
    assert [line.split("]")[0] for line in listed] == [
        "- [RUL-FIRST-DEALER",
        "- [RUL-STUCK-RESTART",
        "- [RUL-COMET-LEAD",
    ]
    assert "whole games, which random, greedy and hoarder play and the search player (pimc) does not" in listed[0]
    assert "was not measured here, so random answers" in listed[1]
    assert "not measurably stronger than greedy here, so random answers" in listed[2]
    page = written["RUL-FIRST-DEALER.md"]
    assert (
        "**Answers that rest on weaker players**" in page and "- standard, 3 players: answered by whole games" in page
    )
    assert "rest on weaker players" not in written["RUL-COMET-BONUS-LAST.md"]


def test_the_plain_answer_is_read_from_the_published_report(tmp_path: Path) -> None:
    """``comet diverge RULING`` answers from the published pages (no measuring): the ruling's question, per preset
    the answer at the usual player count, how sure; at most 40 lines of 100 columns; None without a page."""
    write(tmp_path)
    lines = published_lines("comet_bonus_last", tmp_path)
    assert lines is not None and len(lines) <= 40 and all(len(line) <= 100 for line in lines), lines
    text = "\n".join(lines)
    assert (
        lines[0].startswith("RUL-COMET-BONUS-LAST: ") and "- standard, B = comet_bonus_last = plain: no effect" in text
    )
    assert "How sure (standard, 3 players, random" in text and "--measure" in text
    assert published_lines("comet_bonus_last", tmp_path, ["opera"]) is None  # no opera pair on these pages
    assert published_lines("first_dealer_tie", tmp_path) is None  # no page for it


def test_the_command_answers_from_the_published_report_and_measures_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from comet.cli import main

    # the published report: comet_bonus_last reads an exact effect, in a second and without measuring
    assert main(["diverge", "comet_bonus_last", "--preset", "standard"]) == 0
    out = capsys.readouterr().out
    assert "exact effect" in out and "the winner receives exactly 4 fewer chips" in out, out
    assert len(out.splitlines()) <= 40
    # an option that sets what is measured, without --measure: one line naming the flag
    assert main(["diverge", "comet_lead", "--deals", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--deals" in err and "--measure" in err
    # a ruling the report has no figures for: a clear message saying how to measure it
    (tmp_path / "divergence").mkdir()
    monkeypatch.setattr("comet.commands.rules.default_spec_dir", lambda: tmp_path)
    assert main(["diverge", "stuck_restart"]) == 2
    err = capsys.readouterr().err
    assert "RUL-STUCK-RESTART has no published figures" in err and "comet diverge stuck_restart --measure" in err


def test_one_ruling_is_folded_into_a_report_in_pages(tmp_path: Path) -> None:
    """The per-ruling mode (``comet diverge RULING --out DIR`` into an existing report): the ruling's page, index
    row, summary rows and weaker-player line are replaced or added, every other ruling's are kept, the index says
    when it was measured on its own; folding it twice changes nothing more."""
    from comet.commands.diverge_published import UPDATED, merged_pages
    from comet.diverge.measure import GamePaired

    write(tmp_path)
    before = (tmp_path / "README.md").read_text(encoding="utf-8")
    kept = next(x for x in before.splitlines() if "[RUL-COMET-BONUS-LAST](" in x and x.startswith("| <a id="))
    kept_summary = [x for x in (tmp_path / "summary.md").read_text().splitlines() if "[RUL-COMET-BONUS-LAST](" in x]
    stored = load()
    pair = pairs_for("first_dealer_tie", ["standard"])[0]
    e = stored.get(pair.key)
    s = search_of(pair, e) if e is not None else Search(pair, None, "", 0, 0, 0.0)
    games = Measured(3, games={"random": GamePaired(100, winners_changed=4, played=100)})
    restart = [r for r in small_reports() if r.pair.field == "stuck_restart"]
    new = pages([], [PairReport(pair, s, [games]), *restart], args_for(tmp_path), (), 12)
    for _ in range(2):
        out = merged_pages(tmp_path, new, ["RUL-FIRST-DEALER", "RUL-STUCK-RESTART"], "2026-12-05 09:00 UTC")
        assert set(out) == {"README.md", "summary.md", "RUL-FIRST-DEALER.md", "RUL-STUCK-RESTART.md"}, set(out)
        for name, text in out.items():
            (tmp_path / name).write_text(text, encoding="utf-8")
        index = out["README.md"].splitlines()
        rows = [x for x in index if x.startswith("| <a id=")]
        assert len(rows) == 3 and kept in rows, rows
        assert sum("[RUL-FIRST-DEALER](" in x and "changes whole games" in x for x in rows) == 1
        assert [x for x in index if x.startswith(UPDATED)] == [
            f"{UPDATED} RUL-FIRST-DEALER (2026-12-05 09:00 UTC), RUL-STUCK-RESTART (2026-12-05 09:00 UTC)."
        ]
        weaker = [x for x in index if x.startswith("- [RUL-")]
        # random answers every ruling here: comet_bonus_last's line kept, the two folded rulings' lines anew
        assert len(weaker) == 3 and weaker[0].startswith("- [RUL-COMET-BONUS-LAST]"), weaker
        assert sum(x.startswith("- [RUL-FIRST-DEALER]") and "answered by whole games" in x for x in weaker) == 1
        summary = out["summary.md"].splitlines()
        assert [x for x in summary if "[RUL-COMET-BONUS-LAST](" in x] == kept_summary
        assert sum("[RUL-FIRST-DEALER](" in x for x in summary) == 1
    assert broken_links(tmp_path) == []
    # the plain answer of a folded ruling gives the date it was measured on its own
    plain = published_lines("stuck_restart", tmp_path)
    assert plain is not None and "(measured 2026-12-05 09:00 UTC)" in " ".join(plain), plain


def test_folding_lists_the_published_answers_that_rest_on_weaker_players(tmp_path: Path) -> None:
    """Folding one ruling into the published report (a copy) rebuilds the index's list of answers resting on
    weaker players for every ruling from the published rows, and gives a ruling page without it the list: the
    first-dealer ruling, answered by whole games, is listed on both."""
    import shutil

    from comet.commands.diverge_pages import WHOLE_GAMES_WEAKER
    from comet.commands.diverge_published import merged_pages

    for page in DIVERGENCE.glob("*.md"):
        shutil.copy(page, tmp_path / page.name)
    # planted: a method page whose words lack the whole-game verdicts gets the glossary's words
    method = (tmp_path / "method.md").read_text(encoding="utf-8")
    (tmp_path / "method.md").write_text(method.replace("- **changes whole games**", "- **gone**"), encoding="utf-8")
    restart = [r for r in small_reports() if r.pair.field == "stuck_restart"]
    new = pages([], restart, args_for(tmp_path), (), 12)
    out = merged_pages(tmp_path, new, ["RUL-STUCK-RESTART"], "2026-12-05 09:00 UTC")
    weaker = out["README.md"].split("## Answers that rest on weaker players", 1)[1].splitlines()
    first = [x for x in weaker if x.startswith("- [RUL-FIRST-DEALER](")]
    assert len(first) == 1 and WHOLE_GAMES_WEAKER in first[0], first
    assert any(x.startswith("- [RUL-STUCK-RESTART](") for x in weaker)  # random answers on the hand-made page
    text = out.get("RUL-FIRST-DEALER.md") or (tmp_path / "RUL-FIRST-DEALER.md").read_text(encoding="utf-8")
    assert "**Answers that rest on weaker players**" in text and f"- standard, 3 players: {WHOLE_GAMES_WEAKER}." in text
    # rows of rulings the search player answers are not listed
    assert not any(x.startswith("- [RUL-COMET-BONUS-LAST](") for x in weaker)
    assert "- **changes whole games**: " in out["method.md"] and "- **gone**" not in out["method.md"]


def test_the_per_ruling_mode_folds_only_into_a_report_of_more_rulings(tmp_path: Path) -> None:
    """A report of the measured rulings alone is written again whole (a second run writes the same report); a
    report holding other rulings too gets them folded in; an empty folder gets the pages whole."""
    from comet.commands.diverge_published import other_rulings

    assert not other_rulings(tmp_path, ["RUL-STUCK-RESTART"])
    write(tmp_path)
    assert not other_rulings(tmp_path, ["RUL-COMET-BONUS-LAST", "RUL-STUCK-RESTART"])
    assert other_rulings(tmp_path, ["RUL-STUCK-RESTART"])
    assert other_rulings(DIVERGENCE, ["RUL-STUCK-RESTART"])
