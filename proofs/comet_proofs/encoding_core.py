"""The base encoding's ground floor: its constants, what a game's encoding changes by data (the class
attributes), symbolic states and readings, the abstraction of a concrete state, and the quantities derived
from a state.  ``comet_proofs.encoding.Encoding`` is built on it, one concern a layer (legal actions,
effects, settlement, invariants); every name here is re-exported there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import z3
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import counts_abstract
from comet_proofs.symbolic import (
    DEAL_RULINGS,
    FALSE,
    KING,
    NINE,
    PLAY_RULINGS,
    RANKS,
    AbstractState,
    Readings,
    Rulings,
    SymState,
)
from comet_proofs.terms import at, rank_at

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


class EncodingCore:
    """The data and the state of the base encoding (``Encoding`` adds the rules, layer by layer)."""

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
    # Card-level encodings: the cards that end a run under every reading (their codes), which the longest deal's
    # count charges when played before the deal's last card (``bounds.lemmas.stops_played``); none: not read.
    stop_cards: tuple[int, ...] = ()
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
