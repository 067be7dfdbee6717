"""The Opera option (R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-OPERA-DOUBLE) over the standard encoding.

Three extra fields (0/1 each): ``first_turn`` (no pass has been made yet, i.e. ``DealState.turn == 0``;
only the first player moves then), ``dealer_could`` (the dealer could have played out the hand dealt in
one turn; the answer to ``comet.games.opera.rules.dealer_could_go_out``) and ``drawn``.

The dealer's search is not encoded: ``dealer_could`` is a free Boolean of the initial deal, fixed until
the first pass (after which it no longer matters and is 0), so every proof covers both answers.  The
cross-check reads its value from the model's own search on each sampled state.
"""

from __future__ import annotations

import z3
from comet.state import DealState

from comet_proofs.abstraction import counts_abstract
from comet_proofs.games.opera.option import COULD, DRAWN, FIRST, dealer_could, first_turn_step
from comet_proofs.games.standard.encoding import STANDARD_UNQUANTIFIED, StandardEncoding
from comet_proofs.symbolic import (
    COMET_PLAYED,
    DEAL_RULINGS,
    KING,
    NINE,
    PASS,
    PLAY_RULINGS,
    AbstractState,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import at, scaled


class OperaEncoding(StandardEncoding):
    """The standard game with the Opera option (preset ``opera``)."""

    name = "opera"
    rulings = (
        PLAY_RULINGS
        + DEAL_RULINGS
        + (
            ("opera_draw", "dealer_could"),
            ("opera_stack", "multiply"),
            ("opera_caught", "highest"),
            ("opera_comet_bonus", "doubled"),
        )
    )
    extra_fields = (FIRST, COULD, DRAWN)
    unquantified = tuple(
        f for f in STANDARD_UNQUANTIFIED if f not in ("opera_draw", "opera_stack", "opera_comet_bonus", "opera_caught")
    )

    def abstract(self, state: DealState) -> AbstractState:

        if state.rules.variant != "standard" or not state.rules.opera:
            raise ValueError("the Opera encoding covers the standard game with opera=true")
        first = state.turn == 0
        could = first and dealer_could(state)
        extra = ((FIRST, int(first)), (COULD, int(could)), (DRAWN, int(state.drawn)))
        return self.with_reading_fields(counts_abstract(state, self.ranks, extra), state.rules)

    def realism(self, s: SymState) -> list[z3.BoolRef]:
        """In the first turn the encoding's ``dealer_could`` is free, the model searches the dealer's hand: pick
        a dealer's hand whose answer is plain.  Could: one card of each rank from some L up to the King (lead
        L and run to the King).  Could not: no King, no Comet and two cards of one rank (one run, no stop)."""
        n = s.players
        dealer = z3.If(s.to_move == 0, n - 1, s.to_move - 1)
        row = [at([s.hands[p][i] for p in range(n)], dealer) for i in range(len(self.ranks))]
        low = z3.Int(f"{s.need}.ladder")
        ladder = z3.And(
            low >= self.ranks[0],
            low <= KING,
            *[x == z3.If(low <= r, 1, 0) for x, r in zip(row, self.ranks, strict=True)],
        )
        king = row[self.ranks.index(KING)]
        stuck = z3.And(king == 0, z3.Or([x == 2 for x in row]))
        answer = z3.If(s.x(COULD) == 1, ladder, stuck)
        return [z3.Implies(s.x(FIRST) == 1, z3.And(s.comet != dealer, answer))]

    def abstract_dealt(self, state: DealState) -> AbstractState:
        """A fresh deal with "the dealer could go out" taken as 0: ``initial`` leaves that flag free, and the
        model's search for it (``dealer_could_go_out``) takes seconds on an 18-card hand."""
        if state.rules.variant != "standard" or not state.rules.opera or state.turn or state.steps:
            raise ValueError("abstract_dealt takes a freshly dealt Opera deal")
        extra = ((FIRST, 1), (COULD, 0), (DRAWN, 0))
        return self.with_reading_fields(counts_abstract(state, self.ranks, extra), state.rules)

    def terminal(self, s: SymState) -> z3.BoolRef:
        return z3.Or(s.winner >= 0, s.x(DRAWN) == 1)

    def well_formed(self, s: SymState) -> z3.BoolRef:
        flags = [z3.Or(s.x(f) == 0, s.x(f) == 1) for f in self.extra_fields]
        return z3.And(super().well_formed(s), *flags)

    def turn_structure(self, s: SymState) -> z3.BoolRef:
        n = s.players
        sizes = [self.hand_size(s, p) for p in range(n)]
        return z3.And(
            *self.turn_order(s),
            z3.Implies(z3.Not(self.terminal(s)), z3.And([k > 0 for k in sizes])),
            z3.Implies(s.winner >= 0, at(sizes, s.winner) == 0),
            # R-OPERA-DRAW: a drawn deal has no winner; the first player went out in the first turn
            z3.Implies(s.x(DRAWN) == 1, z3.And(s.winner == -1, s.x(FIRST) == 1, at(sizes, s.to_move) == 0)),
            z3.Implies(s.out_wild_as > 0, z3.And(self.terminal(s), s.comet == COMET_PLAYED)),
            z3.Implies(s.x(COULD) == 1, s.x(FIRST) == 1),
        )

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        could = s.x(COULD)
        return z3.And(super().initial(s, rd), s.x(FIRST) == 1, s.x(DRAWN) == 0, z3.Or(could == 0, could == 1))

    def draws(self, s: SymState, out: z3.BoolRef, rd: Readings) -> z3.BoolRef:
        """R-OPERA-DRAW: the first player goes out in the first turn and the dealer could have too."""
        return z3.And(out, s.x(FIRST) == 1, rd["opera_draw"], s.x(COULD) == 1)

    def winner_after(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return z3.If(z3.And(out, z3.Not(self.draws(s, out, rd))), s.to_move, -1)

    def extra_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        out = at([self.hand_size(s2, p) for p in range(s.players)], s.to_move) == 0
        return z3.And(*first_turn_step(s, a, s2, self.draws(s, out, rd)))

    def settlement_factor(self) -> int:
        """x4 after the Comet as a 9 last, x2 more for the Opera (RUL-OPERA-STACK = multiply)."""
        return 8

    def is_opera(self, s: SymState) -> z3.BoolRef:
        """``opera.is_opera``: the first player went out in the first turn (a drawn deal has no winner)."""
        return z3.And(s.winner >= 0, s.x(FIRST) == 1)

    def stacked(self, base: z3.ArithRef, rd: Readings) -> z3.ArithRef:
        """``opera.stacked``, RUL-OPERA-STACK: the Opera's x2 multiplied into ``base``, or the higher of the two."""
        return z3.If(rd["opera_stack"], 2 * base, z3.If(base >= 2, base, 2))

    def out_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """R-OPERA-DOUBLE, RUL-OPERA-STACK: x2 on top of the Comet's x2/x4, or the higher of the two."""
        base = super().out_multiplier(s, rd)
        return z3.If(self.is_opera(s), self.stacked(base, rd), base)

    def caught_factor(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """``opera.opera_caught_multiplier``: a caught loser's x2 times the going-out multiplier, or in an
        Opera under RUL-OPERA-CAUGHT = highest only the higher of the two."""
        mult = self.out_multiplier(s, rd)
        highest = z3.If(mult >= 2, mult, 2)
        caught = z3.If(z3.And(rd["opera_caught"], self.is_opera(s)), highest, 2 * mult)
        return z3.If(s.comet == seat, caught, mult)

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-OPERA-DOUBLE (RUL-OPERA-CAUGHT): what ``seat`` pays the winner."""
        owed = scaled(self.hand_points(s, seat), self.caught_factor(s, seat, rd))
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, owed)

    def caught_spec(self, s: SymState, rd: Readings) -> z3.BoolRef | None:
        """R-SETTLE-CAUGHT with RUL-OPERA-CAUGHT: a loser pays its points times the going-out multiplier,
        twice that when holding the Comet, except in an Opera under highest (then the higher doubling)."""
        mult = self.out_multiplier(s, rd)
        opera_highest = z3.And(rd["opera_caught"], s.winner >= 0, s.x(FIRST) == 1)
        caught = z3.If(opera_highest, z3.If(mult > 2, mult, 2), 2 * mult)
        return z3.And(
            [
                z3.Implies(
                    z3.And(s.winner >= 0, s.winner != p),
                    self.settlement_amount(s, p, rd)
                    == scaled(self.hand_points(s, p), z3.If(s.comet == p, caught, mult)),
                )
                for p in range(s.players)
            ]
        )

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """R-COMET-BONUS, and ``opera.opera_comet_bonus`` (RUL-OPERA-COMET-BONUS = doubled): going out on the
        Comet in an Opera (not drawn) raises its bonus by the Opera's x2, stacked as the points are."""
        bonus = super().play_amount(s, a, out, rd)
        factor = z3.If(rd["comet_bonus_last"], z3.If(a.rank == NINE, 4, 2), 1)
        extra = scaled(s.comet_value, self.stacked(factor, rd) - factor)
        opera = z3.And(out, s.x(FIRST) == 1, z3.Not(self.draws(s, out, rd)), rd["opera_comet_bonus"])
        return bonus + z3.If(z3.And(self.wild_play(a.kind), opera), extra, 0)

    def payment_spec(self, s: SymState, a: SymAction, rd: Readings) -> tuple[z3.ArithRef, z3.ArithRef]:
        """As the standard game's, at most 8x the Comet's value (RUL-OPERA-COMET-BONUS = doubled)."""
        return s.to_move, z3.If(z3.And(a.kind != PASS, self.wild_play(a.kind)), 8 * s.comet_value, 0)

    def play_chips_bound(self, s: SymState) -> z3.BoolRef | None:
        """None before the Comet is played, then at most 8x its value from each seat (the Opera's doubled
        bonus, RUL-OPERA-COMET-BONUS)."""
        cv, n = s.comet_value, s.players
        within = z3.And([z3.And(c >= -8 * cv, c <= 8 * cv * (n - 1)) for c in s.chips])
        return z3.If(s.comet == COMET_PLAYED, within, z3.And([c == 0 for c in s.chips]))

    def deal_bound(self, s: SymState) -> tuple[z3.ArithRef, z3.ArithRef] | None:
        """As the standard game's with the Comet's bonus at up to 8x its value."""
        loss = self.settlement_factor() * self.most_hand_points() + 8 * s.comet_value
        return loss, (s.players - 1) * loss


ENCODING = OperaEncoding
