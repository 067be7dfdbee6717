"""The Opera as an option of another game's encoding (R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-OPERA-DOUBLE): the
two-player game and Old Comet admit ``opera`` as a ruling, and their encodings quantify it as a free Boolean.

``OperaOption`` is a mixin put before a game's encoding class.  It adds the Opera encoding's three fields
(``first_turn``: no pass yet; ``dealer_could``: the dealer could have played out the hand dealt in one
turn, free at the deal's start; ``drawn``) and one field copying the reading (``opera_on``, as
``Encoding.reading_fields`` copy RUL-STUCK-RESTART's), so that the state-only parts (the invariant, the
realism of the refinement check's states) know whether the Opera is on.  Every Opera effect is
guarded by that field: with ``opera`` false, ``dealer_could`` and ``drawn`` stay 0 and the game's own
transitions and returns are unchanged.  The game's own Opera rulings (the points' doubling in a caught
loser's hand, Old Comet's caught manille and manille bonus) are its subclass's, through ``is_opera``.
"""

from __future__ import annotations

from dataclasses import replace

import z3
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import counts_abstract
from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import COMET_PLAYED, KING, PASS, AbstractState, Readings, SymAction, SymState
from comet_proofs.terms import at

FIRST, COULD, DRAWN = "first_turn", "dealer_could", "drawn"
OPERA_ON = "opera_on"
# The Opera's own readings in every game that admits it (the game adds its own, RUL-OPERA-CAUGHT, RUL-OLD-OPERA-*)
OPERA_RULINGS: tuple[tuple[str, object], ...] = (
    ("opera", True),
    ("opera_draw", "dealer_could"),
    ("opera_stack", "multiply"),
)

# ``dealer_could_go_out`` by its inputs, per process (the refinement check asks it for every successor of a
# first-turn state); the search function is part of the key, so that a planted broken search reads none of it.
_COULD: dict[tuple[object, ...], bool] = {}


def dealer_could(state: DealState) -> bool:
    """``comet.games.opera.rules.dealer_could_go_out`` of a first-turn state, cached (``_COULD``).  The search
    reads only the dealer's hand, the rules and the pack (it skips passes, so no other hand is looked at), so
    every successor of a first-turn state asks the same question; the Opera's own encoding and the Opera
    option of the two-player game and Old Comet share this one cache (opera's refinement check took 7.7 s of
    CPU without it, 4.8 s with it, load ~12)."""
    from comet.games.opera.rules import dealer_could_go_out

    key = (
        dealer_could_go_out,
        state.rules,
        state.players,
        state.dealer,
        state.hands[state.dealer],
        state.wild,
        state.pack,
    )
    if key not in _COULD:
        _COULD[key] = dealer_could_go_out(state)
    return _COULD[key]


def first_turn_step(s: SymState, a: SymAction, s2: SymState, drawn_now: z3.BoolRef) -> list[z3.BoolRef]:
    """The Opera's three fields across one step, for the Opera's own encoding and for the Opera option: the
    first turn and "the dealer could go out" end at the first pass, and the deal is drawn when ``drawn_now``
    (the encoding's ``draws``: the first player went out in the first turn and the dealer could have too)."""
    passing = a.kind == PASS
    return [
        s2.x(FIRST) == z3.If(passing, 0, s.x(FIRST)),
        s2.x(COULD) == z3.If(passing, 0, s.x(COULD)),
        s2.x(DRAWN) == z3.If(passing, s.x(DRAWN), z3.If(drawn_now, 1, 0)),
    ]


