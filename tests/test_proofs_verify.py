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
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.obligations import JOINT_STEP, obligations
from comet_proofs.parallel import prove_presets, tasks
from comet_proofs.proofs import plan
from comet_proofs.solving import case_values, solve_alone, specialise
from comet_proofs.symbolic import PASS, Readings, SymAction, SymState
from comet_proofs.terms import at


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
    preset with the fuzz counts.  The campaign is a number of draws (--fuzz-deals), not a time budget: with
    --seconds a loaded machine finished no deal of the second preset in its share of the time."""
    out_file = tmp_path / "v.json"
    argv = ["verify", "--preset", "commit_cats", "--preset", "commit_hoyle", "--no-proofs", "--no-refine"]
    code = main([*argv, "--no-bounds", "--fuzz-deals", "10", "--jobs", "1", "--json", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "commit_cats" in out and "commit_hoyle" in out and "commit_…" not in out
    summary = json.loads(out_file.read_text(encoding="utf-8"))
    assert [p["preset"] for p in summary["presets"]] == ["commit_cats", "commit_hoyle"]
    assert all(p["fuzz"]["deals"] >= 10 for p in summary["presets"])  # a draw that is a game counts its deals


def test_verify_fuzz_deals_is_a_count_whatever_the_clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--fuzz-deals D plays D draws per preset however slow the machine: with the clock made to run a hundred
    seconds per reading (a machine too loaded for any time budget), the campaign still plays every draw, where
    a --seconds budget on the same clock plays none."""
    import itertools
    from types import SimpleNamespace

    import comet.fuzz.run as fuzz_run

    ticks = itertools.count()
    monkeypatch.setattr(fuzz_run, "time", SimpleNamespace(monotonic=lambda: 100.0 * next(ticks)))
    common = ["verify", "--preset", "commit_cats", "--preset", "commit_hoyle", "--no-proofs", "--no-refine"]
    counted, timed = tmp_path / "counted.json", tmp_path / "timed.json"
    assert main([*common, "--no-bounds", "--fuzz-deals", "3", "--jobs", "1", "--json", str(counted)]) == 0
    assert main([*common, "--no-bounds", "--seconds", "5", "--jobs", "1", "--json", str(timed)]) == 0
    deals = {
        name: [p["fuzz"]["deals"] for p in json.loads(f.read_text(encoding="utf-8"))["presets"]]
        for name, f in (("counted", counted), ("timed", timed))
    }
    assert all(n >= 3 for n in deals["counted"]) and deals["timed"] == [0, 0]


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


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "--jobs", "0"],
        ["verify", "--seconds", "0"],
        ["verify", "--fuzz-deals", "0"],
        ["verify", "--seconds", "1", "--fuzz-deals", "3"],
    ],
)
def test_verify_bad_numbers_are_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_obligations_search_does_not_depend_on_terms_built_before() -> None:
    """The inductive step of the standard game's plays (R-PLAY-CONTINUE, R-END-OUT) is solved in a context of
    its own: after thousands of unrelated terms are built in Z3's main context, the search takes the same
    decisions and conflicts.  In the shared context it did not (commit_hoyle's card conservation at 8
    players proved in 1 s or timed out at 120 s depending on what the process had built before)."""
    (ob,) = [o for o in plan("standard", [2]) if o.name == JOINT_STEP]
    formulas, _ = ob.build()
    first = solve_alone(formulas, 60_000, ob.cases[1])
    noise = [z3.Int(f"noise{i}") + i for i in range(5000)]
    assert len(noise) == 5000
    formulas_again, _ = ob.build()
    again = solve_alone(formulas_again, 60_000, ob.cases[1])
    assert first.verdict == again.verdict == z3.unsat
    assert first.search == again.search and first.search[0] > 0, (first.search, again.search)
    assert first.work == again.work > 0


