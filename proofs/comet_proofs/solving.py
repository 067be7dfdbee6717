"""Running Z3 on one proof's formulas: in a fresh context of their own (``solve_alone``), a case's fixed values
substituted first (``specialise``), with several seeds in turn; and a second solver for a second opinion
(``second_solver``) within a budget of Z3's own work count (``second_budget``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from comet_proofs.terms import is_variable

TIMEOUT_MS = 120_000


# Only obligations the first solver proved with less work than this (Z3's resource count, summed over
# the cases) are re-checked ("where cheap"), and the second solver may spend three times that work on
# each case, at least SECOND_MIN_WORK and at most SECOND_MAX_WORK.  Work, unlike seconds, does not depend
# on the machine's speed or load, so a slower or busier machine re-checks the same obligations with the
# same budgets.  (It can still vary a little with what the process solved before: Z3 keeps some state
# across contexts, and the same formula took 5.76 or 3.93 million units in two processes, 2026-12-01;
# so a count in ``comet verify``'s table may differ by one between runs.)  About 14-22 million units are
# one second of Z3 here.  Measured over every preset (2026-12-01): 278 of the 300 candidates re-checked
# in about 8 s of one core; the second solver gave no answer on six of a card-level encoding's initial deals
# (card conservation as a count of indicators), and agrees on all seven since it is stated per
# card as "its place is one of the places" (2026-12-02).
RECHECK_BELOW_WORK = 5_000_000
SECOND_MIN_WORK = 3_500_000
SECOND_MAX_WORK = 14_000_000
SECOND_FACTOR = 3
# A wall-clock limit on top, should the resource limit not bind.
SECOND_TIMEOUT_MS = 10_000


def second_budget(first_work: int) -> int:
    """The second solver's resource limit per case for an obligation the first proved with ``first_work``."""
    return max(SECOND_MIN_WORK, min(SECOND_MAX_WORK, SECOND_FACTOR * first_work))


@dataclass(frozen=True, slots=True)
class Solved:
    """One ``check`` in a context of its own: the verdict, a model in Z3's main context when satisfiable,
    Z3's reason when it gave no answer, and the search's size (decisions, conflicts: the same formula
    gives the same numbers whatever terms the process built before; Z3 still keeps some state across
    contexts, so after other work they can differ: 1,684 decisions in one process, 1,084 in another that
    had run two refinement checks first, for the same formula text, 2026-12-01)."""

    verdict: z3.CheckSatResult
    model: z3.ModelRef | None
    reason: str
    search: tuple[int, int]
    # Z3's resource count for the try that answered ("rlimit count"): a measure of the work done that,
    # unlike seconds, does not depend on the machine or its load
    work: int = 0
    # the formulas as checked (translated into the check's own context and specialised), for a second
    # solver in the same context (``Obligation.second_opinion``): not translated and specialised again
    checked: tuple[z3.BoolRef, ...] = ()


# Z3's random seed, and how long (ms) each try may take before the next seed is tried; the last try has
# what is left of the obligation's timeout.  A formula's difficulty for Z3 can hang on its seed: the base
# case of a card-level encoding's card conservation at 5 players takes 10 s with seed 0 and 0.2-0.9 s with seeds
# 1-5 (2026-12-01), so a short first try and other seeds bound the cost of bad luck.
SEED_TRIES: tuple[tuple[int, int], ...] = ((0, 2_000), (1, 2_000), (2, 4_000), (3, TIMEOUT_MS))


def case_values(case: z3.BoolRef) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """The values a case fixes: from its conjuncts ``x == k`` (a free constant and a numeral), ``b`` and
    ``Not(b)`` (a free Boolean), the pairs (constant, value) to substitute."""
    out: list[tuple[z3.ExprRef, z3.ExprRef]] = []
    parts, todo = [], [case]
    while todo:
        term = todo.pop()
        if z3.is_and(term):
            todo.extend(term.children())
        else:
            parts.append(term)
    for part in parts:
        if is_variable(part):
            out.append((part, z3.BoolVal(True, part.ctx)))
        elif z3.is_not(part) and is_variable(part.arg(0)):
            out.append((part.arg(0), z3.BoolVal(False, part.ctx)))
        elif z3.is_eq(part):
            x, k = part.arg(0), part.arg(1)
            if z3.is_int_value(x) and not z3.is_int_value(k):
                x, k = k, x
            if is_variable(x) and z3.is_int_value(k):
                out.append((x, k))
    return out


