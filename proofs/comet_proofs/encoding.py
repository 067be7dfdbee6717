"""The base encoding of one deal: the counting abstraction's transition relation and invariants.

An abstract deal state is a handful of integers (see ``AbstractState``): for each
seat the number of natural cards of each rank 2..King it holds, where the Comet
is, the played and dead counts per rank, the needed rank of the run (0 when a new
run is to be started), whose turn it is and so on.  Suits do not matter to the
base rules except to tell the Comet apart, so this abstraction loses nothing
the rules look at (the cross-check in ``crosscheck.py`` tests that claim on sampled
states).  The base rules are the standard game's, as ``comet.engine``'s own functions
are; ``comet_proofs/games/standard/`` takes them as they are, every other game's
encoding (``comet_proofs/games/<name>/encoding.py``) overrides the seams where its
rules differ.

``Encoding`` builds Z3 formulas over symbolic abstract states:
``legal(s, a, rd)`` mirrors ``comet.engine.legal_actions`` guard by guard,
``effect(s, a, s2, rd)`` mirrors ``comet.engine.apply``, ``transition`` is their
conjunction.  ``rd`` holds one Z3 Boolean per ruling that changes play, so a
single proof covers every combination of readings.  Small overridable methods
(``stops``, ``bonus_amount``, ``settlement_amount`` ...) are the seams a
game's encoding (or a test planting a bug) replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import z3
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import counts_abstract
from comet_proofs.dealing import model_deal_sizes, pack_composition
from comet_proofs.symbolic import (
    COMET,
    COMET_DEAD,
    COMET_PLAYED,
    COMET_QUARTET,
    DEAL_RULINGS,
    FALSE,
    GROUP_BASE,
    KING,
    NATURAL,
    NINE,
    PASS,
    PLAY_RULINGS,
    QUARTET,
    RANKS,
    AbstractState,
    Readings,
    Rulings,
    SymAction,
    SymState,
)
from comet_proofs.terms import at, rank_at, scaled

# Ruling fields of the base rules that need no Boolean: the deal's order and pack (the counting
# abstraction does not see suits or which pack) and the game around the deal.  See ``Encoding.unquantified``.
GAME_FIELDS: tuple[str, ...] = (
    "insolvency",
    "starting_chips",
    "deal_count",
    "game_tie",
    "first_dealer_tie",
    "first_dealer_wild",
)
BASE_UNQUANTIFIED: tuple[str, ...] = ("deal_order", "packs", "escalation", "comet_reset", "escalate_on", *GAME_FIELDS)
DEAL_TABLE = {2: (18, 12), 3: (12, 12), 4: (10, 8), 5: (9, 3)}
PACK_SIZE = 48
# Extra state fields copying readings the ranking function needs (with RUL-STUCK-RESTART quantified):
# RUL-COMET-LEAD's "the Comet may lead" and RUL-STUCK-RESTART = may.
LEAD_COMET = "comet_may_lead"
STUCK_MAY = "stuck_restart_may"


def pack_count(rank: int) -> int:
    """Natural cards of ``rank`` in either pack: four, but three natural 9s (the fourth 9 is the Comet)."""
    return 3 if rank == NINE else 4


@dataclass(frozen=True, slots=True)
class StepSlice:
    """Goals of the joint inductive step (``obligations.JOINT_STEP``) proved from part of its hypothesis:
    ``goals`` (invariant part names, ``TERMINATION_GOAL`` for the ranking's decrease) from ``assumed`` (the
    parts of ``Inv(s)`` kept) and all of ``T``, split by the card played (``card_cases``, ``by_card``) or by
    ``kind_cases``.  Fewer hypotheses only make a goal harder to prove, so the slice is sound; where it
    fails, the case is checked again with the whole ``Inv(s)`` before a goal counts as broken."""

    goals: tuple[str, ...]
    assumed: tuple[str, ...]
    by_card: bool
    # Z3's tactics before its SMT core for the slice's checks (``solving.LIA2CARD``; none: Z3's default solver)
    tactics: tuple[str, ...] = ()


TERMINATION_GOAL = "termination"


class Encoding:
    """The base rules' transition relation and invariants (a subclass per game, in its folder)."""

    # The preset whose game the encoding proves (each game's subclass names it; the registry finds it).
    name = ""
    # What a variant encoding changes by data: the ranks (rows of the abstract state), the allowed
    # player counts, the rulings quantified as free Booleans, extra state fields, and the scoring.
    ranks: tuple[int, ...] = RANKS
    player_counts: tuple[int, ...] = (2, 3, 4, 5)
    rulings: Rulings = PLAY_RULINGS + DEAL_RULINGS
    extra_fields: tuple[str, ...] = ()
    scoring: str = "chips"
    pack_size: int = PACK_SIZE
    # Every ``Ruleset`` field that applies to the preset (``comet.ruleset.applies``: its family declares it) is accounted for:
    # a free Boolean (``rulings``); ``unquantified``: it changes no transition, no return and no points of
    # a deal under this encoding, or is read from the state (the cross-check draws it at random, so a
    # field wrongly listed here shows up as a mismatch); ``outside``: its other readings make deals this
    # encoding does not cover (``abstract`` rejects them; another encoding does, or spec/proofs.md says
    # so), and the cross-check keeps the preset's reading.  ``tests/test_proofs_rulings.py`` checks it.
    unquantified: tuple[str, ...] = BASE_UNQUANTIFIED
    outside: tuple[str, ...] = ()
    # Z3's tactics before its SMT core for the joint inductive step's checks (``solving.LIA2CARD``; none: Z3's
    # default solver).  The joint step is not re-checked by the second solver, whose budget is a multiple of
    # the first solver's work, so this changes no other obligation's work or re-check.
    step_tactics: tuple[str, ...] = ()
    # The same for the totality obligation, which is then not re-checked by the second solver (its budget is a
    # multiple of the default solver's work): only where the default solver's work is far above the second
    # solver's threshold at every player count, so that it was never re-checked anyway.
    totality_tactics: tuple[str, ...] = ()
    # The relative cost of one of its obligations (``parallel.tasks`` hands out the costliest first).
    proof_weight: float = 1.0
    # Card-level encodings (a place per card in ``extra``) do not count the cards put down in ``played``.
    card_level: bool = False
    # Pairs of symbolic actions (kind, rank) that are one engine action taken two ways, where the encoding
    # tells apart what the engine decides from something it does not see (a suit); the smallest-witness
    # search (``comet_proofs.smallest``) compares engine actions, so it ties the two ways together.
    engine_aliases: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    # Partial sets (a family's ruling that widens the set rule, RUL-2P-SETS): the reading, a Boolean among
    # ``rulings``, that allows them, and the sizes k of the sets of one rank that kind GROUP_BASE + k puts
    # down, short of all of the rank (which is QUARTET); empty: no such kind, and the formulas are exactly
    # those without it.
    set_ruling: str = ""
    set_sizes: tuple[int, ...] = ()

    def fresh_state(self, prefix: str, players: int) -> SymState:
        extra = self.extra_fields + self.reading_fields()
        return SymState.fresh(prefix, players, self.ranks, extra, self.has_ruling("comet_after"))

    def reading_fields(self) -> tuple[str, ...]:
        """Extra state fields that copy a reading (fixed for the deal): with RUL-STUCK-RESTART quantified,
        whether the Comet may lead (RUL-COMET-LEAD not forbidden), which the ranking function needs."""
        return (LEAD_COMET, STUCK_MAY) if self.has_ruling("stuck_restart") else ()

    def with_reading_fields(self, a: AbstractState, rules: Ruleset) -> AbstractState:
        """``a`` with the ``reading_fields`` of a model state under ``rules`` appended."""
        if not self.has_ruling("stuck_restart"):
            return a
        copied = ((LEAD_COMET, int(rules.comet_lead != "forbidden")), (STUCK_MAY, int(rules.stuck_restart == "may")))
        return replace(a, extra=(*a.extra, *copied))

    def readings_agree(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """The reading fields of ``s`` are those of ``rd``."""
        if not self.has_ruling("stuck_restart"):
            return z3.BoolVal(True)
        return z3.And(
            s.x(LEAD_COMET) == z3.If(self.may_lead_comet(rd), 1, 0),
            s.x(STUCK_MAY) == z3.If(rd.flag("stuck_restart", "may"), 1, 0),
        )

    def readings_kept(self, s: SymState, s2: SymState, rd: Readings) -> z3.BoolRef:
        """The reading fields of ``s`` are those of ``rd`` and ``s2`` keeps them."""
        if not self.has_ruling("stuck_restart"):
            return z3.BoolVal(True)
        return z3.And(self.readings_agree(s, rd), *[s2.x(f) == s.x(f) for f in self.reading_fields()])

    def may_lead_comet(self, rd: Readings) -> z3.BoolRef:
        """RUL-COMET-LEAD is not forbidden (the king or any_rank reading)."""
        return z3.Or(rd.flag("comet_lead", "king"), rd.flag("comet_lead", "any_rank"))

    def has_ruling(self, name: str) -> bool:
        """Does this encoding quantify over the ruling field ``name``?"""
        return any(field == name for field, _ in self.rulings)

    def reading(self, rd: Readings, name: str) -> z3.BoolRef:
        """The Boolean of ruling ``name`` (false where the encoding does not quantify over it)."""
        return rd[name] if self.has_ruling(name) else FALSE

    def fresh_readings(self, prefix: str = "rd") -> Readings:
        return Readings.fresh(prefix, self.rulings)

    def readings_of(self, rules: Ruleset) -> Readings:
        return Readings.of(rules, self.rulings)

    def pack_count(self, rank: int) -> int:
        """Natural cards of ``rank`` in the pack."""
        return pack_count(rank)

    def abstract(self, state: DealState) -> AbstractState:
        """The abstract state of a model state (ValueError for states outside the encoding): a deal of this
        encoding's preset's game, with one Comet and no draw."""
        if state.rules.variant != self.name:
            raise ValueError(f"the encoding covers the {self.name} game, not variant {state.rules.variant!r}")
        if len(state.wild) != 1:
            raise ValueError(
                f"the {self.name} packs have exactly one Comet, this deal has {len(state.wild)} wild cards"
            )
        if state.drawn:
            raise ValueError(f"a drawn deal does not occur in the {self.name} game")
        return self.with_reading_fields(counts_abstract(state), state.rules)

    def overapproximated(self, state: DealState, succ: AbstractState, model: set[AbstractState]) -> bool:
        """Is ``succ``, a successor T allows from ``state`` that no legal action of the model reaches, one the
        encoding allows on purpose (a reading it over-approximates: every successor the model has is in T,
        and T has these too)?  None in an exact encoding; the cross-check still requires every model
        successor to be in T."""
        return False

    def concrete_state(self, a: AbstractState, rules: Ruleset) -> DealState | None:
        """A ``DealState`` whose abstraction is meant to be ``a``, where the encoding builds one itself (None:
        the counting encodings' way, ``concrete.concretise``)."""
        return None

    def realism(self, s: SymState) -> list[z3.BoolRef]:
        """Constraints on the fields the encoding leaves free that pick states a real deal can have (for the
        refinement check's and the witness traces' searches); none in the base rules."""
        return []

    def fixed_by_rules(self, s: SymState, rules: Ruleset) -> list[z3.BoolRef]:
        """The extra fields ``rules`` fix for a whole deal (a field that copies an integer ruling); none in
        the base rules."""
        return []

    def abstract_dealt(self, state: DealState) -> AbstractState:
        """The abstract state of a freshly dealt deal, for the check that it is an initial state
        (``comet_proofs.dealt``); ``abstract`` unless a field ``Init`` leaves free is costly to compute."""
        return self.abstract(state)

    # ------------------------------------------------------------ derived quantities

    def hand_size(self, s: SymState, seat: int) -> z3.ArithRef:
        return z3.Sum(*s.hands[seat]) + z3.If(s.comet == seat, 1, 0)

    def naturals_of_mover(self, s: SymState) -> z3.ArithRef:
        return at([z3.Sum(*h) for h in s.hands], s.to_move)

    def mover_count(self, s: SymState, rank: z3.ArithRef) -> z3.ArithRef:
        """How many natural cards of ``rank`` the player to move holds."""
        return at([rank_at(h, rank, self.ranks) for h in s.hands], s.to_move)

    def terminal(self, s: SymState) -> z3.BoolRef:
        return s.winner >= 0

    def in_rank_range(self, r: z3.ArithRef) -> z3.BoolRef:
        return z3.And(r >= self.ranks[0], r <= KING)

    # ------------------------------------------------------------ invariants

    def well_formed(self, s: SymState) -> z3.BoolRef:
        n = s.players
        parts = [x >= 0 for h in s.hands for x in h]
        parts += [x >= 0 for x in s.played] + [x >= 0 for x in s.dead]
        parts += [
            s.comet >= COMET_PLAYED,
            s.comet < n,
            *self.seats_in_range(s),
            z3.Or(s.need == 0, z3.And(s.need >= self.ranks[0] + 1, s.need <= KING)),
            z3.Or(s.out_wild_as == 0, self.in_rank_range(s.out_wild_as)),
            s.steps >= 0,
            s.comet_value >= 0,
        ]
        return z3.And(parts)

    def card_conservation(self, s: SymState) -> z3.BoolRef:
        """Per rank: hands + played + dead = the pack's natural cards (the Comet is one variable, so one place)."""
        return z3.And(
            [
                z3.Sum(*[s.hands[p][i] for p in range(s.players)]) + s.played[i] + s.dead[i] == self.pack_count(r)
                for i, r in enumerate(self.ranks)
            ]
        )

    def chip_zero_sum(self, s: SymState) -> z3.BoolRef:
        return z3.Sum(*s.chips) == 0

    def no_chips(self, s: SymState) -> z3.BoolRef:
        """Points games: no chips change hands during play."""
        return z3.And([c == 0 for c in s.chips])

    def turn_structure(self, s: SymState) -> z3.BoolRef:
        """The bookkeeping facts the other proofs lean on (each inductive with the rest)."""
        n = s.players
        return z3.And(
            *self.turn_order(s),
            # while the deal goes on nobody's hand is empty; the winner's hand is
            z3.Implies(s.winner < 0, z3.And([self.hand_size(s, p) > 0 for p in range(n)])),
            z3.Implies(s.winner >= 0, z3.And(at([self.hand_size(s, p) for p in range(n)], s.winner) == 0)),
            z3.Implies(s.out_wild_as > 0, z3.And(s.winner >= 0, s.comet == COMET_PLAYED)),
        )

    def turn_order(self, s: SymState) -> list[z3.BoolRef]:
        """Only the last player to play can be in the middle of a turn; a run in progress was begun by someone,
        and its last player is mid-turn if it is their move."""
        return [
            z3.Implies(s.turn_played, s.last_player == s.to_move),
            z3.Implies(s.need > 0, z3.And(s.last_player >= 0, z3.Implies(s.to_move == s.last_player, s.turn_played))),
        ]

    def hands_in_play(self, s: SymState, sizes: Sequence[z3.ArithRef]) -> list[z3.BoolRef]:
        """While the deal goes on nobody's hand is empty (``sizes``, one per seat); the winner's is."""
        return [
            z3.Implies(s.winner < 0, z3.And([k > 0 for k in sizes])),
            z3.Implies(s.winner >= 0, at(sizes, s.winner) == 0),
        ]

    def seats_in_range(self, s: SymState) -> list[z3.BoolRef]:
        """The player to move is a seat; the last player and the winner are a seat or -1 (none yet)."""
        n = s.players
        return [s.to_move >= 0, s.to_move < n, s.last_player >= -1, s.last_player < n, s.winner >= -1, s.winner < n]

    def fresh_turn(self, s: SymState) -> list[z3.BoolRef]:
        """A fresh deal's turn: someone to move, nobody has played, no winner, no steps, a Comet value."""
        n = s.players
        return [
            s.to_move >= 0,
            s.to_move < n,
            s.last_player == -1,
            z3.Not(s.turn_played),
            s.winner == -1,
            s.out_wild_as == 0,
            s.steps == 0,
            s.comet_value >= 0,
        ]

    def pass_budget(self, s: SymState) -> z3.ArithRef:
        """How many passes can still come before someone must play (at most players + 1)."""
        n = s.players
        dist = (s.last_player - s.to_move + n) % n  # seats until the turn is back with the last player
        seats_to_last = z3.If(dist == 0, n, dist)
        no_naturals = self.naturals_of_mover(s) == 0
        if self.has_ruling("stuck_restart"):
            # RUL-STUCK-RESTART = may (k = 1): a stuck run back at its last player may be passed on once
            # more, to a left neighbour who can lead; a hand of only the Comet passes only when it may not
            # lead (the copied readings: no measure of the cards alone decreases under every reading)
            k = s.x(STUCK_MAY)
            must_pass = z3.And(no_naturals, s.x(LEAD_COMET) == 0)
            stuck = z3.And(s.to_move == s.last_player, k == 1)
            lead = z3.If(s.turn_played, 2 + k, z3.If(must_pass, 1 + k, z3.If(stuck, 1, 0)))
            return z3.If(s.need > 0, seats_to_last + 1 + k, lead)
        return z3.If(s.need > 0, seats_to_last + 1, z3.If(s.turn_played, 2, z3.If(no_naturals, 1, 0)))

    def cards_in_hands(self, s: SymState) -> z3.ArithRef:
        return z3.Sum(*[self.hand_size(s, p) for p in range(s.players)])

    def ranking(self, s: SymState) -> z3.ArithRef:
        """Termination measure: cards in hands weigh more than any run of passes (one pass more with
        RUL-STUCK-RESTART quantified)."""
        cards = self.cards_in_hands(s)
        more = z3.If(s.x(STUCK_MAY) == 1, cards, 0) if self.has_ruling("stuck_restart") else 0
        return cards * (s.players + 2) + more + self.pass_budget(s)

    def step_bound(self, s: SymState) -> z3.ArithRef:
        """``comet.engine.step_bound``: cards = cards in hands + played (the Comet included)."""
        cards = self.cards_in_hands(s) + z3.Sum(*s.played) + z3.If(s.comet == COMET_PLAYED, 1, 0)
        return cards + (cards + 1) * (2 * s.players)

    def within_step_bound(self, s: SymState) -> z3.BoolRef:
        return s.steps + self.ranking(s) <= self.step_bound(s)

    def invariant_parts(self, s: SymState) -> dict[str, z3.BoolRef]:
        return {
            "well-formed state": self.well_formed(s),
            "card conservation": self.card_conservation(s),
            **(
                {"chip zero-sum": self.chip_zero_sum(s)}
                if self.scoring == "chips"
                else {"no chips move (points game)": self.no_chips(s)}
            ),
            "turn structure": self.turn_structure(s),
            "step bound (steps + ranking <= engine.step_bound)": self.within_step_bound(s),
            **({} if (bounded := self.play_chips_bound(s)) is None else {"chips in play bounded": bounded}),
        }

    def invariant(self, s: SymState) -> z3.BoolRef:
        return z3.And(list(self.invariant_parts(s).values()))

    def initial_forms(self, s: SymState) -> dict[str, z3.BoolRef]:
        """Invariant parts whose initial case is proved through another statement of them (none here): for a
        part ``P`` stated in a form that suits the inductive step but makes Z3 search from ``Init``, a form
        ``F`` with ``Init ⇒ F`` cheap to prove, and ``F ⇒ P`` proved conjunct by conjunct (``obligations``:
        the two cases of the part's initial obligation)."""
        return {}

    # ------------------------------------------------------------ initial states

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """Any freshly dealt deal: right hand and dead sizes (RUL-DEAL-SIZES either way), nothing played."""
        n = s.players
        size, dead_size = self.deal_size(n, rd)
        parts = [x >= 0 for h in s.hands for x in h] + [x >= 0 for x in s.dead]
        parts += [self.hand_size(s, p) == size for p in range(n)]
        parts += [z3.Sum(*s.dead) + z3.If(s.comet == COMET_DEAD, 1, 0) == dead_size]
        parts += [x == 0 for x in s.played] + [x == 0 for x in s.chips]
        parts += [
            s.comet >= COMET_DEAD,
            s.comet < n,
            s.need == 0,
            s.to_move >= 0,
            s.to_move < n,
            s.last_player == -1,
            z3.Not(s.turn_played),
            z3.Not(s.free_lead),
            s.winner == -1,
            s.out_wild_as == 0,
            s.steps == 0,
            s.comet_value >= 0,
            self.dealt_from_pack(s),
        ]
        parts.append(self.readings_agree(s, rd))
        return z3.And(parts)

    def pack_composition(self, players: int) -> tuple[tuple[int, ...], int]:
        """(natural cards per rank of ``ranks``, wild cards) of the model's packs for this preset and player
        count (``comet.engine.packs_in_rotation`` under every reading of RUL-PACKS); ValueError if the packs
        in rotation differ in composition (the counting encodings need one)."""
        return pack_composition(self.name, players, self.ranks)

    def dealt_from_pack(self, s: SymState) -> z3.BoolRef:
        """The hands, the dead hand and the wild card(s) of ``s`` are a deal of the model's pack: per rank,
        the pack's natural cards (``pack_composition``, read from ``comet.engine``'s packs, not from
        ``pack_count``) are split among the hands and the dead hand.  Card conservation, stated with the
        encoding's own ``pack_count``, is then proved of the initial deal, not assumed."""
        naturals, wilds = self.pack_composition(s.players)
        n = s.players
        parts: list[z3.BoolRef] = []
        for i, count in enumerate(naturals):
            parts += [s.hands[p][i] >= 0 for p in range(n)] + [s.dead[i] >= 0]
            parts.append(z3.Sum(*[s.hands[p][i] for p in range(n)]) + s.dead[i] == count)
        parts.append(self.wild_dealt(s, wilds))
        return z3.And(parts)

    def wild_dealt(self, s: SymState, wilds: int) -> z3.BoolRef:
        """The pack's one wild card (the Comet) is in a hand or dead."""
        if wilds != 1:
            return z3.BoolVal(False)
        return z3.And(s.comet >= COMET_DEAD, s.comet < s.players)

    def deal_size(self, players: int, rd: Readings) -> tuple[z3.ArithRef, z3.ArithRef]:
        """(cards each, cards dead) of a fresh deal: the model's deal rule (``comet.engine.deal_sizes``) under
        each reading of the quantified rulings that change it (``model_deal_sizes``), as an If-chain over
        their Booleans.  So the proofs start from what the model deals; that the model deals what the
        sources say is checked against ``stated_deal`` (``comet_proofs.dealt``)."""
        cases = model_deal_sizes(self, players)
        size: z3.ArithRef = z3.IntVal(cases[-1][1][0])
        dead: z3.ArithRef = z3.IntVal(cases[-1][1][1])
        for combo, (each, rest) in reversed(cases[:-1]):
            cond = z3.And([rd.flag(f, v) if on else z3.Not(rd.flag(f, v)) for (f, v), on in combo])
            size, dead = z3.If(cond, each, size), z3.If(cond, rest, dead)
        return size, dead

    def stated_deal(self, players: int, rules: Ruleset) -> tuple[int, int]:
        """(cards each, cards dead) as the sources state them (R-DEAL-SIZES: 002's table, or RUL-DEAL-SIZES =
        even: the pack split evenly): an independent statement the model's deal rule is checked against."""
        if rules.deal_sizes == "even":
            return self.pack_size // players, self.pack_size % players
        return DEAL_TABLE[players]

    def stated_game_end(self, rules: Ruleset, players: int, totals: tuple[int, ...], played: int, agreed: int) -> bool:
        """Does the game end after ``played`` deals at ``totals`` (``agreed``: the deals agreed beforehand)?
        The sources' statement (R-GAME-DEALS, 000:70: an agreed number of deals), which the model's
        ``game.game_over`` is checked against (``comet_proofs.dealt``)."""
        return played >= agreed

    # ------------------------------------------------------------ legal actions

    def stops(self, rank: z3.ArithRef, kind: z3.ArithRef) -> z3.BoolRef:
        """R-STOP-KING, R-COMET-STOP: a King or the Comet ends the run."""
        return z3.Or(rank == KING, self.wild_play(kind))

    def wild_play(self, kind: z3.ArithRef) -> z3.BoolRef:
        """The action puts the Comet down (alone, or with the three natural 9s)."""
        return z3.Or(kind == COMET, kind == COMET_QUARTET)

    def takes_all(self, kind: z3.ArithRef) -> z3.BoolRef:
        """The action puts down every natural card of its rank."""
        return z3.Or(kind == QUARTET, kind == COMET_QUARTET)

    def quartet_available(self, s: SymState, rank: z3.ArithRef) -> z3.BoolRef:
        """R-FOUR-OF-A-KIND, R-THREE-NINES: the mover holds every natural card of ``rank``."""
        return self.mover_count(s, rank) == z3.If(rank == NINE, self.pack_count(NINE), self.pack_count(KING))

    def legal(self, s: SymState, a: SymAction, rd: Readings) -> z3.BoolRef:
        """``a`` is among ``legal_actions(s)`` (which is empty for a finished deal)."""
        holds_comet = s.comet == s.to_move
        need = s.need
        lead = need == 0
        # lead: R-LEAD-ANY, RUL-QUARTET-LEAD, RUL-COMET-LEAD, RUL-NEW-RUN
        lead_natural = z3.And(a.kind == NATURAL, self.in_rank_range(a.rank), self.mover_count(s, a.rank) >= 1)
        lead_quartet = z3.And(
            a.kind == QUARTET, rd["quartet_on_lead"], self.in_rank_range(a.rank), self.quartet_available(s, a.rank)
        )
        # RUL-COMET-LEAD: king (the led Comet stands for the King), any_rank, or forbidden (neither Boolean)
        as_king = rd.flag("comet_lead", "king")
        may_lead_comet = z3.Or(as_king, rd.flag("comet_lead", "any_rank"))
        led_rank = z3.If(as_king, a.rank == KING, self.in_rank_range(a.rank))
        lead_comet = z3.And(a.kind == COMET, may_lead_comet, holds_comet, led_rank)
        nothing_to_lead = z3.And(self.naturals_of_mover(s) == 0, z3.Not(z3.And(may_lead_comet, holds_comet)))
        lead_pass = z3.And(
            a.kind == PASS,
            z3.Or(nothing_to_lead, z3.And(rd["new_run"], s.turn_played), self.may_pass_stuck_restart(s, rd)),
        )
        # continue: R-PLAY-CONTINUE, R-PLAY-MUST, R-COMET-OPTIONAL, RUL-COMET-RANK, RUL-COMET-HOLDING, RUL-MUST-CONTINUE
        matching = self.mover_count(s, need)
        cont_natural = z3.And(a.kind == NATURAL, a.rank == need, matching >= 1)
        cont_quartet = z3.And(a.kind == QUARTET, a.rank == need, self.quartet_available(s, need))
        comet_rank_ok = z3.If(rd["comet_as"], self.in_rank_range(a.rank), a.rank == need)
        cont_comet = z3.And(
            a.kind == COMET, holds_comet, z3.Not(z3.And(rd["comet_requires_missing"], matching >= 1)), comet_rank_ok
        )
        # RUL-COMET-QUARTET: the three natural 9s and the Comet together, as four 9s
        cont_comet_quartet = z3.And(
            a.kind == COMET_QUARTET,
            rd["comet_in_quartet"],
            a.rank == need,
            need == NINE,
            holds_comet,
            self.quartet_available(s, need),
        )
        cont_pass = z3.And(a.kind == PASS, z3.Or(matching == 0, z3.And(rd["may_stop_early"], s.turn_played)))
        # RUL-COMET-AFTER (optional_restart): right after the Comet, any natural card may start a new run
        free_natural = z3.And(
            s.free_lead, a.kind == NATURAL, self.in_rank_range(a.rank), self.mover_count(s, a.rank) >= 1
        )
        # ... and four of a kind where a lead may be one (RUL-QUARTET-LEAD)
        free_quartet = z3.And(
            s.free_lead,
            a.kind == QUARTET,
            rd["quartet_on_lead"],
            self.in_rank_range(a.rank),
            self.quartet_available(s, a.rank),
        )
        pass_rank = z3.Implies(a.kind == PASS, a.rank == 0)
        lead_group = cont_group = FALSE
        if self.set_sizes:
            # partial sets (RUL-2P-SETS): k of the rank at once, continuing, or where four of a kind may lead
            group = z3.And(
                z3.Or([a.kind == GROUP_BASE + k for k in self.set_sizes]),
                rd[self.set_ruling],
                a.kind - GROUP_BASE <= self.mover_count(s, a.rank),
            )
            may_lead = z3.And(group, rd["quartet_on_lead"], self.in_rank_range(a.rank))
            lead_group = may_lead
            cont_group = z3.Or(z3.And(group, a.rank == need), z3.And(s.free_lead, may_lead))
        return z3.And(
            z3.Not(self.terminal(s)),
            pass_rank,
            z3.If(
                lead,
                z3.Or(lead_natural, lead_quartet, lead_comet, lead_pass, lead_group),
                z3.Or(
                    cont_natural,
                    cont_quartet,
                    cont_comet,
                    cont_comet_quartet,
                    cont_pass,
                    free_natural,
                    free_quartet,
                    cont_group,
                ),
            ),
        )

    def set_size(self, kind: z3.ArithRef) -> z3.ArithRef:
        """Cards a set of kind GROUP_BASE + k puts down (``set_sizes``), 0 for any other kind."""
        size: z3.ArithRef = z3.IntVal(0)
        for k in self.set_sizes:
            size = z3.If(kind == GROUP_BASE + k, k, size)
        return size

    def may_pass_stuck_restart(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """``engine.may_pass_stuck_restart`` (RUL-STUCK-RESTART = may): a stuck run is back at the player to
        move (the last to play, not yet played this turn), who may pass the lead on unless the left
        neighbour holds only the Comet and may not lead it."""
        if not self.has_ruling("stuck_restart"):
            return FALSE
        n = s.players
        left = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        left_naturals = at([z3.Sum(*h) for h in s.hands], left)
        return z3.And(
            rd["stuck_restart"],
            z3.Not(s.turn_played),
            s.last_player == s.to_move,
            z3.Or(self.may_lead_comet(rd), left_naturals >= 1),
        )

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

    def scores_hypothesis(self, s: SymState) -> z3.BoolRef:
        """What the obligation "deal scores non-negative" assumes of a finished deal's state: ``Inv``, or in an
        encoding that says so some of its parts (a weaker hypothesis: the same fact proved, where Z3 need not
        search the other parts)."""
        return self.invariant(s)

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        """Points per seat for a finished deal (``engine.deal_points``); none in a chips game."""
        return tuple(z3.IntVal(0) for _ in range(s.players))

    def settlement_problems(self, state: DealState) -> list[str]:
        """Model-side shape check of a finished deal's settlement: every payment from a loser to the winner."""
        from comet.engine import settlement

        stray = [p for p in settlement(state) if p.payee != state.winner or p.payer == state.winner]
        return [f"settlement payments not from a loser to the winner: {stray}"] if stray else []


class OwnChipRules(Encoding):
    """A mixin for an encoding whose chips move by its game's own rules: the base rules' statements about the
    chips moved in play, a deal's bound and the doubling for a loser caught with the Comet are not its (no
    such obligation; its own are in its other seams)."""

    def play_chips_bound(self, s: SymState) -> z3.BoolRef | None:
        return None

    def deal_bound(self, s: SymState) -> tuple[z3.ArithRef, z3.ArithRef] | None:
        return None

    def caught_spec(self, s: SymState, rd: Readings) -> z3.BoolRef | None:
        return None
