"""`comet verify`'s proof section: it runs every obligation (in worker processes by default), fails on a
planted encoding bug, prints full preset names when piped, and writes a JSON summary (one object per
preset).

Rules exercised: R-END-OUT, R-PLAY-MUST (totality), R-COMET-BONUS (play payments).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import z3
from comet.cli import main
from comet_proofs import ENCODINGS
from comet_proofs.encoding import PASS, Readings, StandardEncoding, SymAction, SymState, at
from comet_proofs.parallel import Task, prove_presets, run_task, tasks
from comet_proofs.proofs import ProofResult


class NobodyGoesOut(StandardEncoding):
    """Bug: the play effect contradicts itself when the mover's last card goes (R-END-OUT)."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        left = at([self.hand_size(s2, p) for p in range(s.players)], s.to_move)
        return z3.And(super().transition(s, a, s2, rd), z3.Or(a.kind == PASS, left > 0))


class HugeBonusToSeatZero(StandardEncoding):
    """Bug: a Comet bonus of 1000 x value + 5, always paid to seat 0 (R-COMET-BONUS)."""

    def bonus_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return 1000 * s.comet_value + 5

    def bonus_payee(self, s: SymState) -> z3.ArithRef:
        return z3.IntVal(0)


QUIET = ["--no-refine", "--no-fuzz", "--no-bounds", "--jobs", "1"]


@pytest.mark.parametrize(("bug", "obligation"), [(NobodyGoesOut, "totality"), (HugeBonusToSeatZero, "play payments")])
def test_verify_fails_on_a_planted_encoding_bug(
    bug: type[StandardEncoding],
    obligation: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """With the standard encoding replaced by a mutant, `comet verify` exits 1, names the obligation
    with a counterexample, and the JSON summary counts the failure."""
    monkeypatch.setitem(ENCODINGS, "standard", bug)
    out_file = tmp_path / "verify.json"
    code = main(["verify", "--preset", "standard", *QUIET, "--json", str(out_file)])
    out = capsys.readouterr().out
    assert code == 1
    assert "proof problem" in out and obligation in out and "verify: FAILED" in out
    summary = json.loads(out_file.read_text(encoding="utf-8"))
    (entry,) = summary["presets"]
    assert summary["ok"] is False and entry["preset"] == "standard"
    assert entry["proofs"]["proved"] < entry["proofs"]["total"]
    assert any(obligation in p for p in entry["proofs"]["problems"])


def test_verify_prints_full_preset_names_when_piped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Piped output (not a terminal) is wide enough for every preset name; the JSON has one object per
    preset with the fuzz counts."""
    out_file = tmp_path / "v.json"
    argv = ["verify", "--preset", "commit_cats", "--preset", "commit_hoyle", "--no-proofs", "--no-refine"]
    code = main([*argv, "--no-bounds", "--seconds", "1", "--jobs", "1", "--json", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "commit_cats" in out and "commit_hoyle" in out and "commit_…" not in out
    summary = json.loads(out_file.read_text(encoding="utf-8"))
    assert [p["preset"] for p in summary["presets"]] == ["commit_cats", "commit_hoyle"]
    assert all(p["fuzz"]["deals"] > 0 for p in summary["presets"])


def test_two_workers_prove_what_one_does() -> None:
    """The worker processes give the same verdicts, in plan order, as running in this process; the
    cheap proved obligations are re-checked by the second solver."""
    one = prove_presets(["two_player"], jobs=1)["two_player"]
    two = prove_presets(["two_player"], jobs=2)["two_player"]
    assert (
        [r.name for r in one]
        == [r.name for r in two]
        == [t.name for t in sorted(tasks(["two_player"]), key=lambda t: t.index)]
    )
    assert all(r.proved for r in one + two)
    assert any(r.second == "agrees" for r in one) and not any(r.second == "DISAGREES" for r in one + two)


@pytest.mark.parametrize("argv", [["verify", "--jobs", "0"], ["verify", "--seconds", "0"]])
def test_verify_bad_numbers_are_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


_REAL_RUN_TASK = run_task  # captured at import, before any test patches the module


def _times_out_once(task: Task, recheck: bool = True) -> ProofResult:
    """A worker's first try of each obligation gives no answer; later tries (fresh processes) prove it.
    Marker files in ``$COMET_TEST_RETRY_DIR`` make the 'first' visible across processes."""
    import dataclasses
    import os

    marker = Path(os.environ["COMET_TEST_RETRY_DIR"]) / f"{task.players}-{task.index}"
    result = _REAL_RUN_TASK(task, recheck)
    if marker.exists():
        return result
    marker.write_text("tried")
    return dataclasses.replace(result, proved=False, counterexample="Z3 gave no answer (timeout)")


def test_an_obligation_that_times_out_in_the_pool_is_retried_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Totality and the other obligations (R-PLAY-MUST): a no-answer in a shared worker is tried once more in
    a fresh process, and said on stderr; without the retry every obligation here would stand unproved."""
    from comet_proofs import parallel

    monkeypatch.setenv("COMET_TEST_RETRY_DIR", str(tmp_path))
    monkeypatch.setattr(parallel, "run_task", _times_out_once)
    results = prove_presets(["two_player"], jobs=2)["two_player"]
    assert results and all(r.proved for r in results), [r.name for r in results if not r.proved]
    assert "trying each once more alone in a fresh process" in capsys.readouterr().err
