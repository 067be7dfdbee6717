"""Which of the opera rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.checks.coverage import (
    VariantClassifier,
    register_classifier,
)
from comet.state import Action, DealState
from comet.variant import variant_of


def _opera(before: DealState, action: Action, after: DealState) -> set[str]:
    """000:83: the first player went out in their very first turn (no pass yet): the doubling, or
    (opera_draw=dealer_could) the question whether the dealer could have gone out too."""
    if not after.terminal or variant_of(before.rules).play is not None:
        return set()  # Opera applies only to games played with the standard play (spec: Opera)
    first = (before.dealer + 1) % before.players
    if not (after.drawn or (after.winner == first and after.turn == 0)):
        return set()
    hit = {"R-OPERA-FIRST-TURN"}
    if after.drawn or before.rules.opera_draw == "dealer_could":
        hit.add("R-OPERA-DRAW")
    if not after.drawn:
        hit.add("R-OPERA-DOUBLE")
    return hit


CLASSIFIER = register_classifier(
    "opera",
    VariantClassifier(frozenset({"R-OPERA-FIRST-TURN", "R-OPERA-DOUBLE", "R-OPERA-DRAW"}), _opera),
    option=True,
)
