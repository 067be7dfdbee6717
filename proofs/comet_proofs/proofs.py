"""The proof obligations over the encoding, and ``run_all`` for ``comet prove`` / ``comet verify``.

Every obligation is a formula whose satisfiability would be a counterexample;
``unsat`` proves it.  The readings of the rulings that change play are free Z3
Booleans, so one proof covers every combination of readings (``"*"`` in
``ProofResult.readings``).  Obligations per player count:

- for each invariant part (well-formed state, card conservation, chip zero-sum,
  turn structure, step bound): it holds in every initial deal, and
  ``Inv(s) ∧ T(s, a, s') ⇒ part(s')`` (induction step over the whole invariant);
- termination: ``Inv(s) ∧ T(s, a, s') ⇒ 0 <= ranking(s') < ranking(s)``;
- no deadlock: ``Inv(s) ⇒ (∃a. legal(s, a)) ⇔ ¬terminal(s)``;
- settlement zero-sum: in a finished deal every loser pays the winner a
  non-negative amount and the deal's returns sum to zero;
- game balances (RUL-INSOLVENCY, both readings): a payment keeps the sum of
  balances and, when paying only what one has, keeps balances non-negative.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from comet_proofs.abstraction import describe, describe_action
from comet_proofs.encoding import (
    DEAL_RULINGS,
    PLAY_RULINGS,
    Readings,
    Rulings,
    StandardEncoding,
    SymAction,
    SymState,
    encoding_for,
    is_variable,
)
from comet_proofs.nextstate import successors

PLAYER_COUNTS = (2, 3, 4, 5)
STEP_BOUND = "step bound (steps + ranking <= engine.step_bound)"
JOINT_STEP = "inductive step (every part of Inv and the ranking, one check per action)"
Joint = tuple[list[z3.BoolRef], list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]]]
TERMINATION = "termination (ranking decreases on every action)"
TIMEOUT_MS = 120_000


@dataclass(frozen=True, slots=True)
class ProofResult:
    """The outcome of one proof obligation.  ``readings`` maps each ruling the proof covers to the
    reading assumed, ``"*"`` meaning every reading at once (a free Boolean in the formula)."""

    name: str
    preset: str
    players: int
    readings: tuple[tuple[str, str], ...]
    proved: bool
    seconds: float
    counterexample: str | None
    # The second solver's verdict on a proved obligation ("agrees", "no answer", "DISAGREES"; "" when
    # not re-checked: see ``Obligation.run``).
    second: str = ""
    # the obligations whose conclusions the proof used (``Obligation.assumes``)
    assumes: tuple[str, ...] = ()
    # a joint check that failed: (the obligation whose goal broke, its counterexample) for each goal that
    # broke, each found by a check of that goal alone (``Obligation.joint``)
    broken: tuple[tuple[str, str], ...] = ()
    # why the second solver gave no answer ("no answer": Z3's reason and the budget), else ""
    second_reason: str = ""


ALL_READINGS: tuple[tuple[str, str], ...] = tuple((name, "*") for name, _ in PLAY_RULINGS + DEAL_RULINGS)


# The invariant kinds of ``comet.presets.Preset.invariants`` and the obligation (name prefix) proving each.
INVARIANT_OBLIGATIONS: dict[str, str] = {
    "card_conservation": "card conservation",
    "termination": "termination",
    "legal_action_exists": "totality",
    "chips_zero_sum": "chip zero-sum",
    "points_non_negative": "deal scores non-negative",
    "game_total_is_sum_of_deals": "game total is the sum of deal scores",
}


def covered_invariants(obligation_names: Sequence[str]) -> tuple[str, ...]:
    """The invariant kinds some obligation in ``obligation_names`` proves."""
    return tuple(
        kind for kind, prefix in INVARIANT_OBLIGATIONS.items() if any(n.startswith(prefix) for n in obligation_names)
    )


@dataclass(frozen=True, slots=True)
class Obligation:
    """One named proof: ``build`` returns the formulas whose joint satisfiability is a counterexample
    and a function that renders a Z3 model as text."""

    name: str
    preset: str
    players: int
    build: Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]
    rulings: Rulings = PLAY_RULINGS + DEAL_RULINGS
    # Optional case split (an encoding's ``action_cases``): each case is checked on its own, then the
    # rest (the negation of all cases), so the split is exhaustive whatever the cases are.
    cases: tuple[z3.BoolRef, ...] = ()
    # Obligations (names) whose conclusions this proof uses: it stands only when they are proved too
    # (``discharge``).
    assumes: tuple[str, ...] = ()
    # A joint check (``JOINT_STEP``): the common hypothesis and, per obligation it serves, that obligation's
    # goal and how to render a model breaking it.  One check per case proves every goal at once; a case
    # that fails is checked goal by goal, so each broken goal gets its own counterexample.
    joint: Callable[[], Joint] | None = None

    def run(self, recheck: bool = False) -> ProofResult:
        """Prove the obligation (unsat of every case); with ``recheck``, a proved obligation of at most two
        cases is checked again by a second solver (``second_solver``) and its verdict recorded.

        Each case is solved in a Z3 context of its own (``solve_alone``): Z3's search depends on the
        identifiers of the terms it is given, and in the shared context those depend on every term built
        before, so the same obligation proved in 1 s in one process and timed out at 120 s in another
        (commit_hoyle's card conservation at 8 players, 2026-12-01).  Alone, its time depends on the
        formula only."""
        start = time.perf_counter()
        if self.joint is not None:
            return self.run_joint(self.joint, start)
        formulas, render = self.build()
        splits = [*self.cases, z3.Not(z3.Or(*self.cases))] if self.cases else [z3.BoolVal(True)]
        work = 0
        for case in splits:
            solved = solve_alone(formulas, TIMEOUT_MS, case)
            work += solved.work
            if solved.verdict != z3.unsat:
                break
        seconds = time.perf_counter() - start
        readings = tuple((name, "*") for name, _ in self.rulings)
        if solved.verdict == z3.unsat:
            cheap = len(splits) <= 3 and work < RECHECK_BELOW_WORK
            # a formula that is just False (termination) has nothing to re-check
            trivial = all(z3.is_false(f) for f in formulas)
            budget = second_budget(work)
            second, why = (
                self.second_opinion(formulas, splits, budget) if recheck and cheap and not trivial else ("", "")
            )
            if second == "DISAGREES":
                text = "Z3's default solver proved it, the second solver found a counterexample"
                return ProofResult(
                    self.name, self.preset, self.players, readings, False, seconds, text, second, self.assumes
                )
            return ProofResult(
                self.name,
                self.preset,
                self.players,
                readings,
                True,
                seconds,
                None,
                second,
                self.assumes,
                second_reason=why,
            )
        text = render(solved.model) if solved.model is not None else f"Z3 gave no answer ({solved.reason})"
        return ProofResult(self.name, self.preset, self.players, readings, False, seconds, text, "", self.assumes)

    def run_joint(self, joint: Callable[[], Joint], start: float) -> ProofResult:
        """Every goal of the joint check, case by case: ``common ∧ ¬(g1 ∧ g2 ∧ ...)`` over the goals not yet
        broken, and where that is not unsat, each of them alone on that case.  Every case is checked for
        every goal that has not broken, so a goal not in ``broken`` holds in every case."""
        common, goals = joint()
        splits = [*self.cases, z3.Not(z3.Or(*self.cases))] if self.cases else [z3.BoolVal(True)]
        broken: list[tuple[str, str]] = []
        alive = list(goals)
        for case in splits:
            if not alive:
                break
            combined = [*common, z3.Not(z3.And([g for _, g, _ in alive]))]
            if solve_alone(combined, TIMEOUT_MS, case).verdict == z3.unsat:
                continue
            for entry in list(alive):
                goal_name, goal, render = entry
                one = solve_alone([*common, z3.Not(goal)], TIMEOUT_MS, case)
                if one.verdict != z3.unsat:
                    text = render(one.model) if one.model is not None else f"Z3 gave no answer ({one.reason})"
                    broken.append((goal_name, text))
                    alive.remove(entry)
        seconds = time.perf_counter() - start
        readings = tuple((name, "*") for name, _ in self.rulings)
        if not broken:
            return ProofResult(self.name, self.preset, self.players, readings, True, seconds, None, "", self.assumes)
        text = "\n".join(f"{goal_name}: {why}" for goal_name, why in broken)
        return ProofResult(
            self.name, self.preset, self.players, readings, False, seconds, text, "", self.assumes, tuple(broken)
        )

    @staticmethod
    def second_opinion(formulas: list[z3.BoolRef], splits: list[z3.BoolRef], work: int) -> tuple[str, str]:
        """Every case again with ``second_solver`` (``work``: Z3's resource limit for each): "agrees" (all
        unsat), "DISAGREES" (one sat) or "no answer" (the limit reached), and for "no answer" the reason:
        Z3's own words, the case and the budget."""
        answer, why = "agrees", ""
        for i, case in enumerate(splits):
            ctx = z3.Context()
            solver = second_solver(ctx, work)
            solver.add(*specialise([f.translate(ctx) for f in formulas], case.translate(ctx)))
            verdict = solver.check()
            if verdict == z3.sat:
                return "DISAGREES", ""
            if verdict != z3.unsat:
                answer = "no answer"
                where = f"case {i + 1} of {len(splits)}" if len(splits) > 1 else "its one case"
                why = f"Z3 says '{solver.reason_unknown()}' on {where}, within {work:,} units of work"
        return answer, why


# Only obligations the first solver proved with less work than this (Z3's resource count, summed over
# the cases) are re-checked ("where cheap"), and the second solver may spend three times that work on
# each case, at least SECOND_MIN_WORK and at most SECOND_MAX_WORK.  Work, unlike seconds, does not depend
# on the machine's speed or load, so a slower or busier machine re-checks the same obligations with the
# same budgets.  (It can still vary a little with what the process solved before: Z3 keeps some state
# across contexts, and the same formula took 5.76 or 3.93 million units in two processes, 2026-12-01;
# so a count in ``comet verify``'s table may differ by one between runs.)  About 14-22 million units are
# one second of Z3 here.  Measured over every preset (2026-12-01): 278 of the 300 candidates re-checked
# in about 8 s of one core; the second solver gives no answer on six of commit_hoyle's initial deals
# (card conservation: 0.1 s for the first solver, 0.5 s or more for the second).
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


# Z3's random seed, and how long (ms) each try may take before the next seed is tried; the last try has
# what is left of the obligation's timeout.  A formula's difficulty for Z3 can hang on its seed: the base
# case of commit_hoyle's card conservation at 5 players takes 10 s with seed 0 and 0.2-0.9 s with seeds
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


def solve_alone(formulas: Sequence[z3.BoolRef], timeout_ms: int, case: z3.BoolRef | None = None) -> Solved:
    """Check ``formulas`` (and ``case``, specialised: ``specialise``) in a fresh Z3 context (a copy of the
    terms, numbered in the order they are met), so that Z3's search depends on the formula and not on
    every term the process built before; tried with the seeds of ``SEED_TRIES`` in turn until one gives an
    answer or ``timeout_ms`` is spent.  The case is specialised in the fresh context too: Z3's simplifier
    orders the arguments of a sum or a conjunction by term identifier, so in the main context its output
    depends on the process's history (each of the standard game's 20 specialised joint-step cases came
    out different after a refinement check had run in the same process, 2026-12-01)."""
    ctx = z3.Context()
    copied = [f.translate(ctx) for f in formulas]
    if case is not None:
        copied = specialise(copied, case.translate(ctx))
    spent = 0
    for seed, try_ms in SEED_TRIES:
        budget = min(try_ms, timeout_ms - spent)
        if budget <= 0:
            break
        solver = z3.Solver(ctx=ctx)
        solver.set("timeout", budget)
        solver.set("random_seed", seed)
        # Z3's older simplex-based arithmetic solver: about a quarter less time over these obligations
        # (measured: commit_hoyle 5, commit_cats 5, standard 5, red_nines 6, opera 4: 26.8 s -> 19.9 s)
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
    return Solved(verdict, model, reason, (search[0], search[1]), search[2])


def second_solver(ctx: z3.Context | None = None, work: int = SECOND_MAX_WORK) -> z3.Solver:
    """A second opinion: Z3 through another tactic pipeline (its own preprocessing, then the SMT core), with
    a resource limit of ``work``."""
    tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt", ctx=ctx)
    solver = tactic.solver()
    solver.set("rlimit", work)
    solver.set("timeout", SECOND_TIMEOUT_MS)
    return solver


def _readings_line(rd: Readings, m: z3.ModelRef) -> str:
    return "readings: " + ", ".join(f"{k}={v}" for k, v in rd.describe(m))


def _step_render(rd: Readings, s: SymState, a: SymAction, s2: SymState, what: str) -> Callable[[z3.ModelRef], str]:
    def render(m: z3.ModelRef) -> str:
        kind = int(m.eval(a.kind, model_completion=True).as_long())
        rank = int(m.eval(a.rank, model_completion=True).as_long())
        return (
            f"{what}\n{_readings_line(rd, m)}\nbefore:\n{describe(s.evaluate(m))}\n"
            f"action: {describe_action(kind, rank)}\nafter:\n{describe(s2.evaluate(m))}"
        )

    return render


def _state_render(rd: Readings, s: SymState, what: str) -> Callable[[z3.ModelRef], str]:
    def render(m: z3.ModelRef) -> str:
        return f"{what}\n{_readings_line(rd, m)}\nstate:\n{describe(s.evaluate(m))}"

    return render


def obligations(enc: StandardEncoding, players: int, preset: str | None = None) -> list[Obligation]:
    """Every obligation for ``players`` seats over encoding ``enc``.

    The inductive steps of every invariant part, the step-bound lemma and the ranking's decrease are
    goals of one joint check (``JOINT_STEP``), split by the encoding's ``action_cases``: each case costs
    Z3 a preprocessing of the whole ``Inv(s) ∧ T`` whatever it is asked, so one check per case for
    every goal is cheaper than one per goal (commit_cats, 6 players: 2.1 s against 4.6 s for three of
    the goals apart; the five counting encodings, split by action kind: 11.4 s against 34.2 s for their
    step obligations one by one, 2026-12-01).  Each part keeps an obligation of its own for its initial
    case, which assumes the joint check."""
    name = preset or enc.name
    out: list[Obligation] = []
    parts = list(enc.invariant_parts(enc.fresh_state("probe", players)))
    sb_title = f"{STEP_BOUND} (initial + inductive)"

    def base_only(part: str) -> Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]:
        """The initial case of ``part``; its step is a goal of the joint check."""

        def build() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
            rd = enc.fresh_readings()
            init = enc.fresh_state("i", players)
            base = z3.And(enc.initial(init, rd), z3.Not(enc.invariant_parts(init)[part]))
            return [base], _state_render(rd, init, f"an initial deal breaks {part}:")

        return build

    def joint_parts() -> Joint:
        """``Inv(s) ∧ T(s, a, s')`` and, per obligation, its goal at s': each invariant part, the step-bound
        lemma (one step counted, the cards counted kept) and the ranking's decrease."""
        rd = enc.fresh_readings()
        s, s2, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
        after = enc.invariant_parts(s2)
        goals: list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]] = []
        for part in parts:
            if part == STEP_BOUND:
                counted = z3.And(s2.steps == s.steps + 1, enc.step_bound(s2) == enc.step_bound(s))
                head = (
                    f"one step breaks {STEP_BOUND}: it does not count exactly one step, or changes the cards counted:"
                )
                goals.append((sb_title, counted, _step_render(rd, s, a, s2, head)))
            else:
                head = f"one step breaks {part}:"
                goals.append((f"{part} (initial + inductive)", after[part], _step_render(rd, s, a, s2, head)))
        decreases = z3.And(enc.ranking(s2) >= 0, enc.ranking(s2) < enc.ranking(s))
        goals.append((TERMINATION, decreases, _step_render(rd, s, a, s2, "the ranking function does not decrease:")))
        return [enc.invariant(s), enc.transition(s, a, s2, rd)], goals

    def joint_build() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        common, goals = joint_parts()
        return [*common, z3.Not(z3.And([g for _, g, _ in goals]))], lambda m: "a step breaks one of the goals"

    def nothing_alone() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        """Termination: its only goal (the ranking's decrease) is in the joint check."""
        return [z3.BoolVal(False)], lambda m: ""

    def composed() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        """The step bound (``steps + ranking <= step_bound``), in three parts: every initial deal is within it;
        every step counts one step and keeps the number of cards the bound counts (a goal of the joint
        check); and, with the ranking's decrease that the termination obligation proves (assumed here), the
        bound is kept by arithmetic alone."""
        rd = enc.fresh_readings()
        init = enc.fresh_state("i", players)
        which = z3.Int("step_bound_case")
        base = z3.And(enc.initial(init, rd), z3.Not(enc.within_step_bound(init)))
        st, st2, r, r2, b = z3.Ints("steps steps_after ranking ranking_after bound")
        arithmetic = z3.And(st + r <= b, st2 == st + 1, r2 < r, z3.Not(st2 + r2 <= b))

        def render(m: z3.ModelRef) -> str:
            if m.eval(which, model_completion=True).as_long() == 0:
                return _state_render(rd, init, f"an initial deal breaks {STEP_BOUND}:")(m)
            return f"arithmetic: {m}"

        return [z3.If(which == 0, base, arithmetic)], render

    def ob(title: str, build: Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]) -> Obligation:
        return Obligation(title, name, players, build, enc.rulings)

    which = z3.Int("step_bound_case")
    for part in parts:
        title = f"{part} (initial + inductive)"
        if part == STEP_BOUND:
            cases = (which == 0, which == 2)
            out.append(Obligation(title, name, players, composed, enc.rulings, cases, (TERMINATION, JOINT_STEP)))
        else:
            out.append(Obligation(title, name, players, base_only(part), enc.rulings, (), (JOINT_STEP,)))
    out.append(Obligation(TERMINATION, name, players, nothing_alone, enc.rulings, (), (JOINT_STEP,)))
    per_action = tuple(enc.action_cases(SymAction.fresh()))
    out.append(Obligation(JOINT_STEP, name, players, joint_build, enc.rulings, per_action, joint=joint_parts))

    def totality() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        actions = enc.all_actions()
        nexts = successors(enc, s, rd, actions)
        loose = [(k, r, x.undetermined) for (k, r), x in zip(actions, nexts, strict=True) if x.undetermined]
        if loose:
            k, r, fields = loose[0]
            text = f"T does not determine the successor of '{describe_action(k, r)}': free fields {', '.join(fields)}"
            return [z3.BoolVal(True)], lambda m: text
        guards = [x.guard for x in nexts]
        a = SymAction.fresh("any")
        listed = z3.Or([z3.And(a.kind == k, a.rank == r) for k, r in actions])
        stuck = z3.And(z3.Not(enc.terminal(s)), *[z3.Not(g) for g in guards])
        moves_after_end = z3.And(enc.terminal(s), z3.Or(guards))
        unlisted = z3.And(enc.legal(s, a, rd), z3.Not(listed))
        # a state's copied readings (``reading_fields``) are the deal's: set by ``initial``, kept by T
        f = z3.And(enc.invariant(s), enc.readings_agree(s, rd), z3.Or(stuck, moves_after_end, unlisted))

        def render(m: z3.ModelRef) -> str:
            if z3.is_true(m.eval(unlisted, model_completion=True)):
                kind = int(m.eval(a.kind, model_completion=True).as_long())
                rank = int(m.eval(a.rank, model_completion=True).as_long())
                what = f"a legal action outside the encoding's action list ({describe_action(kind, rank)}):"
            elif z3.is_true(m.eval(stuck, model_completion=True)):
                what = "a deal in progress with no successor under T (no action is legal, or its effect is impossible):"
            else:
                what = "a finished deal with a successor under T:"
            return _state_render(rd, s, what)(m)

        return [f], render

    out.append(ob("totality (a deal in progress has a successor under T, a finished one none)", totality))
    if enc.scoring == "points":
        caught_ob = caught_obligation(enc, players, ob)
        out += points_obligations(enc, players, ob) + ([caught_ob] if caught_ob else [])
        return out

    def payments() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s, s2, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
        payee, cap = enc.payment_spec(s, a, rd)
        ok = []
        for p in range(players):
            delta = s2.chips[p] - s.chips[p]
            ok.append(z3.If(payee == p, delta >= 0, z3.And(delta <= 0, delta >= -cap)))
        f = z3.And(enc.invariant(s), enc.transition(s, a, s2, rd), z3.Not(z3.And(ok)))
        return [f], _step_render(rd, s, a, s2, "chips move to a seat the action does not pay, or too many:")

    out.append(ob("play payments (only to the seat paid, at most the stated amount)", payments))

    def settlement() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        winner_pays = z3.Or([z3.And(s.winner == p, enc.settlement_amount(s, p, rd) != 0) for p in range(players)])
        ok = z3.And(
            z3.Sum(*enc.deal_returns(s, rd)) == 0,
            z3.Not(winner_pays),
            *[enc.settlement_amount(s, p, rd) >= 0 for p in range(players)],
        )
        f = z3.And(enc.invariant(s), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            returns = [m.eval(x, model_completion=True) for x in enc.deal_returns(s, rd)]
            head = "a finished deal whose settlement is not zero-sum, or the winner pays, or a loser pays < 0:"
            return _state_render(rd, s, f"{head} returns {returns}")(m)

        return [f], render

    out.append(ob("settlement zero-sum (losers pay the winner, the winner pays nothing)", settlement))
    caught_ob = caught_obligation(enc, players, ob)
    if caught_ob is not None:
        out.append(caught_ob)

    def deal_bound() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        bound = enc.deal_bound(s)
        assert bound is not None
        loss, win = bound
        returns = enc.deal_returns(s, rd)
        ok = z3.And([z3.And(r >= -loss, r <= win) for r in returns])
        f = z3.And(enc.invariant(s), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            shown = [m.eval(x, model_completion=True) for x in returns]
            lo, hi = m.eval(loss, model_completion=True), m.eval(win, model_completion=True)
            return _state_render(rd, s, f"a deal's chip change outside [-{lo}, {hi}]: returns {shown}")(m)

        return [f], render

    if enc.deal_bound(enc.fresh_state("probe", players)) is not None:
        out.append(ob("deal bound (one seat's chip change in a deal within the stated bound)", deal_bound))

    def balances() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        bal = [z3.Int(f"balance{p}") for p in range(players)]
        payer, payee, amount = z3.Int("payer"), z3.Int("payee"), z3.Int("amount")
        what_you_have = z3.Bool("pay_what_you_have")
        # the payer's balance, read symbolically
        payer_bal = bal[-1]
        for i in range(players - 2, -1, -1):
            payer_bal = z3.If(payer == i, bal[i], payer_bal)
        paid = insolvency_payment(amount, payer_bal, what_you_have)
        new = [b - z3.If(payer == p, paid, 0) + z3.If(payee == p, paid, 0) for p, b in enumerate(bal)]
        domain = z3.And(payer >= 0, payer < players, payee >= 0, payee < players, payer != payee, amount >= 0)
        ok = z3.And(
            z3.Sum(*new) == z3.Sum(*bal),
            z3.Implies(z3.And(what_you_have, *[b >= 0 for b in bal]), z3.And([b >= 0 for b in new])),
        )

        def render(m: z3.ModelRef) -> str:
            before = [m.eval(b, model_completion=True) for b in bal]
            after = [m.eval(b, model_completion=True) for b in new]
            return f"payment of {m.eval(amount)} from seat {m.eval(payer)} to {m.eval(payee)}: {before} -> {after}"

        return [domain, z3.Not(ok)], render

    out.append(ob("game balances conserved (RUL-INSOLVENCY, both readings)", balances))
    return out


Build = Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]


def insolvency_payment(amount: z3.ArithRef, balance: z3.ArithRef, what_you_have: z3.BoolRef) -> z3.ArithRef:
    """``game.finish_deal``'s payment (RUL-INSOLVENCY): the amount, or with pay_what_you_have
    max(0, min(amount, balance))."""
    capped = z3.If(amount < balance, amount, balance)
    return z3.If(what_you_have, z3.If(capped < 0, 0, capped), amount)


def caught_obligation(enc: StandardEncoding, players: int, ob: Callable[[str, Build], Obligation]) -> Obligation | None:
    """R-SETTLE-CAUGHT (R-2P-DOUBLING): a loser pays double exactly when holding the Comet, where the
    encoding states that rule (``caught_spec``)."""
    if enc.caught_spec(enc.fresh_state("probe", players), enc.fresh_readings("probe")) is None:
        return None

    def caught() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        spec = enc.caught_spec(s, rd)
        assert spec is not None
        f = z3.And(enc.invariant(s), enc.terminal(s), z3.Not(spec))

        def render(m: z3.ModelRef) -> str:
            pays = [m.eval(enc.settlement_amount(s, p, rd), model_completion=True) for p in range(players)]
            points = [m.eval(x, model_completion=True) for x in enc.deal_points(s, rd)]
            head = f"a loser pays double without holding the Comet, or not double holding it: pays {pays}"
            return _state_render(rd, s, f"{head}, deal points {points}")(m)

        return [f], render

    return ob("caught (a loser pays double exactly when holding the Comet)", caught)


def finish_deal_balances(
    balances: Sequence[z3.ArithRef], points: Sequence[z3.ArithRef], returns: Sequence[z3.ArithRef]
) -> list[z3.ArithRef]:
    """``game.finish_deal`` on symbolic totals: add the deal's points, then its net chip returns.  (With
    RUL-INSOLVENCY = pay_what_you_have payments are capped, which only matters when some are made.)"""
    return [b + p + r for b, p, r in zip(balances, points, returns, strict=True)]


def points_obligations(enc: StandardEncoding, players: int, ob: Callable[[str, Build], Obligation]) -> list[Obligation]:
    """Points games (issue 4): deal scores are non-negative, no chips change hands in the deal, and a
    game's totals are the sum of its deal scores (``game.finish_deal`` adds the points and nothing else)."""

    def non_negative() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        ok = z3.And(
            *[p >= 0 for p in enc.deal_points(s, rd)],
            *[r == 0 for r in enc.deal_returns(s, rd)],
        )
        f = z3.And(enc.invariant(s), enc.terminal(s), z3.Not(ok))
        return [f], _state_render(rd, s, "a finished deal with a negative score, or chips changing hands:")

    def game_total() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd = enc.fresh_readings()
        s = enc.fresh_state("s", players)
        bal = [z3.Int(f"total{p}") for p in range(players)]
        pts = enc.deal_points(s, rd)
        new = finish_deal_balances(bal, pts, enc.deal_returns(s, rd))
        ok = z3.And([n == b + p for n, b, p in zip(new, bal, pts, strict=True)])
        f = z3.And(enc.invariant(s), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            before = [m.eval(b, model_completion=True) for b in bal]
            after = [m.eval(x, model_completion=True) for x in new]
            scored = [m.eval(x, model_completion=True) for x in pts]
            head = f"totals {before} + deal scores {scored} gave {after}:"
            return _state_render(rd, s, head)(m)

        return [f], render

    return [
        ob("deal scores non-negative, no chips move", non_negative),
        ob("game total is the sum of deal scores", game_total),
    ]


def plan(preset: str = "standard", players: Sequence[int] | None = None) -> list[Obligation]:
    """The obligations ``run_all`` runs, in order (for progress bars)."""
    enc = encoding_for(preset)
    allowed = enc.player_counts
    counts = tuple(players) if players is not None else allowed
    for n in counts:
        if n not in allowed:
            shown = f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
            raise ValueError(f"the {enc.name} game is proved for {shown} players, not {n}")
    return [o for n in counts for o in obligations(enc, n, preset)]


def discharge(results: Sequence[ProofResult]) -> list[ProofResult]:
    """``results`` with every proof that assumes another obligation's conclusion (``assumes``) marked not
    proved when that obligation, for the same preset and player count, is not proved (or not among
    ``results``): an assume-guarantee proof stands only with what it assumes.  A failed joint check
    (``broken``) takes down only the obligations whose goals broke, each with its own counterexample.
    Repeated until nothing changes (the step bound assumes termination, which may assume the joint check)."""
    out = list(results)
    changed = True
    while changed:
        changed = False
        by_name = {(r.preset, r.players, r.name): r for r in out}
        for i, r in enumerate(out):
            if not r.proved:
                continue
            for a in r.assumes:
                dep = by_name.get((r.preset, r.players, a))
                if dep is not None and dep.proved:
                    continue
                broken = dict(dep.broken) if dep is not None else {}
                if dep is not None and dep.broken and r.name not in broken:
                    continue  # the joint check failed on another obligation's goal; this one's held
                why = broken.get(r.name) or f"the proof assumes {a}, which is not proved"
                out[i] = dataclasses.replace(r, proved=False, counterexample=why)
                changed = True
                break
    return out


def prove(enc: StandardEncoding, players: int, only: Sequence[str] = ()) -> list[ProofResult]:
    """Run the obligations of ``enc`` for ``players`` seats (those whose name starts with one of ``only``,
    and the obligations they assume)."""
    obs = obligations(enc, players)
    wanted = [o for o in obs if not only or any(o.name.startswith(p) for p in only)]
    needed = {o.name for o in wanted}
    while True:
        more = {a for o in obs if o.name in needed for a in o.assumes} - needed
        if not more:
            break
        needed |= more
    ran = discharge([o.run() for o in obs if o.name in needed])
    return [r for r in ran if not only or any(r.name.startswith(p) for p in only)]


def run_all(preset: str = "standard", players: Sequence[int] | None = None) -> list[ProofResult]:
    """Every proof for ``preset`` and the player counts (default: every count its encoding covers);
    ValueError for an unknown preset or player count."""
    return discharge([o.run() for o in plan(preset, players)])
