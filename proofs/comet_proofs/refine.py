"""The directed refinement check: the encoding against the model on states Z3 finds for each
behaviour class of the game (its folder's ``classes.py``, over ``catalogue.py``), not only on states random play happens to meet.

For each class of a preset and each reading combination it names, Z3 finds a step
``Inv(s) ∧ T(s, a, s2) ∧ guard(s, a, s2)``; ``concrete.concretise`` turns ``s`` into a real
``DealState`` (and ``enc.abstract`` must give ``s`` back, else Z3 is asked for another ``s``); then,
on that state, the model's legal actions and successors must equal the encoding's exactly
(``crosscheck.check_state``), and every finished successor's returns and points must equal the
encoding's (with the model's payments shown when they do not).  A class without a witness is a
failure.  A short random cross-check (``crosscheck.sample_states``) is a second source of states.

Finding ``s`` depends on the encoding alone, so the model Z3 found is kept as a certificate
(``certificates``, ``certified/<preset>.json``): a run evaluates the formula, built now, on the stored model
instead of searching (a few milliseconds), and searches only where it no longer evaluates to true or no
longer concretises (saying so).  The comparison with the model on the state is the same either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3
from comet import engine
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset, field_readings
from comet.state import Action, DealState, Payment
from comet.variant import variant_of

from comet_proofs.abstraction import describe_action, describe_deal_state
from comet_proofs.catalogue import BehaviourClass, Overrides
from comet_proofs.certificates import Certificates, StoredWitness, fits, model_of, values_of
from comet_proofs.concrete import concretise
from comet_proofs.crosscheck import check_state, encoded_successors, sample_states
from comet_proofs.dealt import flat_values
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for, game_part
from comet_proofs.symbolic import AbstractState, Readings, SymAction, SymState
from comet_proofs.terms import Numerals, all_equal, is_variable, substituted

TIMEOUT_MS = 20_000
ATTEMPTS = 8  # abstract states tried per class and reading before giving up on concretising


def classes_for(preset: str) -> tuple[BehaviourClass, ...]:
    """The behaviour classes of ``preset``'s game (its folder's ``classes.CLASSES``); ValueError if the game
    has none."""
    found = game_part(preset, "classes", "CLASSES")
    if not isinstance(found, tuple) or not all(isinstance(c, BehaviourClass) for c in found):
        raise ValueError(f"no behaviour classes for preset {preset!r}")
    return found


@dataclass(frozen=True, slots=True)
class Witness:
    """A concrete state that exhibits a class: where it came from and the step the class is about."""

    preset: str
    cls: str
    players: int
    readings: tuple[tuple[str, str], ...]
    action: str
    state: DealState


@dataclass(frozen=True, slots=True)
class ClassResult:
    """One behaviour class: its witnesses, the reading combinations without one, and the mismatches."""

    name: str
    witnesses: tuple[Witness, ...]
    missing: tuple[str, ...]
    mismatches: tuple[str, ...]
    # With ``sweep``: single readings under which the class cannot happen (not a failure: e.g. the Comet
    # leading under RUL-COMET-LEAD = forbidden).
    impossible: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.missing and not self.mismatches


@dataclass(frozen=True, slots=True)
class RefineResult:
    """The directed refinement check of one preset."""

    preset: str
    classes: tuple[ClassResult, ...]
    random_states: int
    random_mismatches: tuple[str, ...]
    seconds: float
    # witnesses taken from stored certificates (checked by evaluation, not searched), and one note per
    # certificate that was stale or missing (searched afresh instead: ``certificates``)
    certified: int = 0
    certificate_notes: tuple[str, ...] = ()

    @property
    def witnesses(self) -> int:
        return sum(len(c.witnesses) for c in self.classes)

    @property
    def covered(self) -> int:
        """Classes with a witness for every reading combination they name."""
        return sum(1 for c in self.classes if not c.missing)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.classes) and not self.random_mismatches

    def failures(self) -> list[str]:
        out: list[str] = []
        for c in self.classes:
            out += [f"{self.preset}: class '{c.name}' has no witness {m}" for m in c.missing]
            out += c.mismatches
        return out + [f"{self.preset}: random cross-check:\n{m}" for m in self.random_mismatches]


# ---------------------------------------------------------------- readings


def rules_of(enc: Encoding, base: Ruleset, rd: Readings, model: z3.ModelRef) -> Ruleset:
    """The concrete rules a Z3 model picked: each quantified ruling's reading, the rest from ``base``.  A field
    may have several Booleans (one per reading it names): the reading whose Boolean is true, or, with none
    true, ``base``'s reading if it is not one of them, else the first reading none of them names."""
    named: dict[str, list[object]] = {}
    chosen: dict[str, list[object]] = {}
    for (field, value), flag in zip(rd.fields, rd.flags, strict=True):
        named.setdefault(field, []).append(value)
        if z3.is_true(model.eval(flag, model_completion=True)):
            chosen.setdefault(field, []).append(value)
    changes: dict[str, object] = {}
    for field, values in named.items():
        if field in chosen:
            changes[field] = chosen[field][0]
        elif getattr(base, field) not in values:
            changes[field] = getattr(base, field)
        else:
            rest = [r for r in field_readings(field) or () if r not in values]
            if not rest:
                raise ValueError(f"ruling {field!r}: every reading has a Boolean and none is true")
            changes[field] = rest[0]
    return base.with_overrides(changes)


