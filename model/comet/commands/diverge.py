"""``comet diverge``: where two readings part ways (a witness), and how much it matters (paired impact)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.pimc import Strength
from comet.diverge.policies import POLICY_NAMES
from comet.diverge.report import PairReport, field_section
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
    player_counts,
    run_job,
)
from comet.diverge.witness import Bound, search
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, RULING_OF
from comet.rulesfile import resolve


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
        help="also measure the PIMC player (the headline) over N paired deals, at the game's usual player count",
    )
    p.add_argument(
        "--pimc-preset",
        action="append",
        default=[],
        metavar="P",
        help="presets whose pairs the PIMC player measures (repeatable; default: every preset it plays on the "
        "fast engine: standard, opera, two_player, old_comet; Commit and Red Nines only when named, on the "
        "reference engine, about a hundred times slower)",
    )
    p.add_argument(
        "--seconds", type=float, default=8.0, metavar="S", help="witness search budget per pair and phase (default 8)"
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
        help="also measure the PIMC player's strength over N deals against each other policy (standard game, "
        "3 players) and report it",
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
    if args.deals < 0 or args.games < 0 or args.workers < 1 or args.strength < 0 or args.pimc_deals < 0:
        raise ValueError("--deals and --games must not be negative, --workers at least 1")
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
    bound = Bound(seconds=args.seconds)
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
        if (
            args.pimc_deals
            and pair.preset in pimc_presets
            and (affordable or pair.preset in args.pimc_preset)
            and n == games_at(pair, counts)
            and not game_level(pair)
        ):
            return (("pimc", int(args.pimc_deals)),)
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
        from comet.diverge.pimc import strength_lines

        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("PIMC strength", total=3)
            strengths = []
            for opponent in POLICY_NAMES:
                strengths.append(saved_strength(args.out if not args.fresh else None, args.strength, opponent))
                progress.advance(task)
        from comet.diverge.pimc import strength_engine

        contradictions = [
            *strength_lines(strengths, "standard", engine=strength_engine("standard")),
            *contradictions,
        ]
    text = render(pairs, reports, args, contradictions)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "README.md").write_text(text, encoding="utf-8")
        console.print(f"wrote {args.out / 'README.md'} and {len(reports)} plot(s)")
    return 0


def fast_pimc_presets() -> list[str]:
    """The presets whose game the PIMC player plays on the fast engine (``comet.fast.pimc``)."""
    from comet.fast.pimc import pimc_unsupported

    return [name for name, p in PRESETS.items() if pimc_unsupported(p.rules) is None]


def saved_strength(out_dir: Path | None, deals: int, opponent: str) -> Strength:
    """The PIMC player's strength against ``opponent`` (standard game, 3 players), read from
    ``DIR/results`` if it was measured with the same parameters, else measured (and saved)."""
    import dataclasses

    from comet.diverge.pimc import SAMPLES, Strength, strength, strength_engine
    from comet.diverge.results import FORMAT, load_json, rules_digest, save_json
    from comet.record import JsonObject

    key: JsonObject = {
        "format": FORMAT,
        "engine": strength_engine("standard"),
        "strength": "standard",
        "players": 3,
        "deals": deals,
        "opponent": opponent,
        "samples": SAMPLES,
        "rules": rules_digest(preset("standard").rules),
    }
    path = None if out_dir is None else out_dir / "results" / f"strength-standard-3p-{opponent}.json"
    if path is not None:
        got = load_json(path, key)
        if got is not None:
            try:
                return Strength(**got)  # type: ignore[arg-type]
            except TypeError:
                pass
    r = strength("standard", 3, deals, opponent)
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


def contradiction_lines(presets: list[str]) -> list[str]:
    """The 'Defaults contradicted' section: each declared rejected outcome checked under each preset's defaults."""
    from comet.diverge.contradictions import REJECTED, describe, find

    lines: list[str] = []
    for name in presets:
        for rejected in REJECTED:
            c = find(name, rejected)
            if c is not None:
                lines += describe(c)
    if not lines:
        return []
    return [
        "## Defaults contradicted by other defaults",
        "",
        "Outcomes a ruling's *Default and why* rejects (declared in `comet.diverge.contradictions.REJECTED`), "
        "looked for in play under each preset's default rules:",
        "",
        *lines,
        "",
    ]


