"""Commit as 002:32-45 describes it (R-COMMIT-C-*), over the card-level encoding of ``commit_common``.

The deck is the 51 cards less some sevens and eights, which lie at ``REMOVED`` for the whole deal
(RUL-COMMIT-C-REMOVED: the fixed black ones, or any of the right number); the whole rest is dealt, so
nothing is ever ``DEAD``.  A new run starts with one of the mover's lowest natural cards
(RUL-COMMIT-C-LOWEST: any of the lowest rank, or the lowest rank then suit), or the 9D standing for
the King (RUL-COMMIT-C-COMET-LEAD; last_resort: only a hand of nothing else, which goes out with it as
a 9).  A run goes on with the next card of its suit or the branch card; a player
holding neither passes ("without").  The 9D is wild (action ``(COMET, rank)``): during a run it stands
for the card needed, scores 2 and opens the replaced card as the branch (RUL-COMMIT-C-COMET = stop: it
ends the run instead).  A King ends the run and scores 1 (the 9D as a King: RUL-COMMIT-C-COMET-KING).
Points scored in play are the fields ``score0..``; at the end the winner scores 1, 2 per King and 1
per other card left in the other hands, and a player caught with the 9D gives everyone else 1.
No chips move.
"""

from __future__ import annotations

import z3
from comet.cards import DIAMONDS, KING, card
from comet.games.commit_cats.rules import ALL_SEVENS, CATS_TABLE, FIXED_EIGHT, FIXED_SEVENS, OTHER_EIGHTS
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.games.commit_common import (
    BRANCH,
    DEAD,
    DECK51,
    NINE_D,
    NINE_LAST,
    PLAYED,
    REMOVED,
    SUIT,
    NewRunPassOn,
    SuitedEncoding,
    loc_name,
)
from comet_proofs.symbolic import CARD, COMET, PASS, Readings, SymAction, SymState
from comet_proofs.terms import at, scaled

NATURALS: tuple[int, ...] = tuple(c for c in DECK51 if c != NINE_D)
EIGHT_D = card(8, DIAMONDS)
KINGS = tuple(card(KING, s) for s in range(4))
REMOVABLE = ALL_SEVENS + OTHER_EIGHTS
COMET_RANKS = tuple(range(2, KING + 1))  # the Comet stands for the card a run needs: rank 2..K (9 to go out)


def score_name(seat: int) -> str:
    return f"score{seat}"


