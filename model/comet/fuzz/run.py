"""Random-simulation fuzzing of whole deals and games: the reusable campaign API.

``run_campaign`` plays random legal actions (``comet.policy.random_policy``) under random
rulesets, for every preset asked for, and checks after every step the invariants of
``comet.checks`` (the same functions the Hypothesis state machines in ``tests/`` call).
It also offers arbitrary, mostly illegal actions to the engine and checks each is rejected
with a known rule id.  Coverage per rule id comes from ``comet.checks.coverage``.

Nothing here is specific to one variant: the preset comes from ``PRESETS``, the ruleset
from every field of ``Ruleset`` that applies to the preset (``preset_fields``; ``field_readings``;
integer fields from ``INT_RANGE``), the
player counts from what ``check_players`` accepts for the preset's rules, the deal from
``shuffled_deal``/``explicit_deal``.  The builders used by the Hypothesis strategies
(``ruleset_from_choices``, ``shape_deal``, ``EXTREMES``) live here too, so both search the
same space.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from comet.checks.coverage import CallCounter, all_rule_ids, classified_ids
from comet.engine import player_counts
from comet.errors import RecordError
from comet.fuzz.check import DealOutcome, check_deal, check_game, game_length
from comet.fuzz.space import pick_policy, random_ruleset, random_start
from comet.fuzz.sweep import record_text_hits
from comet.parallel.runner import Runner, iter_waves
from comet.presets import PRESETS, preset

MAX_FAILURES_PER_PRESET = 5


MAX_STATES_TRACKED = 2_000_000


@dataclass(frozen=True, slots=True)
class PresetReport:
    preset: str
    deals: int
    games: int
    steps: int
    distinct_states: int
    failures: tuple[str, ...]
    settlement_skipped: int


@dataclass(frozen=True, slots=True)
class CampaignReport:
    presets: tuple[PresetReport, ...]
    rule_hits: tuple[tuple[str, int], ...]  # (rule id, hits), sorted by id, every known id
    never_hit: tuple[str, ...]  # coverage gaps
    counted_by_call: tuple[str, ...]  # ids outside the classifier, counted in call-counting mode
    seconds: float

    @property
    def failures(self) -> tuple[str, ...]:
        return tuple(f for p in self.presets for f in p.failures)

    @property
    def ok(self) -> bool:
        return not self.failures


@dataclass
class _Tally:
    deals: int = 0
    games: int = 0
    steps: int = 0
    skipped: int = 0

    def __post_init__(self) -> None:
        self.states: set[int] = set()
        self.failures: list[str] = []


@contextmanager
def _progress(enabled: bool, total: float, label: str) -> Iterator[Callable[[float], None]]:
    if not enabled:
        yield lambda _done: None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), transient=False) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def run_campaign(
    presets: Sequence[str],
    *,
    seconds: float | None,
    deals: int | None,
    seed: int,
    progress: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
) -> CampaignReport:
    """Fuzz ``presets`` for ``seconds`` (wall clock, shared equally) or ``deals`` deals each.

    One deal in five is the start of a short whole game (checked deal by deal and at the end).
    With ``jobs`` > 1 or a Dask ``scheduler`` address the campaign is cut into work units
    (``fuzz_chunk``; see ``comet.parallel.runner``), and so is every campaign with ``deals``: then the
    report is the same on one core as on many.
    """
    if seconds is None and deals is None:
        raise ValueError("give a time budget (seconds) or a number of deals")
    if seconds is not None and seconds <= 0:
        raise ValueError("the time budget must be positive")
    if deals is not None and deals <= 0:
        raise ValueError("the number of deals must be positive")
    names = list(presets) or sorted(PRESETS)
    for name in names:
        preset(name)
    if deals is not None or jobs > 1 or scheduler is not None:
        return _run_in_units(names, seconds, deals, seed, progress, jobs, scheduler)
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    tallies = {name: _Tally() for name in names}
    t0 = time.monotonic()
    total = seconds if seconds is not None else float(deals or 0) * len(names)
    label = "fuzzing " + ", ".join(names)
    with counter.active(), _progress(progress, total, label) as advance:
        for i, name in enumerate(names):
            tally = tallies[name]
            rng = random.Random(f"{seed}:{name}")
            stop_at = t0 + (seconds or 0) * (i + 1) / len(names)
            while True:
                if deals is not None and tally.deals >= deals:
                    break
                if seconds is not None and time.monotonic() >= stop_at:
                    break
                if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                    break
                if rng.randrange(5) == 0:
                    _one_game(name, rng, known, tally, hits)
                else:
                    _one_deal(name, rng, known, tally, hits)
                done = time.monotonic() - t0 if seconds is not None else float(i * (deals or 0) + tally.deals)
                advance(min(done, total))
        advance(total)
    by_call = tuple(sorted(r for r in known if r not in classified_ids()))
    for rid in by_call:
        hits[rid] = counter.calls[rid]
    hits.update(record_texts(names))
    rule_hits = tuple((rid, hits[rid]) for rid in sorted(known | set(hits)))
    reports = tuple(
        PresetReport(
            name,
            t.deals,
            t.games,
            t.steps,
            len(t.states),
            tuple(t.failures),
            t.skipped,
        )
        for name, t in tallies.items()
    )
    return CampaignReport(
        reports,
        rule_hits,
        tuple(rid for rid, k in rule_hits if k == 0 and rid in known),
        by_call,
        time.monotonic() - t0,
    )


#: Deal draws per work unit (each draw is one deal, or one short game in five).
CHUNK = 20


@dataclass(frozen=True, slots=True)
class ChunkReport:
    """What one work unit found: draws ``[start, stop)`` of a preset in campaign ``seed``."""

    preset: str
    start: int
    stop: int
    deals: int
    games: int
    steps: int
    states: frozenset[int]
    failures: tuple[str, ...]
    skipped: int
    hits: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class FuzzUnit:
    preset: str
    seed: int
    start: int
    stop: int


def fuzz_chunk(unit: FuzzUnit) -> ChunkReport:
    """A work unit: draws ``unit.start .. unit.stop - 1`` of the preset, each from its own generator
    seeded by (campaign seed, preset, draw index), so the unit's report depends on nothing else."""
    name = unit.preset
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    tally = _Tally()
    with counter.active():
        for i in range(unit.start, unit.stop):
            if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                break
            rng = random.Random(f"{unit.seed}:{name}:{i}")
            if rng.randrange(5) == 0:
                _one_game(name, rng, known, tally, hits)
            else:
                _one_deal(name, rng, known, tally, hits)
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return ChunkReport(
        name,
        unit.start,
        unit.stop,
        tally.deals,
        tally.games,
        tally.steps,
        frozenset(tally.states),
        tuple(tally.failures),
        tally.skipped,
        tuple(sorted(hits.items())),
    )


