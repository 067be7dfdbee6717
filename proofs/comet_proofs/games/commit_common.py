"""A card-level encoding for the suit-following Commit games (shared by commit_hoyle and commit_cats).

Suits matter in Commit (a run follows one suit), so the counting abstraction of the standard game
would lose what the rules look at.  Here every card of the 51-card deck (52 less the 8D) has a
location variable ``loc.<card>``: a seat, ``DEAD`` (face down, never played), ``PLAYED`` or
``REMOVED`` (002's sevens and eights taken out).  The standard encoding's rows are kept as derived
terms (``hands[p][i]`` is 1 when card ``i`` is at seat p), so the invariants, the step bound and the
ranking function of ``StandardEncoding`` read them unchanged; the single ``comet`` field is a
constant ``NO_COMET`` (the 9D is an ordinary location).

Extra fields besides the locations: ``suit`` (the run's suit, -1 with no run), ``branch`` (a second
card that also continues the run, 0 for none) and ``nine_last`` (the last card played was the 9D).
The run is represented by ``need`` (the rank after the run's last card), as in the standard game:
the model looks at nothing else of ``DealState.run`` but its last rank and whether it is empty.
Actions are ``(CARD, card code)``, ``(PASS, 0)`` and, for a wild play, ``(COMET, rank)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import z3
from comet.cards import DIAMONDS, KING, Card, card, card_text
from comet.engine import packs_in_rotation
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import from_deal
from comet_proofs.concrete import deal_state, extra_of
from comet_proofs.encoding import TERMINATION_GOAL, OwnChipRules, StepSlice
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.solving import LIA2CARD
from comet_proofs.symbolic import CARD, PASS, AbstractState, Readings, SymAction, SymState
from comet_proofs.terms import at, indicator

NINE_D = card(9, DIAMONDS)
DECK51: tuple[int, ...] = tuple(c for c in range(card(1, 0), card(KING, 3) + 1) if c != card(8, DIAMONDS))
DEAD, PLAYED, REMOVED = -1, -2, -4
NO_COMET = -3
SUIT, BRANCH, NINE_LAST = "suit", "branch", "nine_last"


def loc_name(c: int) -> str:
    return f"loc.{card_text(c)}"


def held_name(seat: int) -> str:
    """The field counting the cards in ``seat``'s hand (``SuitedEncoding.hand_size``)."""
    return f"held{seat}"


HAND_COUNTS = "hand counts"


