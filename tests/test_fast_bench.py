"""``comet bench``: the JSON rows, the goal verdicts (met / short by how much), bad input.

Speed itself is measured by the command, never asserted here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from comet.cli import main
from comet.commands.bench import GOALS, YARDSTICK_GOALS, Row, goal_lines, yardstick_lines

#: comet bench plays the fast engine
NEEDS_EXTRAS = ("fast",)


def test_goal_lines_say_met_or_by_how_much_short() -> None:
    rows = [Row(what, p, n, target * (2 if i % 2 else 0.5)) for i, (what, p, n, target, _) in enumerate(GOALS)]
    lines = goal_lines(rows)
    assert [ok for ok, _ in lines] == [bool(i % 2) for i in range(len(GOALS))]
    assert "50% short; needs 2.0x" in lines[0][1]
    assert "met" in lines[1][1] and "2.0x the goal" in lines[1][1]
    assert all("not measured" in text for _, text in goal_lines([]))


def test_yardstick_lines_say_met_or_not() -> None:
    """Issue 21's ratios: a row at or above its least ratio is met, below it is not, and a missing row says
    the yardstick was not measured."""
    rows = [Row(what, "standard", 4, least * (1.5 if i else 0.9), "note") for i, (what, least, _) in enumerate(YARDSTICK_GOALS)]
    lines = yardstick_lines(rows)
    assert [ok for ok, _ in lines] == [False, True]
    assert "NOT met (1.80x" in lines[0][1] and "met (0.90x" in lines[1][1]
    assert all("not measured" in text for _, text in yardstick_lines([]))


def test_bench_quick_writes_the_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    code = main(["bench", "--quick", "--seconds", "0.05", "--preset", "opera", "--no-verify", "--json", str(out)])
    assert code == 0
    rows = json.loads(out.read_text())
    kinds = {r["what"] for r in rows}
    base = {"reference-deals", "fast-deals", "replay-records", "oracle-apply", "yardstick-deals", "yardstick-replay"}
    # the framework wrappers' rows (issue 22) come with the optional extras installed
    frameworks = {"engine-steps", "openspiel-steps", "pettingzoo-steps", "gymnasium-steps"}
    assert base <= kinds and kinds - base <= frameworks, kinds
    assert all(set(r) >= {"what", "preset", "players", "per_s"} and r["per_s"] > 0 for r in rows)
    assert {r["players"] for r in rows if r["what"] == "fast-deals"} == {2, 3, 4, 5}
    text = capsys.readouterr().out
    assert "oracle: 10,000 apply requests/s" in text and ("MET" in text or "SHORT" in text)


def test_bench_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0"]) == 2
    assert main(["bench", "--preset", "nonesuch", "--quick"]) == 2
    assert "unknown preset" in capsys.readouterr().err
