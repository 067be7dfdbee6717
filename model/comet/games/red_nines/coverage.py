"""Which of the red nines rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.cards import rank_of
from comet.checks.coverage import (
    VariantClassifier,
    first_step,
    losers_hold,
    register_classifier,
    wild_played,
)
from comet.state import Action, DealState


def _red_nines(before: DealState, action: Action, after: DealState) -> set[str]:
    """002:46-85: a suit more per player, the whole deck dealt, several of a rank on the first play,
    runs of any suit, the red nines wild, penalty points doubled for red nines."""
    hit = {"R-RED9-DECK", "R-RED9-DEAL"} if first_step(before) else set()
    if not before.played and len(action.cards) >= 2:
        hit.add("R-RED9-FIRST-PLAY")
    if wild_played(before, action):
        hit.add("R-RED9-WILD")
    elif before.need and action.cards and rank_of(action.cards[0]) == before.need:
        hit.add("R-RED9-RUN")
    if after.winner >= 0:
        hit.add("R-RED9-SCORE")
        if losers_hold(after, lambda c: c in after.wild) or (after.played and after.played[-1] in after.wild):
            hit.add("R-RED9-DOUBLE")
    return hit


CLASSIFIER = register_classifier(
    "red_nines",
    VariantClassifier(
    frozenset(
        {
            "R-RED9-DECK",
            "R-RED9-DEAL",
            "R-RED9-FIRST-PLAY",
            "R-RED9-RUN",
            "R-RED9-WILD",
            "R-RED9-SCORE",
            "R-RED9-DOUBLE",
        }
    ),
    _red_nines,
    frozenset({"R-RED9-GAME"}),
),
)
