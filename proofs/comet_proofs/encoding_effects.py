"""The base encoding's effects: ``effect``'s parts mirror ``comet.engine.apply`` (a pass, a play, the
payments each makes), ``transition`` is legality and effect together, and the case splits of the actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from comet_proofs.encoding_core import StepSlice
from comet_proofs.encoding_legal import EncodingLegal
from comet_proofs.symbolic import (
    COMET,
    COMET_PLAYED,
    COMET_QUARTET,
    GROUP_BASE,
    KING,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import at


class EncodingEffects(EncodingLegal):
    """What an action does in the base rules, and the transition relation."""

    # ------------------------------------------------------------ effects

    def bonus_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """R-COMET-BONUS, R-SETTLE-COMET-LAST, RUL-COMET-BONUS-LAST: what each other player pays."""
        cv = s.comet_value
        multiplied = z3.And(out, rd["comet_bonus_last"])
        return z3.If(multiplied, z3.If(a.rank == NINE, 4 * cv, 2 * cv), cv)

    def bonus_payee(self, s: SymState) -> z3.ArithRef:
        return s.to_move

    def pass_effect(self, s: SymState, s2: SymState) -> z3.BoolRef:
        """R-TURN-END, R-STOP-STUCK: the turn passes left; back at the last player a new run starts."""
        n = s.players
        nxt = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        payee, amount = self.pass_payment(s, nxt)
        keep = z3.And(
            [x == y for h, h2 in zip(s.hands, s2.hands, strict=True) for x, y in zip(h, h2, strict=True)]
            + [x == y for x, y in zip(s.played + s.dead, s2.played + s2.dead, strict=True)]
            + [c2 == c + d for c, c2, d in zip(s.chips, s2.chips, self.transfer(n, payee, amount), strict=True)]
            + [
                s2.comet == s.comet,
                s2.last_player == s.last_player,
                s2.winner == s.winner,
                s2.out_wild_as == s.out_wild_as,
                s2.comet_value == s.comet_value,
            ]
        )
        return z3.And(
            keep,
            s2.to_move == nxt,
            s2.need == z3.If(nxt == s.last_player, 0, s.need),
            z3.Not(s2.turn_played),
            z3.Not(s2.free_lead),
            s2.steps == s.steps + 1,
        )

    def transfer(self, players: int, payee: z3.ArithRef, amount: z3.ArithRef) -> tuple[z3.ArithRef, ...]:
        """Each seat's chip change when every other seat pays ``amount`` to ``payee``: a seat pays unless it
        is the payee, and the payee receives each other seat's payment (one term per payer), so that the
        changes sum to zero is a theorem the chip zero-sum proof checks, not the shape of the formula."""
        return tuple(
            z3.If(payee == p, z3.Sum(*[z3.If(payee == q, 0, amount) for q in range(players) if q != p]), 0)
            - z3.If(payee == p, 0, amount)
            if players > 1
            else z3.IntVal(0)
            for p in range(players)
        )

    def pass_payment(self, s: SymState, nxt: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef]:
        """(payee, what each other player pays) when the mover passes; none in the base rules."""
        return s.to_move, z3.IntVal(0)

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """What each other player pays the mover for the play ``a`` (the Comet bonus, R-COMET-BONUS)."""
        return z3.If(self.wild_play(a.kind), self.bonus_amount(s, a, out, rd), 0)

    def winner_after(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """The winner after a play (R-END-OUT): the mover if the hand is empty."""
        return z3.If(out, s.to_move, -1)

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """R-PLAY-*, R-STOP-KING, R-COMET-STOP, R-END-OUT, R-COMET-BONUS: cards to the pile, stops, going out."""
        n = s.players
        parts: list[z3.BoolRef] = []
        # RUL-2P-SETS = any_number: a set of k of the rank (``set_sizes``; 0 where the encoding has none)
        taken = z3.If(a.kind == NATURAL, 1, self.set_size(a.kind)) if self.set_sizes else z3.IntVal(1)
        natural = a.kind == NATURAL if not self.set_sizes else z3.Or(a.kind == NATURAL, a.kind >= GROUP_BASE)
        for p in range(n):
            for i, r in enumerate(self.ranks):
                hit = z3.And(s.to_move == p, a.rank == r)
                h = s.hands[p][i]
                parts.append(
                    s2.hands[p][i]
                    == z3.If(z3.And(hit, natural), h - taken, z3.If(z3.And(hit, self.takes_all(a.kind)), 0, h))
                )
        for i, r in enumerate(self.ranks):
            mine = at([h[i] for h in s.hands], s.to_move)
            gain = z3.If(a.rank == r, z3.If(natural, taken, z3.If(self.takes_all(a.kind), mine, 0)), 0)
            parts.append(s2.played[i] == s.played[i] + gain)
            parts.append(s2.dead[i] == s.dead[i])
        parts.append(s2.comet == z3.If(self.wild_play(a.kind), COMET_PLAYED, s.comet))
        out = at([self.hand_size(s2, p) for p in range(n)], s.to_move) == 0
        amount = self.play_amount(s, a, out, rd)
        payee = self.bonus_payee(s)
        parts += [c2 == c + d for c, c2, d in zip(s.chips, s2.chips, self.transfer(n, payee, amount), strict=True)]
        # RUL-COMET-AFTER (optional_restart): the Comet (not as a King) keeps the run going from its rank
        go_on = z3.And(self.wild_play(a.kind), self.reading(rd, "comet_after"), a.rank != KING)
        parts += [
            s2.need == z3.If(z3.And(self.stops(a.rank, a.kind), z3.Not(go_on)), 0, a.rank + 1),
            s2.free_lead == z3.And(go_on, z3.Not(out)),
            s2.to_move == s.to_move,
            s2.last_player == s.to_move,
            s2.turn_played,
            s2.winner == self.winner_after(s, a, out, rd),
            s2.out_wild_as == z3.If(z3.And(out, self.wild_play(a.kind)), a.rank, 0),
            s2.steps == s.steps + 1,
            s2.comet_value == s.comet_value,
        ]
        return z3.And(parts)

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """T(s, a, s2): ``a`` is legal in ``s`` and ``apply(s, a)`` is ``s2``."""
        effect = z3.If(a.kind == PASS, self.pass_effect(s, s2), self.play_effect(s, a, s2, rd))
        return z3.And(self.legal(s, a, rd), effect, self.extra_effect(s, a, s2, rd), self.readings_kept(s, s2, rd))

    def extra_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """How a variant's extra fields change (none in the base rules)."""
        return z3.BoolVal(True)

    def step_slices(self, parts: Sequence[str]) -> tuple[StepSlice, ...]:
        """The joint inductive step's goals proved from fewer hypotheses (``StepSlice``; ``parts``: the names of
        the invariant's parts); the goals no slice names are proved from the whole ``Inv(s) ∧ T``, split by ``action_cases`` (all of them, here)."""
        return ()

    def card_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """A split by the card an action moves, for the goals that count cards (``StepSlice.by_card``):
        ``action_cases`` unless an encoding has several actions that move the same card."""
        return self.action_cases(a)

    def kind_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """One case per action kind of ``all_actions``."""
        return [a.kind == k for k in sorted({k for k, _ in self.all_actions()})]

    def action_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """The case split of the inductive step check (``obligations.JOINT_STEP``): one case per action kind.
        Proofs check each case and then the negation of all of them, so any split is sound.  With the
        kind fixed, the effects of the other kinds fold away before Z3 starts (``solving.specialise``):
        the whole step at once took 3.95 s against 0.58 s split (a counting encoding, 5 players, 2026-12-01)."""
        return self.kind_cases(a)

    def all_actions(self) -> list[tuple[int, int]]:
        """Every concrete symbolic action (kind, rank)."""
        kinds = (NATURAL, QUARTET, COMET, COMET_QUARTET, *(GROUP_BASE + k for k in self.set_sizes))
        return [(PASS, 0)] + [(k, r) for k in kinds for r in self.ranks]
