"""The next-state function of an encoding, read off its transition relation.

Every encoding writes ``T(s, a, s')`` as a conjunction whose conjuncts mostly define one field of the
successor (``s'.need == If(...)``, ``s'.turn_played``, ``Not(s'.free_lead)``).  For a concrete action
``a`` this module walks that formula and splits it in two:

- the **definitions**: one term over ``s`` (and ``a``) for every variable of ``s'``: the successor
  ``next(s, a)``;
- the **guard**: every other conjunct with ``next(s, a)`` put in for ``s'`` (the legality of ``a`` and
  anything else the effect demands).

So ``T(s, a, s') ⇔ guard(s, a) ∧ s' = next(s, a)``: each legal action has exactly one successor, by
construction.  A variable of ``s'`` with no definition (a relation that leaves a field free, or pins it
only through an equation such as ``s'.x + 1 == s.x``) is reported as undetermined, and the totality
proof (``proofs.py``) fails on it; so does a guard no state meets (an effect that contradicts itself).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import z3

from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import Readings, SymAction, SymState
from comet_proofs.terms import is_variable, subterms


@dataclass(frozen=True, slots=True)
class Successor:
    """``next(s, a)`` for one concrete action, the guard under which ``a`` has it, and the fields of the
    successor the transition relation does not define (empty for a functional relation)."""

    make_state: Callable[[], SymState]
    guard: z3.BoolRef
    undetermined: tuple[str, ...]

    @property
    def state(self) -> SymState:
        """``next(s, a)`` (built on demand: the totality proof needs only the guard)."""
        return self.make_state()


def _variables(terms: list[z3.ExprRef]) -> dict[int, z3.ExprRef]:
    """The uninterpreted constants under ``terms``, by Z3 id."""
    return {t.get_id(): t for t in subterms(terms) if is_variable(t)}


def _conjuncts(f: z3.ExprRef) -> list[z3.ExprRef]:
    """Flatten ``f`` into conjuncts, resolving If/Implies whose condition is decided once the action is
    concrete (the pass/play dispatch)."""
    out: list[z3.ExprRef] = []
    todo = [f]
    while todo:
        g = todo.pop()
        if z3.is_and(g):
            todo.extend(g.children())
        elif z3.is_true(g):
            continue
        elif z3.is_app_of(g, z3.Z3_OP_ITE) and z3.is_bool(g):
            cond = z3.simplify(g.arg(0))
            if z3.is_true(cond):
                todo.append(g.arg(1))
            elif z3.is_false(cond):
                todo.append(g.arg(2))
            else:
                out.append(g)
        elif z3.is_implies(g):
            cond = z3.simplify(g.arg(0))
            if z3.is_true(cond):
                todo.append(g.arg(1))
            elif not z3.is_false(cond):
                out.append(g)
        else:
            out.append(g)
    return out


def _zero(v: z3.ExprRef) -> z3.ExprRef:
    return z3.BoolVal(False) if z3.is_bool(v) else z3.IntVal(0)


class _Subst:
    """Many substitutions with the same pairs (``z3.substitute`` re-checks every pair's sort per call)."""

    def __init__(self, pairs: list[tuple[z3.ExprRef, z3.ExprRef]]) -> None:
        self.pairs = pairs  # keeps the terms alive while the arrays point at them
        self.n = len(pairs)
        self.src = (z3.Ast * max(self.n, 1))()
        self.dst = (z3.Ast * max(self.n, 1))()
        for k, (x, y) in enumerate(pairs):
            self.src[k] = x.as_ast()
            self.dst[k] = y.as_ast()

    def __call__(self, t: z3.ExprRef) -> z3.ExprRef:
        if not self.n:
            return t
        ctx = t.ctx
        return z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), t.as_ast(), self.n, self.src, self.dst), ctx)


def _free_of(term: z3.ExprRef, zero: _Subst) -> bool:
    """``term`` mentions none of the variables ``zero`` replaces (Z3 terms are hash-consed, so a
    substitution that changes nothing returns the same term)."""
    return bool(zero(term).eq(term))


def successor(enc: Encoding, s: SymState, kind: int, rank: int, rd: Readings, prefix: str = "nx") -> Successor:
    """``next(s, (kind, rank))`` and its guard, from ``enc.transition``."""
    return successors(enc, s, rd, [(kind, rank)], prefix)[0]


