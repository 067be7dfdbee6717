"""The proof obligations of one encoding and player count build their common terms once (``obligations.Shared``):
``Inv``, ``T`` and ``Init`` are built once per plan, not once per obligation, and what each obligation asks Z3 is the
same formula as a plan of its own would build; the second solver re-checks the formulas the first solver checked,
without translating and specialising them again.

Rules exercised: R-PLAY-MUST (totality), R-END-OUT (the joint inductive step), through the standard game's plan.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
import z3
from comet_proofs import obligation as obligation_module
from comet_proofs import obligations as obligations_module
from comet_proofs import solving as solving_module
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.obligation import Obligation
from comet_proofs.obligations import Shared, obligations
from comet_proofs.symbolic import Readings, SymAction, SymState

CALLS: Counter[str] = Counter()


class Counted(StandardEncoding):
    """The standard encoding, counting how often its invariant, transition and initial deal are built."""

    def invariant(self, s: SymState) -> z3.BoolRef:
        CALLS["invariant"] += 1
        return super().invariant(s)

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        CALLS["transition"] += 1
        return super().transition(s, a, s2, rd)

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        CALLS["initial"] += 1
        return super().initial(s, rd)


def asked(ob: Obligation) -> list[str]:
    """Everything ``ob`` gives Z3, as text: its formulas and cases, and a joint check's hypotheses and goals."""
    formulas, _ = ob.build()
    out = [f.sexpr() for f in formulas] + [c.sexpr() for c in ob.cases]
    if ob.joint is not None:
        common, goals = ob.joint()
        out += [c.sexpr() for c in common] + [name + g.sexpr() for name, g, _ in goals]
    if ob.rounds is not None:
        for rnd in ob.rounds():
            out += [*rnd.goals, *(h.sexpr() for h in rnd.hypothesis), *(c.sexpr() for c in rnd.cases)]
    return out


def build_all(obs: list[Obligation]) -> None:
    for ob in obs:
        asked(ob)


def test_a_plan_builds_inv_t_and_init_once() -> None:
    CALLS.clear()
    obs = obligations(Counted(), 3, "standard")
    build_all(obs)
    # Inv of s once (the plan reads its parts' names, the obligations the whole) and T(s, a, t) once, for the joint
    # step, its rounds, the play payments and totality's successors alike; Init once for every initial case
    assert dict(CALLS) == {"invariant": 1, "transition": 1, "initial": 1}
    build_all(obs)  # built again: nothing new
    assert dict(CALLS) == {"invariant": 1, "transition": 1, "initial": 1}


def test_the_count_sees_a_plan_that_builds_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: shared terms that are not kept (every use builds anew) are counted as such."""

    def never_kept(self: Shared, key: str, make: object) -> z3.BoolRef:
        assert callable(make)
        out = make()
        assert isinstance(out, z3.BoolRef)
        return out

    monkeypatch.setattr(obligations_module.Shared, "_term", never_kept)
    CALLS.clear()
    build_all(obligations(Counted(), 3, "standard"))
    assert CALLS["transition"] > 1 and CALLS["invariant"] > 1 and CALLS["initial"] > 1


def test_each_obligation_asks_what_a_plan_of_its_own_asks() -> None:
    """Built after every other obligation of the plan, or first in a plan of its own: the same formulas."""
    enc = StandardEncoding()
    together = obligations(enc, 3, "standard")
    build_all(together)
    for i, ob in enumerate(together):
        alone = obligations(enc, 3, "standard")[i]
        assert alone.name == ob.name
        assert asked(alone) == asked(ob), ob.name


# ---------------------------------------------------------------- the second solver on the first solver's formulas
# (``Solved.checked``): each re-checked case is neither translated nor specialised again.


def test_the_second_solver_takes_the_first_solvers_formulas(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = solving_module.specialise

    def counted(formulas: Sequence[z3.BoolRef], case: z3.BoolRef) -> list[z3.BoolRef]:
        calls.append(1)
        return real(formulas, case)

    monkeypatch.setattr(obligation_module, "specialise", counted)
    results = [ob.run(recheck=True) for ob in obligations(StandardEncoding(), 2, "standard") if ob.joint is None]
    assert sum(r.second == "agrees" for r in results) >= 5
    assert all(r.proved for r in results)
    assert calls == []


def test_the_second_solver_checks_what_it_is_given() -> None:
    """Planted: formulas as checked that have a model (the obligation's own formula has none) are a disagreement,
    so the second solver answers on the formulas it is handed."""
    ctx = z3.Context()
    x = z3.Int("x", ctx)
    handed = (x > 0,)
    assert Obligation.second_opinion([z3.BoolVal(False)], [z3.BoolVal(True)], 10**6, [handed]) == ("DISAGREES", "")
    assert Obligation.second_opinion([z3.BoolVal(False)], [z3.BoolVal(True)], 10**6) == ("agrees", "")
