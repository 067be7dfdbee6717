"""What the bounds are about: the quantities a deal is measured by, their values in one finished deal of the
model, and ``Bound``, one quantity's proved bound beside the most a real deal reaches (spec/proofs.md,
"Bounds")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3
from comet import engine
from comet.state import DealState
from comet.variant import variant_of

from comet_proofs.symbolic import SymState

Quantity = Callable[[SymState], z3.ArithRef]
LOSS = "chips one seat pays at settlement"
DEAL_LOSS = "chips one seat loses in a deal"
DEAL_GAIN = "chips one seat wins in a deal"
GAIN = "chips one seat collects at settlement"
POINTS = "points one seat scores in a deal"
ACTIONS = "actions in a deal"
# The file name of a quantity's shipped extremal deal: witnesses/extremes/<preset>/<slug>-<n>p.itf.json
SLUGS = {
    ACTIONS: "longest",
    LOSS: "most-paid",
    GAIN: "most-collected",
    DEAL_LOSS: "most-lost",
    DEAL_GAIN: "most-won",
    POINTS: "most-points",
}


@dataclass(frozen=True, slots=True)
class Bound:
    """One quantity for one preset and player count, and two facts kept apart: the proved upper bound
    (``upper``; None: not bounded by the encoding) and the most a concrete deal is known to reach
    (``witness``: a shipped witness deal, ``witness_file``, replayed by the model now; None: no deal is
    shipped for it).  ``sampled`` is the best of the seeded random deals (seed ``seed``, ``actions`` long):
    a check that no real deal beats the bound, never shown as the extreme.  ``per_value``: where the
    quantity grows with the Comet's value v, (a, b) such that it is at most a + b*v for every v >= 0
    (``in_comet_value``)."""

    preset: str
    players: int
    quantity: str
    upper: int | None
    sampled: int
    seed: int
    actions: int
    per_value: tuple[int, int] | None = None
    witness: int | None = None
    witness_file: str = ""
    # one line per stored certificate of this preset and player count's optima that was stale or missing
    # (those optima were searched afresh: ``maxima``)
    certificate_notes: tuple[str, ...] = ()

    @property
    def best(self) -> int:
        """The most a known deal (a witness or a sampled one) reaches."""
        return max(self.sampled, self.witness if self.witness is not None else self.sampled)

    @property
    def ok(self) -> bool:
        """No real deal beats the proved bound (if one does, the model or the encoding is wrong)."""
        return self.upper is None or self.best <= self.upper

    @property
    def exact(self) -> bool:
        """Proved and reached by a witness deal: the value is the maximum."""
        return self.upper is not None and self.witness == self.upper

    @property
    def gap(self) -> int | None:
        """Proved bound minus the most a witness deal reaches (None: no bound or no witness)."""
        return None if self.upper is None or self.witness is None else self.upper - self.witness


def quantities(final: DealState, actions: int) -> dict[str, int]:
    """Every bounded quantity of one finished deal of the model (the most over its seats)."""
    out = {ACTIONS: actions}
    if variant_of(final.rules).scoring == "chips":
        returns = engine.returns(final)
        settled = [r - c for r, c in zip(returns, final.chips(), strict=True)]
        out |= {LOSS: -min(settled), GAIN: max(settled), DEAL_LOSS: -min(returns), DEAL_GAIN: max(returns)}
    else:
        out[POINTS] = max(engine.deal_points(final))
    return out
