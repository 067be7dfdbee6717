"""``comet diverge``: where two readings part ways (a witness), and how much it matters (paired impact)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from comet.commands.diverge_page import contradiction_lines, render
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.policies import POLICY_NAMES
from comet.diverge.records import Bound
from comet.diverge.report import PairReport
from comet.diverge.results import Entry, entries_of, load_entries, merged, save_entries, split, unit_path
from comet.diverge.store import entry, load, save, search_of
from comet.diverge.strength import Strength
from comet.diverge.study import (
    Job,
    Measured,
    engine_of,
    fast_pimc_plays,
    fast_plays,
    game_level,
    job_cost,
    player_counts,
    run_job,
)
from comet.diverge.witness import search
from comet.presets import PRESETS, preset
from comet.records.rules_file import resolve
from comet.ruleset import RULING_FIELDS, RULING_OF


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "diverge",
        help="find where two readings of a ruling part ways and measure how much it matters",
        description="For a ruling (a Ruleset field or RUL- id), every preset it applies to: the smallest deal "
        "(or game) where its readings differ, narrated side by side, and the paired impact over seeded deals "
        "and games. --all covers every ruling; --rules A --against B compares two rule sets.",
    )
    p.add_argument("ruling", nargs="?", default=None, help="a ruling field (comet_lead) or ruling id (RUL-COMET-LEAD)")
    p.add_argument("--all", action="store_true", help="every ruling of every preset")
    p.add_argument("--preset", action="append", default=[], metavar="P", help="only these presets (repeatable)")
    p.add_argument("--rules", default=None, metavar="A", help="rule set A: a preset name or a TOML rule-set file")
    p.add_argument("--against", default=None, metavar="B", help="rule set B: a preset name or a TOML rule-set file")
    p.add_argument(
        "--ruling",
        dest="ruling_a",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override a reading in rule set A (repeatable)",
    )
    p.add_argument(
        "--against-ruling",
        dest="ruling_b",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override a reading in rule set B (repeatable)",
    )
    p.add_argument(
        "--deals", type=int, default=200, metavar="N", help="paired deals per policy and player count (default 200)"
    )
    p.add_argument(
        "--games",
        type=int,
        default=10,
        metavar="G",
        help="paired whole games per policy, for rulings that act between deals (default 10)",
    )
    p.add_argument(
        "--policies",
        default=",".join(POLICY_NAMES),
        metavar="LIST",
        help=f"comma-separated policies (default {','.join(POLICY_NAMES)})",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="players in the impact study (default: every player count the ruling applies to)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="W",
        help="processes for the impact study, one preset and player count each (the same figures for any W)",
    )
    p.add_argument(
        "--pimc-deals",
        type=int,
        default=0,
        metavar="N",
        help="also measure the PIMC player (the headline) over N paired deals at the game's usual player count "
        "(or, for a ruling not measured there, at its first player count)",
    )
    p.add_argument(
        "--pimc-deals-other",
        type=int,
        default=None,
        metavar="N",
        help="with --pimc-deals: the PIMC player's paired deals at every other player count the ruling is measured "
        "at (default: a quarter of --pimc-deals; 0: only at the usual count)",
    )
    p.add_argument(
        "--pimc-preset",
        action="append",
        default=[],
        metavar="P",
        help="presets whose pairs the PIMC player measures (repeatable; default: every preset it plays on the "
        "fast engine, which is every preset; a game without a fast PIMC player only when named, on the "
        "reference engine, about a hundred times slower)",
    )
    p.add_argument(
        "--seconds", type=float, default=8.0, metavar="S", help="witness search budget per pair and phase (default 8)"
    )
    p.add_argument(
        "--game-seeds",
        type=int,
        default=Bound().game_seeds,
        metavar="N",
        help=f"with --search: seeds tried per game length, player count and policy in the whole-game search "
        f"(default {Bound().game_seeds}; more where a ruling shows only in rare games)",
    )
    p.add_argument("--search", action="store_true", help="search for witnesses afresh instead of using the stored ones")
    p.add_argument(
        "--no-proof",
        action="store_true",
        help="with --search: skip the Z3 proof that each witness is the smallest (comet_proofs.smallest)",
    )
    p.add_argument(
        "--prove-rlimit",
        type=int,
        default=None,
        metavar="N",
        help="with --search: Z3's budget per pair for the smallest-witness proof, in millions of its resource "
        "units (rlimit: counted work, so the verdicts do not depend on the machine's load; default 1000)",
    )
    p.add_argument("--update", action="store_true", help="store the witnesses searched (comet/diverge/witnesses.json)")
    p.add_argument(
        "--backend",
        default="auto",
        metavar="NAME",
        help="the engine that plays the impact deals: reference, fast, or auto (default: fast where it plays both "
        "rule sets, else reference); the fast engine is first checked against the reference on a sample of seeds",
    )
    p.add_argument(
        "--interactions",
        action="store_true",
        help="also find, per preset, the rulings whose divergence depends on another ruling's reading",
    )
    p.add_argument(
        "--policy-deals",
        action="append",
        default=[],
        metavar="POLICY=N",
        help="paired deals for one policy on the fast engine, instead of --deals (repeatable)",
    )
    p.add_argument(
        "--reference-deals",
        type=int,
        default=None,
        metavar="N",
        help="paired deals per policy and player count for pairs the fast engine does not play (default: --deals)",
    )
    p.add_argument(
        "--strength",
        type=int,
        default=0,
        metavar="N",
        help="also measure the PIMC player's strength over N deals against each other policy, in each preset of "
        "the run it measures (the standard game if none), at the game's usual player count and at every other count "
        "where it measures a ruling, and report it",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write README.md and a PNG per pair into DIR, and each pair's measured figures into DIR/results as it "
        "finishes: a later run with the same parameters measures only the pairs not saved yet",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="with --out: measure every pair again, ignoring (and overwriting) the results saved in DIR/results",
    )
    p.set_defaults(run=run)


def field_of(name: str) -> str:
    """A field name, or the field of a ruling id; ValueError naming the choices."""
    if name in RULING_FIELDS:
        return name
    for f, rid in RULING_OF.items():
        if rid == name.upper():
            return f
    raise ValueError(f"unknown ruling {name!r}; give a field ({', '.join(RULING_FIELDS)}) or its RUL- id")


def chosen_pairs(args: argparse.Namespace) -> list[Pair]:
    for name in args.preset:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    presets = args.preset or None
    if args.rules is not None or args.against is not None:
        if args.rules is None or args.against is None:
            raise ValueError("--rules A and --against B go together")
        a = resolve(args.rules, args.ruling_a)
        b = resolve(args.against, args.ruling_b)
        if a.rules.variant != b.rules.variant:
            raise ValueError(
                f"{a.label} plays the {a.rules.variant} game and {b.label} the {b.rules.variant} game; "
                "only rule sets of one game can be compared deal by deal"
            )
        return [Pair(a.preset, "", a.rules, b.rules)]
    if args.all:
        return list(all_pairs(presets))
    if args.ruling is None:
        raise ValueError("name a ruling, or give --all, or --rules A --against B")
    pairs = list(pairs_for(field_of(args.ruling), presets))
    if not pairs:
        raise ValueError(f"ruling {args.ruling!r} applies to none of the presets asked for")
    return pairs


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if args.prove_rlimit is not None and args.prove_rlimit <= 0:
        raise ValueError("--prove-rlimit must be positive")
    if args.game_seeds < 1:
        raise ValueError("--game-seeds must be at least 1")
    if args.deals < 0 or args.games < 0 or args.workers < 1 or args.strength < 0 or args.pimc_deals < 0:
        raise ValueError("--deals and --games must not be negative, --workers at least 1")
    if args.pimc_deals_other is not None and args.pimc_deals_other < 0:
        raise ValueError("--pimc-deals-other must not be negative")
    policies = [x.strip() for x in args.policies.split(",") if x.strip()]
    for pol in policies:
        if pol not in (*POLICY_NAMES, "simple", "pimc"):
            raise ValueError(f"unknown policy {pol!r}; choose from {', '.join((*POLICY_NAMES, 'simple', 'pimc'))}")
    pairs = chosen_pairs(args)
    if args.backend not in ("auto", "reference", "fast"):
        raise ValueError(f"unknown backend {args.backend!r}; choose auto, reference or fast")
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
        if k and pair.preset in pimc_presets and (affordable or pair.preset in args.pimc_preset) and not game_level(pair):
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
            if args.workers > 1 and len(todo) > 1:
                from concurrent.futures import ProcessPoolExecutor, as_completed

                with ProcessPoolExecutor(max_workers=args.workers) as pool:
                    futures = {pool.submit(run_job, run_of(j)): j for j in todo}
                    for fut in as_completed(futures):
                        for _, m in fut.result():
                            finished(futures[fut], m)
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
    text = render(pairs, reports, args, contradictions, SAMPLE)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "README.md").write_text(text, encoding="utf-8")
        console.print(f"wrote {args.out / 'README.md'} and {len(reports)} plot(s)")
    return 0


def pimc_deals_at(usual: int, other: int | None, at_usual: bool) -> int:
    """The PIMC player's paired deals for a unit: ``usual`` (``--pimc-deals``) at the player count whole games
    are played at (``games_at``: the game's usual count where the ruling is measured there), ``other``
    (``--pimc-deals-other``; None: a quarter of ``usual``) at every other count; none without ``usual``."""
    if not usual:
        return 0
    if at_usual:
        return usual
    return usual // 4 if other is None else other


def fast_pimc_presets() -> list[str]:
    """The presets whose game the PIMC player plays on the fast engine (``comet.fast.pimc``)."""
    from comet.fast.pimc import pimc_unsupported

    return [name for name, p in PRESETS.items() if pimc_unsupported(p.rules) is None]


def with_strength(reports: list[PairReport], strengths: list[Strength]) -> list[PairReport]:
    """The reports with each player count's PIMC figures given the PIMC player's strength against greedy at
    that preset and count (which decides whether it is the headline there, ``impact_report.headline``)."""
    import dataclasses

    greedy = {(s.preset, s.players): s for s in strengths if s.opponent == "greedy"}
    return [
        dataclasses.replace(
            r,
            impact=[
                dataclasses.replace(m, strength=greedy.get((r.pair.preset, m.players))) if "pimc" in m.deals else m
                for m in r.impact
            ],
        )
        for r in reports
    ]


def strength_counts(name: str, jobs: list[Job]) -> list[int]:
    """The player counts the PIMC player's strength is measured at in preset ``name``: its game's usual count
    and every count where a job of the run measures ``pimc`` (so every headline figure has its strength)."""
    from comet.variant import variant_of

    counts = {variant_of(preset(name).rules).default_players}
    for job in jobs:
        for (_, pair), extra in zip(job.pairs, job.extra, strict=True):
            if pair.preset == name and any(p == "pimc" and k > 0 for p, k in extra):
                counts.add(job.players)
    return sorted(counts)


def saved_strength(
    out_dir: Path | None, name: str, deals: int, opponent: str, players: int | None = None
) -> Strength:
    """The PIMC player's strength against ``opponent`` in preset ``name`` at ``players`` (default: its game's
    usual player count), read from ``DIR/results`` if it was measured with the same parameters, else measured
    (and saved)."""
    import dataclasses

    from comet.diverge.pimc import samples_for
    from comet.diverge.results import FORMAT, load_json, rules_digest, save_json
    from comet.diverge.strength import Strength, strength, strength_engine
    from comet.records.deal_record import JsonObject
    from comet.variant import variant_of

    if players is None:
        players = variant_of(preset(name).rules).default_players
    key: JsonObject = {
        "format": FORMAT,
        "engine": strength_engine(name),
        "strength": name,
        "players": players,
        "deals": deals,
        "opponent": opponent,
        "samples": samples_for(preset(name).rules),
        "rules": rules_digest(preset(name).rules),
    }
    path = None if out_dir is None else out_dir / "results" / f"strength-{name}-{players}p-{opponent}.json"
    if path is not None:
        got = load_json(path, key)
        if got is not None:
            try:
                return Strength(**got)  # type: ignore[arg-type]
            except TypeError:
                pass
    r = strength(name, players, deals, opponent)
    if path is not None:
        save_json(path, key, dict(dataclasses.asdict(r)))
    return r


def counts_of(pair: Pair, players: int | None) -> tuple[int, ...]:
    """The player counts a pair is measured at: ``--players`` if given (checked), else where it applies."""
    from comet.variant import variant_of

    if players is None:
        return player_counts(pair)
    allowed = variant_of(pair.a).player_counts
    if players not in allowed:
        raise ValueError(f"{pair.preset} is played by {', '.join(map(str, allowed))} players, not {players}")
    return (players,)


SAMPLE = 12


def games_at(pair: Pair, counts: tuple[int, ...]) -> int:
    """The player count whole games are played at: the game's usual count if measured, else the first."""
    from comet.variant import variant_of

    usual = variant_of(pair.a).default_players
    return usual if usual in counts else counts[0]


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
