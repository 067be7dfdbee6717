"""Campaigns in work units (``comet.parallel.runner``): the same results on one core, on local workers
and on a Dask cluster; a unit that is not pure is caught.  Fuzz (R-END-OUT and the invariants it
checks), perft (R-PLAY-CONTINUE through the legal actions it counts) and the fast-engine study."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from comet.cli import main
from comet.fast import play_deals
from comet.fast.study import StudyUnit, study_unit, study_units
from comet.fuzz import MAX_FAILURES_PER_PRESET, ChunkReport, campaign_report, fuzz_chunk, fuzz_units, run_campaign
from comet.oracle.perft import reference_table
from comet.parallel.runner import Runner, first_difference, run_units, seed_chunks
from comet.presets import PRESETS
from comet.trace import IMPLEMENTATIONS


@contextmanager
def local_scheduler() -> Iterator[str]:
    """A one-worker Dask cluster in this process (threads), as CI can afford.  Each test starts it
    after its local-worker runs, so no process is forked while the cluster's threads run."""
    from distributed import LocalCluster

    cluster_type = LocalCluster  # untyped
    with cluster_type(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        yield str(cluster.scheduler_address)


def test_seed_chunks_cover_the_range_once() -> None:
    assert seed_chunks(3, 11, 3) == [(3, 6), (6, 9), (9, 11)]
    assert seed_chunks(0, 0, 5) == []
    with pytest.raises(ValueError):
        seed_chunks(0, 5, 0)
    with pytest.raises(ValueError, match="jobs"):
        Runner(jobs=0)


def test_fuzz_is_the_same_on_one_core_two_workers_and_dask() -> None:
    one = run_campaign(["old_comet"], seconds=None, deals=15, seed=5)
    two = run_campaign(["old_comet"], seconds=None, deals=15, seed=5, jobs=2)
    with local_scheduler() as scheduler:
        dask = run_campaign(["old_comet"], seconds=None, deals=15, seed=5, scheduler=scheduler)
    for other in (two, dask):
        assert other.presets == one.presets
        assert other.rule_hits == one.rule_hits
    assert one.ok and all(p.deals >= 15 for p in one.presets)


def test_units_run_elsewhere_report_as_the_campaign() -> None:
    """``comet verify`` hands the campaign's units to its own pool and counts them with ``campaign_report``:
    in whatever order they come back, the report is ``run_campaign``'s for the same draws (R-END-OUT and the
    other invariants each draw checks)."""
    names = ["two_player", "old_comet"]
    units = fuzz_units(names, 5, 25)
    assert [(u.preset, u.start, u.stop) for u in units] == [
        ("two_player", 0, 20),
        ("two_player", 20, 25),
        ("old_comet", 0, 20),
        ("old_comet", 20, 25),
    ]
    chunks = [fuzz_chunk(u) for u in reversed(units)]
    pooled = campaign_report(names, chunks, 0.0)
    direct = run_campaign(names, seconds=None, deals=25, seed=5)
    assert pooled.presets == direct.presets and pooled.rule_hits == direct.rule_hits
    assert pooled.never_hit == direct.never_hit and all(p.deals >= 25 for p in pooled.presets)
    with pytest.raises(ValueError):
        fuzz_units(names, 5, 0)


def test_a_preset_stops_counting_at_its_fill_of_failures() -> None:
    """As one core stops a preset at ``MAX_FAILURES_PER_PRESET`` failures, the units after the one that
    filled it are not counted, whatever order they arrive in."""

    def unit(start: int, failures: int) -> ChunkReport:
        fails = tuple(f"[standard] failure {start}.{i}" for i in range(failures))
        return ChunkReport("standard", start, start + 20, 20, 0, 100, frozenset({start}), fails, 0, (("R-END-OUT", 3),))

    chunks = [unit(40, 0), unit(20, MAX_FAILURES_PER_PRESET), unit(0, 1)]
    (report,) = campaign_report(["standard"], chunks, 0.0).presets
    assert report.deals == 40 and report.steps == 200 and report.distinct_states == 2
    assert len(report.failures) == MAX_FAILURES_PER_PRESET and report.failures[0] == "[standard] failure 0.0"


def test_verify_runs_its_default_campaign_beside_the_proofs(tmp_path: Path) -> None:
    """The main job's default campaign (``FUZZ_DRAWS`` draws per preset) runs in the proofs' worker pool and
    reports what the campaign of as many draws reports on its own."""
    import json

    from comet.commands.verify import FUZZ_DRAWS

    out = tmp_path / "v.json"
    argv = ["verify", "--preset", "two_player", "--no-proofs", "--no-refine", "--no-bounds", "--jobs", "2"]
    assert main([*argv, "--json", str(out)]) == 0
    (entry,) = json.loads(out.read_text(encoding="utf-8"))["presets"]
    (alone,) = run_campaign(["two_player"], seconds=None, deals=FUZZ_DRAWS, seed=0).presets
    assert entry["fuzz"] == {
        "deals": alone.deals,
        "games": alone.games,
        "steps": alone.steps,
        "distinct_states": alone.distinct_states,
        "failures": [],
    }


def test_perft_table_is_the_same_in_parallel() -> None:
    one = reference_table(depth=2)
    assert reference_table(depth=2, jobs=2) == one
    with local_scheduler() as scheduler:
        assert reference_table(depth=2, scheduler=scheduler) == one


def test_fast_study_units_merge_to_the_direct_sums() -> None:
    rules = PRESETS["standard"].rules
    units = study_units("standard", (), 4, "random", 2_500, chunk=1_000)
    assert [(u.start, u.stop) for u in units] == [(0, 1_000), (1_000, 2_000), (2_000, 2_500)]
    parts = run_units(study_unit, units, jobs=2)
    assert parts == run_units(study_unit, units, jobs=1)
    with local_scheduler() as scheduler:
        assert run_units(study_unit, units, scheduler=scheduler) == parts
    total = parts[0].merge(parts[1]).merge(parts[2])
    direct = play_deals(rules, 4, range(2_500))
    assert total.deals == 2_500 and sum(total.wins) == int((direct.winner >= 0).sum())
    assert sum(total.chips) == 0 and total.actions == int(direct.actions.sum())
    assert first_difference(study_unit, units[:2], jobs=2) == ""


def impure_unit(unit: StudyUnit) -> int:
    """A planted impure work unit: its result depends on the process that runs it."""
    return unit.start + os.getpid()


def test_an_impure_unit_is_caught() -> None:
    units = study_units("standard", (), 4, "random", 4, chunk=2)
    message = first_difference(impure_unit, units, jobs=2)
    assert (
        message.startswith("work unit 0 (") and "on one core but" in message and "2 local worker processes" in message
    )


def test_cli_jobs_and_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--deals", "5", "--preset", "standard", "--no-progress", "--jobs", "2"]) == 0
    assert main(["perft", "--depth", "2", "--jobs", "1"]) == 0
    with local_scheduler() as scheduler:
        assert main(["fuzz", "--deals", "5", "--preset", "opera", "--no-progress", "--scheduler", scheduler]) == 0
    capsys.readouterr()
    assert main(["fuzz", "--deals", "5", "--jobs", "0"]) == 2
    assert "jobs" in capsys.readouterr().err


def test_local_workers_are_not_forked_while_other_threads_run() -> None:
    """A fork copies the locks other threads hold (a Dask client's, say) and the child can hang on them:
    with a second thread alive the local pool starts its workers by forkserver, and by fork otherwise."""
    import threading

    from comet.parallel.runner import pool_context

    assert pool_context().get_start_method() == ("fork" if threading.active_count() == 1 else "forkserver")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert pool_context().get_start_method() == "forkserver"
        assert run_campaign(["standard"], seconds=None, deals=4, seed=1, jobs=2).presets
    finally:
        stop.set()
        other.join()


def test_the_game_folders_are_walked_once_per_search_path(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """R-REC-STATE (every classified step): the coverage classifiers load the game folders before each step
    they judge, and the walk of the folders is done once per search path (it was half of the fuzz campaign's
    time); a folder put on ``comet.games.__path__`` (a new game, as ``test_toy_game`` plants) is walked."""
    import pkgutil
    from types import SimpleNamespace

    import comet.games
    from comet.checks import coverage

    coverage.load_games()
    coverage.load_model()
    walks: list[str] = []

    def iter_modules(*args: object, **kwargs: object) -> object:
        walks.append("iter")
        return pkgutil.iter_modules(*args, **kwargs)  # type: ignore[arg-type]

    def walk_packages(*args: object, **kwargs: object) -> object:
        walks.append("walk")
        return pkgutil.walk_packages(*args, **kwargs)  # type: ignore[arg-type]

    # the module coverage calls (pkgutil's own calls inside a walk are not counted)
    monkeypatch.setattr(coverage, "pkgutil", SimpleNamespace(iter_modules=iter_modules, walk_packages=walk_packages))
    for _ in range(3):
        coverage.option_classifiers()
        coverage.load_model()
    assert walks == []
    monkeypatch.setattr(comet.games, "__path__", [*comet.games.__path__, str(tmp_path)])
    coverage.option_classifiers()
    coverage.load_model()
    assert walks == ["iter", "walk"]


def test_the_walk_skips_an_adapter_whose_library_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The main job (README: a plain ``.[dev]`` install, no framework extras) imports every module of the
    package for the fuzz campaign's rule universe (R-PLAY-MUST and every other id); an adapter whose library
    is absent is skipped, and no rule id is lost with it."""
    import sys

    from comet.checks import coverage

    coverage.load_model()
    before = frozenset(IMPLEMENTATIONS)
    for name in ("pyspiel", "pettingzoo", "comet.frameworks.openspiel", "comet.frameworks.pettingzoo"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel: ModuleNotFoundError
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.setattr(coverage, "_WALKED", set())
    coverage.load_model()
    assert "comet.frameworks.openspiel" not in sys.modules and "comet.frameworks.pettingzoo" not in sys.modules
    assert frozenset(IMPLEMENTATIONS) == before
    assert coverage.import_if_installed("comet.frameworks.openspiel") is False


def test_a_missing_module_of_the_package_is_not_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a third-party library may be absent: a module of the package that cannot be found (a planted
    import of a module that does not exist) still fails the walk."""
    import sys

    from comet.checks import coverage

    assert "comet.no_such_module" not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        coverage.import_if_installed("comet.no_such_module")
