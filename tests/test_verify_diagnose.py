"""``comet verify`` diagnoses instead of crashing (issue 37, item 3) and covers the shipped vectors and the fast
engines (item 4).

- A planted deal-size slip (R-DEAL-SIZES: one card too many at 4 players; R-2P-DEAL: 17/17/14 at two) gets
  the starting points' diagnosis from the default run, in worker processes; before, a ``RecordError`` raised
  in a worker broke the pool (``BrokenProcessPool``) and nothing printed.
- A unit that raises (an obligation, a fuzz unit, a worker that dies) is a row with its check, preset, player
  count and message; every other table still prints; the exit code is 1.
- The shipped vectors (deal and game records, malformed inputs) replay through the model, and a planted
  disagreement is named with its file and field; the fast engine's row catches a kernel bug planted in it,
  and says so instead of crashing when numba is not installed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import shutil
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from comet import engine
from comet.cli import main
from comet.errors import RecordError
from comet.variant import REGISTRY
from comet.verify.fastcheck import check_presets, kernel_groups
from comet.verify.pool import Unit, UnitFailure, run_units
from comet.verify.shipped import default_root, replay_preset
from comet_proofs.parallel import run_task
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent


def verify(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, dict[str, Any]]:
    """``comet verify ARGV --json``: exit code, the printed text with its lines joined, the summary."""
    out_file = tmp_path / "verify.json"
    code = main(["verify", *argv, "--json", str(out_file)])
    text = " ".join(capsys.readouterr().out.split())
    return code, text, json.loads(out_file.read_text(encoding="utf-8"))


def test_a_two_player_deal_of_17_17_14_is_diagnosed_by_the_default_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-2P-DEAL (000:84 "18 cards each"): the model planted to deal 17 each and 14 dead.  The default run
    (two workers, forked after the plant) prints the starting points' diagnosis; the bounds, whose witness
    deals now hold too many cards, are a failed row naming the preset, the player count and the record
    error; the proofs and the campaign still print."""
    planted = dataclasses.replace(REGISTRY["two_player"], deal_sizes=lambda r, n, size: (17, 14))
    monkeypatch.setitem(REGISTRY, "two_player", planted)
    code, out, summary = verify(capsys, tmp_path, "--preset", "two_player")
    assert code == 1 and "verify: FAILED" in out and "Traceback" not in out
    assert "the model deals 17 cards each and 14 dead (engine.deal_sizes), the sources say 18 each and 12 dead" in out
    assert "units that failed" in out and "11/11" in out and "fuzz deals" in out
    (entry,) = summary["presets"]
    assert entry["starting_points"]["problems"] and entry["fuzz"]["deals"] > 0
    bounds = [f for f in summary["failed_units"] if f["check"] == "bounds"]
    assert bounds == [
        {
            "check": "bounds",
            "preset": "two_player",
            "players": "2",
            "what": "",
            "message": "RecordError [hand-size]: seat 0 holds 18 cards; 2 players get 17 each",
            "where": bounds[0]["where"],
            "traceback": bounds[0]["traceback"],
        }
    ]
    assert "comet/deal.py" in bounds[0]["where"] and "RecordError" in bounds[0]["traceback"]
    # the shipped vectors, dealt at 18 each, are refused by the planted model: named, with the reason
    assert any("[hand-size] seat 0 holds 18 cards" in f for f in entry["vectors"]["failures"])


