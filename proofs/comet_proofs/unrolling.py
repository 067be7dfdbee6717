"""Two rule sets' encodings unrolled in lockstep from one dealt deal, one solver for both: the question
"a witness of ``m`` actions" that ``comet_proofs.smallest`` asks for ``m = 1, 2, ...`` (the first ``m - 1``
actions legal under both, the ``m``-th parting them as ``comet.diverge.lockstep`` observes).  Engine actions an
encoding takes two ways (``Encoding.engine_aliases``) are compared as one action."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3
from comet.ruleset import Ruleset
from comet.variant import variant_of

from comet_proofs.encoding import Encoding
from comet_proofs.pinning import realism
from comet_proofs.symbolic import (
    CARD,
    COMET,
    COMET_QUARTET,
    GROUP_BASE,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)


def aliases(ea: Encoding, eb: Encoding) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Symbolic actions that are one engine action (the same cards put down) taken two ways
    (``Encoding.engine_aliases``), by which an encoding tells apart what the engine decides from the suits it
    does not see (a King on a run that ends it, or leaves it standing under one reading of the Kings).  A
    witness compares engine actions: where one rule set takes such an action one way and the other the other
    way, it is the same action taken under both (``same_play``), and it is legal under a rule set when either
    way is (``engine_legal``)."""
    return ea.engine_aliases + (eb.engine_aliases if eb.name != ea.name else ())


def _is(x: SymAction, ka: tuple[int, int]) -> z3.BoolRef:
    return z3.And(x.kind == ka[0], x.rank == ka[1])


