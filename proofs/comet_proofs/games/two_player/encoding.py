"""Two players (R-2P-DEAL, R-2P-COMET-UNPAID, R-2P-POINTS, R-2P-DOUBLING) over the standard encoding.

Play is the standard game's for two seats; hands are always 18 and 12 dead; the Comet earns nothing,
no chips move at all, and a finished deal scores the winner what the loser would have paid.  The Opera is a
quantified ruling (``opera``, with RUL-OPERA-DRAW, RUL-OPERA-STACK and RUL-OPERA-CAUGHT): ``OperaOption``
adds its fields and its draw and doubling, guarded by the reading.
"""

from __future__ import annotations

import z3
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.encoding import OwnChipRules
from comet_proofs.games.opera.option import OPERA_RULINGS, OperaOption
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.symbolic import PLAY_RULINGS, Readings, SymAction, SymState
from comet_proofs.terms import scaled


class TwoPlayerEncoding(OperaOption, OwnChipRules, StandardEncoding):
    """Preset ``two_player``: points, not chips; the Opera quantified."""

    name = "two_player"
    player_counts = (2,)
    # RUL-COMET-BONUS-LAST has nothing to multiply (no bonus); RUL-DEAL-SIZES does not apply (R-2P-DEAL).
    # RUL-2P-SETS = any_number: two or three of a rank at once (kinds GROUP_BASE + 2, + 3; all of it is QUARTET).
    rulings = (
        *(r for r in PLAY_RULINGS if r[0] != "comet_bonus_last"),
        ("two_player_sets", "any_number"),
        *OPERA_RULINGS,
        ("opera_caught", "highest"),
    )
    set_ruling = "two_player_sets"  # RUL-2P-SETS = any_number
    set_sizes = (2, 3)
    # RUL-2P-END decides only when the game ends.
    unquantified = ("deal_order", "packs", "first_dealer_tie", "first_dealer_wild", "two_player_end")
    outside: tuple[str, ...] = ()
    scoring = "points"

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-2P-DEAL (000:84 "18 cards each", 002:13): 18 each, the other 12 dead."""
        return 18, 12

    def stated_game_end(self, rules: Ruleset, players: int, totals: tuple[int, ...], played: int, agreed: int) -> bool:
        """R-2P-GAME (000:84 "the first to 121 wins"); RUL-2P-END: at once, or once both dealt equally."""
        reached = max(totals) >= 121
        return (reached and (rules.two_player_end == "first_to_target" or played % 2 == 0)) or played >= agreed

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """R-2P-COMET-UNPAID: playing the Comet earns nothing."""
        return z3.IntVal(0)

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """No chips at the end of a deal either."""
        return z3.IntVal(0)

    def owed(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """What ``seat`` would pay the winner in the standard game: its points times the going-out multiplier
        (the Opera's x2 stacked on it in an Opera), twice that caught with the Comet, or in an Opera under
        RUL-OPERA-CAUGHT = highest only the higher of the two doublings (``opera.opera_caught_multiplier``)."""
        mult = self.out_multiplier(s, rd)
        highest = z3.And(rd["opera_caught"], self.is_opera(s, rd))
        caught = z3.If(highest, z3.If(mult >= 2, mult, 2), 2 * mult)
        owed = scaled(self.hand_points(s, seat), z3.If(s.comet == seat, caught, mult))
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, owed)

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """R-2P-POINTS, R-2P-DOUBLING: the winner scores what the loser would pay in the standard game (a drawn
        deal scores nothing)."""
        owed = z3.Sum(*[self.owed(s, p, rd) for p in range(s.players)])
        return tuple(z3.If(s.winner == p, owed, 0) for p in range(s.players))

    def caught_spec(self, s: SymState, rd: Readings) -> z3.BoolRef | None:
        """R-2P-DOUBLING: the winner scores the loser's points times the going-out multiplier, twice that
        exactly when the loser holds the Comet, except in an Opera under RUL-OPERA-CAUGHT = highest (then the
        higher of the two doublings)."""
        mult = self.out_multiplier(s, rd)
        opera_highest = z3.And(rd["opera_caught"], s.winner >= 0, s.x("first_turn") == 1, rd["opera"])
        caught = z3.If(opera_highest, z3.If(mult > 2, mult, 2), 2 * mult)
        points = self.deal_points(s, rd)
        return z3.And(
            [
                z3.Implies(
                    s.winner == p,
                    points[p]
                    == z3.Sum(
                        *[
                            scaled(self.hand_points(s, q), z3.If(s.comet == q, caught, mult))
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
