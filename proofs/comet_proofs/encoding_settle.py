"""The base encoding's settlement and what the chip obligations check: the payments at the end of a deal
(mirroring ``comet.engine.settlement``), the points of a deal, and the bounds and specifications the
obligations on chips and points prove.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3
from comet.state import DealState

from comet_proofs.encoding_effects import EncodingEffects
from comet_proofs.symbolic import (
    COMET_PLAYED,
    NINE,
    PASS,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import scaled


class EncodingSettle(EncodingEffects):
    """The settlement of the base rules and the chip obligations' specifications."""

    # ------------------------------------------------------------ settlement

    def card_points(self, rank: int) -> int:
        return min(rank, 10)

    def hand_points(self, s: SymState, seat: int) -> z3.ArithRef:
        """The points left in ``seat``'s hand (the Comet counts 9)."""
        points = z3.Sum(*[s.hands[seat][i] * self.card_points(r) for i, r in enumerate(self.ranks)])
        return points + z3.If(s.comet == seat, 9, 0)

    def out_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """R-SETTLE-COMET-LAST: x2 when the last card was the Comet, x4 when it stood for a 9."""
        return z3.If(s.out_wild_as == NINE, 4, z3.If(s.out_wild_as > 0, 2, 1))

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST: what ``seat`` pays the winner."""
        points = self.hand_points(s, seat)
        caught = z3.If(s.comet == seat, 2 * points, points)
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, scaled(caught, self.out_multiplier(s, rd)))

    def deal_returns(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """Net chips per seat for the deal: chips moved during play plus the settlement (``engine.returns``)."""
        n = s.players
        pays = [self.settlement_amount(s, p, rd) for p in range(n)]
        # the winner collects what the others pay: a winner's own payment would break the zero sum
        collects = [self.collected(pays, p) for p in range(n)]
        return tuple(s.chips[p] - pays[p] + z3.If(s.winner == p, collects[p], 0) for p in range(n))

    # ------------------------------------------------------------ what the chip obligations check

    def payment_spec(self, s: SymState, a: SymAction, rd: Readings) -> tuple[z3.ArithRef, z3.ArithRef]:
        """(the one seat an action may pay, the most any other seat pays it): R-COMET-BONUS, the Comet's
        bonus goes to its player and is at most four times its value; no other action moves chips."""
        return s.to_move, z3.If(z3.And(a.kind != PASS, self.wild_play(a.kind)), 4 * s.comet_value, 0)

    def play_chips_bound(self, s: SymState) -> z3.BoolRef | None:
        """Chips moved during play so far: none before the Comet is played, then at most four times its
        value from each seat (None: not bounded by an invariant part in this encoding)."""
        cv, n = s.comet_value, s.players
        within = z3.And([z3.And(c >= -4 * cv, c <= 4 * cv * (n - 1)) for c in s.chips])
        return z3.If(s.comet == COMET_PLAYED, within, z3.And([c == 0 for c in s.chips]))

    def most_hand_points(self) -> int:
        """The points of the whole pack: no hand holds more (card conservation)."""
        return sum(self.pack_count(r) * self.card_points(r) for r in self.ranks) + 9

    def settlement_factor(self) -> int:
        """The largest factor on a loser's points: x2 caught with the Comet or x4 after the Comet as a 9 was
        the last card (never both: a played Comet is in nobody's hand)."""
        return 4

    def deal_bound(self, s: SymState) -> tuple[z3.ArithRef, z3.ArithRef] | None:
        """(most one seat loses, most one seat wins) in one deal: a loser pays at most the settlement
        factor times the pack's points, plus four times the Comet's value in play; the winner collects
        that from every other seat.  None: no stated bound for this encoding."""
        loss = self.settlement_factor() * self.most_hand_points() + 4 * s.comet_value
        return loss, (s.players - 1) * loss

    def caught_spec(self, s: SymState, rd: Readings) -> z3.BoolRef | None:
        """R-SETTLE-CAUGHT: in a finished deal a loser pays double exactly when holding the Comet (its
        points times the going-out multiplier, twice that when caught).  None: not this encoding's rule."""
        mult = self.out_multiplier(s, rd)
        return z3.And(
            [
                z3.Implies(
                    z3.And(s.winner >= 0, s.winner != p),
                    self.settlement_amount(s, p, rd)
                    == scaled(self.hand_points(s, p), z3.If(s.comet == p, 2, 1) * mult),
                )
                for p in range(s.players)
            ]
        )

    def collected(self, pays: Sequence[z3.ArithRef], seat: int) -> z3.ArithRef:
        """What ``seat``, as the winner, collects at settlement: every other seat's payment."""
        return z3.Sum(0, *[pays[q] for q in range(len(pays)) if q != seat])

    def play_points(self, s: SymState, seat: int) -> z3.ArithRef | None:
        """The points ``seat`` has scored during play so far, where points are scored in play (None: not in
        this game); ``bounds.in_play_bound`` bounds them."""
        return None

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """Points per seat for a finished deal (``engine.deal_points``); none in a chips game."""
        return tuple(z3.IntVal(0) for _ in range(s.players))

    def settlement_problems(self, state: DealState) -> list[str]:
        """Model-side shape check of a finished deal's settlement: every payment from a loser to the winner."""
        from comet.engine import settlement

        stray = [p for p in settlement(state) if p.payee != state.winner or p.payer == state.winner]
        return [f"settlement payments not from a loser to the winner: {stray}"] if stray else []
