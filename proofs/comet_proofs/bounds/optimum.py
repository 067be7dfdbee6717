"""The solver's side of the bounds: maxima by ``z3.Optimize`` (each in a Z3 context of its own), read from a
stored certificate where it is current, and the checks that a set of formulas cannot hold (whole, or split
by the step's cases)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import z3

from comet_proofs.certificates import Certificates, StoredOptimum, fits, model_of, value_on, values_of
from comet_proofs.encoding import Encoding
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import SymAction, SymState

TIMEOUT_MS = 5_000
# The budget of a step check tried whole before it is split by the step's cases (``unsat_at_once``)
WHOLE_MS = 1_000


def unsat_at_once(hypothesis: list[z3.BoolRef], breaks: Sequence[z3.BoolRef], ms: int = WHOLE_MS) -> bool:
    """``hypothesis ∧ Or(breaks)`` proved unsat in one check of at most ``WHOLE_MS``, the step not split by its
    cases: then no case can break either, and the split (one check per card on a card-level encoding)
    is not needed; False (split it) when Z3 gives no such answer in that time (``ms``, for a lemma known to need
    more).  The step's checks of the
    two Commit encodings' bounds: about 0.4 and 1 s split, 0.01-0.03 s whole (2026-12-02)."""
    return bool(solve_alone([z3.And(*hypothesis, z3.Or(*breaks))], ms).verdict == z3.unsat)


def step_cases(enc: Encoding, a: SymAction) -> list[z3.BoolRef]:
    """The encoding's action cases, then the rest split by action kind (the rest as one formula makes Z3 give
    up on a card-level encoding): together they cover every action."""
    cases = enc.action_cases(a)
    kinds = sorted({kind for kind, _ in enc.all_actions()})
    rest = z3.Not(z3.Or(*cases)) if cases else z3.BoolVal(True)
    return [*cases, *[z3.And(rest, a.kind == k) for k in kinds], z3.And(rest, *[a.kind != k for k in kinds])]


@dataclass(frozen=True)
class Problem:
    """One optimum the bounds ask of Z3, kept whole so that the bound and a state attaining it come from the
    same formulas: ``objective`` maximised over ``constraints``; ``shown``, the states a model is read
    back as (a finished deal, or the last step's two states with ``action`` between them)."""

    constraints: tuple[z3.BoolRef, ...]
    objective: z3.ArithRef
    shown: tuple[tuple[str, SymState], ...]
    action: SymAction | None = None


def maximise(constraints: list[z3.BoolRef], objective: z3.ArithRef) -> int | None:
    """The maximum of ``objective`` (None if unbounded or Z3 gives no answer in time), in a Z3 context of its
    own, as the proofs are solved (``solving.solve_alone``): in a worker that has built other terms
    before, the search in the main context differs (a card-level encoding's bounds: 1.6 s alone, 5.8 s in the
    pool of ``comet verify``, 2026-12-01)."""
    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", TIMEOUT_MS)
    opt.add(*[c.translate(ctx) for c in constraints])
    handle = opt.maximize(objective.translate(ctx))
    if opt.check() != z3.sat:
        return None
    value = opt.upper(handle)
    return int(value.as_long()) if z3.is_int_value(value) else None


def maximise_all(constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]) -> list[int | None]:
    """``[maximise(constraints, o) for o in objectives]`` in one ``Optimize`` (Z3's "box" priority: each
    objective's own maximum, the formula preprocessed once; the time limit is the sum of theirs): a card-level
    encoding's bounds ask several pairs of maxima over the same constraints (the most lost and won).  Where
    Z3 gives no answer for them together, each is asked alone (``maximise``), so the answers are never
    fewer than one by one."""
    if len(objectives) == 1:
        return [maximise(constraints, objectives[0])]
    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", TIMEOUT_MS * len(objectives))
    opt.set("priority", "box")
    opt.add(*[c.translate(ctx) for c in constraints])
    handles = [opt.maximize(o.translate(ctx)) for o in objectives]
    if opt.check() != z3.sat:
        return [maximise(constraints, o) for o in objectives]
    values = [opt.upper(h) for h in handles]
    return [int(v.as_long()) if z3.is_int_value(v) else None for v in values]


