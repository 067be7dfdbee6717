"""The encodings stay in linear integer arithmetic: a rule's multiplier (R-SETTLE-CAUGHT's x2,
R-SETTLE-COMET-LAST's x4, R-OPERA-DOUBLE's x2, R-RED9-DOUBLE's doublings) is pushed into its branches by
``terms.scaled``, never left as a product of two symbolic terms, where Z3 can search without end (the
Opera's settlement zero-sum timed out at 120 s before it was linear).
"""

from __future__ import annotations

import pytest
import z3
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.proofs import plan
from comet_proofs.registry import ENCODINGS, encodings
from comet_proofs.symbolic import Readings, SymState
from comet_proofs.terms import nonlinear_products, scaled


@pytest.mark.parametrize("preset", sorted(encodings()))
def test_every_obligation_is_linear(preset: str) -> None:
    """R-SETTLE-POINTS, R-SETTLE-CAUGHT: no obligation of any preset multiplies two symbolic terms."""
    smallest = encodings()[preset]().player_counts[0]
    for ob in plan(preset, [smallest]):
        formulas, _ = ob.build()
        assert nonlinear_products([*formulas, *ob.cases]) == [], ob.name


class PointsTimesComet(StandardEncoding):
    """A non-linear settlement: a loser pays its points times the Comet's value (a symbolic term)."""

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, self.hand_points(s, seat) * s.comet_value)


def test_a_non_linear_settlement_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-POINTS: the check sees a planted product of two symbolic terms, and names it."""
    monkeypatch.setitem(ENCODINGS, "standard", PointsTimesComet)
    (ob,) = [o for o in plan("standard", [3]) if o.name.startswith("settlement zero-sum")]
    formulas, _ = ob.build()
    found = nonlinear_products(formulas)
    assert found and any("comet_value" in f for f in found), found


@pytest.mark.parametrize(
    "factor",
    [
        z3.IntVal(3),
        z3.If(z3.Bool("c"), 2, 4),
        2 * z3.If(z3.Bool("c"), z3.If(z3.Bool("d"), 4, 2), 1),
        z3.If(z3.Bool("c"), 8, 2) - z3.If(z3.Bool("d"), 2, 1),
        z3.If(z3.Bool("c"), 2, 1) * z3.If(z3.Bool("d"), 4, 1) + 1,
        -z3.If(z3.Bool("c"), -1, 1),
    ],
)
def test_scaled_is_the_product(factor: z3.ArithRef) -> None:
    """R-SETTLE-COMET-LAST, R-OPERA-DOUBLE: ``scaled(x, f)`` equals ``x * f`` for every x and every branch
    of f (Z3 finds no x, c, d where they differ), and is linear."""
    x = z3.Int("x")
    product = scaled(x, factor)
    assert nonlinear_products([product]) == []
    solver = z3.Solver()
    solver.add(product != x * factor)
    assert solver.check() == z3.unsat


def test_scaled_refuses_a_symbolic_factor() -> None:
    """A factor with a free variable cannot be made linear: a ValueError, not a silent product."""
    with pytest.raises(ValueError, match="not a constant factor"):
        scaled(z3.Int("x"), z3.If(z3.Bool("c"), z3.Int("y"), 2))
