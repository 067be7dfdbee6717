"""Which of the old comet rules a transition exercised, judged from (before, action, after)
(``comet.checks.coverage``), registered by this folder."""

from __future__ import annotations

from comet.cards import rank_of
from comet.checks.coverage import (
    VariantClassifier,
    first_step,
    losers_hold,
    natural_king,
    register_classifier,
    wild_played,
)
from comet.state import Action, DealState


def _old_comet(before: DealState, action: Action, after: DealState) -> set[str]:
    """000:85: one deck, the Ace low, chips for a King, the last card before all pass and the
    manille; the settlement with Ace 1 and the caught manille."""
    hit = {"R-OLD-DECK", "R-OLD-DEAL", "R-OLD-PLAYERS"} if first_step(before) else set()
    if any(rank_of(c) == 1 for c in action.cards) or action.as_rank == 1:
        hit.add("R-OLD-ACE-LOW")
    if natural_king(before, action):
        hit.add("R-OLD-KING")
    if wild_played(before, action):
        hit.add("R-OLD-MANILLE-PLAY")
    if action.is_pass and before.run and after.to_move == before.last_player:
        hit.add("R-OLD-LAST-CARD")
    if after.winner >= 0:
        hit.update({"R-OLD-SETTLE", "R-OLD-POINTS"})
        if losers_hold(after, lambda c: c in after.wild):
            hit.add("R-OLD-MANILLE-CAUGHT")
    return hit


CLASSIFIER = register_classifier(
    "old_comet",
    VariantClassifier(
    frozenset(
        {
            "R-OLD-DECK",
            "R-OLD-DEAL",
            "R-OLD-PLAYERS",
            "R-OLD-ACE-LOW",
            "R-OLD-KING",
            "R-OLD-MANILLE-PLAY",
            "R-OLD-LAST-CARD",
            "R-OLD-POINTS",
            "R-OLD-SETTLE",
            "R-OLD-MANILLE-CAUGHT",
        }
    ),
    _old_comet,
),
)
