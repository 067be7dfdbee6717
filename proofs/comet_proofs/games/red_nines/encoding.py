"""Red Nines (002:46-89; R-RED9-*) as a counting encoding with several wild cards.

Rows run over the ranks Ace..King and count natural cards (the red nines are not natural).  The pack
depends on the player count (R-RED9-DECK: 52 cards plus one suit per player past four: hearts, spades,
diamonds, clubs in turn), so there are ``wild_count(n)`` red nines and ``natural_count(n, rank)``
naturals of each rank.  The single ``comet`` field of the standard encoding is pinned to ``NO_COMET``;
extra fields ``wild0..wild{n-1}`` count the red nines each seat holds and ``wild_played`` those played.

Action kinds: pass; a natural card; a red nine standing for a rank (``COMET``); on the very first play
of the hand, ``k`` natural cards of one rank at once (kind ``GROUP_BASE + k``; RUL-RED9-FIRST-PLAY).
No chips ever move; a finished deal scores each loser the penalty points left in hand (Ace 20, other
cards their rank, a red nine 9) times 2 per red nine held (RUL-RED9-MANY: or at most x4) and x2 when the
winner went out on a red nine (RUL-RED9-OUT: x4 when it stood for a 9).
"""

from __future__ import annotations

from dataclasses import replace

