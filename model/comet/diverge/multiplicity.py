"""How many of the report's verdicts chance explains: the verdicts judged as one family across the report.

Each verdict of the report (``comet.diverge.effect.verdict``) holds at 95 % on its own: a reading without
effect reads "matters" at most one time in twenty.  Over the several hundred verdicts of a report a few such
false "matters" are expected, so the report says how many read "matters", how many chance alone would give
if no reading mattered, and which verdicts survive when all of them are judged together:

- family-wise: ``verdict(p, together=m)`` over the ``m`` verdicts that were tested (Bonferroni over every
  figure of every verdict, the family machinery the placebo check uses), so that the chance of even one
  false "matters" in the whole report is at most 5 %;
- false discovery rate: Benjamini-Hochberg at 5 % over the verdicts' p-values (``verdict_p``), so that at most
  one in twenty of the verdicts that survive is expected to be a false "matters" (valid for the positively
  dependent verdicts of a report whose pairs share their side A).

A verdict is *tested* when some deal changed (a reading under which no deal changes reads "no effect"
exactly, with no chance involved).  ``verdict_p`` is the verdict's own p-value: the smallest two-sided
normal p-value of the figures it looks at, times their number (Bonferroni, ``effect.family_size``), at most
1; so ``verdict(p, together=t).matters`` exactly when ``t * verdict_p(p) < 0.05`` (tests/test_diverge_multiplicity.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from comet.diverge.effect import family_size, verdict
from comet.diverge.measure import DEALT, OPTIONS, SAME, Paired

LEVEL = 0.05


def _two_sided(n: int, total: int, total2: int) -> float:
    """The two-sided normal p-value of the mean of ``n`` paired differences being zero (the interval of
    ``stats.mean_estimate`` excludes zero at level ``a`` exactly when this is below ``a``)."""
    if n <= 1:
        return 1.0
    mean = total / n
    var = max(0.0, (total2 - total * total / n) / (n - 1))
    se = math.sqrt(var / n)
    if se == 0.0:
        return 0.0 if mean != 0 else 1.0
    return 2 * (1 - NormalDist().cdf(abs(mean) / se))


def tested(p: Paired) -> bool:
    """Whether chance enters the verdict: measured, and some deal changed (else it reads "no effect")."""
    return p.deals > 0 and not (p.changed == 0 and p.classes[SAME] + p.classes[OPTIONS] == p.deals)


def verdict_p(p: Paired) -> float:
    """The verdict's p-value (see the module note); 1 for a verdict chance does not enter."""
    if not tested(p):
        return 1.0
    n = p.deals
    figures = [_two_sided(n, p.chips_d[i], p.chips_d2[i]) for i in range(p.players)]
    figures += [_two_sided(n, p.wins_d[i], p.wins_d2[i]) for i in range(p.players)]
    figures.append(_two_sided(n, p.length_d, p.length_d2))
    if not p.classes[DEALT]:
        figures.append(_two_sided(n, p.transfer, p.transfer2))
    return min(1.0, family_size(p) * min(figures))


def bh_survivors(pvalues: Sequence[float], level: float = LEVEL) -> frozenset[int]:
    """Benjamini-Hochberg (step-up) at false discovery rate ``level``: the indices of the p-values kept."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    kept = 0
    for rank, i in enumerate(order, start=1):
        if pvalues[i] <= rank * level / m:
            kept = rank
    return frozenset(order[:kept])


@dataclass(frozen=True, slots=True)
class Row:
    """One verdict of the report: its label and what was measured."""

    label: str
    paired: Paired
    unit: str


@dataclass(frozen=True, slots=True)
class Multiplicity:
    """The report-wide reading of ``rows``: which were tested, which read "matters" alone, which survive."""

    rows: int
    tested: int
    matters: frozenset[int]  # read "matters" judged alone (each at 95 %)
    family_wise: frozenset[int]  # still "matters" judged together (Bonferroni over the tested rows)
    fdr: frozenset[int]  # kept by Benjamini-Hochberg at 5 %

    @property
    def expected_by_chance(self) -> float:
        """How many "matters" chance alone would give at most, were no reading to matter: 5 % of the tested."""
        return LEVEL * self.tested


def multiplicity(rows: Sequence[Row]) -> Multiplicity:
    """Judge ``rows`` one at a time and as one family (see the module note)."""
    tested_rows = [i for i, r in enumerate(rows) if tested(r.paired)]
    m = len(tested_rows)
    matters = frozenset(i for i in tested_rows if verdict(rows[i].paired, rows[i].unit).matters)
    family = frozenset(i for i in matters if verdict(rows[i].paired, rows[i].unit, together=m).matters)
    kept = bh_survivors([verdict_p(rows[i].paired) for i in tested_rows])
    fdr = frozenset(tested_rows[j] for j in kept) & matters
    return Multiplicity(len(rows), m, matters, family, fdr)


FLAG = "†"


def _doubtful_text(n: int) -> str:
    if n == 0:
        return "Every measurable change survives."
    if n == 1:
        return f"The one that does not survive is marked {FLAG} in the summary and listed here; it may be a change of chance alone:"
    return (
        f"The {n:,} that do not survive are marked {FLAG} in the summary and listed here; each may be a change "
        "of chance alone:"
    )


def multiplicity_lines(rows: Sequence[Row], result: Multiplicity, where: str) -> list[str]:
    """The report's statement (``where`` names the rows: which table, which player)."""
    k = len(result.matters)
    lines = [
        "## How many verdicts chance explains",
        "",
        f"Of the {result.rows:,} {where}, {result.tested:,} are tested (some deal changed; the others read "
        f"'no effect' exactly) and {k:,} show a measurable change (a seat's result or win rate, the deal length "
        f"or the swing beyond its interval: 'changes who gains' or, by the swing or length alone, 'changes deals "
        f"but no seat gains measurably'), each judged alone at 95 %. If no reading changed anything, chance alone "
        f"would give at most about {result.expected_by_chance:.0f} of the {result.tested:,} "
        "(5 % each). Judged as one family across the report: "
        f"{len(result.family_wise):,} of the {k:,} still show one with every figure of every tested "
        "verdict held at 95 % at once (Bonferroni, `comet.diverge.effect.verdict(..., together=...)`), and "
        f"{len(result.fdr):,} survive Benjamini-Hochberg at a 5 % false discovery rate "
        "(`comet.diverge.multiplicity`). " + _doubtful_text(k - len(result.fdr)),
        "",
    ]
    lines += [f"- {FLAG} {rows[i].label}" for i in sorted(result.matters - result.fdr)]
    return [*lines, ""] if k > len(result.fdr) else lines
