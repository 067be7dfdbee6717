"""``comet conform`` (issue 34 item 6): the model behind the protocol passes; planted bugs are caught and
shrunk to a record of a few actions (or one deal); a hanging, crashing or garbling implementation is
reported, never a hang; JUnit XML and the coverage table by rule id are written (R-REC-FAULTS,
R-REC-LIMITS, R-GAME-CHIPS)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from comet.conform.client import Implementation
from comet.conform.report import junit_xml, text_report
from comet.conform.runner import Options, Report, run

ROOT = Path(__file__).resolve().parent.parent
PLANTED = Path(__file__).resolve().parent / "conform_impls" / "planted.py"


def _impl(mode: str, timeout: float = 5.0) -> Implementation:
    return Implementation([sys.executable, str(PLANTED), mode], timeout)


def _run(
    mode: str,
    seconds: float = 1.0,
    vectors: int | None = 60,
    timeout: float = 5.0,
    seed: int = 1,
    generator: str = "stdlib",
    hostile: bool = True,
    cases: int | None = None,
) -> Report:
    impl = _impl(mode, timeout)
    try:
        options = Options(("standard",), seconds, seed, ROOT / "vectors", timeout, hostile, vectors, generator, cases)
        return run(impl, options)
    finally:
        impl.close()


def test_the_model_behind_the_protocol_agrees() -> None:
    """The model against itself: every case agrees, games included (its hello lists game_new)."""
    report = _run("none")
    assert report.ok, text_report(report)
    assert report.games and report.run["vectors"] == 60 and report.run["random"] > 0 and report.run["hostile"] > 0
    assert "R-REC-LIMITS" in report.coverage


def test_a_planted_deal_bug_is_caught_and_shrunk_to_three_actions() -> None:
    """pass-third: a deal whose third action is 'pass' judged illegal.  Caught, shrunk to 3 actions."""
    report = _run("pass-third", seconds=3.0, vectors=400)
    assert not report.ok
    assert "standard library" in report.generator
    shrunk = [f for f in report.findings if f.shrunk is not None and "actions" in f.shrunk]
    assert shrunk, text_report(report)
    actions = shrunk[0].shrunk["actions"] if shrunk[0].shrunk else None
    assert isinstance(actions, list) and len(actions) == 3 and actions[2] == "pass", shrunk[0]
    text = text_report(report)
    assert "DISAGREE" in text and "shrunk to 3 actions" in text and "model:" in text and "implementation:" in text


def test_a_planted_game_bug_is_caught_and_shrunk_to_one_deal() -> None:
    """standings: seat 0's standings after the first deal off by one.  Caught; the game shrunk to 1 deal."""
    report = _run("standings", seconds=1.0, vectors=None)
    games = [f for f in report.findings if f.shrunk is not None and "deals" in f.shrunk]
    assert games, text_report(report)
    deals = games[0].shrunk["deals"] if games[0].shrunk else None
    assert isinstance(deals, list) and len(deals) == 1


def test_a_payment_bug_names_the_payments_rule() -> None:
    """payment: the last payment one chip too many; the finding names that payment's rule
    (R-SETTLE-POINTS or another R-REC-PAYMENTS label), not just 'no rule id'."""
    report = _run("payment", seconds=0.5, vectors=40)
    assert report.findings
    assert all(f.rule is not None and f.rule.startswith("R-") for f in report.findings), [
        (f.case.name, f.rule, f.problem) for f in report.findings[:5]
    ]


@pytest.mark.parametrize("mode", ["pass-third", "payment"])
def test_hypothesis_catches_and_shrinks_a_planted_bug_in_the_random_cases(mode: str) -> None:
    """With Hypothesis (no vectors, so only the random cases can catch it): the planted bug is found by a
    generated case, shrunk by Hypothesis (no readings changed) and then to a few actions; the report
    says Hypothesis ran."""
    pytest.importorskip("hypothesis")
    report = _run(mode, vectors=0, generator="hypothesis", hostile=False, cases=80)
    assert report.generator.startswith("Hypothesis ") and report.run["random"] > 0
    found = [f for f in report.findings if f.case.source == "random" and f.shrunk is not None]
    assert found, text_report(report)
    shrunk = found[0].shrunk
    assert shrunk is not None and shrunk.get("rulings") == {}, shrunk
    actions = shrunk.get("actions")
    assert isinstance(actions, list)
    if mode == "pass-third":
        assert len(actions) == 3 and actions[2] == "pass", actions
    assert "random cases: Hypothesis" in text_report(report)