def maxima(
    certs: Certificates | None, key: str, constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]
) -> list[int | None]:
    """``maximise_all(constraints, objectives)``, from the stored certificate ``key`` of ``certs`` where it is
    current (``optimum_problem``: each value attained by its stored model, and Z3 proves none exceeded, so
    they are the exact optima, the same numbers ``Optimize`` gives), else searched as without certificates
    (with a note); at ``--update`` (``certs.recording``) a model attaining each optimum is found and kept."""
    if certs is None:
        return maximise_all(constraints, objectives)
    certs.asked.add(key)
    stored = certs.optima.get(key)
    if stored is not None and not stored.search:
        problem = optimum_problem(stored, constraints, objectives)
        if problem is None:
            certs.used += 1
            certs.found_optima[key] = stored
            return list(stored.values)
        certs.stale(f"bound '{key}'", problem)
    elif stored is None and certs.notify_missing:
        certs.stale(f"bound '{key}'", "missing")
    started = time.process_time()
    values = maximise_all(constraints, objectives)
    spent = time.process_time() - started
    if certs.recording:
        certs.found_optima[key] = attained(constraints, objectives, values, spent)
    elif stored is not None and stored.search and list(stored.values) == values:
        certs.found_optima[key] = stored
    return values


UNPROVED = "not proved in time"


def optimum_problem(
    stored: StoredOptimum, constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]
) -> str | None:
    """Why a stored optimum is not the optimum now (None: it is): each stored model must satisfy the
    constraints and give its objective the stored value (the optimum is at least that), and
    ``constraints ∧ Or(objective > value)`` must be unsat (at most that)."""
    if len(stored.values) != len(objectives) or len(stored.models) != len(objectives):
        return "stale (another number of objectives)"
    for objective, value, values in zip(objectives, stored.values, stored.models, strict=True):
        model = model_of(values)
        if not fits(model, constraints) or value_on(model, objective) != value:
            return "stale (its model no longer attains the optimum)"
    above = z3.Or(*[o > v for o, v in zip(objectives, stored.values, strict=True)])
    verdict = solve_alone([*constraints, above], TIMEOUT_MS).verdict
    if verdict == z3.unsat:
        return None
    return "stale (the optimum is larger now)" if verdict == z3.sat else UNPROVED


def attained(
    constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef], values: Sequence[int | None], spent: float
) -> StoredOptimum:
    """The certificate of optima ``values`` found by ``Optimize`` in ``spent`` CPU seconds: a model attaining
    each.  Marked ``search`` where a value is missing, no model is found, or checking the certificate
    (``optimum_problem``) is not proved in time or takes clearly longer than the search did: ``comet verify``
    then searches it."""
    if any(v is None for v in values):
        return StoredOptimum((), (), True)
    found = [int(v) for v in values if v is not None]
    models: list[dict[str, int | bool]] = []
    for objective, value in zip(objectives, found, strict=True):
        solved = solve_alone([*constraints, objective == value], 6 * TIMEOUT_MS)
        got = values_of(solved.model) if solved.model is not None else None
        if got is None:
            return StoredOptimum(tuple(found), (), True)
        models.append(got)
    certificate = StoredOptimum(tuple(found), tuple(models))
    started = time.process_time()
    problem = optimum_problem(certificate, constraints, objectives)
    if problem is not None and problem != UNPROVED:  # Optimize and the models found contradict the proof
        raise AssertionError(f"a certificate of the optima {found} fails as it is written: {problem}")
    # searched where the check is clearly the dearer (a small Optimize and its check cost about the same, and
    # timing noise should not flip the choice from one --update to the next)
    checking = time.process_time() - started
    slower = problem == UNPROVED or (checking > 2 * spent and checking > 0.05)
    return StoredOptimum(tuple(found), tuple(models), slower)


def none_holds(
    hypothesis: list[z3.BoolRef], breaks: Sequence[z3.BoolRef], ms: int, case: z3.BoolRef | None, whole: bool
) -> list[bool]:
    """For each formula of ``breaks``: ``hypothesis ∧ it`` is unsat (on ``case``; with ``whole`` given to Z3 as
    one conjunction, else as the list of them).  One check of ``hypothesis ∧ Or(breaks)`` first (unsat: none
    can hold, at the cost of one Z3 preprocessing of the hypothesis instead of one per formula), each alone
    only where that is not unsat."""

    def unsat(b: z3.BoolRef) -> bool:
        formulas = [z3.And(*hypothesis, b)] if whole else [*hypothesis, b]
        return bool(solve_alone(formulas, ms, case).verdict == z3.unsat)

    if len(breaks) > 1 and unsat(z3.Or(*breaks)):
        return [True] * len(breaks)
    return [unsat(b) for b in breaks]
