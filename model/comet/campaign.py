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
study below (``fast_study``: outcome sums of millions of deals) and, through ``Runner.map``, by
any other campaign, such as the impact studies of ``comet diverge`` (their ``run_job`` is a
unit function of the same kind).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar

from comet.ruleset import Ruleset

U = TypeVar("U")
R = TypeVar("R")

Reading = tuple[tuple[str, str | int | bool], ...]


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


# --------------------------------------------------------------------- the fast-engine study


@dataclass(frozen=True, slots=True)
class StudyUnit:
    """Seeds ``[start, stop)`` of one preset under one reading, played by the fast engine."""

    preset: str
    reading: Reading
    players: int
    policy: str
    start: int
    stop: int

    def rules(self) -> Ruleset:
        from comet.presets import preset

        return preset(self.preset).rules.with_overrides(dict(self.reading))


@dataclass(frozen=True, slots=True)
class StudyTally:
    """Sums over deals (merged by addition, so any split of the seeds gives the same totals).

    Seats are counted by position from the dealer's left (the dealer last)."""

    deals: int = 0
    wins: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    chips_squared: tuple[int, ...] = ()
    actions: int = 0
    drawn: int = 0
    opera: int = 0
    out_on_wild: int = 0

    def merge(self, o: StudyTally) -> StudyTally:
        if not self.deals:
            return o
        if not o.deals:
            return self

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return StudyTally(
            self.deals + o.deals,
            add(self.wins, o.wins),
            add(self.chips, o.chips),
            add(self.chips_squared, o.chips_squared),
            self.actions + o.actions,
            self.drawn + o.drawn,
            self.opera + o.opera,
            self.out_on_wild + o.out_on_wild,
        )


def study_unit(unit: StudyUnit) -> StudyTally:
    """Play one unit's seeds in the fast engine and sum the outcomes by position."""
    import numpy as np

    from comet.fast import FLAG_DRAWN, FLAG_OPERA, FLAG_OUT_ON_WILD, play_deals
    from comet.fast.diverge import policy_named
    from comet.variant import variant_of

    n = unit.players
    seeds = np.arange(unit.start, unit.stop, dtype=np.int64)
    if seeds.size == 0:
        return StudyTally()
    rules = unit.rules()
    out = play_deals(rules, n, seeds, policy_named(unit.policy))
    # rotate every row so that column 0 is the dealer's left, the last column the dealer
    shift = (out.dealers + 1) % n
    idx = (shift[:, None] + np.arange(n)[None, :]) % n
    scores = out.chips if variant_of(rules).scoring == "chips" else out.points
    by_pos = np.take_along_axis(scores, idx, axis=1)
    pos = (out.winner - shift) % n
    wins = np.bincount(pos[out.winner >= 0], minlength=n)
    return StudyTally(
        int(seeds.size),
        tuple(int(x) for x in wins),
        tuple(int(x) for x in by_pos.sum(axis=0)),
        tuple(int(x) for x in (by_pos * by_pos).sum(axis=0)),
        int(out.actions.sum()),
        int(np.count_nonzero(out.flags & FLAG_DRAWN)),
        int(np.count_nonzero(out.flags & FLAG_OPERA)),
        int(np.count_nonzero(out.flags & FLAG_OUT_ON_WILD)),
    )


def study_units(
    preset_name: str, reading: Reading, players: int, policy: str, deals: int, chunk: int = 1_000_000
) -> list[StudyUnit]:
    """Seeds ``0 .. deals-1`` cut into work units of ``chunk`` seeds."""
    return [StudyUnit(preset_name, reading, players, policy, a, b) for a, b in seed_chunks(0, deals, chunk)]


def fast_study(
    preset_name: str,
    players: int,
    deals: int,
    *,
    reading: Reading = (),
    policy: str = "random",
    chunk: int = 1_000_000,
    jobs: int | None = 1,
    scheduler: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> StudyTally:
    """Outcome sums of ``deals`` seeded deals played by the fast engine, on any number of workers."""
    units = study_units(preset_name, reading, players, policy, deals, chunk)
    total = StudyTally()
    for t in run_units(study_unit, units, jobs=jobs, scheduler=scheduler, on_done=on_done):
        total = total.merge(t)
    return total


def iter_waves(count: int, width: int) -> Iterator[range]:
    """Indices ``0 .. count-1`` (or unbounded when ``count`` < 0) in waves of ``width``."""
    i = 0
    while count < 0 or i < count:
        stop = i + width if count < 0 else min(count, i + width)
        yield range(i, stop)
        i = stop