def test_a_try_that_gives_no_answer_goes_on_to_the_next_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inductive step of the standard game's plays (R-PLAY-CONTINUE, R-END-OUT): a first try cut short
    (1 ms) is followed by a try with the next seed, which proves it; with the first try alone there is no
    answer."""
    from comet_proofs import solving as solving_module

    (ob,) = [o for o in plan("standard", [2]) if o.name == JOINT_STEP]
    formulas, _ = ob.build()
    monkeypatch.setattr(solving_module, "SEED_TRIES", ((0, 1), (1, 60_000)))
    assert solve_alone(formulas, 60_000, ob.cases[1]).verdict == z3.unsat
    monkeypatch.setattr(solving_module, "SEED_TRIES", ((0, 1),))
    assert solve_alone(formulas, 60_000, ob.cases[1]).verdict not in (z3.sat, z3.unsat)


def test_specialise_substitutes_only_what_a_case_fixes() -> None:
    """A case's fixed values (``x == k``, ``b``, ``Not(b)``, inside nested conjunctions) are substituted and
    the case kept, so a model of the result is a model of the original; a bound (``y > 1``) fixes nothing."""
    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("b")
    formulas = [x + y == 3, z3.If(b, y > 0, y < 0)]
    case = z3.And(z3.Not(z3.Not(b)) == b, z3.And(z3.IntVal(1) == x, b), y > 1)
    assert {str(k): str(v) for k, v in case_values(case)} == {"x": "1", "b": "True"}
    out = specialise(formulas, case)
    assert out[-1].eq(case) and "x" not in str(out[0])
    solver = z3.Solver()
    solver.add(*out)
    assert solver.check() == z3.sat and solver.model().eval(y).as_long() == 2
    # the same formulas and a case that contradicts them stay unsatisfiable
    solver = z3.Solver()
    solver.add(*specialise(formulas, z3.And(x == 1, z3.Not(b))))
    assert solver.check() == z3.unsat
    assert specialise(formulas, y > 1) == [*formulas, y > 1]


class RankingCountsSteps(StandardEncoding):
    """Bug (R-END-OUT's termination): the ranking adds the steps taken, so it no longer falls."""

    def ranking(self, s: SymState) -> z3.ArithRef:
        return super().ranking(s) + s.steps


def test_the_step_bound_stands_only_with_the_termination_it_assumes() -> None:
    """The step bound's proof (R-END-OUT) uses termination's conclusion.  With a ranking that does not fall,
    the step bound's own three parts still hold, but its result is not proved, and says what it assumes."""
    from comet_proofs import prove
    from comet_proofs.obligations import JOINT_STEP, STEP_BOUND, TERMINATION

    results = {r.name: r for r in prove(RankingCountsSteps(), 3, only=("step bound", "termination"))}
    assert not results[TERMINATION].proved
    bound = results[f"{STEP_BOUND} (initial + inductive)"]
    assert not bound.proved and bound.assumes == (TERMINATION, JOINT_STEP)
    assert bound.counterexample is not None and "assumes termination" in bound.counterexample
    # the step bound's own checks pass: only the assumption fails
    (ob,) = [o for o in obligations(RankingCountsSteps(), 3) if o.name.startswith("step bound")]
    assert ob.run().proved


def test_verify_in_one_pool_runs_proofs_refinement_and_bounds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With two workers the proofs, the refinement check and the bounds share one pool: all three tables are
    printed, and a planted bug (a Comet bonus paid to seat 0, R-COMET-BONUS) still fails the run, since the
    workers are forked after the encoding is replaced."""
    out_file = tmp_path / "v.json"
    argv = ["verify", "--preset", "two_player", "--fuzz-deals", "20", "--jobs", "2", "--json", str(out_file)]
    assert main(argv) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "directed refinement check" in out and "bounds per deal" in out and "11/11" in out
    (entry,) = json.loads(out_file.read_text(encoding="utf-8"))["presets"]
    assert entry["refine"]["ok"] and entry["proofs"]["proved"] == entry["proofs"]["total"] > 0
    monkeypatch.setitem(ENCODINGS, "standard", HugeBonusToSeatZero)
    bad = ["verify", "--preset", "standard", "--no-fuzz", "--no-refine", "--no-bounds", "--jobs", "2"]
    assert main(bad) == 1
    assert "play payments" in capsys.readouterr().out


def test_termination_of_a_joint_encoding_is_not_counted_as_re_checked() -> None:
    """Commit's termination (R-COMMIT-C-LEAD's runs end) is proved by the joint step check; its own
    formula is just False, so the second solver's agreement count does not include it."""
    from comet_proofs.obligations import JOINT_STEP, TERMINATION

    (ob,) = [o for o in plan("commit_cats", [3]) if o.name == TERMINATION]
    result = ob.run(recheck=True)
    assert result.proved and result.assumes == (JOINT_STEP,) and result.second == ""
    (wf,) = [o for o in plan("commit_cats", [3]) if o.name.startswith("well-formed")]
    assert wf.run(recheck=True).second == "agrees"


