"""Which of the commit hoyle rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.cards import DIAMONDS, KING, card, rank_of
from comet.checks.coverage import (
    VariantClassifier,
    continues_in_suit,
    first_step,
    losers_hold,
    register_classifier,
)
from comet.state import Action, DealState

_NINE_D = card(9, DIAMONDS)
_SEVEN_D = card(7, DIAMONDS)


def _commit_hoyle(before: DealState, action: Action, after: DealState) -> set[str]:
    """000:86: runs in suit, Kings and the 7♦ stop, the 9♦ instead of "without", chips for Kings
    and the 9♦, the pool, the caught 9♦ and Kings left in hand."""
    hit = {"R-COMMIT-H-DECK", "R-COMMIT-H-DEAL"} if first_step(before) else set()
    for c in action.cards:
        if c == _NINE_D:
            hit.add("R-COMMIT-H-NINE-PAID")
            if before.run:
                hit.add("R-COMMIT-H-NINE")
            continue
        if continues_in_suit(before, c):
            hit.add("R-COMMIT-H-SUIT")
            if c == before.branch:
                hit.add("R-COMMIT-H-NINE")
        successor_dead = card(rank_of(c) + 1, c & 3) in before.dead
        if rank_of(c) == KING or c == _SEVEN_D or (before.rules.commit_rest == "stop_cards" and successor_dead):
            hit.add("R-COMMIT-H-STOPS")
        if rank_of(c) == KING:
            hit.add("R-COMMIT-H-KING-PAID")
    if after.winner >= 0:
        hit.add("R-COMMIT-H-POOL")
        if losers_hold(after, lambda c: c == _NINE_D):
            hit.add("R-COMMIT-H-CAUGHT")
        if losers_hold(after, lambda c: rank_of(c) == KING):
            hit.add("R-COMMIT-H-KINGS-HELD")
    return hit


CLASSIFIER = register_classifier(
    "commit_hoyle",
    VariantClassifier(
    frozenset(
        {
            "R-COMMIT-H-DECK",
            "R-COMMIT-H-DEAL",
            "R-COMMIT-H-SUIT",
            "R-COMMIT-H-NINE",
            "R-COMMIT-H-STOPS",
            "R-COMMIT-H-KING-PAID",
            "R-COMMIT-H-NINE-PAID",
            "R-COMMIT-H-POOL",
            "R-COMMIT-H-CAUGHT",
            "R-COMMIT-H-KINGS-HELD",
        }
    ),
    _commit_hoyle,
),
)
