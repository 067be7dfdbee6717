"""Two players (R-2P-DEAL, R-2P-COMET-UNPAID, R-2P-POINTS, R-2P-DOUBLING) over the standard encoding.

Play is the standard game's for two seats; hands are always 18 and 12 dead; the Comet earns nothing,
no chips move at all, and a finished deal scores the winner what the loser would have paid.
"""

from __future__ import annotations

import z3
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import counts_abstract
from comet_proofs.encoding import OwnChipRules
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.symbolic import PLAY_RULINGS, AbstractState, Readings, SymAction, SymState
from comet_proofs.terms import scaled


class TwoPlayerEncoding(OwnChipRules, StandardEncoding):
    """Preset ``two_player``: points, not chips."""

    name = "two_player"
    player_counts = (2,)
    # RUL-COMET-BONUS-LAST has nothing to multiply (no bonus); RUL-DEAL-SIZES does not apply (R-2P-DEAL).
    # RUL-2P-SETS = any_number: two or three of a rank at once (kinds GROUP_BASE + 2, + 3; all of it is QUARTET).
    rulings = (*(r for r in PLAY_RULINGS if r[0] != "comet_bonus_last"), ("two_player_sets", "any_number"))
    set_ruling = "two_player_sets"  # RUL-2P-SETS = any_number
    set_sizes = (2, 3)
    # RUL-2P-END decides only when the game ends; the Opera's readings do nothing while it is off.
    unquantified = (
        "deal_order",
        "packs",
        "first_dealer_tie",
        "two_player_end",
        "opera_draw",
        "opera_stack",
        "opera_caught",
    )
    scoring = "points"

    def abstract(self, state: DealState) -> AbstractState:
        if state.rules.variant != "two_player" or state.rules.opera:
            raise ValueError("the two-player encoding covers variant two_player without Opera")
        if state.drawn:
            raise ValueError("a drawn deal does not occur without Opera")
        return self.with_reading_fields(counts_abstract(state, self.ranks), state.rules)

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-2P-DEAL (000:84 "18 cards each", 002:13): 18 each, the other 12 dead."""
        return 18, 12

    def stated_game_end(
        self, rules: Ruleset, players: int, totals: tuple[int, ...], played: int, agreed: int
    ) -> bool:
        """R-2P-GAME (000:84 "the first to 121 wins"); RUL-2P-END: at once, or once both dealt equally."""
        reached = max(totals) >= 121
        return (reached and (rules.two_player_end == "first_to_target" or played % 2 == 0)) or played >= agreed

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """R-2P-COMET-UNPAID: playing the Comet earns nothing."""
        return z3.IntVal(0)

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """No chips at the end of a deal either."""
        return z3.IntVal(0)

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """R-2P-POINTS, R-2P-DOUBLING: the winner scores what the loser would pay in the standard game."""
        owed = z3.Sum(*[StandardEncoding.settlement_amount(self, s, p, rd) for p in range(s.players)])
        return tuple(z3.If(s.winner == p, owed, 0) for p in range(s.players))

    def caught_spec(self, s: SymState, rd: Readings) -> z3.BoolRef | None:
        """R-2P-DOUBLING: the winner scores the loser's points times the going-out multiplier, twice that
        exactly when the loser holds the Comet."""
        mult = self.out_multiplier(s, rd)
        points = self.deal_points(s, rd)
        return z3.And(
            [
                z3.Implies(
                    s.winner == p,
                    points[p]
                    == z3.Sum(
                        *[
                            scaled(self.hand_points(s, q), z3.If(s.comet == q, 2, 1) * mult)
                            for q in range(s.players)
                            if q != p
                        ]
                    ),
                )
                for p in range(s.players)
            ]
        )

    def settlement_problems(self, state: DealState) -> list[str]:
        from comet.engine import settlement

        paid = settlement(state) + state.payments
        return [f"chips changed hands in a points game: {paid}"] if paid else []


ENCODING = TwoPlayerEncoding
