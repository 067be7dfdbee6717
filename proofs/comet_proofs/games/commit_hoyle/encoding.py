"""Commit as 000:86 describes it (R-COMMIT-H-*), over the card-level encoding of ``commit_common``.

Any card leads; a run goes on with the next card of its suit or the branch card; a player holding
neither may play the 9D instead of passing, which ends their turn (``nine_last`` with
``turn_played``: only a pass is legal) and opens the 10D as a branch while the old run stays open;
Kings and the 7D stop a run (RUL-COMMIT-H-REST = stop_cards: also a card whose successor lies in the
face-down rest).  Chips: 1 from each other player per King played, 2 for the 9D (fixed); at the
end the pool (the ``stake`` field: RUL-COMMIT-H-STAKE is an integer ruling, kept free), the 9D caught,
and Kings left in hand (RUL-COMMIT-H-KINGS-HELD).
"""

from __future__ import annotations

import z3
from comet.cards import DIAMONDS, KING, card
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.encoding import GAME_FIELDS
from comet_proofs.games.commit_common import (
    BRANCH,
    DEAD,
    DECK51,
    NINE_D,
    NINE_LAST,
    PLAYED,
    SUIT,
    SuitedEncoding,
    loc_name,
)
from comet_proofs.symbolic import CARD, PASS, Readings, SymAction, SymState
from comet_proofs.terms import at, scaled

TEN_D = card(10, DIAMONDS)
NINE_CHIPS = 2  # 000:86 "the 9♦ 2 counters", "pays 2 to each": fixed, whatever the deal's comet_value
SEVEN_D = card(7, DIAMONDS)
KINGS = tuple(card(KING, s) for s in range(4))
STAKE = "stake"


