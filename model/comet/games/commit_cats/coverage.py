"""Which of the commit cats rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.cards import DIAMONDS, card
from comet.checks.coverage import (
    VariantClassifier,
    continues_in_suit,
    first_step,
    losers_hold,
    natural_king,
    register_classifier,
)
from comet.state import Action, DealState

_NINE_D = card(9, DIAMONDS)


def _commit_cats(before: DealState, action: Action, after: DealState) -> set[str]:
    """002:32-45: the reduced deck dealt out, the lowest card leads, runs in suit, a King scores 1,
    the Comet 2 and replaces the card needed; the winner scores the hands; the caught Comet."""
    hit = {"R-COMMIT-C-DECK", "R-COMMIT-C-DEAL"} if first_step(before) else set()
    for c in action.cards:
        if c in before.wild:
            hit.add("R-COMMIT-C-COMET")
        elif not before.run and not before.branch:
            hit.add("R-COMMIT-C-LEAD")
        elif continues_in_suit(before, c):
            hit.add("R-COMMIT-C-SUIT")
    if natural_king(before, action):
        hit.add("R-COMMIT-C-KING")
    if after.winner >= 0:
        hit.add("R-COMMIT-C-OUT")
        if losers_hold(after, lambda c: c in after.wild):
            hit.add("R-COMMIT-C-CAUGHT")
    return hit


CLASSIFIER = register_classifier(
    "commit_cats",
    VariantClassifier(
    frozenset(
        {
            "R-COMMIT-C-DECK",
            "R-COMMIT-C-DEAL",
            "R-COMMIT-C-LEAD",
            "R-COMMIT-C-SUIT",
            "R-COMMIT-C-KING",
            "R-COMMIT-C-COMET",
            "R-COMMIT-C-OUT",
            "R-COMMIT-C-CAUGHT",
        }
    ),
    _commit_cats,
    frozenset({"R-COMMIT-C-GAME"}),
),
)
