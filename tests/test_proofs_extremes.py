"""Exact extremes (issue 23): the bounds table keeps the proved bound and the most a witness deal reaches
apart, replays the witness deals with the model, and calls a value exact only when the two meet.

Rules exercised: R-SETTLE-POINTS, R-SETTLE-COMET-LAST, R-COMET-BONUS.
"""

from __future__ import annotations

import pytest
from comet import engine
from comet.state import DealState, Payment
from comet_proofs.bounds import DEAL_GAIN, DEAL_LOSS, GAIN, LOSS, bounds


def test_the_most_a_seat_loses_in_a_three_player_deal_is_exact() -> None:
    """R-SETTLE-COMET-LAST: 480 at settlement and 488 in the whole deal, proved and reached by the shipped
    deal (replayed now); what the winner collects is not exact yet, and the gap is the difference."""
    found = {b.quantity: b for b in bounds("standard", players=(3,), deals=4)}
    for name, value in ((LOSS, 480), (DEAL_LOSS, 488)):
        b = found[name]
        assert b.exact and b.upper == b.witness == value and b.gap == 0
        assert b.witness_file == "standard/bound-settlement-3p.itf.json"
    for name in (GAIN, DEAL_GAIN):
        b = found[name]
        assert not b.exact and b.upper is not None and b.witness is not None
        assert b.gap == b.upper - b.witness > 0


def test_a_planted_settlement_bug_makes_the_witness_deal_beat_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-POINTS planted x2: the shipped deal, replayed by the broken model, pays 960 > 480."""
    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        return tuple(Payment(p.payer, p.payee, p.amount * 2, p.rule) for p in real(state))

    monkeypatch.setattr(engine, "settlement", settlement)
    b = {b.quantity: b for b in bounds("standard", players=(3,), deals=1)}[LOSS]
    assert b.witness == 960 and not b.ok and not b.exact