def pin_readings(enc: Encoding, rd: Readings, base: Ruleset, overrides: Overrides, free: bool) -> list[z3.BoolRef]:
    """Fix the readings named in ``overrides``; unless ``free``, fix the others to ``base``'s."""
    named = dict(overrides)
    out: list[z3.BoolRef] = []
    for (field, value), flag in zip(rd.fields, rd.flags, strict=True):
        if field in named:
            out.append(flag == z3.BoolVal(named[field] == value))
        elif not free:
            out.append(flag == z3.BoolVal(getattr(base, field) == value))
    return out


def reading_combinations(enc: Encoding, cls: BehaviourClass) -> list[Overrides]:
    """The class's reading combinations, each limited to the rulings ``enc`` quantifies (a reading the
    preset does not have, e.g. a ruling another game's encoding quantifies, falls away), without repeats."""
    out: list[Overrides] = []
    for overrides in cls.readings:
        for field, _ in overrides:
            field_readings(field)  # an unknown field is a catalogue error (ValueError)
        kept = tuple((f, v) for f, v in overrides if enc.has_ruling(f))
        if kept not in out:
            out.append(kept)
    return out


def sweep_combinations(enc: Encoding) -> list[Overrides]:
    """Each reading of each ruling the encoding quantifies, one at a time."""
    out: list[Overrides] = []
    for field in dict.fromkeys(f for f, _ in enc.rulings):
        for reading in field_readings(field) or ():
            if ((field, reading),) not in out:
                out.append(((field, reading),))
    return out


# ---------------------------------------------------------------- what makes an abstract state concretisable


def realism(enc: Encoding, preset: str, s: SymState, escalated: bool) -> list[z3.BoolRef]:
    """Constraints that pick states a real deal can have (the encoding allows more): the Comet at its
    starting value (or above it, for an escalated class), and the encoding's own (``Encoding.realism``:
    small stakes, the facts the concrete state must agree with that the encoding leaves free)."""
    start = variant_of(preset_named(preset).rules).comet_value
    out = [s.comet_value > start, s.comet_value <= start + 10] if escalated else [s.comet_value == start]
    return out + enc.realism(s)


# ---------------------------------------------------------------- witnesses


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


def audit(preset: str, certificates: Certificates) -> None:
    """Look up the stored witness of every class of ``preset`` under every reading combination it names
    (``stored_witness``: evaluated, no search, no comparison with the model); the ones that do not fit, or
    are missing, leave their notes in ``certificates``."""
    enc = encoding_for(preset)
    contexts: dict[int, Context] = {}

    def context(n: int) -> Context:
        if n not in contexts:
            contexts[n] = Context(enc, n)
        return contexts[n]

    for cls in classes_for(preset):
        for overrides in reading_combinations(enc, cls):
            stored_witness(context, preset, cls, overrides, enc.player_counts, certificates)


