"""Which of the two player rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.checks.coverage import (
    VariantClassifier,
    first_step,
    losers_hold,
    register_classifier,
    wild_played,
)
from comet.state import Action, DealState


def _two_player(before: DealState, action: Action, after: DealState) -> set[str]:
    """000:84: 18 each; the Comet played unpaid; points for the winner, doubled for the Comet."""
    hit = {"R-2P-DEAL"} if first_step(before) else set()
    if wild_played(before, action):
        hit.add("R-2P-COMET-UNPAID")
    if after.winner >= 0:
        hit.add("R-2P-POINTS")
        if losers_hold(after, lambda c: c in after.wild) or after.out_wild_as:
            hit.add("R-2P-DOUBLING")
    return hit


CLASSIFIER = register_classifier(
    "two_player",
    VariantClassifier(
    frozenset({"R-2P-DEAL", "R-2P-COMET-UNPAID", "R-2P-POINTS", "R-2P-DOUBLING"}),
    _two_player,
    frozenset({"R-2P-GAME"}),
),
)
