"""The refinement check's witnesses: for a behaviour class and a reading combination, a step
``Inv(s) ∧ T(s, a, s2) ∧ guard`` Z3 finds (or a stored certificate evaluates to true) whose ``s`` concretises
to a real ``DealState`` (``find_witness``); ``Context`` holds an encoding's formulas for one player count."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset
from comet.state import DealState

from comet_proofs.abstraction import describe_action
from comet_proofs.catalogue import BehaviourClass, Overrides
from comet_proofs.certificates import Certificates, StoredWitness, fits, model_of, values_of
from comet_proofs.concrete import concretise
from comet_proofs.dealt import flat_values
from comet_proofs.encoding import Encoding
from comet_proofs.pinning import pin_readings, realism, rules_of
from comet_proofs.symbolic import AbstractState, SymAction, SymState
from comet_proofs.terms import Numerals, all_equal, is_variable, substituted

TIMEOUT_MS = 20_000
ATTEMPTS = 8  # abstract states tried per class and reading before giving up on concretising


@dataclass(frozen=True, slots=True)
class Witness:
    """A concrete state that exhibits a class: where it came from and the step the class is about."""

    preset: str
    cls: str
    players: int
    readings: tuple[tuple[str, str], ...]
    action: str
    state: DealState


class Context:
    """The formulas of one encoding and player count, built once: ``Inv(s) ∧ T(s, a, s2)`` for finding
    witnesses (with a class's guard and readings, in a solver of each search's own), and ``T`` alone for
    comparing the encoded successors of a concrete state with the model's (``same_successors``)."""

    def __init__(self, enc: Encoding, players: int) -> None:
        self.enc = enc
        self.players = players
        self.s, self.s2, self.a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
        self.rd = enc.fresh_readings()
        step = enc.transition(self.s, self.a, self.s2, self.rd)
        self.inv_step = [enc.invariant(self.s), step]
        self.step = step
        # the terms of s and s2 and where their variables are, found once (``SymState.same_variables``
        # looks for them term by term at every blocking clause: a fifth of one preset's refinement check)
        self.s_terms, self.s2_terms = self.s.terms(), self.s2.terms()
        self.s_vars = [i for i, t in enumerate(self.s_terms) if is_variable(t)]
        self.s2_vars = [i for i, t in enumerate(self.s2_terms) if is_variable(t)]
        # the states' values go into formulas as constants built once (``terms.Numerals``), through Z3's C
        # API (``terms.substituted``, ``terms.all_equal``): the same terms as the Python operators build
        self.numerals = Numerals()
        self.s_bool = [z3.is_bool(t) for t in self.s_terms]
        self.s2_bool = [z3.is_bool(t) for t in self.s2_terms]
        self.s2_var_terms = [self.s2_terms[i] for i in self.s2_vars]
        self.s2_set = set(self.s2_vars)
        self.s_set = set(self.s_vars)
        self._parts: dict[str, z3.BoolRef] | None = None  # Inv's parts over s, built on first use
        self.flag_vars = [(i, x) for i, x in enumerate(self.rd.flags) if is_variable(x)]
        # the step bound, deal returns and deal points over s2, built on first use (``closed``)
        self._scores: tuple[z3.ArithRef, tuple[z3.ArithRef, ...], tuple[z3.ArithRef, ...]] | None = None

    def closed(
        self, a: AbstractState, rules: Ruleset, scores: bool = True
    ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The encoding's step bound, deal returns and deal points of ``a`` under ``rules`` (without ``scores``:
        the step bound alone, the scores empty): each built once
        over s2 and the readings, with ``a``'s and the readings' values put in (``terms.substituted``) and
        simplified to a number.  Where s2 has a term that is neither a variable nor a constant equal to
        ``a``'s value (a card-level state's counts, built from its cards' places), built on
        ``SymState.const(a)`` instead, so the numbers are always those of ``a``'s own values."""
        enc = self.enc
        values = self.values(a, True)
        rd = enc.readings_of(rules)
        if not all(t.eq(v) for i, (t, v) in enumerate(zip(self.s2_terms, values, strict=True)) if i not in self.s2_set):
            sym = SymState.const(a)
            bound = z3.simplify(enc.step_bound(sym)).as_long()
            if not scores:
                return bound, (), ()
            returns = tuple(z3.simplify(x).as_long() for x in enc.deal_returns(sym, rd))
            return bound, returns, tuple(z3.simplify(x).as_long() for x in enc.deal_points(sym, rd))
        if self._scores is None:
            self._scores = (
                enc.step_bound(self.s2),
                enc.deal_returns(self.s2, self.rd),
                enc.deal_points(self.s2, self.rd),
            )
        froms = self.s2_var_terms + [x for _, x in self.flag_vars]
        tos = [values[i] for i in self.s2_vars] + [rd.flags[i] for i, _ in self.flag_vars]

        def number(term: z3.ArithRef) -> int:
            return int(z3.simplify(substituted(term, froms, tos)).as_long())

        bound, returns, points = self._scores
        if not scores:
            return number(bound), (), ()
        return number(bound), tuple(number(x) for x in returns), tuple(number(x) for x in points)

    def broken_parts(self, a: AbstractState) -> list[str]:
        """The parts of ``Inv`` that ``a`` breaks: each part built once over s, ``a``'s values put in
        (``terms.substituted``) and simplified.  Where s has a term that is neither a variable nor ``a``'s
        value (a card-level state's counts), built on ``SymState.const(a)`` instead, as ``closed`` does
        (building every part anew per random state was a tenth of the refinement check of a counting
        encoding, 2026-12-02)."""
        values = self.values(a, False)
        if not all(t.eq(v) for i, (t, v) in enumerate(zip(self.s_terms, values, strict=True)) if i not in self.s_set):
            parts = self.enc.invariant_parts(SymState.const(a))
            return [name for name, holds in parts.items() if not z3.is_true(z3.simplify(holds))]
        if self._parts is None:
            self._parts = self.enc.invariant_parts(self.s)
        froms = [self.s_terms[i] for i in self.s_vars]
        tos = [values[i] for i in self.s_vars]
        return [name for name, f in self._parts.items() if not z3.is_true(z3.simplify(substituted(f, froms, tos)))]

    def values(self, a: AbstractState, second: bool, where: list[int] | None = None) -> list[z3.ExprRef]:
        """``a``'s values as Z3 constants, in the order of ``SymState.terms`` (of s2 when ``second``: the sorts
        are read from its terms), at the positions ``where`` (default: all)."""
        flat, kinds = flat_values(a), self.s2_bool if second else self.s_bool
        of = self.numerals.of
        return [of(flat[i], kinds[i]) for i in (range(len(flat)) if where is None else where)]

    def block(self, second: bool, a: AbstractState) -> z3.BoolRef:
        """Not ``a``: the blocking clause ``Not(s.same_variables(const(a)))`` (of s2 when ``second``)."""
        terms, where = (self.s2_terms, self.s2_vars) if second else (self.s_terms, self.s_vars)
        return z3.Not(all_equal([terms[i] for i in where], self.values(a, second, where)))

    def fixed_step(self, abstract: AbstractState, rules: Ruleset) -> z3.BoolRef:
        """T from ``abstract`` under ``rules``: the state's and the readings' values substituted into T and
        the result simplified, a formula over the action and the successor only (equivalent to T with the
        values asserted)."""
        fixed = self.values(abstract, False)
        rd = self.enc.readings_of(rules)
        pinned = [all_equal(self.s_terms, fixed), all_equal(list(self.rd.flags), list(rd.flags))]
        froms = [self.s_terms[i] for i in self.s_vars] + [x for _, x in self.flag_vars]
        tos = [fixed[i] for i in self.s_vars] + [rd.flags[i] for i, _ in self.flag_vars]
        return z3.simplify(substituted(z3.And(self.step, *pinned), froms, tos))

    def same_successors(self, abstract: AbstractState, rules: Ruleset, expected: set[AbstractState]) -> bool:
        """Whether T's successors of ``abstract`` under ``rules`` are exactly ``expected`` (the model's), told
        apart by the successor's variables (every other term of a state is built from them, as in the
        blocking clauses): each expected state is one (its values put into the fixed step, which simplifies
        to a formula over the action alone), and T has no other (one check, every expected state blocked).
        The same answer as ``successors(...) == expected`` with one solver check instead of one per
        successor and none of their evaluations (the refinement checks of every preset: 45.4 -> 37.9 s of CPU,
        2026-12-02); ``compare`` enumerates them (``check_state``) only when the answer is no.  The values go
        in through Z3's C API as constants built once (the five counting presets' checks 31.4 -> 22.0 s of
        CPU with ``closed`` and each model successor computed once, load ~3.5, 2026-12-02)."""
        step = self.fixed_step(abstract, rules)
        for succ in expected:
            reached = z3.simplify(substituted(step, self.s2_var_terms, self.values(succ, True, self.s2_vars)))
            if z3.is_false(reached):
                return False
            if not z3.is_true(reached):
                one = z3.Solver()
                one.set("timeout", TIMEOUT_MS)
                one.add(reached)
                if one.check() != z3.sat:
                    return False
        solver = z3.Solver()
        solver.set("timeout", TIMEOUT_MS)
        solver.add(step, *[self.block(True, succ) for succ in expected])
        return bool(solver.check() == z3.unsat)


