"""The impact statistics (issue 17) against independent computations on small hand-checkable samples,
and a planted bug (sides A and B swapped in one figure) that the check must catch."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

import numpy as np
from comet.diverge.effect import effect, verdict
from comet.diverge.measure import CLASSES, PLAY, SAME, DealArrays, Paired, reduce_deals
from comet.diverge.stats import bonferroni_z, mean_estimate, share_text, wilson, zero_bound

Z = statistics.NormalDist().inv_cdf(0.975)


def test_paired_mean_interval_by_hand() -> None:
    d = [1, -2, 3, 0, 4]  # mean 1.2, sample variance 22.8 / 4 = 5.7
    e = mean_estimate(len(d), sum(d), sum(x * x for x in d))
    assert math.isclose(e.value, 1.2)
    half = Z * math.sqrt(5.7 / 5)  # 2.0927...
    assert math.isclose(e.low, 1.2 - half) and math.isclose(e.high, 1.2 + half)
    assert math.isclose(half, Z * statistics.stdev(d) / math.sqrt(len(d)))
    assert not e.excludes_zero
    assert mean_estimate(4, 8, 16).low == 2.0  # four equal differences: no spread, the interval is a point


def _wilson_by_search(k: int, n: int) -> tuple[float, float]:
    """The score interval by its definition: the p with |k/n - p| = z * sqrt(p (1 - p) / n), found by bisection."""

    def gap(p: float) -> float:
        return abs(k / n - p) - Z * math.sqrt(p * (1 - p) / n)

    def root(lo: float, hi: float) -> float:
        for _ in range(200):
            mid = (lo + hi) / 2
            if (gap(lo) > 0) == (gap(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    return root(0.0, k / n), root(k / n, 1.0)


def test_wilson_by_hand_and_by_definition() -> None:
    e = wilson(3, 10)
    assert round(e.low, 4) == 0.1078 and round(e.high, 4) == 0.6032  # the textbook values for 3 of 10
    for k, n in ((3, 10), (1, 7), (45, 100), (999, 1000)):
        lo, hi = _wilson_by_search(k, n)
        got = wilson(k, n)
        assert math.isclose(got.low, lo, abs_tol=1e-9) and math.isclose(got.high, hi, abs_tol=1e-9)


def test_zero_written_with_its_bound() -> None:
    assert math.isclose(zero_bound(100), 0.0362, abs_tol=5e-5)  # (1 - p) ** 100 = 0.025
    assert math.isclose((1 - zero_bound(37)) ** 37, 0.025)
    assert share_text(0, 100) == "0 of 100 (at most 3.62 %)"
    assert share_text(12, 1000).startswith("12 of 1,000 (1.20 %, ")


def test_bonferroni_z() -> None:
    assert math.isclose(bonferroni_z(1), Z)
    assert math.isclose(bonferroni_z(10), statistics.NormalDist().inv_cdf(1 - 0.0025))


# --------------------------------------------------------------------- the paired sums

# three hand-made paired deals, 3 players (positions: 1st, 2nd, dealer)
DEALS_A = [(0, (4, -2, -2), 10), (1, (-1, 2, -1), 12), (-1, (0, 0, 0), 30)]
DEALS_B = [(0, (4, -2, -2), 10), (2, (-3, -3, 6), 15), (1, (-1, 2, -1), 20)]
CLASS = [SAME, PLAY, PLAY]


def _arrays(deals: list[tuple[int, tuple[int, int, int], int]]) -> DealArrays:
    return DealArrays(
        np.array([w for w, _, _ in deals], dtype=np.int64),
        np.array([c for _, c, _ in deals], dtype=np.int64),
        np.array([n for _, _, n in deals], dtype=np.int64),
        np.array([w < 0 for w, _, _ in deals], dtype=np.int64),
        np.zeros(len(deals), dtype=np.int64),
    )


def independent_figures() -> dict[str, tuple[float, ...]]:
    """The figures deal by deal with the statistics module (no sums, no NumPy)."""
    out: dict[str, tuple[float, ...]] = {}
    for i in range(3):
        d = [b[1][i] - a[1][i] for a, b in zip(DEALS_A, DEALS_B, strict=True)]
        out[f"chips{i}"] = (statistics.mean(d), Z * statistics.stdev(d) / math.sqrt(3))
        w = [(b[0] == i) - (a[0] == i) for a, b in zip(DEALS_A, DEALS_B, strict=True)]
        out[f"wins{i}"] = (statistics.mean(w), Z * statistics.stdev(w) / math.sqrt(3))
    t = [sum(abs(x - y) for x, y in zip(a[1], b[1], strict=True)) // 2 for a, b in zip(DEALS_A, DEALS_B, strict=True)]
    out["transfer"] = (statistics.mean(t), Z * statistics.stdev(t) / math.sqrt(3))
    dl = [b[2] - a[2] for a, b in zip(DEALS_A, DEALS_B, strict=True)]
    out["length"] = (statistics.mean(dl), Z * statistics.stdev(dl) / math.sqrt(3))
    return out


def mismatches(reduce: Callable[[DealArrays, DealArrays, np.ndarray], Paired]) -> list[str]:
    """The figures where the sums disagree with the independent computation."""
    p = reduce(_arrays(DEALS_A), _arrays(DEALS_B), np.array(CLASS, dtype=np.int64))
    e = effect(p)
    got = {f"chips{i}": e.chips_change[i] for i in range(3)}
    got |= {f"wins{i}": e.win_change[i] for i in range(3)}
    got |= {"transfer": e.transfer, "length": e.length_change}
    want = independent_figures()
    bad = [
        k
        for k, (mean, half) in want.items()
        if not (math.isclose(got[k].value, mean, abs_tol=1e-12) and math.isclose(got[k].half, half, abs_tol=1e-12))
    ]
    if p.classes != (1, 0, 0, 2, 0) or p.winner_changed != 2 or p.changed != 2 or p.transfer_max != 7:
        bad.append("counts")
    if p.wins_a != (1, 1, 0) or p.chips_a != (3, 0, -3) or p.length_a != 52 or p.drawn_a != 1 or p.drawn_b != 0:
        bad.append("side A")
    return bad


def test_paired_sums_agree_with_the_deal_by_deal_computation() -> None:
    assert len(CLASSES) == 5
    assert mismatches(reduce_deals) == []
    # by hand: the 2nd seat's chips change by (0 - 5 + 2) / 3 = -1 per deal; 7 + 2 chips moved, 3 per deal
    e = effect(reduce_deals(_arrays(DEALS_A), _arrays(DEALS_B), np.array(CLASS, dtype=np.int64)))
    assert math.isclose(e.chips_change[1].value, -1.0) and math.isclose(e.transfer.value, 3.0)


def test_a_swap_of_sides_in_one_figure_is_caught() -> None:
    """The planted bug: the win figures computed B against A (the others right) must fail the check."""

    def swapped_wins(a: DealArrays, b: DealArrays, classes: np.ndarray) -> Paired:
        right = reduce_deals(a, b, classes)
        wrong = reduce_deals(b, a, classes)
        return Paired(**{**{f: getattr(right, f) for f in Paired.__slots__}, "wins_d": wrong.wins_d})

    assert "wins0" in mismatches(swapped_wins) or "wins2" in mismatches(swapped_wins)


def test_merging_chunks_equals_one_pass() -> None:
    rng = random.Random(5)
    n = 300
    deals = [
        (
            (rng.randrange(-1, 4), tuple(rng.randrange(-9, 10) for _ in range(4)), rng.randrange(5, 60)),
            (rng.randrange(-1, 4), tuple(rng.randrange(-9, 10) for _ in range(4)), rng.randrange(5, 60)),
        )
        for _ in range(n)
    ]

    def arr(rows: list[tuple[int, tuple[int, ...], int]]) -> DealArrays:
        return DealArrays(
            np.array([r[0] for r in rows], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.int64).reshape(len(rows), 4),
            np.array([r[2] for r in rows], dtype=np.int64),
            np.zeros(len(rows), dtype=np.int64),
            np.zeros(len(rows), dtype=np.int64),
        )

    cls = np.array([rng.randrange(5) for _ in range(n)], dtype=np.int64)
    whole = reduce_deals(arr([a for a, _ in deals]), arr([b for _, b in deals]), cls)
    parts = Paired()
    for lo in range(0, n, 70):
        chunk = deals[lo : lo + 70]
        parts = parts.merge(reduce_deals(arr([a for a, _ in chunk]), arr([b for _, b in chunk]), cls[lo : lo + 70]))
    assert parts == whole


def test_verdicts() -> None:
    a = _arrays(DEALS_A)
    same = reduce_deals(a, a, np.zeros(3, dtype=np.int64))
    v = verdict(same)
    assert not v.matters and v.text.startswith("no effect: 0 of 3 deals change (at most 70.8")
    # 400 deals where the dealer always gains 3 chips from the first player under B: it matters, to the dealer
    base = DealArrays(
        np.zeros(400, dtype=np.int64),
        np.tile(np.array([[2, -1, -1]], dtype=np.int64), (400, 1)),
        np.full(400, 20, dtype=np.int64),
        np.zeros(400, dtype=np.int64),
        np.zeros(400, dtype=np.int64),
    )
    moved = DealArrays(base.winner, base.chips + np.array([[-3, 0, 3]]), base.length, base.drawn, base.stuck)
    v = verdict(reduce_deals(base, moved, np.full(400, 1, dtype=np.int64)))
    assert v.matters and "dealer +3.000" in v.text and "1st -3.000" in v.text
    # every pair moves exactly 3 chips, so the intervals have no width: the text says so, and the share of
    # deals that change carries its Wilson interval (issue 17: every figure with its interval)
    assert "3.000 (the same in every pair) chips per deal end up with another seat" in v.text
    assert "(400 of 400 deals (100.0 %, 99.0 to 100.0 %) change)" in v.text
    assert mean_estimate(5, 0, 0).text() == "+0.00 (every pair equal)"
    # every figure the verdict names carries its simultaneous interval: a random +-1 around the dealer's gain
    noise = np.tile(np.array([[1, 0, -1], [-1, 0, 1]], dtype=np.int64), (200, 1))
    noisy = DealArrays(base.winner, moved.chips + noise, base.length, base.drawn, base.stuck)
    v = verdict(reduce_deals(base, noisy, np.full(400, 1, dtype=np.int64)))
    assert v.matters and "dealer +3.000 (+2." in v.text and " to +3." in v.text and "1st -3.000 (-3." in v.text
    assert "in brackets: simultaneous 95 % intervals" in v.text


def test_a_narrow_interval_gets_the_digits_to_show_it() -> None:
    """One game of 1,000 one deal longer: not ``+0.00 (-0.00 to +0.00)`` (RUL-COMMIT-C-TARGET once read so)."""
    e = mean_estimate(1000, 1, 1)
    text = e.text(2)
    assert "-0.00 " not in text and text.startswith("+0.001 ("), text
    assert mean_estimate(1000, 500, 700).text(2).startswith("+0.50 (")  # wide enough: two digits stay
