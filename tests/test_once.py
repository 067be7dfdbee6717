"""``once.built_once``: a fixture's folder is built once per test run, by one worker under pytest-xdist."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from once import built_once


def test_xdist_workers_share_one_build_and_one_process_builds_afresh(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a worker (PYTEST_XDIST_WORKER set) the second ask finds the first's folder and builds nothing; a
    failed build leaves no mark, so the next ask builds again; in one process every ask builds."""
    builds: list[Path] = []

    def build(d: Path) -> None:
        builds.append(d)
        (d / "made").write_text(str(len(builds)))

    name = f"once-{uuid.uuid4().hex}"  # the workers' shared root outlives this run: a name no run reuses
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    first = built_once(tmp_path_factory, name, build)
    again = built_once(tmp_path_factory, name, build)
    assert first == again and len(builds) == 1 and (first / "made").read_text() == "1"

    def broken(d: Path) -> None:
        (d / "half").write_text("")
        raise RuntimeError("planted failure half-way")

    with pytest.raises(RuntimeError):
        built_once(tmp_path_factory, name + "-broken", broken)
    redone = built_once(tmp_path_factory, name + "-broken", build)
    assert sorted(p.name for p in redone.iterdir()) == ["made"] and len(builds) == 2

    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    alone = [built_once(tmp_path_factory, name, build) for _ in range(2)]
    assert len(builds) == 4 and alone[0] != alone[1] != first
    for stale in (first, redone):
        for f in [*stale.iterdir(), stale.with_name(stale.name + ".lock"), stale.with_name(stale.name + ".built")]:
            f.unlink()
        stale.rmdir()