def witness_key(cls: BehaviourClass, overrides: Overrides) -> str:
    """The name of a class's witness under one reading combination in the stored certificates."""
    return cls.name + " | " + (", ".join(f"{k}={v}" for k, v in overrides) or "the preset's readings")


def witness_formulas(
    ctx: Context, preset: str, cls: BehaviourClass, overrides: Overrides, free: bool
) -> list[z3.BoolRef]:
    """``Inv(s) ∧ T(s, a, s2) ∧ guard`` with the readings pinned (``pin_readings``) and the realism constraints:
    what a witness of ``cls`` under ``overrides`` satisfies."""
    enc, s, s2, a, rd = ctx.enc, ctx.s, ctx.s2, ctx.a, ctx.rd
    base = preset_named(preset).rules
    pinned = pin_readings(enc, rd, base, overrides, free)
    return [*ctx.inv_step, cls.guard(enc, s, a, s2, rd), *pinned, *realism(enc, preset, s, cls.escalated)]


def witness_of(ctx: Context, preset: str, cls: BehaviourClass, m: z3.ModelRef) -> tuple[AbstractState, Witness | None]:
    """The abstract state a model of ``witness_formulas`` picks, and the witness it gives if it concretises
    (``_concrete``; None if not)."""
    enc, s, a, rd = ctx.enc, ctx.s, ctx.a, ctx.rd
    abstract = s.evaluate(m)
    rules = rules_of(enc, preset_named(preset).rules, rd, m)
    state = _concrete(enc, abstract, rules)
    if state is None:
        return abstract, None
    kind = int(m.eval(a.kind, model_completion=True).as_long())
    rank = int(m.eval(a.rank, model_completion=True).as_long())
    readings = tuple((f, str(getattr(state.rules, f)).lower()) for f, _ in rd.fields)
    return abstract, Witness(preset, cls.name, ctx.players, readings, describe_action(kind, rank), state)