def summary_table(reports: list[PairReport]) -> list[str]:
    """One row per reading pair and player count: the witness and the headline player's verdict."""
    from comet.diverge.effect import verdict
    from comet.diverge.impact_report import headline_policy, unit_of
    from comet.variant import variant_of

    head = "| ruling | preset | B reading | players | witness | verdict (headline player) |"
    lines = ["## Summary", "", head, "|---|---|---|---|---|---|"]
    for r in reports:
        p = r.pair
        rid = RULING_OF.get(p.field, "house")
        w = r.search.witness
        pr = r.search.proof
        if w is None and pr is not None and pr.method == "inert":
            shown = f"inert: needs `{pr.needs}`"
        elif w is None:
            shown = "none found"
        elif w.level == "game":
            shown = "game"
        else:
            shown = f"{w.kind}, {len(w.actions)} action(s), {w.players}p"
        if w is not None and pr is not None and pr.proved:
            shown += " (smallest)"
        link = f"[{rid}](#{rid.lower()}-{p.field})" if p.field else rid
        unit = unit_of(variant_of(p.a).scoring != "chips")
        if not any(m.deals or m.games for m in r.impact):
            # every pair has its row, measured or not (tests/test_diverge_summary.py)
            counts = ", ".join(str(m.players) for m in r.impact) or "-"
            lines.append(f"| {link} | {p.preset} | `{p.label_b()}` | {counts} | {shown} | not measured |")
        for m in r.impact:
            if not m.deals and not m.games:
                continue
            if not m.deals:
                from comet.diverge.impact_report import game_verdict

                for pol, g in list(m.games.items())[:1]:
                    lines.append(
                        f"| {link} | {p.preset} | `{p.label_b()}` | {m.players} | {shown} | {pol}, whole games: "
                        f"{game_verdict(g)} |"
                    )
                continue
            pol = headline_policy(list(m.deals))
            v = verdict(m.deals[pol], unit)
            text = v.text.split(" (simultaneous")[0].split(" over ")[0]
            lines.append(f"| {link} | {p.preset} | `{p.label_b()}` | {m.players} | {shown} | {pol}: {text} |")
    return [*lines, ""]


IMPACT_NOTE = (
    "**How impact is measured.** Each seed is dealt and played under A and under B by the same player "
    "(policy) with *coupled play*: every choice made by chance is the option of highest priority, a number "
    "drawn once per deal for each seat and option and shared by both readings, so the two sides choose alike "
    "wherever they face the same options and a reading changes play only where its option is taken "
    "(`comet.diverge.policies`). `random` takes any option; `greedy` and `hoarder` are fixed strategies "
    "(ties by priority) that never stop early or pass a new run; `pimc`, where measured, searches "
    "(determinized Monte Carlo) and is the headline player. A ruling is measured at every player count "
    "where its readings can differ (derived from the deal set-up of each reading, `comet.diverge.study`). "
    "Every figure is a paired difference B − A with its 95 % interval (normal approximation on the "
    "deal-by-deal differences); a share is given with its Wilson interval, a zero as '0 of N (at most x %)'. "
    "The verdict looks at every seat's chips and win rate, the deal length and the chips that move "
    "elsewhere at once, with simultaneous (Bonferroni) 95 % intervals, so a reading without effect reads "
    "'no measurable effect' with the bound it is known to. Where the readings deal different cards "
    "(`deal_order`, deal sizes) the deal-by-deal transfer compares two different deals and only the signed "
    "means per seat speak for the rule. The placebo readings (`comet.diverge.placebo`) cannot change play "
    "or payments and must read 'no measurable effect'.",
    "",
)


