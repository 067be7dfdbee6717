"""The measuring part of ``comet diverge``: the witnesses (stored or searched), the impact units (saved
results reused, the rest measured on local worker processes with a progress bar), the interactions and the
PIMC player's strength; the command (``comet.commands.diverge``) validates its arguments and writes the page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from comet.commands.diverge_page import contradiction_lines
from comet.commands.diverge_plan import (
    counts_of,
    fast_pimc_presets,
    games_at,
    pimc_deals_at,
    saved_strength,
    strength_counts,
    with_strength,
)
from comet.diverge.pairs import Pair
from comet.diverge.policies import POLICY_NAMES
from comet.diverge.records import Bound
from comet.diverge.report import PairReport
from comet.diverge.results import Entry, entries_of, load_entries, merged, save_entries, split, unit_path
from comet.diverge.store import entry, load, save, search_of
from comet.diverge.study import (
    Job,
    Measured,
    engine_of,
    fast_pimc_plays,
    fast_plays,
    game_level,
    job_cost,
    run_job,
)
from comet.diverge.witness import search
from comet.presets import PRESETS, preset

#: seeds the fast engine's paired sums are checked equal to the reference engine's on, per pair
SAMPLE = 12


def measure(args: argparse.Namespace, pairs: list[Pair], policies: list[str]) -> tuple[list[PairReport], list[str]]:
    """Every pair's report (witness, impact per player count) and the extra sections (strength,
    contradictions), as the arguments ask."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    plan = [(pair, counts_of(pair, args.players)) for pair in pairs]
    if args.backend == "fast":
        bad = [pair.key for pair in pairs if not fast_plays(pair)]
        if bad:
            raise ValueError(f"the fast engine does not play {bad[0]}; use --backend auto or reference")
    stored = load()
    bound = Bound(seconds=args.seconds, game_seeds=args.game_seeds)
    reports: list[PairReport] = []
    ref_deals = args.deals if args.reference_deals is None else args.reference_deals
    if ref_deals < 0:
        raise ValueError("--reference-deals must not be negative")

    def deals_of(pair: Pair) -> int:
        return int(args.deals) if args.backend != "reference" and fast_plays(pair) else ref_deals

    for name in args.pimc_preset:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} for --pimc-preset; known: {', '.join(sorted(PRESETS))}")
    pimc_presets = set(args.pimc_preset or fast_pimc_presets())
    overrides: dict[str, int] = {}
    for item in args.policy_deals:
        name, _, count = item.partition("=")
        if name not in policies or not count.isdigit():
            raise ValueError(f"--policy-deals takes POLICY=N for a policy of --policies, not {item!r}")
        overrides[name] = int(count)
    common = tuple(pol for pol in policies if pol not in overrides)

    def extra_of(pair: Pair, n: int, counts: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
        fast = args.backend != "reference" and fast_plays(pair)
        own = tuple((pol, k if fast else ref_deals) for pol, k in overrides.items())
        return own + pimc_extra(pair, n, counts)

    def pimc_extra(pair: Pair, n: int, counts: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
        # the reference player (about a hundred times slower) only where its preset was asked for by name
        affordable = fast_pimc_plays(pair) if args.backend != "reference" else False
        k = pimc_deals_at(int(args.pimc_deals), args.pimc_deals_other, n == games_at(pair, counts))
        if (
            k
            and pair.preset in pimc_presets
            and (affordable or pair.preset in args.pimc_preset)
            and not game_level(pair)
        ):
            return (("pimc", k),)
        return ()

    groups: dict[tuple[str, int], list[int]] = {}
    for i, (pair, counts) in enumerate(plan):
        for n in counts:
            groups.setdefault((pair.preset, n), []).append(i)

    def unit(i: int, n: int) -> Job:
        pair, counts = plan[i]
        whole = game_level(pair)
        return Job(
            ((i, pair),),
            n,
            (0 if whole else deals_of(pair),),
            (args.games if whole and n == games_at(pair, counts) else 0,),
            common,
            args.backend,
            (tuple((pol, 0) for pol in overrides) if whole else extra_of(pair, n, counts),),
        )

    # one job per pair and player count, a preset's pairs at one player count together (so the worker that
    # plays them plays the default side once per chunk of seeds), the costliest groups first
    cost = {g: sum(job_cost(unit(i, g[1])) for i in idx) for g, idx in groups.items()}
    jobs = [unit(i, g[1]) for g in sorted(groups, key=lambda g: -cost[g]) for i in groups[g]]
    console = Console(stderr=True)
    measured: dict[int, list[Measured]] = {i: [] for i in range(len(plan))}
    saved_dir: Path | None = args.out
    engines = [engine_of(job) for job in jobs]
    saved: list[dict[str, Entry]] = []
    parts: list[Job | None] = []
    todo: list[int] = []
    for j, job in enumerate(jobs):
        entries: dict[str, Entry] = {}
        if saved_dir is not None and not args.fresh:
            entries = load_entries(unit_path(saved_dir, job.pairs[0][1], job.players))
        have, part = split(job, engines[j], entries)
        saved.append({**entries, **have})
        parts.append(part)
        if part is None:
            measured[job.pairs[0][0]].append(merged(job, engines[j], have))
        else:
            todo.append(j)

    def run_of(j: int) -> Job:
        part = parts[j]
        assert part is not None
        return part

    left_of = {i: sum(1 for j in todo if jobs[j].pairs[0][0] == i) for i in range(len(plan))}
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("diverge: witnesses", total=len(pairs))
        searches = []
        for i, (pair, counts) in enumerate(plan):
            progress.update(task, description=f"{pair.key}: witness")
            found = stored.get(pair.key)
            if found is not None and not args.search and pair.field:
                res = search_of(pair, found)
            else:
                res = search(
                    pair,
                    bound,
                    prove_size=not args.no_proof,
                    prove_rlimit=None if args.prove_rlimit is None else args.prove_rlimit * 1_000_000,
                    on_question=lambda text: progress.update(task, description=f"Z3 {text}"),
                )
                if args.update and pair.field:
                    stored[pair.key] = entry(res)
                    save(stored)
            searches.append(res)
            plain = [pol for pol in policies if pol != "pimc"]
            if left_of[i] and args.backend != "reference" and fast_plays(pair) and args.deals and plain:
                check_fast(pair, counts[0], plain[0])
            progress.advance(task)
        progress.remove_task(task)
        pending = sum(1 for i in range(len(plan)) if left_of[i])
        state = {"done": len(plan) - pending, "unit": 0}

        def describe() -> str:
            done = state["done"]
            return (
                f"impact: {done}/{len(plan)} pair(s) done, {len(plan) - done} left "
                f"({len(plan) - pending} saved before; {state['unit']}/{len(todo)} pair and player counts measured)"
            )

        task = progress.add_task(describe(), total=max(1, sum(job_cost(run_of(j)) for j in todo)))

        def finished(j: int, got: Measured) -> None:
            job = jobs[j]
            i = job.pairs[0][0]
            saved[j].update(entries_of(run_of(j), engines[j], got))
            measured[i].append(merged(job, engines[j], saved[j]))
            if saved_dir is not None:
                save_entries(unit_path(saved_dir, job.pairs[0][1], job.players), saved[j])
            left_of[i] -= 1
            state["unit"] += 1
            state["done"] += int(left_of[i] == 0)
            progress.update(task, advance=job_cost(run_of(j)), description=describe())

        try:
            scheduler = getattr(args, "scheduler", None)
            if scheduler is not None or (args.workers > 1 and len(todo) > 1):
                from comet.parallel.runner import Runner

                # local worker processes, or a Dask cluster (the same figures: each unit is a pure function)
                with Runner(args.workers, scheduler) as runner:
                    for k, got in runner.completed(run_job, [run_of(j) for j in todo]):
                        for _, m in got:
                            finished(todo[k], m)
            else:
                for j in todo:
                    for _, m in run_job(run_of(j)):
                        finished(j, m)
        except KeyboardInterrupt:
            if saved_dir is not None:
                console.print(
                    f"interrupted: {state['unit']} of {len(todo)} pair and player counts measured this run are saved "
                    f"in {saved_dir / 'results'}; the same command measures only the rest"
                )
            raise
        if not todo:
            progress.update(task, completed=1)
        for i, (pair, _) in enumerate(plan):
            reports.append(PairReport(pair, searches[i], sorted(measured[i], key=lambda m: m.players)))
        contradictions: list[str] = []
        if args.interactions:
            reports = with_interactions(reports, progress, task)
            contradictions = contradiction_lines(sorted({r.pair.preset for r in reports if r.pair.field}))
    if args.strength:
        from comet.diverge.strength import strength_lines

        # the presets whose pairs PIMC measures in this run (the standard game if none)
        chosen = {pair.preset for pair in pairs}
        fast_ones = fast_pimc_presets()
        where = [
            name
            for name in PRESETS
            if name in chosen and name in pimc_presets and (name in fast_ones or name in args.pimc_preset)
        ] or ["standard"]
        # at the game's usual player count, and at every other count where PIMC measured a ruling in this run
        tables = [(name, n) for name in where for n in strength_counts(name, jobs)]
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("PIMC strength", total=len(tables) * len(POLICY_NAMES))
            strengths = []
            for name, n in tables:
                for opponent in POLICY_NAMES:
                    strengths.append(
                        saved_strength(args.out if not args.fresh else None, name, args.strength, opponent, n)
                    )
                    progress.advance(task)
        contradictions = [*strength_lines(strengths), *contradictions]
        reports = with_strength(reports, strengths)
    return reports, contradictions


def check_fast(pair: Pair, players: int, policy: str) -> None:
    """ValueError unless the fast engine's paired sums equal the reference's on seeds 0..SAMPLE-1."""
    from comet.diverge.measure import reference_paired
    from comet.fast.diverge import paired_measure

    if paired_measure(pair, players, range(SAMPLE), policy) != reference_paired(pair, players, range(SAMPLE), policy):
        raise ValueError(
            f"the fast engine disagrees with the reference engine on {pair.key}, {players} players, {policy}"
        )


def with_interactions(reports: list[PairReport], progress: Any, task: Any) -> list[PairReport]:
    """The reports with, for each pair, the interactions found in its preset (``diverge.interactions``)."""
    from comet.diverge.interactions import interactions
    from comet.diverge.narrate import narrate_witness

    found: dict[str, list[str]] = {}
    by_key = {r.pair.key: r.pair for r in reports}
    for name in sorted({r.pair.preset for r in reports if r.pair.field}):
        for x in interactions(name, on_pair=lambda text: progress.update(task, description=f"interactions {text}")):
            lines = found.setdefault(x.key, [])
            lines.append(x.text)
            if x.witness is not None:
                a = preset(x.preset).rules.with_overrides({x.other: x.other_value})
                value = by_key[x.key].value_b if x.key in by_key else getattr(a, x.field)
                pair = Pair(x.preset, x.field, a, a.with_overrides({x.field: value}))
                lines += ["", *["  " + line for line in narrate_witness(pair, x.witness)], ""]
    return [PairReport(r.pair, r.search, r.impact, tuple(found.get(r.pair.key, ()))) for r in reports]
