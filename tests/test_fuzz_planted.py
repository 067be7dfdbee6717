"""Show the fuzzing can fail: rules broken on purpose are found and shrunk to a small,
readable counterexample (issue 3).  R-STOP-KING (the King no longer stops a run),
R-SETTLE-POINTS (one settlement line off by one), R-COMET-BONUS (the bonus paid twice)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from comet import engine
from comet.cards import KING
from comet.fuzz import run_campaign
from comet.state import Action, DealState, Payment
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test
from strategies import DealMachine, counterexample_length

PLANTED = settings(
    max_examples=300,
    stateful_step_count=30,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.generate, Phase.shrink),
    report_multiple_bugs=False,
)


def king_does_not_stop(real: Callable[..., object]) -> Callable[..., object]:
    def play(state: DealState, action: Action) -> DealState:
        after = real(state, action)
        assert isinstance(after, DealState)
        if action.rank == KING and not action.as_rank and not after.terminal:
            return replace(after, run=(*state.run, KING))
        return after

    return play


def settlement_off_by_one(real: Callable[..., object]) -> Callable[..., object]:
    def settle(state: DealState) -> tuple[Payment, ...]:
        pays = real(state)
        assert isinstance(pays, tuple)
        if not pays:
            return pays
        first = pays[0]
        return (replace(first, amount=first.amount + 1), *pays[1:])

    return settle


def bonus_twice(real: Callable[..., object]) -> Callable[..., object]:
    def bonus(state: DealState, seat: int, last_card: bool, as_rank: int) -> tuple[Payment, ...]:
        once = real(state, seat, last_card, as_rank)
        assert isinstance(once, tuple)
        return once + once

    return bonus


BUGS: dict[str, Callable[[Callable[..., object]], Callable[..., object]]] = {
    "play": king_does_not_stop,
    "settlement": settlement_off_by_one,
}


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    def plant(name: str) -> None:
        monkeypatch.setattr(engine, name, BUGS[name](getattr(engine, name)))

    yield plant


def _find(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(AssertionError) as err:
        run_state_machine_as_test(DealMachine, settings=PLANTED)
    capsys.readouterr()
    return str(err.value)


def test_king_that_does_not_stop_is_found_and_shrunk(
    planted: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    """R-STOP-KING broken: the run goes on past the King; the pile invariant fails."""
    planted("play")
    message = _find(capsys)
    assert "King" in message and "run" in message, message
    assert counterexample_length(message) <= 12, message
    assert "seat 0:" in message and "dead:" in message  # a readable, replayable deal record


def test_settlement_off_by_one_is_found_and_shrunk(
    planted: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    """R-SETTLE-POINTS broken: one loser pays one chip too many; the recomputation disagrees."""
    planted("settlement")
    message = _find(capsys)
    assert "differs from the recomputation" in message, message
    assert counterexample_length(message) <= 25, message


def test_campaign_reports_a_planted_bug_with_a_deal_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMET-BONUS broken (paid twice): the campaign's payment bound or the replay catches it."""
    monkeypatch.setattr(engine, "comet_bonus", bonus_twice(engine.comet_bonus))
    monkeypatch.setattr(engine, "play", king_does_not_stop(engine.play))
    report = run_campaign(["standard"], seconds=None, deals=40, seed=1)
    assert not report.ok
    text = report.failures[0]
    assert "[standard]" in text and "actions (" in text and "seat 0:" in text, text


def test_campaign_passes_on_the_model() -> None:
    """The same campaign without a planted bug finds nothing (so the test above can fail)."""
    report = run_campaign(["standard"], seconds=None, deals=40, seed=1)
    assert report.ok, report.failures[0] if report.failures else ""
