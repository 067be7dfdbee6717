"""Two players (Arnold, 2011; 000:84, 003:84): points instead of chips, first to 121.

The deal, the packs and the play are the standard game's with two players
(18 cards each, 12 in the dead hand).  The Comet earns nothing when played.
At the end of a deal the winner scores what the loser would have paid in the
standard game: the points left in the loser's hand, doubled if the loser still
holds the Comet, doubled (x4 for a 9) if the winner went out with it.
"""

from __future__ import annotations

from comet.engine import DEAL_TABLE, standard_settlement
from comet.games.opera.rules import OPERA
from comet.ruleset import EVERY_GAME_RULINGS, STANDARD_PLAY_RULINGS, Ruleset
from comet.state import Action, DealState, GameState, Payment
from comet.trace import rule
from comet.variant import Preset, Variant, register

TARGET = 121


@rule("R-2P-DEAL")
def two_player_deal_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    """18 cards each from a 48-card pack; the other 12 form the dead hand."""
    return DEAL_TABLE[2]


@rule("R-FOUR-OF-A-KIND")
def any_number_of_a_rank(rules: Ruleset) -> bool:
    """RUL-2P-SETS = any_number: two or more natural cards of the needed rank may go down together, not
    only all of them (the seeds' set)."""
    return rules.two_player_sets == "any_number"


@rule("R-2P-COMET-UNPAID")
def no_comet_bonus(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
    """Playing the Comet earns nothing."""
    return ()


def no_chips(state: DealState) -> tuple[Payment, ...]:
    """No chips change hands at the end of a deal: it is scored in points instead."""
    return ()


@rule("R-2P-POINTS", "R-2P-DOUBLING")
def two_player_points(state: DealState) -> tuple[int, ...]:
    """The winner scores the loser's hand, with the standard doubling; the loser scores 0; a drawn deal 0-0."""
    scores = [0] * state.players
    if state.winner < 0:
        return tuple(scores)
    for p in standard_settlement(state):
        scores[p.payee] += p.amount
    return tuple(scores)


@rule("R-2P-GAME")
def two_player_game_over(game: GameState) -> bool:
    """First to 121 wins (RUL-2P-END: at once, or only after both have dealt equally often)."""
    if max(game.balances) < TARGET:
        return False
    return game.rules.two_player_end == "first_to_target" or game.deal_index % game.players == 0


TWO_PLAYER = register(
    Variant(
        name="two_player",
        rulings=(
            *EVERY_GAME_RULINGS,
            *STANDARD_PLAY_RULINGS,
            "packs",
            "opera_caught",
            "two_player_end",
            "two_player_sets",
        ),
        presets=(
            Preset(
                "two_player",
                Ruleset(variant="two_player"),
                "Two players (Arnold, 2011): 18 cards each, points not chips, Comet unpaid, doubling, first to 121",
                ("000:84", "003:84"),
            ),
        ),
        player_counts=(2,),
        default_players=2,
        scoring="points",
        comet_value=0,
        comet_escalates=False,
        game_end="target",
        target=TARGET,
        max_deals=1000,
        game_over=two_player_game_over,
        deal_sizes=two_player_deal_sizes,
        partial_sets=any_number_of_a_rank,
        play_payments=no_comet_bonus,
        settlement=no_chips,
        options=(OPERA,),
        points_of_deal=two_player_points,
    )
)