def test_a_planted_encoding_gets_a_plan_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plans ``tasks`` builds before the workers fork are kept per encoding class: after the real
    standard encoding's plans are built, a planted one (a Comet bonus paid to seat 0, R-COMET-BONUS) gets
    its own, and play payments fail on it in one process."""
    from comet_proofs.parallel import _plan, run_task

    tasks(["standard"], [3])
    real = _plan("standard", 3)
    monkeypatch.setitem(ENCODINGS, "standard", HugeBonusToSeatZero)
    planted = _plan("standard", 3)
    assert planted is not real and [o.name for o in planted] == [o.name for o in real]
    (task,) = [t for t in tasks(["standard"], [3]) if t.name.startswith("play payments")]
    assert not run_task(task, recheck=False).proved


def test_the_second_solvers_verdicts_do_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-check is decided and limited by Z3's resource count, not by seconds: with the clock made ten
    times slower, the same obligations of the standard game (R-END-OUT, R-SETTLE-*) are re-checked, with
    the same verdicts; and a second solver given too little work has no answer."""
    import time as time_module

    from comet_proofs import solving as solving_module

    first = [(o.name, o.run(recheck=True).second) for o in plan("standard", [3])]
    real = time_module.perf_counter
    monkeypatch.setattr(time_module, "perf_counter", lambda: real() * 10)
    again = [(o.name, o.run(recheck=True).second) for o in plan("standard", [3])]
    assert first == again and sum(1 for _, second in first if second == "agrees") >= 10
    (ob,) = [o for o in plan("standard", [3]) if o.name.startswith("deal bound")]
    formulas, _ = ob.build()
    assert ob.second_opinion(formulas, [z3.BoolVal(True)], 1_000)[0] == "no answer"
    assert ob.second_opinion(formulas, [z3.BoolVal(True)], solving_module.second_budget(10**9)) == ("agrees", "")


def test_the_directed_deals_are_replayed_in_the_pool_and_their_failures_fail_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-COMMIT-C-CAUGHT, which random play misses, is met by the directed deals (the proofs' witness deals),
    replayed by a worker of the pool while the rest runs (not after the fuzz campaign, in this process); a
    directed deal that fails a check fails the run, from the pool as it did in this process."""
    import os

    import comet.fuzz

    real = comet.fuzz.directed_hits
    where = tmp_path / "pid"

    def replay(deals: object) -> tuple[object, tuple[str, ...]]:
        where.write_text(str(os.getpid()), encoding="utf-8")
        return real(deals)  # type: ignore[arg-type]

    monkeypatch.setattr(comet.fuzz, "directed_hits", replay)
    monkeypatch.setenv("COLUMNS", "1000")
    argv = ["verify", "--preset", "commit_cats", "--no-proofs", "--no-refine", "--no-bounds", "--fuzz-deals", "20"]
    assert main([*argv, "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "met by the directed deals (witness deals): R-COMMIT-C-CAUGHT" in out
    assert int(where.read_text(encoding="utf-8")) != os.getpid()

    def broken(deals: object) -> tuple[object, tuple[str, ...]]:
        hits, _ = real(deals)  # type: ignore[arg-type]
        return hits, ("[directed deal] planted failure",)

    monkeypatch.setattr(comet.fuzz, "directed_hits", broken)
    assert main([*argv, "--jobs", "2"]) == 1
    assert "[directed deal] planted failure" in capsys.readouterr().out


def test_the_fuzz_campaigns_rule_universe_is_loaded_while_the_pool_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REC-STATE: with workers, this process loads every module of the model (the rule ids the fuzz campaign
    counts) while the pool runs; the campaign's units run in that pool too, and their report is made after the
    load, with no second campaign after the pool."""
    import comet.checks.coverage
    import comet.fuzz

    events: list[str] = []
    real_load, real_report = comet.checks.coverage.load_model, comet.fuzz.campaign_report

    def load_model() -> None:
        events.append("load")
        real_load()

    def campaign_report(*args: object, **kwargs: object) -> object:
        events.append("report")
        return real_report(*args, **kwargs)  # type: ignore[arg-type]

    def run_campaign(*args: object, **kwargs: object) -> object:
        events.append("campaign after the pool")
        raise AssertionError("the default campaign runs in the pool")

    monkeypatch.setattr(comet.checks.coverage, "load_model", load_model)
    monkeypatch.setattr(comet.fuzz, "campaign_report", campaign_report)
    monkeypatch.setattr(comet.fuzz, "run_campaign", run_campaign)
    argv = ["verify", "--preset", "two_player", "--no-proofs", "--no-refine", "--no-bounds", "--fuzz-deals", "5"]
    assert main([*argv, "--jobs", "2"]) == 0, capsys.readouterr().out
    assert events[:2] == ["load", "report"] and "campaign after the pool" not in events