class CommitHoyleEncoding(SuitedEncoding):
    """Preset ``commit_hoyle``: chips, 2-8 players."""

    name = "commit_hoyle"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    rulings = (
        ("commit_five", "nine"),
        ("commit_rest", "stop_cards"),
        ("commit_nine_branch", "next_player"),
        ("commit_king_payer", "others"),
        ("commit_nine_when", "without_only"),
        ("commit_nine_lead_turn", "goes_on"),
        ("commit_nine_lead", "last_resort"),
    )
    extra_fields = SuitedEncoding.extra_fields + (STAKE,)
    # R-COMMIT-H-STOPS: the Kings and the 7D end a run under every reading of RUL-COMMIT-H-REST
    stop_cards = (*KINGS, SEVEN_D)
    # RUL-COMMIT-H-STAKE is read from the state (the ``stake`` field), so every stake is covered.
    unquantified = ("deal_order", "commit_stake", *GAME_FIELDS, "creditor_order")
    outside = ()

    def variant_abstract_extra(self, state: DealState) -> tuple[tuple[str, int], ...]:
        return ((STAKE, state.rules.commit_stake),)

    # ------------------------------------------------------------ invariants and initial deals

    def well_formed(self, s: SymState) -> z3.BoolRef:
        return z3.And(
            super().well_formed(s),
            z3.Or(s.x(BRANCH) == 0, s.x(BRANCH) == TEN_D),
            s.out_wild_as == 0,
            s.x(STAKE) >= 0,
        )

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-COMMIT-H-DEAL (000:86): as many each as go round evenly, 9 each with five (RUL-COMMIT-H-FIVE:
        or 10); the rest face down."""
        each = 51 // players
        size = (9 if rules.commit_five == "nine" else each) if players == 5 else each
        return size, 51 - size * players

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        n = s.players
        size, dead = self.deal_size(n, rd)
        parts = [self.valid_place(self.loc(s, c), n) for c in DECK51]
        parts += [self.hand_size(s, p) == size for p in range(n)]
        parts += [self.hand_counts(s)]
        parts += [z3.Sum(*s.dead) == dead] + [x == 0 for x in s.played] + [x == 0 for x in s.chips]
        parts += [
            s.need == 0,
            s.x(SUIT) == -1,
            s.x(BRANCH) == 0,
            s.x(NINE_LAST) == 0,
            s.x(STAKE) >= 0,
            *self.fresh_turn(s),
        ]
        return z3.And(parts)

    # ------------------------------------------------------------ transitions

    def legal(self, s: SymState, a: SymAction, rd: Readings) -> z3.BoolRef:
        """``hoyle_legal_actions`` (R-COMMIT-H-SUIT, R-COMMIT-H-NINE)."""
        new_run = z3.And(s.need == 0, s.x(BRANCH) == 0)
        # RUL-COMMIT-H-NINE-LEAD-TURN = goes_on: a led 9D (no old run, so no branch) does not end the turn
        just_nine = z3.And(
            s.turn_played, s.x(NINE_LAST) == 1, z3.Or(z3.Not(rd["commit_nine_lead_turn"]), s.x(BRANCH) != 0)
        )
        play = z3.And(a.kind == CARD, self.holds(s, s.to_move, a.rank))
        instead_of_without = z3.Or(z3.And(play, a.rank == NINE_D, self.nine_ending(s, rd)), a.kind == PASS)
        cont = z3.Or(
            z3.And(play, self.wanted(s, a.rank)),
            z3.And(z3.Not(self.mover_holds_wanted(s)), instead_of_without),
        )
        # RUL-COMMIT-H-NINE-LEAD = last_resort: the 9D leads only as the mover's last card, stated as "no other
        # card is in the mover's hand" (a disequality per card: the hand's size as a sum of 51 terms per seat
        # made card conservation time out at 6 players)
        alone = z3.And([self.loc(s, c) != s.to_move for c in DECK51 if c != NINE_D])
        lead = z3.And(play, z3.Or(z3.Not(self.reading(rd, "commit_nine_lead")), a.rank != NINE_D, alone))
        return z3.And(
            z3.Not(self.terminal(s)),
            z3.Implies(a.kind == PASS, a.rank == 0),
            z3.If(just_nine, a.kind == PASS, z3.If(new_run, lead, cont)),
        )

    def nine_ending(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """``nine_for_this_ending`` (R-COMMIT-H-NINE): may the 9D end this turn?  RUL-COMMIT-H-NINE-PASS =
        without_or_pass: yes; without_only: only after a card this turn."""
        return z3.Or(z3.Not(rd["commit_nine_when"]), s.turn_played)

    def is_stop(self, s: SymState, c: z3.ArithRef, rd: Readings) -> z3.BoolRef:
        """R-COMMIT-H-STOPS: Kings and the 7D (RUL-COMMIT-H-REST: or the successor lies face down)."""
        successor_dead = z3.Or([z3.And(c + 4 == k, self.loc(s, k) == DEAD) for k in DECK51])
        return z3.Or(c / 4 == KING, c == SEVEN_D, z3.And(rd["commit_rest"], successor_dead))

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """``hoyle_play``: the 9D keeps the run and opens the 10D; the 10D on that branch makes the run
        9D 10D; a stop ends the run; King 1 chip and the 9D its value from each other player."""
        n = s.players
        c = a.rank
        is9 = c == NINE_D
        running = s.need > 0
        take_branch = z3.And(s.x(BRANCH) != 0, c == s.x(BRANCH), z3.Not(z3.And(running, c == self.run_next(s))))
        stop = z3.And(z3.Not(is9), self.is_stop(s, c, rd))
        need = z3.If(stop, 0, z3.If(is9, z3.If(running, s.need, 10), z3.If(take_branch, 11, c / 4 + 1)))
        suit = z3.If(stop, -1, z3.If(is9, z3.If(running, s.x(SUIT), DIAMONDS), z3.If(take_branch, DIAMONDS, c % 4)))
        parts = [self.loc(s2, k) == z3.If(c == k, PLAYED, self.loc(s, k)) for k in DECK51]
        out = at([self.hand_size(s2, p) for p in range(n)], s.to_move) == 0
        amount = z3.If(c / 4 == KING, 1, z3.If(is9, NINE_CHIPS, 0))
        parts += [c2 == c + d for c, c2, d in zip(s.chips, s2.chips, self.transfer(n, s.to_move, amount), strict=True)]
        parts += [
            s2.need == need,
            s2.x(SUIT) == suit,
            s2.x(BRANCH) == z3.If(z3.And(is9, running), TEN_D, 0),
            s2.x(NINE_LAST) == z3.If(is9, 1, 0),
            s2.x(STAKE) == s.x(STAKE),
            s2.to_move == s.to_move,
            s2.last_player == s.to_move,
            s2.turn_played,
            s2.winner == z3.If(out, s.to_move, -1),
            s2.out_wild_as == s.out_wild_as,
            s2.steps == s.steps + 1,
            s2.comet_value == s.comet_value,
        ]
        return z3.And(parts)

    def pass_effect_rd(self, s: SymState, s2: SymState, rd: Readings) -> z3.BoolRef:
        """``hoyle_end_turn``: the turn passes left; back at the run's last player the run (its suit and
        branch) ends; RUL-COMMIT-H-NINE-RUN = next_player: the branch lapses after the next player passes."""
        n = s.players
        nxt = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        back = nxt == s.last_player
        cleared = z3.Or(back, s.need == 0)
        lapse = z3.And(
            rd["commit_nine_branch"],
            s.x(BRANCH) != 0,
            s.x(NINE_LAST) == 1,
            s.to_move == z3.If(s.last_player == n - 1, 0, s.last_player + 1),
        )
        parts = self.keep(s, s2, tuple(loc_name(k) for k in DECK51) + (NINE_LAST, STAKE))
        parts += [x == y for x, y in zip(s.chips, s2.chips, strict=True)]
        parts += [
            s2.need == z3.If(back, 0, s.need),
            s2.x(SUIT) == z3.If(cleared, -1, s.x(SUIT)),
            s2.x(BRANCH) == z3.If(z3.Or(cleared, lapse), 0, s.x(BRANCH)),
            *self.passed_on(s, s2, nxt),
        ]
        return z3.And(parts)

    # ------------------------------------------------------------ settlement

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-COMMIT-H-POOL: every other player's stake goes to the first player out."""
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, s.x(STAKE))

    def deal_returns(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """The pool, plus R-COMMIT-H-CAUGHT (the 9D's holder pays 2 to each other player) and
        R-COMMIT-H-KINGS-HELD (each King left: 1 from its holder to each other player, or the reverse)."""
        n = s.players
        base = super().deal_returns(s, rd)
        over = s.winner >= 0
        sign = z3.If(rd["commit_king_payer"], -1, 1)  # +1: the holder pays
        owes = []
        for h in range(n):
            caught = z3.If(self.loc(s, NINE_D) == h, NINE_CHIPS, 0)
            kings = z3.Sum(*[z3.If(self.loc(s, k) == h, 1, 0) for k in KINGS])
            owes.append(z3.If(over, caught + scaled(kings, sign), 0))
        return tuple(base[p] - (n - 1) * owes[p] + z3.Sum(*[owes[h] for h in range(n) if h != p]) for p in range(n))

    def payment_spec(self, s: SymState, a: SymAction, rd: Readings) -> tuple[z3.ArithRef, z3.ArithRef]:
        """R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE: a play pays only its player, 1 for a King, 2 for the 9D (000:86),
        nothing else; a pass pays nothing."""
        card_played = z3.And(a.kind == CARD, a.rank != 0)
        cap = z3.If(card_played, z3.If(a.rank == NINE_D, NINE_CHIPS, z3.If(a.rank / 4 == KING, 1, 0)), 0)
        return s.to_move, cap

    def realism(self, s: SymState) -> list[z3.BoolRef]:
        """Small stakes, besides the card-level encodings' own."""
        return [s.x(STAKE) >= 1, s.x(STAKE) <= 5, *super().realism(s)]

    def fixed_by_rules(self, s: SymState, rules: Ruleset) -> list[z3.BoolRef]:
        """The pool at the rules' stake (RUL-COMMIT-H-STAKE)."""
        return [s.x(STAKE) == rules.commit_stake]

    def settlement_problems(self, state: DealState) -> list[str]:
        from comet.engine import settlement

        bad = [
            p
            for p in settlement(state)
            if p.amount < 0 or (p.rule == "R-COMMIT-H-POOL" and (p.payee != state.winner or p.payer == state.winner))
        ]
        return [f"settlement payments of the wrong shape: {bad}"] if bad else []


ENCODING = CommitHoyleEncoding
