"""The report-wide reading of the verdicts (issue 17, ``comet.diverge.multiplicity``): each verdict's p-value,
Benjamini-Hochberg and the family-wise judgement, checked against an independent computation (NumPy and
the error function from the deal-by-deal differences; adjusted p-values) on small samples a reader can check by hand, and planted bugs that
the checks catch.  The measurements stand for any ruling's (R-END-OUT: the chips a deal's end moves)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from comet.diverge import multiplicity as mult
from comet.diverge.effect import verdict
from comet.diverge.measure import Paired
from comet.diverge.multiplicity import Row, bh_survivors, multiplicity, multiplicity_lines, verdict_p
from hypothesis import given, settings
from hypothesis import strategies as st


def normal_sf(z: float) -> float:
    """The upper tail of the standard normal, by the complementary error function."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def bh_adjusted(ps: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg's adjusted p-values, the other way round from a step-up scan: the p-value of rank
    ``k`` (of ``m``) times ``m / k``, then the smallest of those at its rank and above, at most 1."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        out[i] = running
    return out


def paired(diffs: Sequence[tuple[int, int]], same: int = 0) -> Paired:
    """Two seats; per changed deal the chips B − A of each seat (zero-sum), plus ``same`` unchanged deals."""
    n = len(diffs) + same
    moved = [(abs(a) + abs(b)) // 2 for a, b in diffs]
    changed = sum(1 for d in diffs if d != (0, 0))
    return Paired(
        deals=n,
        classes=(n - changed, changed, 0, 0, 0),
        chips_a=(0, 0),
        chips_d=tuple(sum(d[i] for d in diffs) for i in range(2)),
        chips_d2=tuple(sum(d[i] ** 2 for d in diffs) for i in range(2)),
        wins_a=(0, 0),
        wins_d=(0, 0),
        wins_d2=(0, 0),
        transfer=sum(moved),
        transfer2=sum(x * x for x in moved),
        transfer_max=max(moved, default=0),
        changed=changed,
    )


def independent_p(diffs: Sequence[tuple[int, int]], same: int) -> float:
    """The verdict's p-value from the raw differences: per figure (each seat's chips, the transfer; the win
    rates and length do not move) the two-sided normal p of the mean, the smallest times the 6 figures."""
    n = len(diffs) + same
    if n < 2:
        return 1.0  # one deal gives no spread: an interval without end
    columns = [
        np.array([d[0] for d in diffs] + [0] * same, float),
        np.array([d[1] for d in diffs] + [0] * same, float),
        np.array([(abs(a) + abs(b)) / 2 for a, b in diffs] + [0] * same, float),
    ]
    ps = []
    for x in columns:
        se = x.std(ddof=1) / math.sqrt(n)
        ps.append(1.0 if se == 0 else 2 * normal_sf(abs(float(x.mean())) / float(se)))
    return min(1.0, 6 * min(ps))


# A strong effect: 10 of 50 deals move 2 chips from the 2nd seat to the 1st.  Each seat's mean is +-0.4 with a
# standard error of sqrt((40 - 20**2 / 50) / 49 / 50) = 0.1143, z = 3.50, two-sided p = 0.000465; times the
# 6 figures (2 seats' chips, 2 win rates, the length, the transfer): 0.0028.
STRONG = [(2, -2)] * 10
# A marginal one: 6 of 30 deals move 1 chip (5 one way, 1 the other).  The transfer's mean is 0.2 with a standard
# error of sqrt((6 - 6**2 / 30) / 29 / 30) = 0.0743, z = 2.69, p = 0.0071, times 6: 0.0425 (each seat's mean,
# 4/30, has z = 1.68 only).  It reads "matters" alone (0.0425 < 0.05) but not among 3 tested rows (x 3 > 0.05),
# nor after Benjamini-Hochberg (0.0425 > 2/3 x 0.05 at rank 2).
MARGINAL = [(1, -1)] * 5 + [(-1, 1)]
# No effect to speak of: 1 of 60 deals moves 1 chip (z = 1 for the transfer: p 0.32, times 6: 1).
NULL = [(1, -1)]


def test_a_verdicts_p_value_is_the_hand_computed_one() -> None:
    """The strong sample's p-value is 0.0028 by hand (see ``STRONG``), and every sample's is the independent
    computation's from the raw differences."""
    assert verdict_p(paired(STRONG, 40)) == pytest.approx(6 * 2 * normal_sf(3.5), rel=1e-9)
    assert verdict_p(paired(STRONG, 40)) == pytest.approx(0.00279, abs=1e-5)
    for diffs, same in ((STRONG, 40), (MARGINAL, 24), (NULL, 59), ([(3, -3)], 0)):
        assert verdict_p(paired(diffs, same)) == pytest.approx(independent_p(diffs, same), rel=1e-9)
    assert verdict_p(paired([], 30)) == 1.0  # nothing changed: chance does not enter


@settings(max_examples=60, deadline=None)
@given(
    diffs=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=40),
    same=st.integers(0, 60),
    together=st.integers(1, 600),
)
def test_the_p_value_says_what_the_verdict_says(diffs: list[tuple[int, int]], same: int, together: int) -> None:
    """``verdict(p, together=t)`` reads "matters" exactly when ``t * verdict_p(p) < 0.05``: the p-value and the
    family machinery of ``comet.diverge.effect`` (simultaneous intervals) are one judgement."""
    p = paired([(a, -a) for a, _ in diffs], same)
    pv = verdict_p(p)
    if abs(together * pv - 0.05) < 1e-9:
        return  # on the boundary either reading is right
    assert verdict(p, together=together).matters == (together * pv < 0.05)