def specialise(formulas: Sequence[z3.BoolRef], case: z3.BoolRef) -> list[z3.BoolRef]:
    """``formulas ∧ case`` with the values ``case`` fixes substituted and simplified (``case_values``).
    The case itself stays in the result, so it is equivalent to ``formulas ∧ case``: a model of one is a
    model of the other.  A case of one action (or the initial case of an inductive obligation) leaves
    Z3 a much smaller formula: the other actions' effects and lookups fold to constants before it starts."""
    values = case_values(case)
    if not values:
        return [*formulas, case]
    return [*(z3.simplify(z3.substitute(f, *values)) for f in formulas), case]


# Z3's preprocessing that rewrites sums of 0/1 terms as cardinality constraints (``lia2card``), with what it needs
# before it, for an encoding's joint inductive step (``Encoding.step_tactics``).
LIA2CARD: tuple[str, ...] = ("simplify", "propagate-values", "solve-eqs", "lia2card")


def solve_alone(
    formulas: Sequence[z3.BoolRef], timeout_ms: int, case: z3.BoolRef | None = None, tactics: tuple[str, ...] = ()
) -> Solved:
    """Check ``formulas`` (and ``case``, specialised: ``specialise``) in a fresh Z3 context (a copy of the
    terms, numbered in the order they are met), so that Z3's search depends on the formula and not on
    every term the process built before; tried with the seeds of ``SEED_TRIES`` in turn until one gives an
    answer or ``timeout_ms`` is spent.  The case is specialised in the fresh context too: Z3's simplifier
    orders the arguments of a sum or a conjunction by term identifier, so in the main context its output
    depends on the process's history (each of the base rules' 20 specialised joint-step cases came
    out different after a refinement check had run in the same process, 2026-12-01).  ``tactics``: Z3's
    tactics to run before its SMT core (``LIA2CARD``), instead of its default solver."""
    ctx = z3.Context()
    copied = [f.translate(ctx) for f in formulas]
    if case is not None:
        copied = specialise(copied, case.translate(ctx))
    spent = 0
    for seed, try_ms in SEED_TRIES:
        budget = min(try_ms, timeout_ms - spent)
        if budget <= 0:
            break
        solver = z3.Then(*tactics, "smt", ctx=ctx).solver() if tactics else z3.Solver(ctx=ctx)
        solver.set("timeout", budget)
        solver.set("random_seed", seed)
        # Z3's older simplex-based arithmetic solver: about a quarter less time over these obligations
        # (measured over five presets, the two card-level encodings among them: 26.8 s -> 19.9 s)
        solver.set("smt.arith.solver", 2)
        solver.add(*copied)
        verdict = solver.check()
        if verdict in (z3.sat, z3.unsat):
            break
        spent += budget
    stats = solver.statistics()
    keys = set(stats.keys())
    search = tuple(int(stats.get_key_value(k)) if k in keys else 0 for k in ("decisions", "conflicts", "rlimit count"))
    model = solver.model().translate(z3.main_ctx()) if verdict == z3.sat else None
    reason = solver.reason_unknown() if verdict not in (z3.sat, z3.unsat) else ""
    return Solved(verdict, model, reason, (search[0], search[1]), search[2], tuple(copied))


def second_solver(ctx: z3.Context | None = None, work: int = SECOND_MAX_WORK) -> z3.Solver:
    """A second opinion: Z3 through another tactic pipeline (its own preprocessing, then the SMT core), with
    a resource limit of ``work``."""
    tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt", ctx=ctx)
    solver = tactic.solver()
    solver.set("rlimit", work)
    solver.set("timeout", SECOND_TIMEOUT_MS)
    return solver
