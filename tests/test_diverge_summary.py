"""The divergence report's summary lists every ruling with a switch (a ``Ruleset`` field, issue 17 and 20):
the table is derived from ``comet.ruleset.RULING_FIELDS`` through ``comet.diverge.pairs.all_pairs``, never
from a hand list, every pair has its row whether or not it was measured, and the published report
(spec/divergence/README.md) has a row for every reading pair of every preset.  Cites R-DEAL (the deals
the summary's verdicts are measured over)."""

from __future__ import annotations

import re
from pathlib import Path

from comet.commands.diverge_page import summary_table
from comet.diverge.pairs import Pair, all_pairs
from comet.diverge.records import Search
from comet.diverge.report import PairReport
from comet.diverge.store import load, search_of
from comet.diverge.study import Measured
from comet.ruleset import RULING_FIELDS, RULING_OF

DIVERGENCE = Path(__file__).resolve().parents[1] / "spec" / "divergence"
# the report in pages (comet.commands.diverge_pages) keeps its summary table in summary.md
REPORT = DIVERGENCE / "summary.md" if (DIVERGENCE / "summary.md").is_file() else DIVERGENCE / "README.md"


def rows_of(lines: list[str]) -> set[tuple[str, str]]:
    """(preset, B reading) of every row of a summary table."""
    out = set()
    for line in lines:
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 4 and cells[1].startswith("[RUL-"):
            out.add((cells[2], cells[3].strip("`")))
    return out


def missing_from(lines: list[str], pairs: tuple[Pair, ...]) -> list[str]:
    """The keys of the pairs without a row in the summary ``lines``."""
    have = rows_of(lines)
    return [p.key for p in pairs if (p.preset, p.label_b()) not in have]


def listed_in(lines: list[str], pairs: tuple[Pair, ...]) -> set[str]:
    """The keys of the pairs with a row in the summary ``lines``."""
    return {p.key for p in pairs} - set(missing_from(lines, pairs))


def summary_section(text: str) -> list[str]:
    return text.split("## Summary", 1)[1].split("\n## ", 1)[0].splitlines()


def test_every_ruling_with_a_switch_has_pairs() -> None:
    """Every ``Ruleset`` field is a ruling (``RULING_OF``) and is compared in some preset."""
    fields = {p.field for p in all_pairs()}
    assert set(RULING_FIELDS) == set(RULING_OF) == fields


def test_the_summary_has_a_row_for_every_pair_measured_or_not() -> None:
    stored = load()
    pairs = all_pairs()
    reports = []
    for i, pair in enumerate(pairs):
        e = stored.get(pair.key)
        s = search_of(pair, e) if e is not None else Search(pair, None, "", 0, 0, 0.0)
        # a third of the pairs measured at no player count, a third measured with nothing played
        impact = [] if i % 3 == 0 else [Measured(3)] if i % 3 == 1 else [Measured(2), Measured(3)]
        reports.append(PairReport(pair, s, impact))
    lines = summary_table(reports)
    assert missing_from(lines, pairs) == []
    assert {line.split("|")[1].strip().split("](")[0].strip("[") for line in lines if line.startswith("| [")} == {
        RULING_OF[f] for f in RULING_FIELDS
    }
    # planted: a summary that drops one ruling's rows is caught
    dropped = pairs[5]
    fewer = [line for line in lines if f"`{dropped.label_b()}`" not in line or f"| {dropped.preset} |" not in line]
    assert dropped.key in missing_from(fewer, pairs)


PENDING = DIVERGENCE / "pending"


def pending_reports() -> dict[str, list[str]]:
    """The summary lines of each report under spec/divergence/pending/ (one ruling's pairs measured on
    their own, by ``comet diverge FIELD --preset P --out spec/divergence/pending/FIELD-P``, for rulings added
    after the whole report was generated), by folder name."""
    return (
        {
            d.name: pair_headings((d / "README.md").read_text(encoding="utf-8"))
            for d in sorted(PENDING.iterdir())
            if (d / "README.md").is_file()
        }
        if PENDING.is_dir()
        else {}
    )