def same_play(xa: SymAction, xb: SymAction, aliases: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> z3.BoolRef:
    """``xa`` (rule set A's way) and ``xb`` (B's) are the same engine action."""
    same = [z3.And(xa.kind == xb.kind, xa.rank == xb.rank)]
    for p, q in aliases:
        same += [z3.And(_is(xa, p), _is(xb, q)), z3.And(_is(xa, q), _is(xb, p))]
    return z3.Or(same)


def engine_legal(
    enc: Encoding,
    s: SymState,
    x: SymAction,
    rd: Readings,
    aliases: Sequence[tuple[tuple[int, int], tuple[int, int]]],
) -> z3.BoolRef:
    """The engine action ``x`` stands for is legal in ``s``: ``x`` is, or (for an alias) its other way is."""
    ways = [enc.legal(s, x, rd)]
    for p, q in aliases:
        for mine, other in ((p, q), (q, p)):
            ways.append(z3.And(_is(x, mine), enc.legal(s, SymAction(z3.IntVal(other[0]), z3.IntVal(other[1])), rd)))
    return z3.Or(ways)


def _deal_fields(s: SymState) -> list[z3.ExprRef]:
    out: list[z3.ExprRef] = [x for h in s.hands for x in h]
    return out + [s.comet, *s.dead, s.to_move, s.comet_value]


def _shared_extra(sa: SymState, sb: SymState) -> list[z3.BoolRef]:
    """Extra fields both encodings have (such as a dealer's answer) start equal."""
    names_b = {k for k, _ in sb.extra}
    return [t == sb.x(k) for k, t in sa.extra if k in names_b and k in ("dealer_could", "stake")]


def observed_differ(
    ea: Encoding, eb: Encoding, ta: SymState, tb: SymState, rda: Readings, rdb: Readings
) -> z3.BoolRef:
    """``comet.diverge.lockstep.observed`` differs: over or not, who won, a draw, chips so far (running), or
    the settled chips and points (finished)."""
    term_a, term_b = ea.terminal(ta), eb.terminal(tb)
    names_b = {k for k, _ in tb.extra}
    scores = [(t, tb.x(k)) for k, t in ta.extra if k.startswith("score") and k in names_b]  # points scored in play
    running = z3.Or([x != y for x, y in [*zip(ta.chips, tb.chips, strict=True), *scores]])
    ra, rb = ea.deal_returns(ta, rda), eb.deal_returns(tb, rdb)
    pa, pb = ea.deal_points(ta, rda), eb.deal_points(tb, rdb)
    settled = z3.Or(
        ta.winner != tb.winner,
        _drawn(ta) != _drawn(tb),
        z3.Or([x != y for x, y in zip(ra, rb, strict=True)]),
        z3.Or([x != y for x, y in zip(pa, pb, strict=True)]),
    )
    return z3.Or(
        term_a != term_b,
        z3.And(z3.Not(term_a), z3.Not(term_b), running),
        z3.And(term_a, term_b, settled),
    )


def _drawn(s: SymState) -> z3.ArithRef:
    names = {k for k, _ in s.extra}
    return s.x("drawn") if "drawn" in names else z3.IntVal(0)


@dataclass
class Problem:
    solver: z3.Solver
    sa: list[SymState]
    sb: list[SymState]
    acts: list[SymAction]
    cards: z3.ArithRef


class Unrolling:
    """Both encodings unrolled from one deal, one step at a time, in one solver: the question for ``m``
    actions is asked with the difference pushed on top of ``m - 1`` steps, so what Z3 learnt about the
    earlier steps is kept for the next ``m`` (``real``: with the constraints that make a model
    concretisable, which the proof questions leave out)."""

    def __init__(
        self, ea: Encoding, eb: Encoding, a: Ruleset, b: Ruleset, preset: str, players: int, real: bool
    ) -> None:
        self.ea, self.eb, self.players = ea, eb, players
        self.rda, self.rdb = ea.readings_of(a), eb.readings_of(b)
        sa0, sb0 = ea.fresh_state("A0", players), eb.fresh_state("B0", players)
        self.sa, self.sb = [sa0], [sb0]
        self.acts: list[SymAction] = []
        self.aliases = aliases(ea, eb)
        solver = z3.Solver()
        start = variant_of(a).comet_value
        solver.add(ea.initial(sa0, self.rda), eb.initial(sb0, self.rdb), sa0.comet_value == start)
        solver.add(*[x == y for x, y in zip(_deal_fields(sa0), _deal_fields(sb0), strict=True)])
        solver.add(*_shared_extra(sa0, sb0))
        # the rules are the same for every seat: the first player is seat 0 without loss of generality
        solver.add(sa0.to_move == 0)
        if real:
            solver.add(*realism(ea, preset, sa0, False))
        self.solver = solver

    def extend_to(self, steps: int) -> None:
        """Unroll both encodings to ``steps`` actions legal under both."""
        while len(self.acts) < steps:
            i = len(self.acts)
            x, xb = self._actions(f"x{i}")
            ta, tb = self.ea.fresh_state(f"A{i + 1}", self.players), self.eb.fresh_state(f"B{i + 1}", self.players)
            self.solver.add(
                self.ea.transition(self.sa[i], x, ta, self.rda), self.eb.transition(self.sb[i], xb, tb, self.rdb)
            )
            self.sa.append(ta)
            self.sb.append(tb)
            self.acts.append(x)

    def _actions(self, prefix: str) -> tuple[SymAction, SymAction]:
        """One step's action under A and under B: the same symbolic action, or, where an encoding takes one
        engine action two ways (``aliases``), two that are the same engine action (``same_play``)."""
        x = SymAction.fresh(prefix)
        if not self.aliases:
            return x, x
        xb = SymAction.fresh(prefix + "b")
        self.solver.add(same_play(x, xb, self.aliases))
        return x, xb

    def difference(self, m: int) -> tuple[z3.BoolRef, SymAction, z3.ArithRef]:
        """(the ``m``-th action parts the rule sets, that action (A's way), the cards the ``m`` actions put
        down).  Legal under one rule set only means the engine action (``engine_legal``)."""
        self.extend_to(m - 1)
        ea, eb, sa, sb = self.ea, self.eb, self.sa[m - 1], self.sb[m - 1]
        x, xb = SymAction.fresh(f"y{m}"), SymAction.fresh(f"y{m}b") if self.aliases else None
        ta, tb = ea.fresh_state(f"TA{m}", self.players), eb.fresh_state(f"TB{m}", self.players)
        if xb is None:
            la, lb = ea.legal(sa, x, self.rda), eb.legal(sb, x, self.rdb)
            same: z3.BoolRef = z3.BoolVal(True)
            xb = x
        else:
            la = engine_legal(ea, sa, x, self.rda, self.aliases)
            lb = engine_legal(eb, sb, xb, self.rdb, self.aliases)
            same = same_play(x, xb, self.aliases)
        both = z3.And(
            ea.legal(sa, x, self.rda),
            eb.legal(sb, xb, self.rdb),
            ea.transition(sa, x, ta, self.rda),
            eb.transition(sb, xb, tb, self.rdb),
            observed_differ(ea, eb, ta, tb, self.rda, self.rdb),
        )
        # cards put on the table by the m actions: those played before the last, and the last action's
        cards = z3.Sum(*sa.played) + z3.If(sa.comet == -2, 1, 0) + action_cards(ea, sa, x)
        return z3.And(same, z3.Or(la != lb, both)), x, cards


def problem(
    ea: Encoding,
    eb: Encoding,
    a: Ruleset,
    b: Ruleset,
    preset: str,
    players: int,
    m: int,
    real: bool,
) -> Problem:
    """The question "a witness of ``m`` actions and ``players`` players", in a solver of its own."""
    u = Unrolling(ea, eb, a, b, preset, players, real)
    diff, x, cards = u.difference(m)
    u.solver.add(diff)
    return Problem(u.solver, u.sa, u.sb, [*u.acts, x], cards)


def action_cards(enc: Encoding, s: SymState, x: SymAction) -> z3.ArithRef:

    mine = enc.mover_count(s, x.rank)
    groups = [z3.If(x.kind == GROUP_BASE + k, k, 0) for k in range(1, 9)]
    return z3.If(
        x.kind == PASS,
        0,
        z3.If(
            z3.Or(x.kind == NATURAL, x.kind == COMET, x.kind == CARD),
            1,
            z3.If(x.kind == QUARTET, mine, z3.If(x.kind == COMET_QUARTET, enc.pack_count(NINE) + 1, z3.Sum(*groups))),
        ),
    )
