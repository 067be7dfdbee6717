"""``comet diverge --scheduler ADDR``: the impact units run on a Dask cluster give the figures a local run gives
(issue 33 item 8; RUL-COMET-BONUS-LAST and RUL-STUCK-RESTART measured over R-DEAL's seeded deals)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from comet.cli import main
from comet.parallel.runner import Runner

pytest.importorskip("distributed")


@contextmanager
def local_scheduler() -> Iterator[str]:
    """A one-worker Dask cluster in this process (threads)."""
    from distributed import LocalCluster

    cluster_type = LocalCluster  # untyped
    with cluster_type(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        yield str(cluster.scheduler_address)


def figures(out: Path) -> dict[str, object]:
    """The saved figures of a run (every unit's entries), by file name."""
    return {
        p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / "results").glob("standard--*.json"))
    }


def test_runner_completed_hands_back_every_unit_once() -> None:
    with Runner(jobs=1) as runner:
        got = dict(runner.completed(lambda x: x * x, [1, 2, 3]))
    assert got == {0: 1, 1: 4, 2: 9}


def test_a_dask_run_gives_the_local_run_s_figures(tmp_path: Path) -> None:
    args = ["--preset", "standard", "--deals", "200", "--policies", "random,hoarder", "--players", "3"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    for field in ("stuck_restart", "comet_bonus_last"):
        assert main(["diverge", field, *args, "--out", str(local)]) == 0
    with local_scheduler() as address:
        for field in ("stuck_restart", "comet_bonus_last"):
            assert main(["diverge", field, *args, "--out", str(dask), "--scheduler", address]) == 0
    mine, theirs = figures(local), figures(dask)
    assert mine and mine == theirs
    # planted: a figure changed on one side is told apart
    name = next(iter(theirs))
    changed = json.loads(json.dumps(theirs[name]))
    changed["policies"][0]["deals"]["changed"] += 1
    assert {**theirs, name: changed} != mine
