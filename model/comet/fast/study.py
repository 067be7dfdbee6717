"""The fast-engine study: outcome sums of millions of seeded deals, cut into work units that
``comet.parallel.runner`` runs on one core, local workers or a Dask cluster (each unit a pure function
of preset, reading and seed range, so any split gives the same totals)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comet.parallel.runner import run_units, seed_chunks
from comet.ruleset import Ruleset

#: A reading as (field, value) pairs, hashable and picklable for a work unit.
Reading = tuple[tuple[str, str | int | bool], ...]

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