def successors(
    enc: Encoding,
    s: SymState,
    rd: Readings,
    actions: list[tuple[int, int]],
    prefix: str = "nx",
    built: tuple[SymState, SymAction, z3.BoolRef] | None = None,
) -> list[Successor]:
    """``successor`` for each action of ``actions``; the transition formula is built once, with a symbolic
    action, and the concrete actions are put in for it.  ``built``: ``(s2, a, T(s, a, s2))`` already built
    under ``rd`` (the obligations' shared terms), used instead of a state and action named by ``prefix``."""
    if built is None:
        s2 = enc.fresh_state(prefix, s.players)
        a = SymAction.fresh(f"{prefix}.a")
        relation = enc.transition(s, a, s2, rd)
    else:
        s2, a, relation = built
    variables = _variables(s2.terms())
    zero = _Subst([(v, _zero(v)) for v in variables.values()])
    # The formula's shape (pass or play, which effect) depends on the action's kind only: split it once
    # per kind with the rank still symbolic, then put each rank in.
    by_kind: dict[int, Successor] = {}
    out = []
    for kind, rank in actions:
        if kind not in by_kind:
            by_kind[kind] = _split(s2, _Subst([(a.kind, z3.IntVal(kind))])(relation), variables, zero)
        general = by_kind[kind]
        put_rank = _Subst([(a.rank, z3.IntVal(rank))])
        out.append(
            Successor(
                functools.partial(_with_rank, general, put_rank),
                put_rank(general.guard),
                general.undetermined,
            )
        )
    return out


def _with_rank(general: Successor, put_rank: _Subst) -> SymState:
    state = general.state
    return _rebuild(state, [put_rank(x) for x in state.terms()])


def _split(s2: SymState, relation: z3.ExprRef, variables: dict[int, z3.ExprRef], zero: _Subst) -> Successor:
    ids = set(variables)
    definitions: dict[int, z3.ExprRef] = {}
    rest: list[z3.ExprRef] = []
    for g in _conjuncts(relation):
        defined = None
        if z3.is_const(g) and g.get_id() in ids:
            defined = (g.get_id(), z3.BoolVal(True))
        elif z3.is_not(g) and g.arg(0).get_id() in ids:
            defined = (g.arg(0).get_id(), z3.BoolVal(False))
        elif z3.is_eq(g):
            lhs, rhs = g.arg(0), g.arg(1)
            if lhs.get_id() in ids:
                defined = (lhs.get_id(), rhs)
            elif rhs.get_id() in ids:
                defined = (rhs.get_id(), lhs)
        if defined is not None and defined[0] not in definitions:
            definitions[defined[0]] = defined[1]
        else:
            rest.append(g)
    # Definitions may read other fields of s' (the winner reads the hand sizes after the play): put the
    # definitions in until none is left; what still mentions s' (a cycle, a missing field) is undetermined.
    pending = [i for i, t in definitions.items() if not _free_of(t, zero)]
    for _ in range(3):
        if not pending:
            break
        put = _Subst([(variables[i], t) for i, t in definitions.items()])
        for i in pending:
            definitions[i] = put(definitions[i])
        pending = [i for i in pending if not _free_of(definitions[i], zero)]
    put = _Subst([(variables[i], t) for i, t in definitions.items()])
    undetermined = {str(variables[i]) for i in ids if i not in definitions}
    undetermined |= {str(variables[i]) for i in pending}
    guard = put(z3.And(rest)) if rest else z3.BoolVal(True)
    if not _free_of(guard, zero):
        undetermined |= {str(v) for v in variables.values() if not _free_of(guard, _Subst([(v, _zero(v))]))}
    terms = s2.terms()
    return Successor(lambda: _rebuild(s2, [put(x) for x in terms]), guard, tuple(sorted(undetermined)))


def _rebuild(s2: SymState, terms: list[z3.ExprRef]) -> SymState:
    """``s2`` with its terms (in ``SymState.terms`` order) replaced."""
    it = iter(terms)

    def take(k: int) -> list[z3.ExprRef]:
        return [next(it) for _ in range(k)]

    n = s2.players
    width = len(s2.ranks)
    flat = take(n * width)
    hands = tuple(tuple(flat[p * width : (p + 1) * width]) for p in range(n))
    (comet,) = take(1)
    played = tuple(take(width))
    dead = tuple(take(width))
    need, to_move, last_player, turn_played = take(4)
    chips = tuple(take(n))
    winner, out_wild_as, steps, comet_value = take(4)
    extra = tuple((name, t) for (name, _), t in zip(s2.extra, take(len(s2.extra)), strict=True))
    (free_lead,) = take(1)
    return SymState(
        players=n,
        hands=hands,
        comet=comet,
        played=played,
        dead=dead,
        need=need,
        to_move=to_move,
        last_player=last_player,
        turn_played=turn_played,
        chips=chips,
        winner=winner,
        out_wild_as=out_wild_as,
        steps=steps,
        comet_value=comet_value,
        ranks=s2.ranks,
        extra=extra,
        labels=s2.labels,
        free_lead=free_lead,
    )