def placebo_lines(reports: list[PairReport]) -> list[str]:
    """The placebo check: each reading that cannot change play or payments, why, and what was measured."""
    from comet.diverge.effect import verdict
    from comet.diverge.placebo import placebo_reason
    from comet.variant import variant_of

    lines: list[str] = []
    for r in reports:
        why = placebo_reason(r.pair)
        if why is None:
            continue
        lines.append(f"- `{r.pair.label_b()}` ({r.pair.preset}): inert because {why}.")
        unit = "chips" if variant_of(r.pair.a).scoring == "chips" else "points"
        for m in r.impact:
            for pol, t in m.deals.items():
                v = verdict(t, unit)
                mark = "**EFFECT FOUND: the study is wrong**" if v.matters else v.text
                lines.append(f"  - {m.players} players, {pol}: {mark}")
    if not lines:
        return []
    return [
        "## Placebo check",
        "",
        "Readings that provably cannot change play or payments; each must show no "
        "measurable effect (`comet.diverge.placebo`, tests/test_diverge_placebo.py):",
        "",
        *lines,
        "",
    ]


def render(
    pairs: list[Pair], reports: list[PairReport], args: argparse.Namespace, contradictions: Sequence[str] = ()
) -> str:
    from comet.commands.rules import default_spec_dir, ruling_sources, ruling_titles

    titles = ruling_titles(default_spec_dir())
    sources = ruling_sources(default_spec_dir())
    out_dir: Path | None = args.out
    house = any(not r.pair.field for r in reports)
    lines = ["# Where the house rules part ways" if house else "# Where the readings part ways", ""]
    cmd = "comet diverge " + (" ".join(sys.argv[2:]) if len(sys.argv) > 2 else "")
    run_on = ""
    if args.backend != "reference":
        from datetime import UTC, datetime

        run_on = (
            f" on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with the `{args.backend}` backend (the fast engine's paired "
            f"sums checked equal to the reference engine's on seeds 0..{SAMPLE - 1} of every pair it plays, at its "
            "first player count and policy, before the study ran)"
        )
    lines += [
        f"Generated by `{cmd.strip()}`{run_on}: {args.deals} paired deals and {args.games} paired whole games per policy "
        f"({args.policies}), seeds 0.. under both {'rule sets' if house else 'readings'}. "
        + (
            f"A is `{args.rules}`{_with(args.ruling_a)}, B is `{args.against}`{_with(args.ruling_b)}. "
            if house
            else "A is the preset's default reading, B the other. "
        )
        + "A witness is a deal (or a whole game) where A and B allow different actions, move different chips "
        "or end differently; `>>` marks the first point of difference, and each witness's label (where and "
        "what differs) is checked by replaying it under both (`tests/test_diverge_labels.py`). Deals are "
        "compared by fewest actions, then players, then cards played; games by fewest deals, then players, then "
        "actions before the difference. Each witness says in which of these it is proved smallest, and how: "
        "*by Z3* over every deal of the game's player counts (`comet_proofs.smallest` over the proofs' "
        "encodings, within a stated budget of Z3 resource units), *by construction* (0 actions, or 1 action "
        "where no deal differs before play, with the fewest players; a game of the fewest deals and players the "
        "rule sets allow), or *not proved*, with the reason. A ruling that can make no difference until another ruling "
        "is changed says which (*inert: needs ...*, found by searching under each other reading). Witnesses "
        "come from `comet/diverge/witnesses.json` (`--search` looks afresh). The impact figures are exact for "
        "the seeds played: the same on one core or many.",
        "",
        *IMPACT_NOTE,
    ]
    fields: dict[str, list[PairReport]] = {}
    for r in reports:
        fields.setdefault(r.pair.field, []).append(r)
    if len(reports) > 1:
        lines += summary_table(reports)
    lines += placebo_lines(reports)
    for f, rs in fields.items():
        rid = RULING_OF.get(f, "")
        question, where = titles.get(rid, ("", ""))
        source = f"{spec_link(where, out_dir)}#{rid.lower()}-{question.lower()}" if where else ""
        if not f:
            diff = rs[0].pair.b.differences(rs[0].pair.a)
            lines += [
                "## House rules",
                "",
                f"Rule set A: `{args.rules}` {' '.join(args.ruling_a)}; rule set B: "
                f"`{args.against}` {' '.join(args.ruling_b)}.",
                "",
                "Fields that differ (A → B):",
                "",
            ]
            lines += [f"- `{k}`: {getattr(rs[0].pair.a, k)} → {v}" for k, v in sorted(diff.items())] or ["- none"]
            lines.append("")
            title = f"`{args.rules}`{_with(args.ruling_a)} against `{args.against}`{_with(args.ruling_b)}"
            lines += field_section("", "", "", "", rs, out_dir, args.deals, args.games, title=title)[2:]
            if len(diff) > 1:
                lines += field_breakdown(rs[0].pair, diff)
            continue
        lines += field_section(
            f, rid, question, _slug_link(source), rs, out_dir, args.deals, args.games, sources.get(rid, [])
        )
    lines += contradictions
    lines += larger_runs(out_dir)
    return "\n".join(lines) + "\n"