class OperaOption(Encoding):
    """The Opera over a game's encoding, switched by the quantified ruling ``opera`` (a mixin: put it first)."""

    extra_fields: tuple[str, ...] = (FIRST, COULD, DRAWN)

    # ------------------------------------------------------------ the reading, copied into the state

    def reading_fields(self) -> tuple[str, ...]:
        return (*super().reading_fields(), OPERA_ON)

    def with_reading_fields(self, a: AbstractState, rules: Ruleset) -> AbstractState:
        b = super().with_reading_fields(a, rules)
        return replace(b, extra=(*b.extra, (OPERA_ON, int(rules.opera))))

    def readings_agree(self, s: SymState, rd: Readings) -> z3.BoolRef:
        return z3.And(super().readings_agree(s, rd), s.x(OPERA_ON) == z3.If(rd["opera"], 1, 0))

    def readings_kept(self, s: SymState, s2: SymState, rd: Readings) -> z3.BoolRef:
        own = z3.And(s.x(OPERA_ON) == z3.If(rd["opera"], 1, 0), s2.x(OPERA_ON) == s.x(OPERA_ON))
        return z3.And(super().readings_kept(s, s2, rd), own)

    def opera_on(self, s: SymState) -> z3.BoolRef:
        return s.x(OPERA_ON) == 1

    # ------------------------------------------------------------ the model's states

    def abstract(self, state: DealState) -> AbstractState:
        """The game's counting abstraction with the Opera's fields (``dealer_could`` from the model's search,
        in the first turn of an Opera deal only)."""
        if state.rules.variant != self.name:
            raise ValueError(f"the encoding covers the {self.name} game, not variant {state.rules.variant!r}")
        if state.drawn and not state.rules.opera:
            raise ValueError("a drawn deal does not occur without Opera")
        first = state.turn == 0
        could = first and state.rules.opera and dealer_could(state)
        extra = ((FIRST, int(first)), (COULD, int(could)), (DRAWN, int(state.drawn)))
        return self.with_reading_fields(counts_abstract(state, self.ranks, extra), state.rules)

    def abstract_dealt(self, state: DealState) -> AbstractState:
        """A fresh deal with "the dealer could go out" taken as 0 (``initial`` leaves it free in an Opera)."""
        if state.rules.variant != self.name or state.turn or state.steps:
            raise ValueError("abstract_dealt takes a freshly dealt deal")
        extra = ((FIRST, 1), (COULD, 0), (DRAWN, 0))
        return self.with_reading_fields(counts_abstract(state, self.ranks, extra), state.rules)

    def realism(self, s: SymState) -> list[z3.BoolRef]:
        """In an Opera's first turn ``dealer_could`` is free and the model searches the dealer's hand: pick a
        hand whose answer is plain.  Could: not the Comet, and up to four ladders, each one card of every rank
        from its lowest up to the King (a King ends a run and the dealer leads the next).  Could not: no King,
        and the ranks held fall in two runs of consecutive ranks or more (three with the Comet)."""
        n = s.players
        dealer = z3.If(s.to_move == 0, n - 1, s.to_move - 1)
        row = [at([s.hands[p][i] for p in range(n)], dealer) for i in range(len(self.ranks))]
        lows = [z3.Int(f"{s.need}.ladder{j}") for j in range(4)]
        ladders = z3.And(
            *[z3.And(low >= self.ranks[0], low <= KING + 1) for low in lows],
            *[x == z3.Sum(*[z3.If(low <= r, 1, 0) for low in lows]) for x, r in zip(row, self.ranks, strict=True)],
        )
        king = row[self.ranks.index(KING)]
        # the runs of consecutive ranks the hand holds: one turn plays one run, and each stop (only the Comet,
        # without a King) or the Comet standing in for a missing rank (RUL-COMET-AFTER) joins two of them
        blocks = z3.Sum(*[z3.If(z3.And(x >= 1, *([row[i - 1] == 0] if i else [])), 1, 0) for i, x in enumerate(row)])
        held = s.comet == dealer
        could = z3.And(z3.Not(held), ladders)
        cannot = z3.And(king == 0, blocks >= z3.If(held, 3, 2))
        answer = z3.If(s.x(COULD) == 1, could, cannot)
        first = z3.And(s.x(FIRST) == 1, self.opera_on(s))
        return [*super().realism(s), z3.Implies(first, answer)]

    # ------------------------------------------------------------ the invariant and the initial states

    def terminal(self, s: SymState) -> z3.BoolRef:
        return z3.Or(s.winner >= 0, s.x(DRAWN) == 1)

    def well_formed(self, s: SymState) -> z3.BoolRef:
        flags = [z3.Or(s.x(f) == 0, s.x(f) == 1) for f in (*self.extra_fields, OPERA_ON)]
        return z3.And(super().well_formed(s), *flags)

    def turn_structure(self, s: SymState) -> z3.BoolRef:
        """The game's bookkeeping facts with "while the deal goes on" meaning neither won nor drawn (R-OPERA-DRAW:
        a drawn deal has no winner and the first player's hand is empty; only an Opera deal is drawn)."""
        n = s.players
        sizes = [self.hand_size(s, p) for p in range(n)]
        return z3.And(
            *self.turn_order(s),
            z3.Implies(z3.Not(self.terminal(s)), z3.And([k > 0 for k in sizes])),
            z3.Implies(s.winner >= 0, at(sizes, s.winner) == 0),
            z3.Implies(
                s.x(DRAWN) == 1,
                z3.And(s.winner == -1, s.x(FIRST) == 1, at(sizes, s.to_move) == 0, self.opera_on(s)),
            ),
            z3.Implies(s.out_wild_as > 0, z3.And(self.terminal(s), s.comet == COMET_PLAYED)),
            z3.Implies(s.x(COULD) == 1, z3.And(s.x(FIRST) == 1, self.opera_on(s))),
        )

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        could = s.x(COULD)
        return z3.And(
            super().initial(s, rd),
            s.x(FIRST) == 1,
            s.x(DRAWN) == 0,
            z3.Or(could == 0, could == 1),
            z3.Implies(could == 1, rd["opera"]),
        )

    # ------------------------------------------------------------ the transition

    def draws(self, s: SymState, out: z3.BoolRef, rd: Readings) -> z3.BoolRef:
        """R-OPERA-DRAW: in an Opera deal, the first player goes out in the first turn and the dealer could have
        too (RUL-OPERA-DRAW = dealer_could)."""
        return z3.And(out, s.x(FIRST) == 1, rd["opera"], rd["opera_draw"], s.x(COULD) == 1)

    def winner_after(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return z3.If(z3.And(out, z3.Not(self.draws(s, out, rd))), s.to_move, -1)

    def extra_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        out = at([self.hand_size(s2, p) for p in range(s.players)], s.to_move) == 0
        return z3.And(super().extra_effect(s, a, s2, rd), *first_turn_step(s, a, s2, self.draws(s, out, rd)))

    # ------------------------------------------------------------ the doubling

    def is_opera(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """``opera.is_opera``: the Opera is on and the first player went out in the first turn (not drawn).  By
        the reading, not the state's copy of it: the bounds fix the readings and leave that copy free."""
        return z3.And(rd["opera"], s.winner >= 0, s.x(FIRST) == 1)

    def stacked(self, base: z3.ArithRef, rd: Readings) -> z3.ArithRef:
        """``opera.stacked``, RUL-OPERA-STACK: the Opera's x2 multiplied into ``base``, or the higher of the two."""
        return z3.If(rd["opera_stack"], 2 * base, z3.If(base >= 2, base, 2))

    def plain_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """The game's going-out multiplier without the Opera (a game with its own puts it here)."""
        return super().out_multiplier(s, rd)

    def out_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        """R-OPERA-DOUBLE (``opera.opera_multiplier``): the game's going-out multiplier, with the Opera's x2
        stacked on it in an Opera (RUL-OPERA-STACK)."""
        base = self.plain_multiplier(s, rd)
        return z3.If(self.is_opera(s, rd), self.stacked(base, rd), base)