def test_one_card_too_many_at_four_players_is_diagnosed_by_the_default_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-DEAL-SIZES (the table: 10 each and 8 dead at four): the model planted to deal 11 each and 4 dead.
    The default run names the slip at 4 players; the directed deals, which replay a 4-player witness, are a
    failed row; the exit code is 1."""
    monkeypatch.setitem(engine.DEAL_TABLE, 4, (11, 4))
    code, out, summary = verify(capsys, tmp_path, "--preset", "standard")
    assert code == 1 and "Traceback" not in out
    assert (
        "standard, 4 players, deal_sizes=table: the model deals 11 cards each and 4 dead (engine.deal_sizes), "
        "the sources say 10 each and 8 dead" in out
    )
    (entry,) = summary["presets"]
    assert entry["proofs"]["proved"] == entry["proofs"]["total"] > 0  # the proofs alone would pass it
    assert any("4 players" in f and "hand-size" in f for f in entry["vectors"]["failures"])
    assert [f["check"] for f in summary["failed_units"]] == ["directed deals"]


def obligation_explodes(task: Any, recheck: bool) -> Any:
    """Planted (R-END-OUT's obligations): the first obligation at 3 players raises a record error."""
    if task.players == 3 and task.index == 0:
        raise RecordError("planted", "a planted fault in one obligation")
    return run_task(task, recheck)


class UnpicklableError(Exception):
    """Planted: pickles as ``cls(*args)`` but its ``__init__`` takes two parameters."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def obligation_raises_unpicklable(task: Any, recheck: bool) -> Any:
    if task.players == 3 and task.index == 0:
        raise UnpicklableError("planted", "an error that does not unpickle")
    return run_task(task, recheck)


@pytest.mark.parametrize(
    ("planted", "message"),
    [
        (obligation_explodes, "RecordError [planted]: a planted fault in one obligation"),
        (obligation_raises_unpicklable, "UnpicklableError: an error that does not unpickle"),
    ],
)
def test_an_obligation_that_raises_in_a_worker_is_a_row_and_the_rest_prints(
    planted: Any, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-END-OUT: one obligation of the standard game at 3 players raises in a worker; its row names the
    check, preset, player count, obligation and error (an error that would not unpickle arrives as text);
    the other obligations are proved and counted, the other tables print, the run fails."""
    import comet_proofs.parallel

    monkeypatch.setattr(comet_proofs.parallel, "run_task", planted)
    quick = ["--no-refine", "--no-bounds", "--fuzz-deals", "5", "--no-vectors", "--no-fast"]
    code, out, summary = verify(capsys, tmp_path, "--preset", "standard", *quick)
    assert code == 1 and "Traceback" not in out
    (failed,) = summary["failed_units"]
    assert (failed["check"], failed["preset"], failed["players"], failed["message"]) == (
        "proof",
        "standard",
        "3",
        message,
    )
    assert failed["what"] and failed["what"] in out
    (entry,) = summary["presets"]
    assert entry["proofs"]["proved"] == entry["proofs"]["total"] - 1 and entry["fuzz"]["deals"] > 0
    assert "starting points" in out and message in out


def chunk_explodes(unit: Any) -> Any:
    """Planted: a whole fuzz unit raises (outside any draw)."""
    raise RuntimeError(f"planted: unit {unit.start}-{unit.stop} of {unit.preset}")


def deal_explodes(start: Any, *args: Any, **kwargs: Any) -> Any:
    """Planted (R-END-OUT): checking a two-player deal crashes."""
    raise ZeroDivisionError("planted crash in a deal")


def test_a_fuzz_draw_or_unit_that_raises_is_reported_with_its_preset_and_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A draw that crashes is a fuzz failure naming the preset and the player count (the campaign goes on);
    a unit that crashes outside its draws is a failed row with its draws; the proofs still print."""
    import comet.fuzz
    import comet.fuzz.run

    monkeypatch.setattr(comet.fuzz.run, "check_deal", deal_explodes)
    argv = ["--preset", "two_player", "--no-refine", "--no-bounds", "--fuzz-deals", "5", "--no-vectors", "--no-fast"]
    code, out, summary = verify(capsys, tmp_path, *argv)
    (entry,) = summary["presets"]
    assert code == 1 and entry["proofs"]["proved"] == entry["proofs"]["total"] > 0
    assert any(
        f.startswith("[two_player] 2 players, dealer ")
        and f.endswith("the deal raised ZeroDivisionError: planted crash in a deal")
        for f in entry["fuzz"]["failures"]
    ), entry["fuzz"]
    monkeypatch.undo()
    monkeypatch.setattr(comet.fuzz, "fuzz_chunk", chunk_explodes)
    code, out, summary = verify(capsys, tmp_path, *argv, "--no-proofs")
    (failed,) = summary["failed_units"]
    assert code == 1 and (failed["check"], failed["preset"], failed["what"]) == ("fuzz", "two_player", "draws 0-4")
    assert failed["message"] == "RuntimeError: planted: unit 0-5 of two_player" and "units that failed" in out


def test_a_worker_that_dies_fails_its_units_and_the_rest_are_kept() -> None:
    """A worker process that exits outright breaks the pool: the units not finished are failures saying the
    worker died, the results already in are kept, nothing is raised."""
    taken: list[int] = []
    units: list[Unit[Any]] = [Unit("sum", "a", "1", "", partial(sum, (1, 2)), taken.append)]
    units.append(Unit("exit", "b", "2", "", partial(os._exit, 3), taken.append))
    failures = run_units(units, 2, Console(file=io.StringIO()))
    checks = {f.check for f in failures}
    assert all(isinstance(f, UnitFailure) and "died" in f.message for f in failures), failures
    assert "exit" in checks
    assert (taken == [3]) != ("sum" in checks)  # the sum is either taken or failed with the pool, never lost


def test_every_shipped_vector_replays_through_the_model() -> None:
    """R-REC-STATE, R-PLAY-MUST: every deal and game record of every preset gives the verdict and exit code
    its vector states, every malformed input the kind it names, and the files are those index.json lists."""
    from comet.presets import PRESETS

    results = [replay_preset(name, str(default_root())) for name in sorted(PRESETS)]
    assert all(r.ok for r in results), [f for r in results for f in r.failures][:5]
    assert all(r.deals > 0 and r.games > 0 and r.malformed > 0 for r in results)


def test_a_planted_wrong_vector_is_named_with_its_file_and_field(tmp_path: Path) -> None:
    """R-SETTLE-POINTS: a vector whose net chips are planted wrong, one whose bytes no longer match
    index.json, and a file index.json does not list: each named."""
    root = tmp_path / "vectors"
    shutil.copytree(default_root() / "two_player", root / "two_player")
    index = json.loads((default_root() / "index.json").read_text(encoding="utf-8"))
    index["files"] = [e for e in index["files"] if e["path"].startswith("two_player/")]
    entry = next(e for e in index["files"] if e["path"] == "two_player/default/replay/00.json")
    case_file = root / entry["path"]
    case = json.loads(case_file.read_text(encoding="utf-8"))
    chips = case["expected"]["chips"]
    case["expected"]["chips"] = [chips[0] + 1, chips[1] - 1]
    case_file.write_text(json.dumps(case), encoding="utf-8")
    entry["sha256"] = hashlib.sha256(case_file.read_bytes()).hexdigest()
    (root / "two_player" / "default" / "replay" / "01.json").write_text("{}", encoding="utf-8")
    (root / "two_player" / "stray.json").write_text("{}", encoding="utf-8")
    (root / "index.json").write_text(json.dumps(index), encoding="utf-8")
    r = replay_preset("two_player", str(root))
    assert not r.ok
    assert (
        f"two_player/default/replay/00.json: 2 players: chips[0]: the vector says {chips[0] + 1}, the model {chips[0]}"
        in r.failures
    )
    assert "two_player/default/replay/01.json: its SHA-256 differs from index.json's" in r.failures
    assert "two_player/default/replay/01.json: not a vector case (no 'record')" in r.failures
    assert "two_player/stray.json: not listed in index.json" in r.failures
    missing = replay_preset("two_player", str(tmp_path / "nowhere"))
    assert missing.ok and missing.deals == 0 and "no vectors directory" in missing.missing


def test_the_fast_engine_row_catches_a_planted_kernel_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-PLAY-MUST: the compiled kernel planted to allow a pass always (``H_MUTANT`` 2): the fast engine's
    row reports the mismatches and the run fails; the real kernel passes."""
    (clean,) = check_presets(("standard",))
    assert clean.ok and clean.players == (2, 3, 4, 5) and clean.deals == 20
    (planted,) = check_presets(("standard",), _mutant=2)
    assert not planted.ok and any("the reference rejects it" in m or "legal actions" in m for m in planted.mismatches)
    import comet.verify.plan

    monkeypatch.setattr(comet.verify.plan, "check_presets", partial(check_presets, _mutant=2))
    argv = ["--preset", "standard", "--no-proofs", "--no-refine", "--no-bounds", "--no-fuzz", "--no-vectors"]
    code, out, summary = verify(capsys, tmp_path, *argv, "--jobs", "1")
    (entry,) = summary["presets"]
    assert code == 1 and entry["fast"]["mismatches"] and "fast engine mismatch" in out


def test_without_numba_the_fast_row_says_so_and_nothing_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The bare install (no ``[fast]`` extra): the row says numba is missing and the run still passes."""
    monkeypatch.setitem(sys.modules, "numba", None)
    (row,) = check_presets(("opera",))
    assert row.ok and row.deals == 0 and "numba not installed" in row.skipped and "[fast]" in row.skipped
    argv = ["--preset", "opera", "--no-proofs", "--no-refine", "--no-bounds", "--no-fuzz", "--no-vectors"]
    code, out, summary = verify(capsys, tmp_path, *argv)
    assert code == 0 and "not checked: numba not installed" in out
    assert summary["presets"][0]["fast"]["skipped"].startswith("numba not installed")


def test_each_kernel_is_one_unit() -> None:
    """The presets of the standard transition system share one compiled kernel, so one unit checks them all
    (a cold cache compiles it once, not in both workers); Commit and Red Nines have kernels of their own."""
    groups = dict(kernel_groups(["standard", "opera", "two_player", "old_comet", "commit_cats", "red_nines"]))
    assert groups == {
        "kernel": ("standard", "opera", "two_player", "old_comet"),
        "commit_cats": ("commit_cats",),
        "red_nines": ("red_nines",),
    }


def test_bad_vectors_directory_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["verify", "--vectors", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no index.json" in err and "Traceback" not in err
    assert default_root() == ROOT / "vectors"