class CommitCatsEncoding(NewRunPassOn, SuitedEncoding):
    """Preset ``commit_cats``: points, 2-8 players."""

    name = "commit_cats"
    player_counts = tuple(sorted(CATS_TABLE))
    scoring = "points"
    rulings = (
        ("commit_removed", "any"),
        ("commit_lowest", "rank_then_suit"),
        ("commit_comet", "stop"),
        ("commit_comet_king", "comet_and_king"),
        ("cats_new_run", "may"),
        ("commit_comet_lead", "last_resort"),
        ("commit_comet_branch", "player_only"),
        ("commit_comet_out", "doubled"),
        ("commit_comet_card", "any_higher"),
        ("commit_stops", "missing_successor"),
        ("cats_continue", "may"),
    )
    # RUL-COMMIT-C-TARGET decides only when the game ends.
    # RUL-COMMIT-C-RACE (commit_race) decides where the game stops reading a deal, never a transition,
    # a deal's points or its end (spec/proofs.md): unquantified like RUL-COMMIT-C-TARGET.
    # RUL-DEAL-ORDER is fixed for this game by 002:42 (``Variant.fixed``), so it is no ruling here.
    unquantified = ("commit_tie", "commit_race", "first_dealer_tie", "first_dealer_wild")
    outside = ()

    # ------------------------------------------------------------ states

    def seat_fields(self, players: int) -> tuple[str, ...]:
        """The shared card-level state plus one score field per seat (``DealState.scores``)."""
        return super().seat_fields(players) + tuple(score_name(p) for p in range(players))

    def variant_seat_extra(self, state: DealState) -> tuple[tuple[str, int], ...]:
        scores = state.scores or (0,) * state.players
        return tuple((score_name(p), x) for p, x in enumerate(scores))

    def scores_hypothesis(self, s: SymState) -> z3.BoolRef:
        """ "Deal scores non-negative" from the well-formed state (scores and hand counts >= 0) and no chips:
        parts of ``Inv``, so the same fact; from the whole ``Inv`` Z3 searched the counts' link to the cards
        first (commit_cats at 6 players: 2.9 million units of work against 0.24 million, 2026-12-02)."""
        return z3.And(self.well_formed(s), self.no_chips(s))

    def score(self, s: SymState, seat: int) -> z3.ArithRef:
        return s.x(score_name(seat))

    def play_points(self, s: SymState, seat: int) -> z3.ArithRef | None:
        return self.score(s, seat)

    # ------------------------------------------------------------ invariants

    def valid_place(self, x: z3.ArithRef, players: int) -> z3.BoolRef:
        """No dead hand in 002's Commit: a card is in a hand, played, or taken out of the deck."""
        return z3.Or(x == PLAYED, x == REMOVED, z3.And(x >= 0, x < players))

    def card_conservation(self, s: SymState) -> z3.BoolRef:
        """Every card of the deck is in exactly one place (a hand, played, or removed), stated as a
        pseudo-Boolean count of ``commit_common``'s 0/1 indicators: the same fact as the shared
        disjunction (``SuitedEncoding.card_conservation``), but the inductive step is far cheaper this way
        here (commit_cats at 5 players: 8 s for the joint step against 34 s with the disjunction,
        2026-12-02; the arithmetic sum made the initial case take from 1 s to a minute)."""
        places = (*range(s.players), PLAYED, DEAD, REMOVED)
        return z3.And([z3.PbEq([(self.loc(s, c) == place, 1) for place in places], 1) for c in DECK51])

    def initial_forms(self, s: SymState) -> dict[str, z3.BoolRef]:
        """Card conservation's initial case through the shared disjunction (``SuitedEncoding.card_conservation``:
        a unit conflict per card from ``Init``), then the disjunction implies the count card by card: 0.3 s
        against 2.5 s for the count straight from ``Init`` at 8 players (2026-12-02)."""
        return {"card conservation": SuitedEncoding.card_conservation(self, s)}

    def removed_count(self, s: SymState, cards: tuple[int, ...]) -> z3.ArithRef:
        return z3.Sum(*[z3.If(self.loc(s, c) == REMOVED, 1, 0) for c in cards])

    def deck_shape(self, s: SymState) -> z3.BoolRef:
        """R-COMMIT-C-DECK: exactly the table's number of sevens and eights are out, nothing else."""
        _, sevens, eights = CATS_TABLE[s.players]
        return z3.And(
            *[self.loc(s, c) != REMOVED for c in DECK51 if c not in REMOVABLE],
            self.removed_count(s, ALL_SEVENS) == sevens,
            self.removed_count(s, OTHER_EIGHTS) == eights,
        )

    def well_formed(self, s: SymState) -> z3.BoolRef:
        n = s.players
        return z3.And(
            super().well_formed(s),
            self.deck_shape(s),
            *[self.score(s, p) >= 0 for p in range(n)],
            # the branch is the card the Comet replaced: the run's last rank, in its suit
            z3.Implies(s.x(BRANCH) != 0, s.x(BRANCH) == (s.need - 1) * 4 + s.x(SUIT)),
            z3.Or(s.out_wild_as == 0, z3.And(s.out_wild_as >= 2, s.out_wild_as <= KING)),
            z3.Implies(s.out_wild_as > 0, z3.And(s.winner >= 0, self.loc(s, NINE_D) == PLAYED)),
        )

    # ------------------------------------------------------------ initial deals

    def stated_game_end(self, rules: Ruleset, players: int, totals: tuple[int, ...], played: int, agreed: int) -> bool:
        """R-COMMIT-C-GAME (002:45 "The first player to accumulate 100 total points"); RUL-COMMIT-C-TARGET:
        tied leaders share, or play on until one leads alone."""
        best = max(totals)
        alone = totals.count(best) == 1
        return (best >= 100 and (rules.commit_tie == "share" or alone)) or played >= agreed

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """R-COMMIT-C-DEAL (002:32-41): 002's table, the whole reduced deck, no dead hand."""
        return {2: 25, 3: 17, 4: 12, 5: 10, 6: 8, 7: 7, 8: 6}[players], 0

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        n = s.players
        size, _ = self.deal_size(n, rd)
        _, sevens, eights = CATS_TABLE[n]
        fixed = FIXED_SEVENS[:sevens] + ((FIXED_EIGHT,) if eights else ())
        parts = [z3.Or([self.loc(s, c) == place for place in (REMOVED, *range(n))]) for c in DECK51]
        parts += [self.hand_size(s, p) == size for p in range(n)]
        parts += [self.hand_counts(s)]
        parts += [self.deck_shape(s)]
        # RUL-COMMIT-C-REMOVED = fixed: the black sevens first, then the 8C
        parts += [z3.Implies(z3.Not(rd["commit_removed"]), z3.And([self.loc(s, c) == REMOVED for c in fixed]))]
        parts += [x == 0 for x in s.chips] + [self.score(s, p) == 0 for p in range(n)]
        parts += [
            s.need == 0,
            s.x(SUIT) == -1,
            s.x(BRANCH) == 0,
            s.x(NINE_LAST) == 0,
            *self.fresh_turn(s),
        ]
        return z3.And(parts)

    # ------------------------------------------------------------ transitions

    def lowest(self, s: SymState, c: z3.ArithRef, rd: Readings) -> z3.BoolRef:
        """``lowest_cards`` (R-COMMIT-C-LEAD): no natural card the mover holds is lower than ``c``
        (by rank, Ace low; RUL-COMMIT-C-LOWEST = rank_then_suit: by rank, then suit)."""
        by_rank = z3.And([z3.Implies(self.loc(s, k) == s.to_move, k / 4 >= c / 4) for k in NATURALS])
        by_code = z3.And([z3.Implies(self.loc(s, k) == s.to_move, k >= c) for k in NATURALS])
        return z3.If(rd["commit_lowest"], by_code, by_rank)

    def legal(self, s: SymState, a: SymAction, rd: Readings) -> z3.BoolRef:
        """``cats_legal_actions`` (R-COMMIT-C-LEAD, R-COMMIT-C-SUIT, R-COMMIT-C-COMET)."""
        new_run = z3.And(s.need == 0, s.x(BRANCH) == 0)
        natural = z3.And(a.kind == CARD, a.rank != NINE_D, self.holds(s, s.to_move, a.rank))
        holds_comet = self.loc(s, NINE_D) == s.to_move
        no_naturals = z3.And([self.loc(s, k) != s.to_move for k in NATURALS])
        lead = z3.Or(
            z3.And(natural, self.lowest(s, a.rank, rd)),
            # RUL-COMMIT-C-COMET-LEAD: the Comet leads as the King (last_resort: as a 9, from a hand of nothing else)
            z3.And(
                a.kind == COMET,
                holds_comet,
                z3.If(rd["commit_comet_lead"], z3.And(a.rank == 9, no_naturals), a.rank == KING),
            ),
            z3.And(a.kind == PASS, a.rank == 0, self.may_pass_new_run(s, rd)),
        )
        cont = z3.Or(
            z3.And(natural, self.wanted(s, a.rank)),
            # RUL-COMMIT-C-COMET-CARD: the card needed, or (any_higher) any card of the suit above the run
            z3.And(
                a.kind == COMET,
                holds_comet,
                s.need > 0,
                z3.If(rd["commit_comet_card"], z3.And(a.rank >= s.need, a.rank <= KING), a.rank == s.need),
            ),
            z3.And(
                a.kind == PASS,
                a.rank == 0,
                z3.Or(z3.Not(self.mover_holds_wanted(s, natural_only=True)), self.may_stop(s, rd)),
            ),
        )
        return z3.And(z3.Not(self.terminal(s)), z3.If(new_run, lead, cont))

    def may_stop(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """RUL-COMMIT-C-CONTINUE = may: a player who has played a card this turn may say "Without" although
        they hold the next card (must: not)."""
        return z3.And(rd["cats_continue"], s.turn_played)

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        """``cats_play``: a natural card extends the run in its suit (the branch card keeps the run
        where it is); the 9D stands for the card needed, scores 2 and opens the replaced card as the
        branch (or ends the run under RUL-COMMIT-C-COMET = stop); a King ends the run and scores 1."""
        n = s.players
        wild = a.kind == COMET
        c = z3.If(wild, NINE_D, a.rank)
        rank = z3.If(wild, a.rank, a.rank / 4)
        running = s.need > 0
        take_branch = z3.And(z3.Not(wild), s.x(BRANCH) != 0, c == s.x(BRANCH), running, rank == s.need - 1)
        king = rank == KING
        comet_need = z3.If(z3.And(running, z3.Not(rd["commit_comet"])), rank + 1, 0)
        going = z3.If(king, 0, z3.If(wild, comet_need, z3.If(take_branch, s.need, rank + 1)))
        going_suit = z3.If(z3.Or(wild, take_branch), s.x(SUIT), a.rank % 4)
        # RUL-COMMIT-C-STOPS = missing_successor: the run's next card is out of the deck (a removed seven or
        # eight, or the 8D), so the card just played ends the run like a King
        nxt = going * 4 + going_suit
        missing = z3.Or([z3.And(nxt == k, self.loc(s, k) == REMOVED) for k in REMOVABLE] + [nxt == EIGHT_D])
        need = z3.If(z3.And(rd["commit_stops"], going > 0, missing), 0, going)
        suit = z3.If(need == 0, -1, going_suit)
        branch = z3.If(z3.And(wild, need > 0), rank * 4 + s.x(SUIT), 0)
        gain = z3.If(wild, 2, 0) + z3.If(z3.And(king, z3.Or(z3.Not(wild), rd["commit_comet_king"])), 1, 0)
        parts = [self.loc(s2, k) == z3.If(c == k, PLAYED, self.loc(s, k)) for k in DECK51]
        parts += [self.score(s2, p) == self.score(s, p) + z3.If(s.to_move == p, gain, 0) for p in range(n)]
        parts += [x == y for x, y in zip(s.chips, s2.chips, strict=True)]
        out = at([self.hand_size(s2, p) for p in range(n)], s.to_move) == 0  # the mover's hand is empty
        parts += [
            s2.need == need,
            s2.x(SUIT) == suit,
            s2.x(BRANCH) == branch,
            s2.x(NINE_LAST) == z3.If(wild, 1, 0),
            s2.to_move == s.to_move,
            s2.last_player == s.to_move,
            s2.turn_played,
            s2.winner == z3.If(out, s.to_move, -1),
            s2.out_wild_as == z3.If(z3.And(out, wild), rank, 0),
            s2.steps == s.steps + 1,
            s2.comet_value == s.comet_value,
        ]
        return z3.And(parts)

    def pass_effect_rd(self, s: SymState, s2: SymState, rd: Readings) -> z3.BoolRef:
        """``cats_end_turn``: the turn passes left; back at the run's last player the run (its suit
        and branch) ends (R-STOP-STUCK)."""
        n = s.players
        nxt = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        need = z3.If(nxt == s.last_player, 0, s.need)
        names = tuple(loc_name(k) for k in DECK51) + (NINE_LAST,) + tuple(score_name(p) for p in range(n))
        parts = self.keep(s, s2, names)
        parts += [x == y for x, y in zip(s.chips, s2.chips, strict=True)]
        parts += [
            s2.need == need,
            s2.x(SUIT) == z3.If(need == 0, -1, s.x(SUIT)),
            # RUL-COMMIT-C-REPLACED = player_only: the replaced card lapses with its player's turn
            s2.x(BRANCH) == z3.If(z3.Or(need == 0, rd["commit_comet_branch"]), 0, s.x(BRANCH)),
            *self.passed_on(s, s2, nxt),
        ]
        return z3.And(parts)

    def action_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """The pass, one case per natural card, one per rank the Comet stands for."""
        return (
            [a.kind == PASS]
            + [z3.And(a.kind == CARD, a.rank == c) for c in NATURALS]
            + [z3.And(a.kind == COMET, a.rank == r) for r in COMET_RANKS]
        )

    def card_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """The pass, one case per natural card, and the Comet once whatever it stands for (every such play
        moves the 9D): the split of the goals that count cards (``StepSlice.by_card``), 53 cases instead of
        64 (commit_cats at 5 players: 5.8 -> 4.8 million units of Z3's work, 2026-12-02)."""
        return [a.kind == PASS] + [z3.And(a.kind == CARD, a.rank == c) for c in NATURALS] + [a.kind == COMET]

    def all_actions(self) -> list[tuple[int, int]]:
        return [(PASS, 0)] + [(CARD, c) for c in NATURALS] + [(COMET, r) for r in COMET_RANKS]

    # ------------------------------------------------------------ scoring

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        """No chips are settled (``no_chips``): the deal is scored in points."""
        return z3.IntVal(0)

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """``cats_points``: points scored in play; the winner 1 + 2 per King + 1 per other card in the
        other hands (R-COMMIT-C-OUT); a player caught with the 9D gives every other player 1
        (R-COMMIT-C-CAUGHT)."""
        n = s.players
        left = [self.hand_size(s, q) + z3.Sum(*[z3.If(self.loc(s, k) == q, 1, 0) for k in KINGS]) for q in range(n)]
        caught = self.loc(s, NINE_D)
        # RUL-COMMIT-C-COMET-OUT = doubled: going out on the Comet doubles the hands (x4 as a 9)
        mult = z3.If(z3.And(rd["commit_comet_out"], s.out_wild_as > 0), z3.If(s.out_wild_as == 9, 4, 2), 1)
        out: list[z3.ArithRef] = []
        for p in range(n):
            won = z3.If(s.winner == p, 1 + scaled(z3.Sum(*[left[q] for q in range(n) if q != p]), mult), 0)
            gift = z3.If(z3.And(caught >= 0, caught != p), 1, 0)
            out.append(z3.If(s.winner >= 0, self.score(s, p) + won + gift, 0))
        return tuple(out)


ENCODING = CommitCatsEncoding
