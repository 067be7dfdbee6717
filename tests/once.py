"""Fixtures' folders built once per test run, whether the run is one process or pytest-xdist's workers."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """A folder ``build`` fills, built once per test run.  In one process: a fresh temporary folder.  Under
    pytest-xdist: a folder every worker of the run shares (the run's temporary root), built by the first
    worker to ask while the others wait on a lock, so an expensive fixture is built once whichever worker
    runs its tests (xdist's own grouping, ``--dist loadgroup``, does not group under pytest 9.2:
    pytest-xdist issue 1386)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        out = tmp_path_factory.mktemp(name)
        build(out)
        return out
    import fcntl

    root = tmp_path_factory.getbasetemp().parent
    out, done = root / name, root / f"{name}.built"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a worker that failed half-way leaves no .built mark
            out.mkdir()
            build(out)
            done.touch()
    return out