CLASSIC = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216]
STEP_UP = [0.01, 0.03, 0.031, 0.032]


def bh_problems(bh: Callable[[Sequence[float]], frozenset[int]]) -> list[str]:
    """What is wrong with a Benjamini-Hochberg ``bh``, against hand-checked samples and the adjusted p-values
    (``bh_adjusted``) on random ones."""
    out = []
    # by hand: thresholds 0.005, 0.010, 0.015, ...: the first two p-values pass, no later one does
    if bh(CLASSIC) != {0, 1}:
        out.append(f"classic sample: {sorted(bh(CLASSIC))}")
    # step-up: 0.03 fails its threshold 0.025 but 0.032 passes 0.05, so all four are kept
    if bh(STEP_UP) != {0, 1, 2, 3}:
        out.append(f"step-up sample: {sorted(bh(STEP_UP))}")
    rng = np.random.default_rng(7)
    for _ in range(200):
        ps = np.concatenate([rng.uniform(0, 1, rng.integers(1, 30)), rng.uniform(0, 0.01, rng.integers(0, 5))])
        expected = {i for i, q in enumerate(bh_adjusted(list(ps))) if q <= 0.05}
        if bh(list(ps)) != expected:
            out.append(f"random sample of {len(ps)}")
            break
    return out


def test_benjamini_hochberg_is_the_independent_ones() -> None:
    assert bh_problems(bh_survivors) == []


def test_a_step_down_benjamini_hochberg_is_caught() -> None:
    """Planted: stopping at the first p-value over its threshold (step-down) is not Benjamini-Hochberg."""

    def step_down(ps: Sequence[float]) -> frozenset[int]:
        order = sorted(range(len(ps)), key=lambda i: ps[i])
        kept = 0
        for rank, i in enumerate(order, start=1):
            if ps[i] > rank * 0.05 / len(ps):
                break
            kept = rank
        return frozenset(order[:kept])

    assert bh_problems(step_down)


def sample_rows() -> list[Row]:
    """Four rows a reader can judge by hand: strong (p 0.0028), marginal, null, and one where nothing changed."""
    return [
        Row("strong", paired(STRONG, 40), "chips"),
        Row("marginal", paired(MARGINAL, 24), "chips"),
        Row("null", paired(NULL, 59), "chips"),
        Row("nothing changed", paired([], 30), "chips"),
    ]


def reading_problems(judge: Callable[[Sequence[Row]], mult.Multiplicity]) -> list[str]:
    """What is wrong with a report-wide judgement of ``sample_rows``, from the independent p-values."""
    rows = sample_rows()
    got = judge(rows)
    ps = [independent_p(STRONG, 40), independent_p(MARGINAL, 24), independent_p(NULL, 59)]
    out = []
    if (got.rows, got.tested) != (4, 3):
        out.append(f"rows {got.rows}, tested {got.tested}")
    alone = {i for i, p in enumerate(ps) if p < 0.05}
    together = {i for i, p in enumerate(ps) if 3 * p < 0.05}
    fdr = {i for i, q in enumerate(bh_adjusted(list(ps))) if q <= 0.05} & alone
    if got.matters != alone or got.family_wise != together or got.fdr != fdr:
        out.append(f"alone {sorted(got.matters)}, together {sorted(got.family_wise)}, fdr {sorted(got.fdr)}")
    if got.expected_by_chance != pytest.approx(0.15):
        out.append(f"expected by chance {got.expected_by_chance}")
    return out