def _concrete(enc: Encoding, abstract: AbstractState, rules: Ruleset) -> DealState | None:
    try:
        state = concretise(enc, abstract, rules)
        return state if enc.abstract(state) == abstract else None
    except ValueError:
        return None


# ---------------------------------------------------------------- the check on one witness


def payments_text(pays: Sequence[Payment]) -> str:
    return ", ".join(f"seat {p.payer} pays seat {p.payee} {p.amount} ({p.rule})" for p in pays) or "none"


def check_witness(ctx: Context, w: Witness) -> list[str]:
    """Compare the model with the encoding on the witness state (``compare``)."""
    head = f"{w.preset}: class '{w.cls}' ({w.players} players, "
    head += f"step: {w.action}; readings: " + ", ".join(f"{k}={v}" for k, v in w.readings) + ")"
    return compare(ctx, w.state, head)


def compare(ctx: Context, state: DealState, head: str, invariant: bool = False) -> list[str]:
    """The model against the encoding on ``state``: the successor sets (fast, with the prepared solver;
    on a difference ``check_state`` gives the full report), the step bound, and the returns and points of
    every finished successor (and of ``state`` if it is finished); ``invariant``: also that the state's
    abstraction satisfies every part of ``Inv`` (for states not found by Z3)."""
    enc = ctx.enc
    problems: list[str] = []
    before = enc.abstract(state)
    legal = engine.legal_actions(state)
    # each successor computed once (the model's step may search a whole deal's rest)
    afters = [(act, engine.apply(state, act, legal=legal)) for act in legal]
    abstracts = [enc.abstract(after) for _, after in afters]
    same = ctx.same_successors(before, state.rules, set(abstracts))
    bound, _, _ = ctx.closed(before, state.rules, scores=False)
    broken = ctx.broken_parts(before) if invariant else []
    _, problem = (0, None) if same and not broken and bound == engine.step_bound(state) else check_state(enc, state)
    if problem is not None:
        problems.append(
            f"{head}: the model's successors differ from the encoding's\n{problem}{step_detail(enc, state)}"
        )
    finished: list[tuple[Action | None, DealState, AbstractState]] = [(None, state, before)] if state.terminal else []
    finished += [(act, after, a) for (act, after), a in zip(afters, abstracts, strict=True)]
    for act, after, abstract in finished:
        if not after.terminal:
            continue
        _, enc_returns, enc_points = ctx.closed(abstract, after.rules)
        got_returns, got_points = engine.returns(after), engine.deal_points(after)
        shape = enc.settlement_problems(after)
        if enc_returns != got_returns or enc_points != got_points or shape:
            step = after.payments[len(state.payments) :]
            where = "the finished deal" if act is None else f"after '{act}' the deal is over and"
            problems.append(
                f"{head}: {where} the model's payments differ from the encoding's:\n"
                f"  model returns {got_returns}, encoding returns {enc_returns}; "
                f"model points {got_points}, encoding points {enc_points}\n"
                + "".join(f"  {x}\n" for x in shape)
                + f"  the model's payments for the step: {payments_text(step)}\n"
                f"  the model's settlement: {payments_text(engine.settlement(after))}\n"
                f"state before the step:\n{describe_deal_state(state)}"
            )
    return problems