def test_hypothesis_catches_a_planted_game_bug_and_shrinks_it_to_one_deal() -> None:
    pytest.importorskip("hypothesis")
    report = _run("standings", vectors=0, generator="hypothesis", hostile=False, cases=24)
    games = [f for f in report.findings if f.shrunk is not None and "deals" in f.shrunk]
    assert games, text_report(report)
    deals = games[0].shrunk["deals"] if games[0].shrunk else None
    assert isinstance(deals, list) and len(deals) == 1


def test_the_model_agrees_under_hypothesis_too() -> None:
    pytest.importorskip("hypothesis")
    report = _run("none", vectors=0, generator="hypothesis", hostile=False, cases=30)
    assert report.ok and report.run["random"] == 30, text_report(report)


def test_without_hypothesis_auto_falls_back_to_the_standard_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bare install: ``auto`` runs the stdlib generator (and says so); asking for Hypothesis is a clear
    error, not a traceback."""
    from comet.conform import explore
    from comet.conform.runner import use_hypothesis

    monkeypatch.setattr(explore, "available", lambda: False)
    assert use_hypothesis("auto") is False and use_hypothesis("stdlib") is False
    with pytest.raises(ValueError, match="Hypothesis is not installed"):
        use_hypothesis("hypothesis")
    report = _run("pass-third", vectors=0, generator="auto", hostile=False, cases=200)
    assert "standard library" in report.generator and "standard library" in text_report(report)
    assert report.findings  # the fallback still catches the bug


@pytest.mark.parametrize("mode", ["slow", "crash", "garbage"])
def test_a_hanging_crashing_or_garbling_implementation_is_reported(mode: str) -> None:
    """The fifth request: never answered, the process gone, or not JSON.  Reported, restarted, no hang."""
    began = time.monotonic()
    report = _run(mode, seconds=0.5, vectors=10, timeout=1.0)
    assert time.monotonic() - began < 60
    problems = [f.problem for f in report.findings]
    want = {"slow": "timeout", "crash": "crash", "garbage": "garbled"}[mode]
    assert any(p.startswith(want) for p in problems), problems
    assert report.run["vectors"] == 10  # the run went on after it


def test_no_hello_is_fatal() -> None:
    report = _run("no-hello")
    assert report.fatal is not None and "hello" in report.fatal and not report.ok


def test_junit_and_coverage() -> None:
    """JUnit XML has a suite per source with the failures; the coverage table names rule ids."""
    report = _run("pass-third", seconds=2.0, vectors=400)
    root = ET.fromstring(junit_xml(report))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) >= {"vectors", "random", "hostile"}
    assert sum(int(s.get("failures") or 0) for s in suites.values()) == len(report.findings) > 0
    assert "| R-" in text_report(report)


def test_the_command_exits_non_zero_on_a_bug_and_zero_on_the_model(tmp_path: Path) -> None:
    """comet conform -- COMMAND: exit 1 with a planted bug (JUnit written), 0 for the model, 2 for none."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "model"), str(ROOT / "proofs")])}
    base = [sys.executable, "-m", "comet.cli", "conform", "--preset", "standard", "--seconds", "1", "--no-progress"]
    junit = tmp_path / "junit.xml"
    bad = subprocess.run(
        [*base, "--junit", str(junit), "--", sys.executable, str(PLANTED), "pass-third"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert bad.returncode == 1, bad.stdout[-2000:] + bad.stderr[-2000:]
    assert junit.is_file() and "DISAGREE" in bad.stdout
    none = subprocess.run([*base], capture_output=True, text=True, env=env, timeout=60)
    assert none.returncode == 2 and "error" in none.stderr and "Traceback" not in none.stderr
