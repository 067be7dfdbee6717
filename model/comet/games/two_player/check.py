"""The two player game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from comet.checks.game import (
    points_game_economy,
    target_end,
)
from comet.checks.recompute import (
    Expected,
    no_chips_step,
)
from comet.checks.registry import GameCheck, register_check
from comet.games.standard.check import standard_settlement
from comet.state import Action, DealState, GameState


def two_player_recomputed(state: DealState) -> Expected:
    """Two players (000:84): no chips at all; the winner scores what the loser would have paid
    in the standard game ("score the points"), doubled when the loser holds the Comet ("all scores
    for that deal are doubled"), doubled or quadrupled when the winner went out on it ("quadrupled
    if it stood for a 9"); the loser scores nothing.  Opera may double it (RUL-OPERA)."""
    points = [0] * state.players
    for (_payer, payee), amount in standard_settlement(state).items():
        points[payee] += amount
    return Expected({}, tuple(points))


def two_player_step(before: DealState, action: Action, after: DealState) -> list[str]:
    return no_chips_step(before, action, after) + two_player_set(before, action)


def two_player_set(before: DealState, action: Action) -> list[str]:
    """Several natural cards at once (000:47 "if you hold all four cards of the next rank, you may play them
    all at once. The same goes for all three natural 9s"): one rank, and every natural card of it in the
    deal; under RUL-2P-SETS = any_number two or more of one rank (other published two-player rules)."""
    naturals = [c for c in action.cards if c not in before.wild]
    if len(action.cards) < 2 or len(naturals) < len(action.cards):
        return []  # one card, or the Comet with the three natural 9s (RUL-COMET-QUARTET, checked elsewhere)
    ranks = {c // 4 for c in naturals}
    if len(ranks) > 1:
        return [f"{action} puts down cards of several ranks together"]
    if before.rules.two_player_sets == "any_number":
        return []
    rank = ranks.pop()
    everywhere = [*before.played, *before.dead, *(c for h in before.hands for c in h)]
    in_deal = sum(1 for c in everywhere if c // 4 == rank and c not in before.wild)
    if len(naturals) != in_deal:
        return [f"{action} puts down {len(naturals)} of the {in_deal} natural cards of its rank: only all go together"]
    return []


def two_player_game_end(first: GameState, game: GameState) -> list[str]:
    """000:84 "the first to 121 wins" (RUL-2P-END: at once, or at the first even number of deals)."""
    at_once = game.rules.two_player_end == "first_to_target"
    return target_end(first, game, lambda t, k: max(t) >= 121 and (at_once or k % 2 == 0))


CHECK = register_check(
    "two_player",
    GameCheck(settlement=two_player_recomputed, step=two_player_step, economy=points_game_economy, end=two_player_game_end),
)
