"""Statistics a reader can trust, from integer sums (so they merge exactly across chunks and cores).

- ``mean_estimate(n, total, total2)``: the mean of ``n`` paired differences given their sum and sum of
  squares, with a two-sided interval from the normal approximation (``z`` 1.96 for 95 %) on the sample
  standard deviation (``n - 1`` in the denominator).  With the same seeds under both readings the
  differences are paired, so their spread (not the spread of either side) sets the width.
- ``wilson(k, n)``: the Wilson score interval of a proportion ``k / n``.
- ``zero_bound(n)``: for ``0 of n``, the exact (Clopper-Pearson) upper limit ``1 - 0.025 ** (1 / n)``
  of the two-sided 95 % interval, written "0 of N (at most x %)".
- ``bonferroni_z(m)``: the ``z`` that keeps the chance of *any* of ``m`` intervals missing at 5 %
  (used by a verdict that looks at several figures at once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

Z95 = 1.959963984540054  # NormalDist().inv_cdf(0.975)


def bonferroni_z(m: int, level: float = 0.95) -> float:
    """The two-sided ``z`` for ``m`` simultaneous intervals at family-wise ``level``."""
    if m < 1:
        raise ValueError("at least one interval")
    return float(NormalDist().inv_cdf(1 - (1 - level) / (2 * m)))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean (or proportion) ``value`` over ``n`` with its interval ``low``..``high``."""

    value: float
    low: float
    high: float
    n: int

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    @property
    def bound(self) -> float:
        """The largest size the interval allows either way: ``max(|low|, |high|)``."""
        return max(abs(self.low), abs(self.high))

    def text(self, digits: int = 2, scale: float = 1.0, unit: str = "", signed: bool = True) -> str:
        """``+0.12 (-0.03 to +0.27)``; an interval of width zero (every paired difference the same, so no
        spread to give a width) says so: ``+0.00 (every pair equal)``, ``+1.00 (the same in every pair)``.  An
        interval too narrow for ``digits`` gets more of them (up to 4), so it never reads ``+0.00 (-0.00 to
        +0.00)``."""
        width = abs(self.high - self.low) * scale
        while digits < 4 and width > 0 and round(width, digits) == 0:
            digits += 1
        fmt = f"{{:{'+' if signed else ''}.{digits}f}}"
        v, lo, hi = (fmt.format(x * scale) for x in (self.value, self.low, self.high))
        if self.n == 0:
            return "no data"
        if self.low == self.high:
            return f"{v}{unit} ({'every pair equal' if self.value == 0 else 'the same in every pair'})"
        return f"{v}{unit} ({lo} to {hi})"


def mean_estimate(n: int, total: int | float, total2: int | float, z: float = Z95) -> Estimate:
    """Mean of ``n`` values with sum ``total`` and sum of squares ``total2``, and its ``z`` interval."""
    if n <= 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = total / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = max(0.0, (total2 - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def wilson(k: int, n: int, z: float = Z95) -> Estimate:
    """The proportion ``k / n`` with its Wilson score interval."""
    if n <= 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    if not 0 <= k <= n:
        raise ValueError(f"{k} of {n} is not a proportion")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def zero_bound(n: int) -> float:
    """The exact upper limit of the two-sided 95 % interval of a proportion seen 0 times in ``n``."""
    if n <= 0:
        return 1.0
    return float(1 - 0.025 ** (1 / n))


def share_text(k: int, n: int, noun: str = "") -> str:
    """``12 of 1,000 (1.20 %, 0.69 to 2.09 %)``, or ``0 of 1,000 (at most 0.37 %)``; ``noun`` goes after N."""
    if n <= 0:
        return "no data"
    of = f"{n:,}{' ' + noun if noun else ''}"
    if k == 0:
        return f"0 of {of} (at most {percent(zero_bound(n))})"
    e = wilson(k, n)
    return f"{k:,} of {of} ({percent(e.value)}, {percent(e.low, False)} to {percent(e.high)})"


def percent(x: float, unit: bool = True) -> str:
    """A share as a percentage with enough digits for small values (``0.37 %``, ``12.3 %``)."""
    v = 100 * x
    digits = 1 if v >= 10 or v == 0 else 2 if v >= 0.1 else 3
    return f"{v:.{digits}f}{' %' if unit else ''}"
