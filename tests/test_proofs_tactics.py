"""The joint inductive step's solver (``Encoding.step_tactics``): the counting encodings' combined checks go through
Z3's ``lia2card`` preprocessing, the card-level ones' through Z3's default solver, and a planted bug in the step is
still found, each broken goal with its own counterexample from the default solver.

Rules exercised: R-TURN-END (a planted pass that forgets to wrap the turn round), R-END-OUT (the joint step).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
import z3
from comet_proofs import encoding_for
from comet_proofs import obligation as obligation_module
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.obligations import JOINT_STEP, obligations
from comet_proofs.solving import LIA2CARD, Solved, solve_alone
from comet_proofs.symbolic import PASS, Readings, SymAction, SymState


def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[str, ...], z3.CheckSatResult]]:
    """Every check the joint step makes: its tactics and its verdict."""
    seen: list[tuple[tuple[str, ...], z3.CheckSatResult]] = []

    def spy(
        formulas: Sequence[z3.BoolRef], timeout_ms: int, case: z3.BoolRef | None = None, tactics: tuple[str, ...] = ()
    ) -> Solved:
        out = solve_alone(formulas, timeout_ms, case, tactics)
        seen.append((tactics, out.verdict))
        return out

    monkeypatch.setattr(obligation_module, "solve_alone", spy)
    return seen


def test_the_counting_encodings_use_lia2card_and_the_card_level_ones_do_not() -> None:
    for preset in ("standard", "opera", "two_player", "old_comet", "red_nines"):
        assert encoding_for(preset).step_tactics == LIA2CARD, preset
    for preset in ("commit_hoyle", "commit_cats"):
        assert encoding_for(preset).step_tactics == (), preset


def test_the_standard_joint_step_is_proved_through_lia2card(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = recorded(monkeypatch)
    (ob,) = [o for o in obligations(encoding_for("standard"), 3, "standard") if o.name == JOINT_STEP]
    result = ob.run()
    assert result.proved
    assert seen and all(tactics == LIA2CARD and verdict == z3.unsat for tactics, verdict in seen)


class PassForgetsWrapAround(StandardEncoding):
    """Bug (R-TURN-END): after the last seat the turn goes to seat n instead of back to seat 0."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        seen = dataclasses.replace(s2, to_move=z3.If(s2.to_move == s.players, 0, s2.to_move))
        return super().transition(s, a, seen, rd)


def test_a_planted_step_bug_is_found_through_lia2card(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = recorded(monkeypatch)
    (ob,) = [o for o in obligations(PassForgetsWrapAround(), 3, "standard") if o.name == JOINT_STEP]
    result = ob.run()
    assert not result.proved
    # the combined check through lia2card is not unsat; the goal-by-goal checks then run on the default solver
    assert (LIA2CARD, z3.sat) in seen
    assert any(tactics == () and verdict == z3.sat for tactics, verdict in seen)
    names = [name for name, _ in result.broken]
    assert any(name.startswith("well-formed") for name in names), names
    text = dict(result.broken)[next(n for n in names if n.startswith("well-formed"))]
    assert "one step breaks well-formed state" in text and "action: pass" in text, text


# ---------------------------------------------------------------- totality through lia2card (``Encoding.totality_tactics``)


def test_red_nines_totality_goes_through_lia2card_and_is_not_rechecked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert encoding_for("red_nines").totality_tactics == LIA2CARD
    for preset in ("standard", "opera", "two_player", "old_comet", "commit_hoyle", "commit_cats"):
        assert encoding_for(preset).totality_tactics == (), preset
    seen = recorded(monkeypatch)
    (ob,) = [o for o in obligations(encoding_for("red_nines"), 4, "red_nines") if o.name.startswith("totality")]
    result = ob.run(recheck=True)
    assert result.proved and result.second == ""
    assert seen == [(LIA2CARD, z3.unsat)]


class NobodyGoesOut:
    """Bug: the play effect contradicts itself when the mover's last card goes (R-END-OUT)."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        base = super().transition(s, a, s2, rd)  # type: ignore[misc]
        assert isinstance(self, StandardEncoding) and isinstance(base, z3.BoolRef)
        left = z3.Sum(*[self.hand_size(s2, p) for p in range(s.players)])
        return z3.And(base, z3.Or(a.kind == PASS, left >= s.players))


def test_a_planted_stuck_deal_is_found_through_lia2card() -> None:
    base = type(encoding_for("red_nines"))
    enc = type("NobodyGoesOut_red_nines", (NobodyGoesOut, base), {})()
    assert enc.totality_tactics == LIA2CARD
    (ob,) = [o for o in obligations(enc, 4, "red_nines") if o.name.startswith("totality")]
    result = ob.run()
    assert not result.proved
    text = result.counterexample or ""
    assert "a deal in progress with no successor under T" in text and "state:" in text, text
