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
from comet.game import GameState
from comet.games.standard.check import standard_settlement
from comet.state import Action, DealState


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
    return no_chips_step(before, action, after)


def two_player_game_end(first: GameState, game: GameState) -> list[str]:
    """000:84 "the first to 121 wins" (RUL-2P-END: at once, or at the first even number of deals)."""
    at_once = game.rules.two_player_end == "first_to_target"
    return target_end(first, game, lambda t, k: max(t) >= 121 and (at_once or k % 2 == 0))


CHECK = register_check(
    "two_player",
    GameCheck(settlement=two_player_recomputed, step=two_player_step, economy=points_game_economy, end=two_player_game_end),
)