def stored_witness(
    context: Callable[[int], Context],
    preset: str,
    cls: BehaviourClass,
    overrides: Overrides,
    players: Sequence[int],
    certificates: Certificates,
) -> Witness | None:
    """The witness of the stored certificate of ``cls`` under ``overrides``, if its model satisfies the
    formulas built now from the encoding (``witness_formulas``: evaluated, no search) and its state
    concretises; None (with a note, unless there is none to check or its player count is not asked for)
    otherwise."""
    key = witness_key(cls, overrides)
    certificates.asked.add(key)
    stored = certificates.witnesses.get(key)
    if stored is None:
        if certificates.notify_missing:
            certificates.stale(f"class '{key}'", "missing")
        return None
    if stored.players not in players:
        return None
    ctx = context(stored.players)
    m = model_of(stored.values)
    if not fits(m, witness_formulas(ctx, preset, cls, overrides, stored.free)):
        certificates.stale(f"class '{key}'", "stale (its model no longer satisfies the formula)")
        return None
    _, w = witness_of(ctx, preset, cls, m)
    if w is None:
        certificates.stale(f"class '{key}'", "stale (its state no longer concretises)")
        return None
    certificates.used += 1
    certificates.found_witnesses[key] = stored
    return w


def find_witness(
    context: Callable[[int], Context],
    preset: str,
    cls: BehaviourClass,
    overrides: Overrides,
    players: Sequence[int],
    certificates: Certificates | None = None,
) -> Witness | None:
    """A concrete state exhibiting ``cls`` under ``overrides`` for the first player count that has one
    (the other readings as the preset's if possible, else as Z3 picks them); None if there is none.  With
    ``certificates``: the stored witness if it still fits (``stored_witness``), else Z3's, recorded there."""
    if certificates is not None:
        w = stored_witness(context, preset, cls, overrides, players, certificates)
        if w is not None:
            return w
    for n in players:
        ctx = context(n)
        for free in (False, True):
            # a solver of its own per search: Z3 preprocesses the whole formula before its first check,
            # which a solver reused under push and pop does not (the refinement check of two counting
            # encodings: 5.0 -> 2.2 s and 2.7 -> 1.4 s, 2026-12-01)
            solver = z3.Solver()
            solver.set("timeout", TIMEOUT_MS)
            solver.add(*witness_formulas(ctx, preset, cls, overrides, free))
            for _ in range(ATTEMPTS):
                if solver.check() != z3.sat:
                    break
                m = solver.model()
                abstract, w = witness_of(ctx, preset, cls, m)
                if w is not None:
                    values = values_of(m)
                    if certificates is not None and values is not None:
                        certificates.found_witnesses[witness_key(cls, overrides)] = StoredWitness(n, free, values)
                    return w
                solver.add(ctx.block(False, abstract))
    return None


def _concrete(enc: Encoding, abstract: AbstractState, rules: Ruleset) -> DealState | None:
    try:
        state = concretise(enc, abstract, rules)
        return state if enc.abstract(state) == abstract else None
    except ValueError:
        return None