def pair_headings(text: str) -> list[str]:
    """A one-ruling report's pair headings (``### preset: `A` (A) against `B` (B)``) as summary-like rows
    (a report of one ruling has no summary table)."""
    rows = []
    for m in re.finditer(r"^### (\w+): `[^`]*` \(A\) against `([^`]*)` \(B\)$", text, flags=re.M):
        rows.append(f"| [RUL-] | {m.group(1)} | `{m.group(2)}` | |")
    return rows


def test_the_published_report_lists_every_ruling() -> None:
    """spec/divergence/README.md has a summary row for every reading pair of every preset, or the pair is
    measured in a report of its own under spec/divergence/pending/ (a ruling added since the whole report
    was generated, until it is regenerated: README, 'The divergence report at scale'; `--out
    spec/divergence` measures only the pairs missing).  A pending report whose pairs the whole report now
    lists is stale and fails here too, so the folder goes when the report is regenerated."""
    pairs = all_pairs()
    missing = missing_from(summary_section(REPORT.read_text(encoding="utf-8")), pairs)
    pending = pending_reports()
    measured_alone = {key: listed_in(lines, pairs) for key, lines in pending.items()}
    unmeasured = [key for key in missing if not any(key in keys for keys in measured_alone.values())]
    assert unmeasured == [], (
        f"not in {REPORT.name}'s summary nor in a pending report (regenerate it): {', '.join(unmeasured)}"
    )
    for name, keys in measured_alone.items():
        assert keys, f"pending/{name} measures no pair"
        assert keys & set(missing), f"pending/{name} is stale: the whole report lists its pairs now; delete it"


def test_a_witness_proved_over_some_player_counts_says_which() -> None:
    """A Z3 proof over 2-player deals only (``Proof.within``) proves the witness smallest among those deals, so
    the summary says "smallest over 2p deals", never a bare "smallest"; a proof over every count says
    "smallest".  Taken from the stored entries (cats_new_run in commit_cats is proved over 2 players only)."""
    stored = load()
    partial = [p for p in all_pairs() if (e := stored.get(p.key)) is not None and search_of(p, e).proof is not None]
    reports = [PairReport(p, search_of(p, stored[p.key]), []) for p in partial]
    lines = summary_table(reports)
    by_key = {}
    for r in reports:
        row = next(line for line in lines if f"| {r.pair.preset} | `{r.pair.label_b()}` |" in line)
        if r.search.witness is not None:
            by_key[r.pair.key] = (r.search.proof, row)
    within = [(pr, row) for pr, row in by_key.values() if pr is not None and pr.proved and pr.within]
    assert within, "no stored proof over some player counts only"
    for pr, row in within:
        assert f"(smallest over {'/'.join(map(str, pr.within))}p deals)" in row and "(smallest)" not in row
    every = [row for pr, row in by_key.values() if pr is not None and pr.proved and not pr.within]
    assert every and all("(smallest)" in row for row in every)


def test_sets_of_any_size_are_headed_by_pimc_like_the_other_two_player_pairs() -> None:
    """``two_player_sets = any_number`` was measured on the reference engine without PIMC until the fast engine
    played sets of any size (issue 17); its row at two_player 2p now names pimc over 2,000 paired deals, as every
    other per-deal pair of two_player does where pimc is the headline there (its strength against greedy)."""
    rows = [line for line in summary_section(REPORT.read_text(encoding="utf-8")) if "| two_player |" in line]
    verdicts = {}
    for line in rows:
        cells = [c.strip() for c in line.split("|")]
        if cells[4] == "2" and "whole games" not in cells[6]:
            verdicts[cells[3].strip("`")] = cells[6]
    sets = verdicts.pop("two_player_sets = any_number")
    assert sets.startswith("pimc, 2,000 deals: "), sets
    others = [v for v in verdicts.values() if not v.startswith("pimc, 2,000 deals")]
    assert verdicts and not others, others
