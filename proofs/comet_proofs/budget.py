"""Z3's resource budget for a search that asks many questions (``comet_proofs.smallest``): counted work
(``rlimit``), not time, so the same questions get the same answers however loaded the machine is."""

from __future__ import annotations

import z3

#: Z3's budget per question, in its resource units (``rlimit``: counted work, not time, so the same questions
#: get the same answers however loaded the machine is); a question that runs out leaves the pair "not proved"
QUESTION_RLIMIT = 250_000_000
#: the budget for one pair's questions (Z3 resource units, summed over its questions); when it runs out,
#: what was proved so far is a lower bound.  Each question may spend a quarter of it (at least
#: ``QUESTION_RLIMIT``).  On the 2026 build machine 10^6 units took about 0.1 s.
PAIR_RLIMIT = 1_000_000_000


class Budget:
    """Z3's resource budget for one pair: each ``check`` may spend ``per_check`` units and all of them
    together ``total`` (``rlimit``, Z3's count of work done: the same questions asked in a fresh process get
    the same verdicts on any machine and under any load, unlike a wall-clock timeout; after other questions
    in the same process Z3 holds other terms and may get further or less far, but "unsat" is a proof
    either way)."""

    def __init__(self, total: int = PAIR_RLIMIT, per_check: int | None = None) -> None:
        self.total = total
        self.per_check = per_check if per_check is not None else max(QUESTION_RLIMIT, total // 4)
        self.spent = 0

    @property
    def left(self) -> int:
        return self.total - self.spent

    def check(self, solver: z3.Solver) -> z3.CheckSatResult:
        """``solver.check()`` within what is left (unknown, without asking, when nothing is)."""
        if self.left <= 0:
            return z3.unknown
        solver.set("rlimit", min(self.per_check, self.left))
        before = _rlimit_count(solver)
        verdict = solver.check()
        self.spent += max(0, _rlimit_count(solver) - before)
        return verdict

    def text(self) -> str:
        return f"Z3 budget {_units(self.per_check)} per check, {_units(self.total)} per pair"

    def proved_text(self) -> str:
        """After a bound proved: it rests on Z3's unsat answers, which are proofs whatever the budget (the
        budget only limits how far Z3 is asked)."""
        return f"each bound proved is an unsat answer of Z3, so it holds whatever the budget; {self.text()}"


def _rlimit_count(solver: z3.Solver) -> int:
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:  # no work counted yet
        return 0


def _units(n: int) -> str:
    """A resource count in words: 250M rlimit units."""
    return f"{n // 1_000_000}M rlimit units" if n % 1_000_000 == 0 else f"{n} rlimit units"
