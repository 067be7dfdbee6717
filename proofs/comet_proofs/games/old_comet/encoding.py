"""Old Comet of 1718 (R-OLD-*) over the standard encoding, with a low Ace.

Rows run over ranks Ace..King (four naturals each, three natural 9s: the 9D is the manille, the only
wild card, tracked like the Comet).  Chips: a King played earns 1 from each other player (four for all
four Kings), the manille its value; a run everyone passes on earns its last player 1 from each; the
settlement is 1 chip per point left (Ace 1, the manille 9) to the winner, and a player caught with the
manille pays 10 to each other player (RUL-OLD-CAUGHT: or to each but the winner).  The manille standing
for a King earns the King's chip too under RUL-OLD-MANILLE-KING = manille_and_king.  The other readings
of Old Comet's rulings are free Booleans too: court cards worth their rank (RUL-OLD-COURT-POINTS), the
caught manille doubling the points (RUL-OLD-CAUGHT-DOUBLE) or paying 9 more to the winner
(RUL-OLD-CAUGHT-NINE), the manille as the last card earning x2/x4 (RUL-OLD-BONUS-LAST), four Kings at once
earning one chip (RUL-OLD-KING-QUARTET), and every play that ends a run earning 1 from each
(RUL-OLD-LAST-CARD = every_run_end).  The Opera is a quantified ruling too (``opera``, with RUL-OPERA-DRAW,
RUL-OPERA-STACK, RUL-OLD-OPERA-CAUGHT and RUL-OLD-OPERA-BONUS): ``OperaOption`` adds its fields, its draw and
its x2 on the points; the caught manille's 10s doubled and the manille's raised bonus are this encoding's.
"""

from __future__ import annotations

import z3
from comet.ruleset import Ruleset
from comet.state import DealState, Payment