def _run_in_units(
    names: list[str],
    seconds: float | None,
    deals: int | None,
    seed: int,
    progress: bool,
    jobs: int,
    scheduler: str | None,
) -> CampaignReport:
    """``run_campaign`` as work units: ``deals`` draws per preset, or with a time budget, waves of
    ``CHUNK`` draws per worker until the preset's share of the time is spent (every wave started
    finishes, so the report is exactly the one-core report for as many draws)."""
    known = all_rule_ids()
    hits: Counter[str] = Counter()
    reports: list[PresetReport] = []
    t0 = time.monotonic()
    total = seconds if seconds is not None else float(deals or 0) * len(names)
    with Runner(jobs, scheduler) as runner, _progress(progress, total, "fuzzing " + ", ".join(names)) as advance:
        width = max(1, runner.jobs if scheduler is None else 2 * runner.jobs)
        for p, name in enumerate(names):
            stop_at = t0 + (seconds or 0) * (p + 1) / len(names)
            tally = _Tally()
            count = -1 if deals is None else -(-deals // CHUNK)
            for wave in iter_waves(count, width):
                units = [
                    FuzzUnit(
                        name, seed, i * CHUNK, min(deals, (i + 1) * CHUNK) if deals is not None else (i + 1) * CHUNK
                    )
                    for i in wave
                ]
                for chunk in runner.map(fuzz_chunk, units):
                    if not _absorb(tally, chunk, hits):
                        break  # as one core would have stopped here: later units are not counted
                done = time.monotonic() - t0 if seconds is not None else float(p * (deals or 0) + tally.deals)
                advance(min(done, total))
                if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                    break
                if seconds is not None and time.monotonic() >= stop_at:
                    break
            reports.append(_preset_report(name, tally))
        advance(total)
    return _report(reports, hits, known, time.monotonic() - t0)


def fuzz_units(names: Sequence[str], seed: int, deals: int) -> list[FuzzUnit]:
    """The work units of a campaign of ``deals`` draws per preset (``CHUNK`` draws a unit), preset by
    preset: what ``run_campaign(names, deals=deals, seed=seed)`` plays, for a caller that hands the units
    to its own pool (``comet verify`` runs them beside the proofs) and then calls ``campaign_report``."""
    if deals <= 0:
        raise ValueError("the number of deals must be positive")
    return [
        FuzzUnit(name, seed, i * CHUNK, min(deals, (i + 1) * CHUNK))
        for name in names
        for i in range(-(-deals // CHUNK))
    ]


def campaign_report(names: Sequence[str], chunks: Sequence[ChunkReport], seconds: float) -> CampaignReport:
    """The campaign's report from its units' reports, in any order: each preset's units are taken in draw
    order and counted as one core would count them (a preset stops at ``MAX_FAILURES_PER_PRESET``
    failures, and its later units are not counted), so the report equals ``run_campaign``'s for the same
    draws."""
    known = all_rule_ids()
    hits: Counter[str] = Counter()
    reports: list[PresetReport] = []
    for name in names:
        tally = _Tally()
        for chunk in sorted((c for c in chunks if c.preset == name), key=lambda c: c.start):
            if not _absorb(tally, chunk, hits):
                break
        reports.append(_preset_report(name, tally))
    return _report(reports, hits, known, seconds)


def _absorb(tally: _Tally, chunk: ChunkReport, hits: Counter[str]) -> bool:
    """Count a unit into its preset's tally; False (nothing counted) once the preset has its fill of
    failures."""
    if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
        return False
    tally.deals += chunk.deals
    tally.games += chunk.games
    tally.steps += chunk.steps
    tally.skipped += chunk.skipped
    if len(tally.states) < MAX_STATES_TRACKED:
        tally.states.update(chunk.states)
    tally.failures.extend(chunk.failures[: MAX_FAILURES_PER_PRESET - len(tally.failures)])
    hits.update(dict(chunk.hits))
    return True


def _preset_report(name: str, tally: _Tally) -> PresetReport:
    return PresetReport(
        name, tally.deals, tally.games, tally.steps, len(tally.states), tuple(tally.failures), tally.skipped
    )


def record_texts(names: Sequence[str]) -> Counter[str]:
    """R-REC-LIMITS and R-REC-FORMAT, which no deal exercises: each preset's record text past a limit or in
    an unread format, refused as the rules say (``comet.fuzz.sweep.record_text_hits``), once per preset."""
    hits: Counter[str] = Counter()
    for name in names:
        hits.update(record_text_hits(preset(name).rules, name)[0])
    return hits


def _report(reports: list[PresetReport], hits: Counter[str], known: frozenset[str], seconds: float) -> CampaignReport:
    hits = hits + record_texts([r.preset for r in reports])
    by_call = tuple(sorted(r for r in known if r not in classified_ids()))
    rule_hits = tuple((rid, hits[rid]) for rid in sorted(known | set(hits)))
    return CampaignReport(
        tuple(reports),
        rule_hits,
        tuple(rid for rid, k in rule_hits if k == 0 and rid in known),
        by_call,
        seconds,
    )


def _record(tally: _Tally, out: DealOutcome, hits: Counter[str], name: str) -> None:
    tally.deals += 1
    tally.steps += len(out.actions)
    if len(tally.states) < MAX_STATES_TRACKED:
        tally.states.update(out.states)
    tally.skipped += int(out.settlement_skipped)
    hits.update(out.hits)
    if out.failure:
        tally.failures.append(f"[{name}] {out.failure}")


def _one_deal(name: str, rng: random.Random, known: frozenset[str], tally: _Tally, hits: Counter[str]) -> None:
    try:
        start = random_start(name, rng)
    except (RecordError, ValueError) as e:
        tally.failures.append(f"[{name}] dealing failed: {e}")
        return
    choose = pick_policy(rng)
    try:
        out = check_deal(start, choose, known, rng)
    except Exception as e:  # a crash of the engine or a check is a finding too: reported, the campaign goes on
        tally.failures.append(f"[{name}] {start.players} players, dealer {start.dealer}: the deal raised {_raised(e)}")
        return
    _record(tally, out, hits, name)


def _raised(e: Exception) -> str:
    """An exception a draw raised, as one line: its type, a record error's kind, its text."""
    kind = f" [{e.kind}]" if isinstance(e, RecordError) else ""
    return f"{type(e).__name__}{kind}: {' '.join(str(e).split())}"


def _one_game(name: str, rng: random.Random, known: frozenset[str], tally: _Tally, hits: Counter[str]) -> None:
    rules = random_ruleset(name, rng)
    n = rng.choice(player_counts(rules))
    try:
        out = check_game(rules, n, game_length(rules, n, rng), rng.randrange(n), rng, pick_policy(rng), known, hits)
    except (RecordError, ValueError) as e:
        tally.failures.append(f"[{name}] the game could not be played: {e}")
        return
    except Exception as e:  # as in _one_deal: reported with the game's player count
        tally.failures.append(f"[{name}] {n} players: the game raised {_raised(e)}")
        return
    tally.games += 1
    for deal in out.deals:
        _record(tally, dataclasses.replace(deal, failure=""), hits, name)
    if out.failure:
        tally.failures.append(f"[{name}] {out.failure}")