def step_detail(enc: Encoding, state: DealState) -> str:
    """For each legal action whose successor the encoding forbids: the payments the model made, and the
    chips of the encoding's successors that move the same cards."""
    allowed, _ = encoded_successors(enc, state)
    lines: list[str] = []
    for act in engine.legal_actions(state):
        after = engine.apply(state, act)
        got = enc.abstract(after)
        if got in allowed:
            continue
        same = [
            x for x in allowed if (x.hands, x.played, x.comet, x.extra) == (got.hands, got.played, got.comet, got.extra)
        ]
        theirs = "; ".join(f"chips {x.chips}" for x in same) or "no successor moving the same cards"
        lines.append(
            f"- model '{act}': payments {payments_text(after.payments[len(state.payments) :])}, chips {got.chips}; "
            f"encoding: {theirs}"
        )
    return ("\nper action:\n" + "\n".join(lines)) if lines else ""


# ---------------------------------------------------------------- one preset


def refine(
    preset: str,
    *,
    players: Sequence[int] | None = None,
    random_deals: int = 1,
    seed: int = 0,
    enc: Encoding | None = None,
    only: Sequence[str] = (),
    sweep: bool = False,
    progress: Callable[[str], None] | None = None,
    certificates: Certificates | None = None,
) -> RefineResult:
    """The directed refinement check of ``preset`` over its player counts (or ``players``); ``enc``: its
    encoding, or a planted one in tests; ``only``: just the classes whose name contains one of these;
    ``sweep``: also witness every class under each reading of every quantified ruling, one at a time (a
    reading under which the class cannot happen is listed as impossible, not failed); ``certificates``:
    the stored witnesses to check before searching (default: the preset's committed ones;
    ``Certificates.searching``: none, every witness searched)."""
    t0 = time.perf_counter()
    enc = enc or encoding_for(preset)
    certs = certificates if certificates is not None else Certificates.stored(preset)
    notes_before, used_before = len(certs.notes), certs.used
    certs.absence("refinement check")
    counts = tuple(players) if players else enc.player_counts
    results: list[ClassResult] = []
    contexts: dict[int, Context] = {}

    def context(n: int) -> Context:
        if n not in contexts:
            contexts[n] = Context(enc, n)
        return contexts[n]

    catalogue = [c for c in classes_for(preset) if not only or any(k in c.name for k in only)]
    # rotate over a few spread player counts (each needs its formulas built); the rest only if needed
    spread = tuple(dict.fromkeys([counts[0], counts[min(1, len(counts) - 1)], counts[len(counts) // 2], counts[-1]]))
    for i, cls in enumerate(catalogue):
        k = i % len(spread)
        order = spread[k:] + spread[:k] + tuple(n for n in counts if n not in spread)
        witnesses: list[Witness] = []
        missing: list[str] = []
        mismatches: list[str] = []
        impossible: list[str] = []
        declared = reading_combinations(enc, cls)
        extra = [o for o in sweep_combinations(enc) if o not in declared] if sweep else []
        for overrides in declared + extra:
            if progress is not None:
                progress(f"refine {preset}: {cls.name}")
            # the sweep's extra combinations have no stored witness (none are written for them)
            w = find_witness(context, preset, cls, overrides, order, certs if overrides in declared else None)
            label = "under " + (", ".join(f"{k}={v}" for k, v in overrides) or "the preset's readings")
            if w is None:
                (missing if overrides in declared else impossible).append(
                    f"{label} ({', '.join(map(str, counts))} players)"
                )
                continue
            witnesses.append(w)
            mismatches += check_witness(contexts[w.players], w)
        results.append(ClassResult(cls.name, tuple(witnesses), tuple(missing), tuple(mismatches), tuple(impossible)))
    sample_states_n = 0
    random_bad: tuple[str, ...] = ()
    if random_deals > 0:
        if progress is not None:
            progress(f"refine {preset}: random cross-check")
        states = sample_states(counts[:2], random_deals, seed, per_deal=4, preset=preset)
        bad: list[str] = []
        for k, state in enumerate(states):
            bad += compare(context(state.players), state, f"{preset}: random state {k}", invariant=True)
        sample_states_n, random_bad = len(states), tuple(bad)
    return RefineResult(
        preset,
        tuple(results),
        sample_states_n,
        random_bad,
        time.perf_counter() - t0,
        certs.used - used_before,
        tuple(certs.notes[notes_before:]),
    )