import z3
from comet.cards import CLUBS, DIAMONDS, HEARTS, SPADES, rank_of
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import from_deal
from comet_proofs.encoding import OwnChipRules
from comet_proofs.games.commit_common import NewRunPassOn
from comet_proofs.solving import LIA2CARD
from comet_proofs.symbolic import (
    COMET,
    GROUP_BASE,
    KING,
    NATURAL,
    NINE,
    PASS,
    AbstractState,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import at, scaled

NO_COMET = -3
EXTRA_SUITS = (HEARTS, SPADES, DIAMONDS, CLUBS)
RED = (HEARTS, DIAMONDS)
HAND = 13
# RUL-RED9-KING = suit_king: a natural King on a run, of another suit than the run's first card, leaves the
# run standing at the King (nothing follows it; it comes back to its player, who leads).  The counting
# encoding has no suits, so a King on a run may do either: kind STANDING_KING is the King that leaves the
# run standing (need = STANDING), beside NATURAL (the King that ends it).  An over-approximation: every
# successor the model has is in T, and T has the other outcome too (``overapproximated``).
STANDING_KING = 6
STANDING = KING + 1
WILD_PLAYED = "wild_played"


def extra_suits(players: int) -> tuple[int, ...]:
    return EXTRA_SUITS[: players - 4]


def wild_count(players: int) -> int:
    """Red nines in the pack: 9D, 9H and the 9 of every extra red suit."""
    return 2 + sum(1 for s in extra_suits(players) if s in RED)


def natural_count(players: int, rank: int) -> int:
    """Natural cards of ``rank``: four plus one per extra suit; for the 9 only the black ones."""
    if rank == NINE:
        return 2 + sum(1 for s in extra_suits(players) if s not in RED)
    return 4 + len(extra_suits(players))


def wild_name(p: int) -> str:
    return f"wild{p}"


class RedNinesEncoding(OwnChipRules, NewRunPassOn):
    """Preset ``red_nines``: 4-8 players, several wild cards, penalty points."""

    name = "red_nines"
    proof_weight = 1.5  # measured: about one and a half times a counting encoding's seconds per obligation
    ranks = tuple(range(1, 14))
    player_counts = (4, 5, 6, 7, 8)
    rulings = (
        ("red_nines_many", "cap_four"),
        ("red_nines_lead", "last_resort"),
        ("red_nines_first", "all"),
        ("red_nines_out", "like_comet"),
        ("red_nines_continue", "may"),
        ("red_nines_requires_missing", True),
        ("red_nines_wild_stop", "stop"),
        ("cats_new_run", "may"),
        ("red_nines_king", "suit_king"),
    )
    scoring = "points"
    max_group = 8
    # Totality through ``lia2card``: 3.3 -> 1.4 s of CPU over its five player counts (2026-12-02, two pairs back to
    # back, load ~2.5); with Z3's default solver it took 10.9-69 million units of work, twice and more the 5 million below which
    # the second solver re-checks (``solving.RECHECK_BELOW_WORK``), so it was never re-checked and is not now.
    totality_tactics: tuple[str, ...] = LIA2CARD
    # a King played on a run, ending it or left standing: one engine action (``Encoding.engine_aliases``)
    engine_aliases = (((NATURAL, KING), (STANDING_KING, KING)),)
    # RUL-RED9-SUITS (red_nines_suits) changes which suits are added past four players, but not how many
    # cards of each rank nor how many red nines (one red and one black suit per two players either way),
    # so the counting encoding cannot tell the readings apart: unquantified, and varied by the cross-check.
    unquantified = ("deal_order", "deal_count", "game_tie", "first_dealer_tie", "first_dealer_wild", "red_nines_suits")
    outside = ()

    def fresh_state(self, prefix: str, players: int) -> SymState:
        names = tuple(wild_name(p) for p in range(players)) + (WILD_PLAYED,)
        return SymState.fresh(prefix, players, self.ranks, names)

    def abstract(self, state: DealState) -> AbstractState:
        if state.rules.variant != "red_nines" or state.rules.opera or state.drawn:
            raise ValueError("the Red Nines encoding covers variant red_nines without Opera")
        wild = set(state.wild)

        def counts(cards: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sum(1 for c in cards if c not in wild and rank_of(c) == r) for r in self.ranks)

        if state.dead:
            raise ValueError("Red Nines deals every card; this deal has a dead hand")
        extra = tuple((wild_name(p), sum(1 for c in h if c in wild)) for p, h in enumerate(state.hands))
        extra += ((WILD_PLAYED, sum(1 for c in state.played if c in wild)),)
        return from_deal(
            state,
            hands=tuple(counts(h) for h in state.hands),
            comet=NO_COMET,
            played=counts(state.played),
            dead=counts(state.dead),
            ranks=self.ranks,
            extra=extra,
        )

    # ------------------------------------------------------------ quantities

    def wilds(self, s: SymState, seat: int) -> z3.ArithRef:
        return s.x(wild_name(seat))

    def mover_wilds(self, s: SymState) -> z3.ArithRef:
        return at([self.wilds(s, p) for p in range(s.players)], s.to_move)

    def hand_size(self, s: SymState, seat: int) -> z3.ArithRef:
        return z3.Sum(*s.hands[seat]) + self.wilds(s, seat)

    def first_play(self, s: SymState) -> z3.BoolRef:
        return z3.Sum(*s.played) + s.x(WILD_PLAYED) == 0

    # ------------------------------------------------------------ invariants

    def well_formed(self, s: SymState) -> z3.BoolRef:
        n = s.players
        parts = [x >= 0 for h in s.hands for x in h] + [x >= 0 for x in s.played] + [x == 0 for x in s.dead]
        parts += [self.wilds(s, p) >= 0 for p in range(n)] + [s.x(WILD_PLAYED) >= 0]
        parts += [
            s.comet == NO_COMET,
            *self.seats_in_range(s),
            z3.Or(s.need == 0, z3.And(s.need >= 2, s.need <= KING), s.need == STANDING),
            z3.Or(s.out_wild_as == 0, self.in_rank_range(s.out_wild_as)),
            s.steps >= 0,
            s.comet_value >= 0,
        ]
        return z3.And(parts)

    def card_conservation(self, s: SymState) -> z3.BoolRef:
        """Per rank: hands + played = the pack's naturals; red nines held + played = the pack's red nines."""
        n = s.players
        per_rank = [
            z3.Sum(*[s.hands[p][i] for p in range(n)]) + s.played[i] + s.dead[i] == natural_count(n, r)
            for i, r in enumerate(self.ranks)
        ]
        wild = z3.Sum(*[self.wilds(s, p) for p in range(n)]) + s.x(WILD_PLAYED) == wild_count(n)
        return z3.And(*per_rank, wild)

    def turn_structure(self, s: SymState) -> z3.BoolRef:
        n = s.players
        sizes = [self.hand_size(s, p) for p in range(n)]
        return z3.And(
            *self.turn_order(s),
            *self.hands_in_play(s, sizes),
            z3.Implies(s.out_wild_as > 0, z3.And(s.winner >= 0, s.x(WILD_PLAYED) > 0)),
            # nothing played yet: nobody has played this turn, no run, no pass made a difference
            z3.Implies(self.first_play(s), z3.And(s.need == 0, z3.Not(s.turn_played), s.last_player == -1)),
        )

    def step_bound(self, s: SymState) -> z3.ArithRef:
        """``engine.step_bound``: cards = cards in hands + cards played (red nines included)."""
        cards = self.cards_in_hands(s) + z3.Sum(*s.played) + s.x(WILD_PLAYED)
        return cards + (cards + 1) * (2 * s.players)

    def stated_game_end(self, rules: Ruleset, players: int, totals: tuple[int, ...], played: int, agreed: int) -> bool:
        """R-RED9-GAME (002:86-87 "a number of hands equal to the number of players")."""
        return played >= players

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-RED9-DEAL (002:48 "the entire deck"): a 13-card suit per player, all dealt, 13 each."""
        return HAND, 0

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """R-RED9-DEAL: the whole pack dealt, 13 each, nothing played."""
        n = s.players
        parts = [x >= 0 for h in s.hands for x in h] + [x == 0 for x in s.dead] + [x == 0 for x in s.played]
        parts += [self.wilds(s, p) >= 0 for p in range(n)] + [s.x(WILD_PLAYED) == 0]
        size, _ = self.deal_size(n, rd)
        parts += [self.hand_size(s, p) == size for p in range(n)] + [x == 0 for x in s.chips]
        parts += [
            s.comet == NO_COMET,
            s.need == 0,
            *self.fresh_turn(s),
            self.dealt_from_pack(s),
        ]
        return z3.And(parts)

    def wild_dealt(self, s: SymState, wilds: int) -> z3.BoolRef:
        """R-RED9-DECK: the pack's red nines are split among the hands (``wild{p}``), none played."""
        held = [self.wilds(s, p) for p in range(s.players)]
        return z3.And(*[w >= 0 for w in held], z3.Sum(*held) == wilds)

    # ------------------------------------------------------------ transitions

    def group_size(self, kind: z3.ArithRef) -> z3.ArithRef:
        """Cards a natural play puts down: 1, or k for kind GROUP_BASE + k."""
        return z3.If(kind == NATURAL, 1, kind - GROUP_BASE)

    def wild_stops(self, rd: Readings) -> z3.BoolRef:
        """RUL-RED9-NINE-STOP = stop: a red nine ends the run (its player leads next); continues: the run
        goes on from the rank it stood for."""
        return rd["red_nines_wild_stop"]

    def may_pass_holding(self, rd: Readings) -> z3.BoolRef:
        """RUL-RED9-CONTINUE = may: a player holding the next rank may pass all the same (must: not)."""
        return rd["red_nines_continue"]

    def wild_may_stand_for(self, held: z3.ArithRef, rd: Readings) -> z3.BoolRef:
        """RUL-RED9-HOLDING: a red nine may stand for a rank of which the mover holds ``held`` natural cards
        (requires_missing: only when they hold none)."""
        return z3.Or(z3.Not(rd["red_nines_requires_missing"]), held == 0)

    def legal(self, s: SymState, a: SymAction, rd: Readings) -> z3.BoolRef:
        """R-RED9-RUN, R-RED9-WILD, R-RED9-FIRST-PLAY (``red_nines_legal_actions``)."""
        need = s.need
        wilds = self.mover_wilds(s)
        naturals = self.naturals_of_mover(s)
        count = self.mover_count(s, a.rank)
        k = a.kind - GROUP_BASE
        group = z3.And(
            a.kind >= GROUP_BASE + 2,
            a.kind <= GROUP_BASE + self.max_group,
            self.in_rank_range(a.rank),
            self.first_play(s),
            k <= count,
            z3.Implies(rd["red_nines_first"], k == count),
        )
        lead_natural = z3.And(a.kind == NATURAL, self.in_rank_range(a.rank), count >= 1)
        lead_wild = z3.And(
            a.kind == COMET,
            wilds >= 1,
            self.in_rank_range(a.rank),
            z3.Or(z3.Not(rd["red_nines_lead"]), naturals == 0),
            self.wild_may_stand_for(count, rd),
        )
        lead_pass = z3.And(a.kind == PASS, z3.Or(z3.And(naturals == 0, wilds == 0), self.may_pass_new_run(s, rd)))
        # a run standing at a King (RUL-RED9-KING = suit_king): nothing follows, not even a red nine
        matching = z3.If(need == STANDING, 0, self.mover_count(s, need))
        cont_natural = z3.And(a.kind == NATURAL, a.rank == need, matching >= 1)
        cont_standing = z3.And(
            a.kind == STANDING_KING, self.reading(rd, "red_nines_king"), a.rank == KING, need == KING, matching >= 1
        )
        cont_wild = z3.And(
            a.kind == COMET, a.rank == need, need <= KING, wilds >= 1, self.wild_may_stand_for(matching, rd)
        )
        cont_pass = z3.And(a.kind == PASS, z3.Or(matching == 0, self.may_pass_holding(rd)))
        return z3.And(
            z3.Not(self.terminal(s)),
            z3.Implies(a.kind == PASS, a.rank == 0),
            z3.If(
                need == 0,
                z3.Or(lead_natural, group, lead_wild, lead_pass),
                z3.Or(cont_natural, cont_standing, cont_wild, cont_pass),
            ),
        )

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """``red_nines_play``: the cards go to the pile; a King ends the run (a red nine too under
        RUL-RED9-NINE-STOP = stop); an empty hand wins."""
        n = s.players
        wild = a.kind == COMET
        taken = z3.If(wild, 0, z3.If(a.kind == STANDING_KING, 1, self.group_size(a.kind)))
        parts: list[z3.BoolRef] = []
        for p in range(n):
            mover = s.to_move == p
            for i, r in enumerate(self.ranks):
                parts.append(s2.hands[p][i] == s.hands[p][i] - z3.If(z3.And(mover, a.rank == r), taken, 0))
            parts.append(self.wilds(s2, p) == self.wilds(s, p) - z3.If(z3.And(mover, wild), 1, 0))
        for i, r in enumerate(self.ranks):
            parts.append(s2.played[i] == s.played[i] + z3.If(a.rank == r, taken, 0))
            parts.append(s2.dead[i] == s.dead[i])
        parts.append(s2.x(WILD_PLAYED) == s.x(WILD_PLAYED) + z3.If(wild, 1, 0))
        out = at([self.hand_size(s2, p) for p in range(n)], s.to_move) == 0
        parts += [x == y for x, y in zip(s.chips, s2.chips, strict=True)]
        parts += [
            s2.comet == s.comet,
            s2.need
            == z3.If(
                a.kind == STANDING_KING,
                STANDING,
                z3.If(z3.Or(a.rank == KING, z3.And(wild, self.wild_stops(rd))), 0, a.rank + 1),
            ),
            s2.to_move == s.to_move,
            s2.last_player == s.to_move,
            s2.turn_played,
            s2.winner == z3.If(out, s.to_move, -1),
            s2.out_wild_as == z3.If(z3.And(out, wild), a.rank, 0),
            s2.steps == s.steps + 1,
            s2.comet_value == s.comet_value,
        ]
        return z3.And(parts)

    def extra_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """A pass leaves the red nines where they are (plays move them in ``play_effect``)."""
        same = [s2.x(name) == s.x(name) for name, _ in s.extra]
        return z3.Implies(a.kind == PASS, z3.And(same))

    def all_actions(self) -> list[tuple[int, int]]:
        kinds = [NATURAL, COMET] + [GROUP_BASE + k for k in range(2, self.max_group + 1)]
        return [(PASS, 0), (STANDING_KING, KING)] + [(k, r) for k in kinds for r in self.ranks]

    def overapproximated(self, state: DealState, succ: AbstractState, model: set[AbstractState]) -> bool:
        """RUL-RED9-KING = suit_king: a King played on a run needing one ends it or leaves it standing, by its
        suit, which the encoding does not see; T allows both, so the outcome the model's Kings do not give
        is accepted (the other must be a model successor)."""
        if state.rules.red_nines_king != "suit_king" or state.need != KING or succ.need not in (0, STANDING):
            return False
        other = replace(succ, need=STANDING if succ.need == 0 else 0)
        return other in model

    # ------------------------------------------------------------ scoring

    def card_points(self, rank: int) -> int:
        """R-RED9-SCORE: Ace 20, every other card its rank (a red nine 9)."""
        return 20 if rank == 1 else rank

    def multiplier(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """R-RED9-DOUBLE: x2 per red nine held (RUL-RED9-MANY), x2 more (x4 for a 9) if the winner went
        out on a red nine (RUL-RED9-OUT)."""
        held = self.wilds(s, seat)
        top = wild_count(s.players)
        doubled: z3.ArithRef = z3.IntVal(2**top)
        for w in range(top - 1, -1, -1):
            doubled = z3.If(held == w, 2**w, doubled)
        capped = z3.If(held >= 2, 4, z3.If(held == 1, 2, 1))
        base = z3.If(rd["red_nines_many"], capped, doubled)
        out = z3.If(s.out_wild_as > 0, z3.If(z3.And(rd["red_nines_out"], s.out_wild_as == NINE), 4, 2), 1)
        return base * out

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """No chips: hands are scored in penalty points."""
        return z3.IntVal(0)

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """R-RED9-SCORE: 0 for the winner, the cards left times the multiplier for each other player."""
        out = []
        for p in range(s.players):
            left = z3.Sum(*[s.hands[p][i] * self.card_points(r) for i, r in enumerate(self.ranks)])
            left = left + NINE * self.wilds(s, p)
            out.append(z3.If(z3.Or(s.winner < 0, s.winner == p), 0, scaled(left, self.multiplier(s, p, rd))))
        return tuple(out)

    def settlement_problems(self, state: DealState) -> list[str]:
        from comet.engine import settlement

        paid = settlement(state) + state.payments
        return [f"chips changed hands in a points game: {paid}"] if paid else []


ENCODING = RedNinesEncoding
