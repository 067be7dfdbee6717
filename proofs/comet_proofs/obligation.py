"""One proof obligation (``Obligation``: named formulas whose satisfiability would be a counterexample, and
how to render one) and its outcome (``ProofResult``); ``Obligation.run`` proves it case by case with
``comet_proofs.solving``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from comet_proofs.solving import (
    RECHECK_BELOW_WORK,
    TIMEOUT_MS,
    second_budget,
    second_solver,
    solve_alone,
    specialise,
)
from comet_proofs.symbolic import DEAL_RULINGS, PLAY_RULINGS, Rulings

Joint = tuple[list[z3.BoolRef], list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]]]


@dataclass(frozen=True, slots=True)
class Round:
    """Some goals of a joint check (by name) checked together from ``hypothesis``, which the joint check's
    common hypothesis implies (some of its conjuncts), split by ``cases`` (then the negation of them all)."""

    goals: tuple[str, ...]
    hypothesis: tuple[z3.BoolRef, ...]
    cases: tuple[z3.BoolRef, ...]
    # Z3's tactics before its SMT core for the round's combined checks (``StepSlice.tactics``)
    tactics: tuple[str, ...] = ()


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
    # How the joint check is split into rounds (``Round``; an encoding's ``step_slices``): None, one round of
    # every goal from the whole common hypothesis, split by ``cases``.
    rounds: Callable[[], list[Round]] | None = None
    # Z3's tactics before its SMT core (``solving.LIA2CARD``; none: Z3's default solver): for a joint check, the
    # combined checks of the goals no round names (``Encoding.step_tactics``; a round has its own, and the
    # goal-by-goal checks of a case that fails use the default solver); for any other obligation, every check (``Encoding.totality_tactics``), and it is then not
    # re-checked, as the second solver's budget is a multiple of the default solver's work.
    tactics: tuple[str, ...] = ()

    def run(self, recheck: bool = False) -> ProofResult:
        """Prove the obligation (unsat of every case); with ``recheck``, a proved obligation of at most two
        cases is checked again by a second solver (``second_solver``) and its verdict recorded.

        Each case is solved in a Z3 context of its own (``solve_alone``): Z3's search depends on the
        identifiers of the terms it is given, and in the shared context those depend on every term built
        before, so the same obligation proved in 1 s in one process and timed out at 120 s in another
        (a card-level encoding's card conservation at 8 players, 2026-12-01).  Alone, its time depends on the
        formula only."""
        start = time.perf_counter()
        if self.joint is not None:
            return self.run_joint(self.joint, start)
        formulas, render = self.build()
        splits = [*self.cases, z3.Not(z3.Or(*self.cases))] if self.cases else [z3.BoolVal(True)]
        work = 0
        checked: list[tuple[z3.BoolRef, ...]] = []
        for case in splits:
            solved = solve_alone(formulas, TIMEOUT_MS, case, self.tactics)
            work += solved.work
            if len(splits) <= 3:
                checked.append(solved.checked)
            if solved.verdict != z3.unsat:
                break
        seconds = time.perf_counter() - start
        readings = tuple((name, "*") for name, _ in self.rulings)
        if solved.verdict == z3.unsat:
            cheap = len(splits) <= 3 and work < RECHECK_BELOW_WORK and not self.tactics
            # a formula that is just False (termination) has nothing to re-check
            trivial = all(z3.is_false(f) for f in formulas)
            budget = second_budget(work)
            second, why = (
                self.second_opinion(formulas, splits, budget, checked) if recheck and cheap and not trivial else ("", "")
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
        """Every goal of the joint check, round by round (``rounds``) and case by case: ``hypothesis ∧
        ¬(g1 ∧ g2 ∧ ...)`` over the round's goals not yet broken, and where that is not unsat, each of them
        alone on that case from the whole common hypothesis (a round's hypothesis may leave out what a goal
        needs; only the whole one can break it).  Every case is checked for every goal that has not broken,
        so a goal not in ``broken`` holds in every case of its round, and the rounds' cases are exhaustive."""
        common, goals = joint()
        by_name = {entry[0]: entry for entry in goals}
        rounds = self.rounds() if self.rounds is not None else []
        named = {g for r in rounds for g in r.goals}
        rest = tuple(name for name, _, _ in goals if name not in named)
        if rest or not rounds:
            rounds = [*rounds, Round(rest, tuple(common), self.cases, self.tactics)]
        broken: list[tuple[str, str]] = []
        for rnd in rounds:
            alive = [by_name[g] for g in rnd.goals]
            splits = [*rnd.cases, z3.Not(z3.Or(*rnd.cases))] if rnd.cases else [z3.BoolVal(True)]
            for case in splits:
                if not alive:
                    break
                combined = [*rnd.hypothesis, z3.Not(z3.And([g for _, g, _ in alive]))]
                if solve_alone(combined, TIMEOUT_MS, case, rnd.tactics).verdict == z3.unsat:
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
    def second_opinion(
        formulas: list[z3.BoolRef],
        splits: list[z3.BoolRef],
        work: int,
        checked: Sequence[tuple[z3.BoolRef, ...]] = (),
    ) -> tuple[str, str]:
        """Every case again with ``second_solver`` (``work``: Z3's resource limit for each): "agrees" (all
        unsat), "DISAGREES" (one sat) or "no answer" (the limit reached), and for "no answer" the reason:
        Z3's own words, the case and the budget.  ``checked``: each case's formulas as the first solver
        checked them (``Solved.checked``: translated into that check's own context and specialised); the
        second solver then runs in that context on those terms, the same formulas as a translation and
        ``specialise`` of its own would give (in a fresh context they depend on the formula only), without
        doing them again (390 re-checked cases over every preset spent about 1.2 s of CPU on that,
        2026-12-02).  Without it, each case is translated into a fresh context and specialised."""
        answer, why = "agrees", ""
        for i, case in enumerate(splits):
            if i < len(checked) and checked[i]:
                ctx, todo = checked[i][0].ctx, list(checked[i])
            else:
                ctx = z3.Context()
                todo = specialise([f.translate(ctx) for f in formulas], case.translate(ctx))
            solver = second_solver(ctx, work)
            solver.add(*todo)
            verdict = solver.check()
            if verdict == z3.sat:
                return "DISAGREES", ""
            if verdict != z3.unsat:
                answer = "no answer"
                where = f"case {i + 1} of {len(splits)}" if len(splits) > 1 else "its one case"
                why = f"Z3 says '{solver.reason_unknown()}' on {where}, within {work:,} units of work"
        return answer, why