def test_the_report_wide_reading_of_a_hand_checked_sample() -> None:
    """The strong row survives both corrections, the marginal one reads "matters" alone only, the null one
    never does, and the row where nothing changed is not tested (so at most 0.15 "matters" by chance)."""
    ps = [independent_p(STRONG, 40), independent_p(MARGINAL, 24), independent_p(NULL, 59)]
    assert ps[0] < 0.05 / 3 and 2 * 0.05 / 3 < ps[1] < 0.05 and ps[2] == 1  # the sample is what its names say
    assert ps[1] == pytest.approx(0.0425, abs=1e-4)
    assert reading_problems(multiplicity) == []
    got = multiplicity(sample_rows())
    text = "\n".join(multiplicity_lines(sample_rows(), got, "rows"))
    assert "Of the 4 rows, 3 are tested" in text and "2 show a measurable change" in text
    assert f"- {mult.FLAG} marginal" in text and "- † strong" not in text
    assert "The one that does not survive is marked" in text


def test_a_family_that_ignores_the_other_rows_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: judging every verdict alone again (``together`` dropped) keeps the marginal row; and counting
    the untested row as tested inflates what chance explains: each is caught."""
    monkeypatch.setattr(mult, "verdict", lambda p, unit="chips", together=1: verdict(p, unit))
    assert reading_problems(multiplicity)
    monkeypatch.undo()
    monkeypatch.setattr(mult, "tested", lambda p: p.deals > 0)
    assert reading_problems(multiplicity)


def test_the_summary_flags_the_rows_chance_may_explain() -> None:
    """In the page's summary the marginal row (it reads "matters" alone, not after Benjamini-Hochberg) carries
    the mark, the strong one does not, and the statement follows the table naming the marginal row."""
    from comet.commands.diverge_page import summary_table
    from comet.diverge.pairs import all_pairs
    from comet.diverge.records import Search
    from comet.diverge.report import PairReport
    from comet.diverge.study import Measured

    pairs = [p for p in all_pairs(["standard"]) if p.field in ("comet_lead", "new_run")][:3]
    reports = [
        PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [Measured(3, {"random": row.paired})])
        for pair, row in zip(pairs, sample_rows(), strict=False)
    ]
    lines = summary_table(reports)
    table = [line for line in lines if line.startswith("| [RUL-")]
    assert len(table) == 3
    assert not table[0].endswith(f"{mult.FLAG} |") and table[1].endswith(f"{mult.FLAG} |")
    assert not table[2].endswith(f"{mult.FLAG} |")
    text = "\n".join(lines)
    assert "## How many verdicts chance explains" in text
    assert f"- {mult.FLAG} `{pairs[1].label_b()}` (standard), 3 players, random" in text


def test_a_placebo_row_is_judged_with_the_placebo_family_everywhere() -> None:
    """A placebo reading (``deal_order = blocks``: it cannot change play) whose one measurement reads "matters"
    alone is judged, in the summary and in its own section, with the placebo check's family, as the placebo
    check judges it, and is left out of the report-wide count (the placebo check is its family).  Planted: the
    marginal sample row, which reads "matters" alone, on the placebo pair measured at two player counts."""
    from comet.commands.diverge_page import placebo_family, placebo_lines, summary_table
    from comet.diverge.pairs import all_pairs
    from comet.diverge.records import Search
    from comet.diverge.report import PairReport, pair_section
    from comet.diverge.study import Measured

    rows = sample_rows()
    assert verdict(rows[1].paired).matters  # the planted row reads "matters" judged alone
    placebo = next(p for p in all_pairs(["standard"]) if p.field == "deal_order")
    others = [p for p in all_pairs(["standard"]) if p.field in ("comet_lead", "new_run")][:2]
    reports = [
        PairReport(
            placebo,
            Search(placebo, None, "", 0, 0, 0.0),
            [Measured(3, {"random": rows[1].paired}), Measured(4, {"random": rows[2].paired})],
        ),
        *(
            PairReport(o, Search(o, None, "", 0, 0, 0.0), [Measured(3, {"random": row.paired})])
            for o, row in zip(others, (rows[0], rows[2]), strict=True)
        ),
    ]
    assert placebo_family(reports) == 2
    lines = summary_table(reports)
    placebo_rows = [line for line in lines if f"`{placebo.label_b()}`" in line and line.startswith("| [RUL-")]
    assert len(placebo_rows) == 2
    assert all("no seat gains measurably" in line and "placebo: judged with" in line for line in placebo_rows)
    assert not any(line.endswith(f"{mult.FLAG} |") for line in placebo_rows)
    text = "\n".join(lines)
    assert "Of the 2 deal-level rows" in text  # only the non-placebo rows are counted
    section = "\n".join(pair_section(reports[0], None, 0, 0, placebo_family=placebo_family(reports)))
    assert "changes who gains" not in section and "judged with the placebo check's family of 2" in section
    assert "EFFECT FOUND" not in "\n".join(placebo_lines(reports))
    alone = "\n".join(pair_section(reports[0], None, 0, 0))
    # the marginal row moves chips in single deals (its swing) but no seat's mean: no one gains, family or not
    assert "**Answer (random, the headline player): changes deals but no seat gains measurably" in alone