def _with(overrides: Sequence[str]) -> str:
    return f" with {', '.join(f'`{o}`' for o in overrides)}" if overrides else ""


def field_breakdown(pair: Pair, diff: dict[str, object]) -> list[str]:
    """Which changed field causes which difference: each field of B switched alone in A, its smallest
    witness searched afresh (``witness.search`` with the size proof), and the first difference it shows."""
    from comet.diverge.pairs import value_text
    from comet.diverge.witness import Bound, search

    lines = [
        "### Field by field",
        "",
        "Each field that differs, switched alone from A's reading to B's (a fresh witness search per field):",
        "",
        "| field alone | A → B | first difference | smallest? | what differs |",
        "|---|---|---|---|---|",
    ]
    for k, v in sorted(diff.items()):
        alone = Pair(pair.preset, k, pair.a, pair.a.with_overrides({k: v}))
        res = search(alone, Bound(seconds=4.0), prove_size=True)
        w, pr = res.witness, res.proof
        if w is None:
            first = "none found" if pr is None or pr.method != "inert" else f"inert: needs `{pr.needs}`"
            what = "; ".join(res.notes)
        elif w.level == "game":
            first, what = f"a game, {w.players} players", w.detail
        else:
            first, what = f"{w.kind}, {len(w.actions)} action(s), {w.players} players", w.detail
        proved = "yes" if pr is not None and pr.proved and w is not None else "no"
        cells = [f"`{k}`", f"{value_text(getattr(pair.a, k))} → {value_text(v)}", first, proved, what.replace("|", "/")]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def spec_link(where: str, out_dir: Path | None) -> str:
    """The link from the report in ``out_dir`` to ``where`` (``spec/rulings.md``): ``../rulings.md`` from
    ``spec/divergence``, ``../../rulings.md`` from a subdirectory of it."""
    from comet.commands.rules import default_spec_dir

    name = where.removeprefix("spec/")
    if out_dir is None:
        return f"../{name}"
    return os.path.relpath(default_spec_dir() / name, out_dir.resolve()).replace(os.sep, "/")


def larger_runs(out_dir: Path | None) -> list[str]:
    """Links to the reports in ``out_dir``'s subdirectories (larger studies, e.g. a million deals per
    reading with ``--backend fast``), so regenerating the main report keeps them linked."""
    if out_dir is None or not out_dir.is_dir():
        return []
    found = sorted(p.parent.name for p in out_dir.glob("*/README.md"))
    if not found:
        return []
    lines = ["## Larger runs", ""]
    for name in found:
        head = (out_dir / name / "README.md").read_text(encoding="utf-8").splitlines()
        gen = next((line for line in head if line.startswith("Generated by")), "")
        command = gen.split("`")[1] if gen.count("`") >= 2 else name
        lines.append(f"- [{name}]({name}/README.md): `{command}`")
    return [*lines, ""]


def _slug_link(link: str) -> str:
    """A GitHub-style heading anchor (lower case, spaces to dashes, punctuation dropped)."""
    if "#" not in link:
        return link
    path, frag = link.split("#", 1)
    keep = "".join(ch for ch in frag if ch.isalnum() or ch in " -_").replace(" ", "-")
    return f"{path}#{keep}"
