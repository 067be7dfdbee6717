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

The class is built in layers, one concern a module: ``encoding_core`` (constants, the data a game changes,
states, readings, abstraction), ``encoding_legal`` (legal actions), ``encoding_effects`` (effects and the
transition), ``encoding_settle`` (settlement, chip obligations); this module adds the invariants and the
initial states, which read all of them, and is the one that game encodings and the proofs import.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3
from comet.ruleset import Ruleset

from comet_proofs.dealing import model_deal_sizes, pack_composition
from comet_proofs.encoding_core import (
    BASE_UNQUANTIFIED,
    DEAL_TABLE,
    GAME_FIELDS,
    LEAD_COMET,
    PACK_SIZE,
    STUCK_MAY,
    TERMINATION_GOAL,
    StepSlice,
    pack_count,
)
from comet_proofs.encoding_settle import EncodingSettle
from comet_proofs.symbolic import (
    COMET_DEAD,
    COMET_PLAYED,
    KING,
    Readings,
    SymState,
)
from comet_proofs.terms import at

__all__ = [
    "BASE_UNQUANTIFIED",
    "DEAL_TABLE",
    "GAME_FIELDS",
    "LEAD_COMET",
    "PACK_SIZE",
    "STUCK_MAY",
    "TERMINATION_GOAL",
    "Encoding",
    "OwnChipRules",
    "StepSlice",
    "pack_count",
]


class Encoding(EncodingSettle):
    """The base rules' transition relation and invariants (a subclass per game, in its folder)."""

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

    def scores_hypothesis(self, s: SymState) -> z3.BoolRef:
        """What the obligation "deal scores non-negative" assumes of a finished deal's state: ``Inv``, or in an
        encoding that says so some of its parts (a weaker hypothesis: the same fact proved, where Z3 need not
        search the other parts)."""
        return self.invariant(s)


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
