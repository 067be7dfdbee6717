"""Campaigns past one core and one machine: work units, run locally on every core or on Dask.

A *work unit* is a pure function of (preset, reading, seed range): the same unit gives the same
result wherever and whenever it runs.  A campaign is a list of units and a way to merge their
results; ``Runner`` maps a unit function over the units and returns the results **in unit
order**, so a campaign's outcome does not depend on how many workers ran it:

- ``Runner(jobs=1)``: in this process, one unit after the other;
- ``Runner(jobs=N)``: a pool of N local worker processes (forked where the platform allows,
  so the workers share this process's string-hash seed and monkeypatches);
- ``Runner(scheduler="tcp://host:8786")``: the units go to a Dask distributed cluster
  (``dask-scheduler`` and ``dask-worker`` on any machines that have this package installed).

Used by ``comet fuzz`` (``comet.fuzz.fuzz_chunk``), ``comet perft --table``, the fast-engine
study (``comet.fast.study.fast_study``: outcome sums of millions of deals) and, through ``Runner.map``, by
any other campaign, such as the impact studies of ``comet diverge`` (their ``run_job`` is a unit function
of the same kind; ``Runner.completed`` hands each result back as it finishes, so each is saved at once).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import AbstractContextManager, ExitStack
from types import TracebackType
from typing import Any, TypeVar

U = TypeVar("U")
R = TypeVar("R")

def default_jobs() -> int:
    """Local runs use every core by default."""
    return os.cpu_count() or 1


def seed_chunks(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` cut into consecutive ranges of at most ``size`` seeds."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one seed, not {size}")
    return [(a, min(stop, a + size)) for a in range(start, stop, size)]


def pool_context() -> multiprocessing.context.BaseContext:
    """How local worker processes start: fork (cheap) while this process has one thread; forkserver when
    other threads run (a Dask client's, say), since a fork copies locks those threads may hold and the
    child can hang on them (seen: ``comet fuzz --jobs 2`` after a Dask LocalCluster in the same process
    hung the test run)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else None)


class Runner(AbstractContextManager["Runner"]):
    """Maps a unit function over work units: in process, on local worker processes, or on Dask.

    Results always come back in the order of the units."""

    def __init__(self, jobs: int | None = None, scheduler: str | None = None) -> None:
        self.jobs = default_jobs() if jobs is None else jobs
        if self.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {self.jobs}")
        self.scheduler = scheduler
        self._stack = ExitStack()
        self._pool: Executor | None = None
        self._client: Any = None

    @property
    def where(self) -> str:
        if self.scheduler is not None:
            return f"Dask cluster at {self.scheduler}"
        return "this process" if self.jobs == 1 else f"{self.jobs} local worker processes"

    def __enter__(self) -> Runner:
        if self.scheduler is not None:
            try:
                from distributed import Client
            except ImportError:  # pragma: no cover - dask[distributed] is a dependency
                raise ValueError("--scheduler needs dask[distributed] installed") from None
            try:
                self._client = self._stack.enter_context(Client(self.scheduler, timeout=10))  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as e:
                raise ValueError(f"cannot reach the Dask scheduler at {self.scheduler}: {e}") from None
        elif self.jobs > 1:
            self._pool = self._stack.enter_context(
                ProcessPoolExecutor(max_workers=self.jobs, mp_context=pool_context())
            )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stack.close()
        self._pool = None
        self._client = None

    def map(self, fn: Callable[[U], R], units: Sequence[U], on_done: Callable[[int], None] | None = None) -> list[R]:
        """``[fn(u) for u in units]``, computed where this runner runs; ``on_done(i)`` as unit ``i`` finishes."""
        if self._client is not None:
            from distributed import as_completed as dask_completed

            futures = self._client.map(fn, list(units), pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            for f in dask_completed(futures):  # type: ignore[no-untyped-call]
                if on_done is not None:
                    on_done(index[f.key])
            results: list[R] = self._client.gather(futures)
            return results
        if self._pool is not None:
            pending = {self._pool.submit(fn, u): i for i, u in enumerate(units)}
            out: dict[int, R] = {}
            for fut in as_completed(pending):
                i = pending[fut]
                out[i] = fut.result()
                if on_done is not None:
                    on_done(i)
            return [out[i] for i in range(len(units))]
        done = []
        for i, u in enumerate(units):
            done.append(fn(u))
            if on_done is not None:
                on_done(i)
        return done

    def completed(self, fn: Callable[[U], R], units: Sequence[U]) -> Iterator[tuple[int, R]]:
        """``(i, fn(units[i]))`` as each unit finishes (in any order), so a caller can save each result at
        once (``comet diverge`` saves every pair's figures as it is measured)."""
        if self._client is not None:
            from distributed import as_completed as dask_completed

            futures = self._client.map(fn, list(units), pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            for f in dask_completed(futures):  # type: ignore[no-untyped-call]
                yield index[f.key], f.result()
            return
        if self._pool is not None:
            pending = {self._pool.submit(fn, u): i for i, u in enumerate(units)}
            for fut in as_completed(pending):
                yield pending[fut], fut.result()
            return
        for i, u in enumerate(units):
            yield i, fn(u)


def run_units(
    fn: Callable[[U], R],
    units: Sequence[U],
    *,
    jobs: int | None = 1,
    scheduler: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[R]:
    """``fn`` over ``units`` with a fresh ``Runner`` (results in unit order)."""
    with Runner(jobs, scheduler) as runner:
        return runner.map(fn, units, on_done)


def first_difference(fn: Callable[[U], R], units: Sequence[U], jobs: int = 2, scheduler: str | None = None) -> str:
    """Run ``units`` on one core and on ``jobs`` workers (or the cluster); describe the first unit whose
    results differ ('' when all agree): the check that a campaign is made of pure work units."""
    alone = run_units(fn, units, jobs=1)
    spread = run_units(fn, units, jobs=jobs, scheduler=scheduler)
    for i, (a, b) in enumerate(zip(alone, spread, strict=True)):
        if a != b:
            return f"work unit {i} ({units[i]!r}) gives {a!r} on one core but {b!r} on {Runner(jobs, scheduler).where}"
    return ""


def iter_waves(count: int, width: int) -> Iterator[range]:
    """Indices ``0 .. count-1`` (or unbounded when ``count`` < 0) in waves of ``width``."""
    i = 0
    while count < 0 or i < count:
        stop = i + width if count < 0 else min(count, i + width)
        yield range(i, stop)
        i = stop