from comet_proofs.encoding import DEAL_TABLE, GAME_FIELDS, OwnChipRules
from comet_proofs.games.opera.option import OPERA_RULINGS, OperaOption
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.symbolic import (
    KING,
    NATURAL,
    NINE,
    PASS,
    PLAY_RULINGS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import scaled

DECK = 52
KING_CHIPS = 1
LAST_CARD_CHIPS = 1
MANILLE_CAUGHT = 10
CAUGHT_NINE = 9  # RUL-OLD-CAUGHT-NINE = extra: the caught manille's 9 chips to the winner on top


class OldCometEncoding(OperaOption, OwnChipRules, StandardEncoding):
    """Preset ``old_comet``: one 52-card deck, Ace low, the manille."""

    name = "old_comet"
    ranks = tuple(range(1, 14))
    pack_size = DECK
    # The manille's play payment is never multiplied, so RUL-COMET-BONUS-LAST plays no part.
    rulings = tuple(r for r in PLAY_RULINGS if r[0] != "comet_bonus_last") + (
        ("old_deal_sizes", "even"),
        ("old_caught", "nine_only"),
        ("old_manille_last", "multiplied"),
        ("old_manille_king", "manille_and_king"),
        ("old_court_points", "rank"),
        ("old_caught_double", "doubled"),
        ("old_caught_nine", "extra"),
        ("old_bonus_last", "multiplied"),
        ("old_king_quartet", "per_play"),
        ("old_last_card", "every_run_end"),
        *OPERA_RULINGS,
        ("old_opera_caught", "doubled"),
        ("old_opera_bonus", "doubled"),
    )
    # RUL-OLD-ESCALATION and RUL-ESCALATION-RESET only set the manille's value between deals (a free integer
    # >= 0 here), and so does RUL-ESCALATION-TRIGGER.
    unquantified = ("deal_order", *GAME_FIELDS, "creditor_order", "old_escalation", "comet_reset", "escalate_on")
    outside: tuple[str, ...] = ()

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-OLD-DEAL, RUL-OLD-DEAL-SIZES: the standard table's hand sizes, or all 52 evenly; the rest dead."""
        size = DECK // players if rules.old_deal_sizes == "even" else DEAL_TABLE[players][0]
        return size, DECK - size * players

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        """R-OLD-MANILLE-PLAY: the manille's value from each (RUL-OLD-MANILLE-KING = manille_and_king: standing
        for a King, 1 more); R-OLD-KING: 1 per King played from each."""
        # RUL-OLD-KING-QUARTET = per_play: four Kings at once earn one chip, not four
        quartet_kings = z3.If(rd["old_king_quartet"], 1, self.mover_count(s, a.rank))
        kings = z3.If(a.kind == NATURAL, 1, z3.If(a.kind == QUARTET, quartet_kings, 0))
        as_king = z3.If(z3.And(rd["old_manille_king"], a.rank == KING), KING_CHIPS, 0)
        # RUL-OLD-BONUS-LAST = multiplied: the manille as the last card earns x2, x4 as a 9
        last = z3.If(z3.And(out, rd["old_bonus_last"]), z3.If(a.rank == NINE, 4, 2), 1)
        manille = scaled(s.comet_value, last) + as_king
        cards = z3.If(self.wild_play(a.kind), manille, z3.If(a.rank == KING, KING_CHIPS * kings, 0))
        return cards + z3.If(z3.And(rd["old_last_card"], self.ends_run(a, out, rd)), LAST_CARD_CHIPS, 0)

    def ends_run(self, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.BoolRef:
        """``old_comet.ends_run``: going out, a King, or the manille where it stops (RUL-COMET-AFTER)."""
        return z3.Or(out, a.rank == KING, z3.And(self.wild_play(a.kind), z3.Not(rd["comet_after"])))

    def pass_payment(self, s: SymState, nxt: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef]:
        """R-OLD-LAST-CARD: everyone passed on a stuck run: its last player collects 1 from each."""
        return s.last_player, z3.If(z3.And(s.need > 0, nxt == s.last_player), LAST_CARD_CHIPS, 0)

    def plain_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """RUL-OLD-MANILLE-LAST: plain, or x2 (x4 as a 9) when the manille was the last card (the Opera's x2
        goes on top, ``OperaOption.out_multiplier``)."""
        return z3.If(z3.And(rd["old_manille_last"], s.out_wild_as > 0), z3.If(s.out_wild_as == NINE, 4, 2), 1)

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-OLD-SETTLE: 1 chip per point left in hand (Ace 1, the manille 9) to the winner."""
        caught = s.comet == seat
        # RUL-OLD-CAUGHT-DOUBLE = doubled: a held manille doubles the points as in the standard game
        doubled = z3.If(z3.And(caught, rd["old_caught_double"]), 2, 1)
        owed = scaled(self.old_points(s, seat, rd), self.out_multiplier(s, rd) * doubled)
        # RUL-OLD-CAUGHT-NINE = extra: the caught manille pays its 9 chips to the winner on top
        owed = owed + z3.If(z3.And(caught, rd["old_caught_nine"]), CAUGHT_NINE, 0)
        return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, owed)

    def old_points(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-OLD-POINTS, RUL-OLD-COURT-POINTS: the points left in ``seat``'s hand (Jack, Queen, King 10, or
        11, 12, 13 under rank; the manille 9)."""
        courts = [(i, r) for i, r in enumerate(self.ranks) if r > 10]
        extra = z3.Sum(*[s.hands[seat][i] * (r - 10) for i, r in courts])
        return self.hand_points(s, seat) + z3.If(rd["old_court_points"], extra, 0)

    def opera_manille_bonus(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """``old_comet.opera_manille_bonus``, RUL-OLD-OPERA-BONUS = doubled: in an Opera won on the manille,
        the extra each other player pays the winner at the settlement (the manille's value times the Opera's
        x2 stacked on RUL-OLD-BONUS-LAST's factor, less that factor)."""
        factor = z3.If(rd["old_bonus_last"], z3.If(s.out_wild_as == NINE, 4, 2), 1)
        extra = scaled(s.comet_value, self.stacked(factor, rd) - factor)
        return z3.If(z3.And(rd["old_opera_bonus"], s.out_wild_as > 0, self.is_opera(s, rd)), extra, 0)

    def deal_returns(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """The standard returns plus R-OLD-MANILLE-CAUGHT: the manille's holder pays 10 to each other
        player (RUL-OLD-CAUGHT = nine_only: not to the winner; RUL-OLD-OPERA-CAUGHT = doubled: 20 in an
        Opera), and RUL-OLD-OPERA-BONUS's extra to the winner from each other player."""
        n = s.players
        base = super().deal_returns(s, rd)
        nine_only = rd["old_caught"]
        caught = [z3.And(s.winner >= 0, s.comet == h) for h in range(n)]
        # (an If over the two amounts, not a product: every obligation stays linear)
        chips = z3.If(z3.And(rd["old_opera_caught"], self.is_opera(s, rd)), 2 * MANILLE_CAUGHT, MANILLE_CAUGHT)
        bonus = self.opera_manille_bonus(s, rd)
        out = []
        for p in range(n):
            receives = z3.If(z3.And(nine_only, s.winner == p), 0, chips)
            gets = z3.Sum(*[z3.If(caught[h], receives, 0) for h in range(n) if h != p]) if n > 1 else z3.IntVal(0)
            pays = z3.If(caught[p], (n - 1) * chips - z3.If(nine_only, chips, 0), 0)
            opera = z3.If(s.winner == p, (n - 1) * bonus, -bonus)
            out.append(base[p] + gets - pays + opera)
        return tuple(out)

    def payment_spec(self, s: SymState, a: SymAction, rd: Readings) -> tuple[z3.ArithRef, z3.ArithRef]:
        """R-OLD-MANILLE-PLAY, R-OLD-KING, R-OLD-LAST-CARD: a play pays only its player (the manille its
        value, 1 more as a King; at most 4 for Kings), a pass only the stuck run's last player (1)."""
        passing = a.kind == PASS
        # RUL-OLD-BONUS-LAST: the manille's value up to x4; RUL-OLD-LAST-CARD = every_run_end: 1 more
        manille = scaled(s.comet_value, z3.If(rd["old_bonus_last"], 4, 1)) + KING_CHIPS
        run_end = z3.If(rd["old_last_card"], LAST_CARD_CHIPS, 0)
        cap = z3.If(
            passing,
            LAST_CARD_CHIPS,
            z3.If(self.wild_play(a.kind), manille, z3.If(a.rank == KING, 4 * KING_CHIPS, 0)) + run_end,
        )
        return z3.If(passing, s.last_player, s.to_move), cap

    def settlement_problems(self, state: DealState) -> list[str]:
        from comet.engine import settlement

        def wrong(p: Payment) -> bool:
            if p.rule == "R-OLD-SETTLE":
                return p.payee != state.winner or p.payer == state.winner
            if p.rule == "R-OLD-MANILLE-CAUGHT":
                return p.payer == p.payee or not any(c in state.wild for c in state.hands[p.payer])
            if p.rule == "R-OPERA-DOUBLE":  # RUL-OLD-OPERA-BONUS: the raised manille bonus, to the winner
                return p.payee != state.winner or p.payer == state.winner
            return True

        bad = [p for p in settlement(state) if wrong(p) or p.amount < 0]
        return [f"settlement payments of the wrong shape: {bad}"] if bad else []


ENCODING = OldCometEncoding