class NewRunPassOn(StandardEncoding):
    """RUL-CATS-NEW-RUN over an encoding (commit_cats and red_nines, as the model's
    ``commit_common.may_pass_new_run`` serves both): the pass of a new run to the left neighbour, and the
    pass budget and ranking that still fall under either reading."""

    def may_pass_new_run(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """``commit_common.may_pass_new_run``: RUL-CATS-NEW-RUN = may: a player who has just ended a run this
        turn, or to whom a stuck run has come back, may pass the new run to the left neighbour."""
        return z3.And(rd["cats_new_run"], z3.Or(s.turn_played, s.to_move == s.last_player))

    def pass_budget(self, s: SymState) -> z3.ArithRef:
        """How many passes can still come before someone must play, under either reading of
        RUL-CATS-NEW-RUN: a run in progress, its seats back to the last player and two more (the last
        player's new run may be passed on once); a new run 2 while its player may pass it on (it ended
        this turn, or came back stuck), else 1 for a hand without natural cards (Commit: only the 9D; Red
        Nines: only red nines, and it may lead with one), else 0."""
        n = s.players
        dist = (s.last_player - s.to_move + n) % n
        seats_to_last = z3.If(dist == 0, n, dist)
        no_naturals = self.naturals_of_mover(s) == 0
        passable = z3.Or(s.turn_played, s.to_move == s.last_player)
        return z3.If(s.need > 0, seats_to_last + 2, z3.If(passable, 2, z3.If(no_naturals, 1, 0)))

    def ranking(self, s: SymState) -> z3.ArithRef:
        """Cards in hands weigh more than any run of passes (at most players + 2, see ``pass_budget``)."""
        return self.cards_in_hands(s) * (s.players + 3) + self.pass_budget(s)


class SuitedEncoding(OwnChipRules, StandardEncoding):
    """Location-per-card encoding; subclasses give the legal actions, effects and scoring."""

    card_level = True
    # Z3's default solver for the joint step's goals no slice names (none here); the whole joint step through
    # ``lia2card`` was twice as slow (5 players: 6.3 -> 15.1 s), before it was sliced (``step_slices``)
    step_tactics: tuple[str, ...] = ()
    proof_weight = 4.0  # measured: about four times a counting encoding's seconds per obligation

    ranks = DECK51
    labels = tuple(card_text(c) for c in DECK51)
    pack_size = len(DECK51)
    # subclasses append their own fields after these
    extra_fields = tuple(loc_name(c) for c in DECK51) + (SUIT, BRANCH, NINE_LAST)

    # ------------------------------------------------------------ states

    def seat_fields(self, players: int) -> tuple[str, ...]:
        """Extra fields per seat, after ``extra_fields``: the number of cards in each hand (``held_name``)."""
        return tuple(held_name(p) for p in range(players))

    def fresh_state(self, prefix: str, players: int) -> SymState:
        names = self.extra_fields + self.seat_fields(players)
        extra = tuple((name, z3.Int(f"{prefix}.{name}")) for name in names)
        locs = [term for name, term in extra[: len(DECK51)]]

        def where(place: int) -> tuple[z3.ArithRef, ...]:
            at_place = z3.IntVal(place)
            return tuple(indicator(x, at_place) for x in locs)

        return SymState(
            players=players,
            hands=tuple(where(p) for p in range(players)),
            comet=z3.IntVal(NO_COMET),
            played=where(PLAYED),
            dead=where(DEAD),
            need=z3.Int(f"{prefix}.need"),
            to_move=z3.Int(f"{prefix}.to_move"),
            last_player=z3.Int(f"{prefix}.last_player"),
            turn_played=z3.Bool(f"{prefix}.turn_played"),
            chips=tuple(z3.Int(f"{prefix}.chips{p}") for p in range(players)),
            winner=z3.Int(f"{prefix}.winner"),
            out_wild_as=z3.Int(f"{prefix}.out_wild_as"),
            steps=z3.Int(f"{prefix}.steps"),
            comet_value=z3.Int(f"{prefix}.comet_value"),
            ranks=self.ranks,
            extra=extra,
            labels=self.labels,
        )

    def variant_abstract_extra(self, state: DealState) -> tuple[tuple[str, int], ...]:
        return ()

    def variant_seat_extra(self, state: DealState) -> tuple[tuple[str, int], ...]:
        """The values of a game's own ``seat_fields`` in ``state``."""
        return ()

    def abstract(self, state: DealState) -> AbstractState:
        if state.rules.variant != self.name or state.rules.opera or state.drawn:
            raise ValueError(f"the {self.name} encoding covers variant {self.name} without Opera")
        place: dict[int, int] = {}
        for where, cards in [(p, h) for p, h in enumerate(state.hands)] + [(DEAD, state.dead), (PLAYED, state.played)]:
            for c in cards:
                if c in place or c not in DECK51:
                    raise ValueError(f"card {card_text(c)} is twice in the deal, or not in the 51-card deck")
                place[c] = where
        locs = tuple(place.get(c, REMOVED) for c in DECK51)

        def row(where: int) -> tuple[int, ...]:
            return tuple(1 if x == where else 0 for x in locs)

        nine_last = int(bool(state.played) and state.played[-1] == NINE_D)
        extra = tuple((loc_name(c), x) for c, x in zip(DECK51, locs, strict=True))
        extra += ((SUIT, state.run_suit), (BRANCH, state.branch), (NINE_LAST, nine_last))
        extra += self.variant_abstract_extra(state)
        extra += tuple((held_name(p), len(h)) for p, h in enumerate(state.hands))
        extra += self.variant_seat_extra(state)
        return from_deal(
            state,
            hands=tuple(row(p) for p in range(state.players)),
            comet=NO_COMET,
            played=row(PLAYED),
            dead=row(DEAD),
            ranks=self.ranks,
            extra=extra,
            labels=self.labels,
        )

    # ------------------------------------------------------------ helpers

    def loc(self, s: SymState, c: int) -> z3.ArithRef:
        return s.x(loc_name(c))

    def holds(self, s: SymState, who: z3.ArithRef, c: z3.ArithRef) -> z3.BoolRef:
        """Seat ``who`` holds the card with symbolic code ``c``."""
        return z3.Or([z3.And(c == k, self.loc(s, k) == who) for k in DECK51])

    def located(self, s: SymState, c: z3.ArithRef, place: int) -> z3.BoolRef:
        return z3.Or([z3.And(c == k, self.loc(s, k) == place) for k in DECK51])

    def hand_size(self, s: SymState, seat: int) -> z3.ArithRef:
        """The number of cards in ``seat``'s hand: the field ``held_name(seat)``, tied to the cards by the
        invariant part "hand counts" (``hand_counts``).  Stated over the cards (a sum of 51 0/1 indicators per
        seat), "no hand is empty" and the ranking's decrease made Z3 search every card's place in every case
        of the inductive step; over the counts they are arithmetic on a few integers, proved with one case
        per action kind (``step_slices``), and only the counts' link to the cards is proved card by card."""
        return s.x(held_name(seat))

    def cards_held(self, s: SymState, seat: int) -> z3.ArithRef:
        """The cards at ``seat``, counted: the sum of their 0/1 indicators."""
        return z3.Sum(*s.hands[seat])

    def naturals_of_mover(self, s: SymState) -> z3.ArithRef:
        """The mover's cards (every card of these decks is a row of ``hands``, the 9D too)."""
        return at([self.hand_size(s, p) for p in range(s.players)], s.to_move)

    def hand_counts(self, s: SymState) -> z3.BoolRef:
        """Each seat's count (``hand_size``) is the number of cards at the seat (``cards_held``)."""
        return z3.And([self.hand_size(s, p) == self.cards_held(s, p) for p in range(s.players)])

    def invariant_parts(self, s: SymState) -> dict[str, z3.BoolRef]:
        return {**super().invariant_parts(s), HAND_COUNTS: self.hand_counts(s)}

    def step_slices(self, parts: Sequence[str]) -> tuple[StepSlice, ...]:
        """The joint inductive step in two slices: card by card (``action_cases``) the goals that count cards
        (the hand counts, the step bound's cards), from the hand counts and the well-formed state; and one case
        per action kind for every other goal, from every part of ``Inv(s)`` but those two (the step bound's
        sums and the counts' link are what made each card's case cost a search).  Measured 2026-12-02 (Z3's
        work, summed over the cases): commit_cats at 5 players 21.0M -> 8.1M, commit_hoyle at 6 players
        26.1M -> 5.4M.  The card-by-card slice goes through ``lia2card`` (its goals are sums of 0/1 indicators): at
        5 and 6 players 0.94/0.93 -> 0.65/0.58 s of CPU (2026-12-02); the other slice not (no gain, or slower)."""
        counted = (HAND_COUNTS, *[p for p in parts if p.startswith("step bound")])
        rest = tuple(p for p in parts if p not in counted)
        return (
            StepSlice(counted, (HAND_COUNTS, "well-formed state"), by_card=True, tactics=LIA2CARD),
            StepSlice((*rest, TERMINATION_GOAL), rest, by_card=False),
        )

    def run_next(self, s: SymState) -> z3.ArithRef:
        """The card of the run's suit after its last card (meaningful while a run is in progress)."""
        return s.need * 4 + s.x(SUIT)

    def wanted(self, s: SymState, c: z3.ArithRef) -> z3.BoolRef:
        """``commit_common.continuations``: the next card of the run's suit, or the branch card."""
        return z3.Or(z3.And(s.need > 0, c == self.run_next(s)), z3.And(s.x(BRANCH) != 0, c == s.x(BRANCH)))

    def mover_holds_wanted(self, s: SymState, natural_only: bool = False) -> z3.BoolRef:
        cards = [k for k in DECK51 if not (natural_only and k == NINE_D)]
        return z3.Or([z3.And(self.wanted(s, z3.IntVal(k)), self.loc(s, k) == s.to_move) for k in cards])

    def keep(self, s: SymState, s2: SymState, names: tuple[str, ...]) -> list[z3.BoolRef]:
        return [s2.x(name) == s.x(name) for name in names]

    # ------------------------------------------------------------ invariants

    def valid_place(self, x: z3.ArithRef, players: int) -> z3.BoolRef:
        return z3.Or(x == DEAD, x == PLAYED, z3.And(x >= 0, x < players))

    def well_formed(self, s: SymState) -> z3.BoolRef:
        n = s.players
        parts = [self.valid_place(self.loc(s, c), n) for c in DECK51]
        parts += [
            *self.seats_in_range(s),
            z3.Or(s.need == 0, z3.And(s.need >= 2, s.need <= KING)),
            s.x(SUIT) >= -1,
            s.x(SUIT) <= 3,
            z3.Or(s.x(NINE_LAST) == 0, s.x(NINE_LAST) == 1),
            s.steps >= 0,
            s.comet_value >= 0,
            # no hand count is negative: a fact about the counts alone, which "deal scores non-negative" reads
            # (``CommitCatsEncoding.scores_hypothesis``) without the counts' link to the cards
            *[self.hand_size(s, p) >= 0 for p in range(n)],
        ]
        return z3.And(parts)

    def card_conservation(self, s: SymState) -> z3.BoolRef:
        """Every card of the deck is in exactly one place (a hand, dead, played, or removed).  A card's
        place is one variable, so it cannot be in two places at once, and "exactly one" is "one of the
        places": stated so (a disjunction of equalities per card), the initial case is a unit conflict
        per card, where the count of the same 0/1 indicators made Z3 search the deals first
        (commit_hoyle, 2-8 players, 2026-12-02: 0.7 s against 8.9 s for the initial cases, and the joint
        inductive step 37% less of Z3's work; commit_cats keeps a pseudo-Boolean count, which its step
        needs).  ``counted_conservation`` is the count the encodings stated before;
        ``tests/test_proofs_commit.py`` proves the two the same for every player count."""
        places = (*range(s.players), PLAYED, DEAD, REMOVED)
        return z3.And([z3.Or([self.loc(s, c) == place for place in places]) for c in DECK51])

    def counted_conservation(self, s: SymState) -> z3.BoolRef:
        """Card conservation as a count: per card, its indicators over the places (the hands' rows,
        played, dead, removed) sum to one."""
        n = s.players
        return z3.And(
            [
                z3.Sum(*[s.hands[p][i] for p in range(n)])
                + s.played[i]
                + s.dead[i]
                + z3.If(self.loc(s, c) == REMOVED, 1, 0)
                == 1
                for i, c in enumerate(DECK51)
            ]
        )

    def turn_structure(self, s: SymState) -> z3.BoolRef:
        n = s.players
        sizes = [self.hand_size(s, p) for p in range(n)]
        return z3.And(
            *self.turn_order(s),
            *self.hands_in_play(s, sizes),
            # a run has a suit exactly while it is in progress; a branch only during a run
            (s.need > 0) == (s.x(SUIT) >= 0),
            z3.Implies(s.x(BRANCH) != 0, s.need > 0),
            z3.Implies(s.x(NINE_LAST) == 1, self.loc(s, NINE_D) == PLAYED),
        )

    def in_deck(self, c: z3.ArithRef) -> z3.BoolRef:
        return z3.Or([c == k for k in DECK51])

    def action_cases(self, a: SymAction) -> list[z3.BoolRef]:
        """One case per card played (and the pass): with the card fixed, the sums over the locations
        differ in one term only, which Z3 sees at once; a symbolic card makes it search."""
        return [a.kind == PASS] + [z3.And(a.kind == CARD, a.rank == c) for c in DECK51]

    def all_actions(self) -> list[tuple[int, int]]:
        return [(PASS, 0)] + [(CARD, c) for c in DECK51]

    def settlement_problems(self, state: DealState) -> list[str]:
        return []

    # ------------------------------------------------------------ the pass (it depends on a ruling)

    def pass_effect(self, s: SymState, s2: SymState) -> z3.BoolRef:
        """See ``pass_effect_rd``: a Commit pass depends on a ruling."""
        raise NotImplementedError("the Commit pass depends on a ruling: see transition")

    def pass_effect_rd(self, s: SymState, s2: SymState, rd: Readings) -> z3.BoolRef:
        """What a pass does under the readings ``rd`` (each Commit game's own)."""
        raise NotImplementedError

    def passed_on(self, s: SymState, s2: SymState, nxt: z3.ArithRef) -> list[z3.BoolRef]:
        """A pass hands the turn to ``nxt``, one step later, and changes nothing else of the turn or outcome."""
        return [
            s2.to_move == nxt,
            s2.last_player == s.last_player,
            z3.Not(s2.turn_played),
            s2.winner == s.winner,
            s2.out_wild_as == s.out_wild_as,
            s2.steps == s.steps + 1,
            s2.comet_value == s.comet_value,
        ]

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        effect = z3.If(a.kind == PASS, self.pass_effect_rd(s, s2, rd), self.play_effect(s, a, s2, rd))
        return z3.And(self.legal(s, a, rd), effect, self.count_effect(s, a, s2))

    def count_effect(self, s: SymState, a: SymAction, s2: SymState) -> z3.BoolRef:
        """The hand counts after an action: a play takes one card from the mover's hand (the Comet's wild
        play too: the 9D), a pass none."""
        played = a.kind != PASS
        return z3.And(
            [
                self.hand_size(s2, p) == self.hand_size(s, p) - z3.If(z3.And(played, s.to_move == p), 1, 0)
                for p in range(s.players)
            ]
        )

    # ------------------------------------------------------------ back to a model state

    def concrete_state(self, a: AbstractState, rules: Ruleset) -> DealState | None:
        """The model state with every card where ``a`` puts it (``concrete.concretise``)."""
        pack = packs_in_rotation(rules, a.players)[0]
        extra = extra_of(a)
        n = a.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        dead: list[Card] = []
        played: list[Card] = []
        for c in DECK51:
            place = extra[loc_name(c)]
            if 0 <= place < n:
                hands[place].append(c)
            elif place == DEAD:
                dead.append(c)
            elif place == PLAYED:
                played.append(c)
        if NINE_D in played:  # the 9D last exactly when the encoding says it was the last card played
            played.remove(NINE_D)
            played = played + [NINE_D] if extra.get(NINE_LAST, 0) == 1 else [NINE_D] + played
        if "stake" in extra:
            rules = replace(rules, commit_stake=extra["stake"])
        scores = tuple(extra[f"score{p}"] for p in range(n)) if f"score{0}" in extra else ()
        state = deal_state(a, rules, pack.name, pack.wild, hands, dead, played, turn=1, drawn=False)
        return replace(state, run_suit=extra.get(SUIT, -1), branch=extra.get(BRANCH, 0), scores=scores)

    def realism(self, s: SymState) -> list[z3.BoolRef]:
        """A state whose only played card is the 9D has it as the last card played (``nine_last``)."""
        only_nine = z3.Sum(*s.played) < 2
        return [z3.Implies(z3.And(s.x(NINE_LAST) == 0, s.x(loc_name(NINE_D)) == PLAYED), z3.Not(only_nine))]
