"""``comet fuzz``: a random-simulation campaign over every reading of every ruling."""

from __future__ import annotations

import argparse
from typing import Any

from comet.commands.common import add_jobs_options
from comet.presets import PRESETS, preset


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "fuzz",
        help="fuzz whole deals and games under random rulesets and report rule coverage",
        description="Play random legal actions under randomly drawn rulesets (every reading of every "
        "ruling), deals with extreme hand shapes and short whole games, checking the invariants after "
        "every step; print deals, steps, distinct states, per-rule-id hit counts and coverage gaps. "
        "Exit 1 if a check failed (each failure is printed with a reproducible deal record).",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        metavar="N",
        help="wall-clock budget in minutes, shared by the presets (default: 0.5 unless --deals is given)",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="D",
        help="D draws per preset instead of a time budget (a draw is one deal, or one time in five a short game); "
        "the report is then the same for any --jobs",
    )
    p.add_argument(
        "--preset",
        action="append",
        default=[],
        metavar="P",
        help=f"preset to fuzz (repeatable; default: all of {', '.join(sorted(PRESETS))})",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="campaign seed (default 0)")
    p.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    add_jobs_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from comet.fuzz import run_campaign

    for name in args.preset:
        preset(name)
    if args.minutes is not None and args.minutes <= 0:
        raise ValueError("--minutes must be positive")
    if args.deals is not None and args.deals <= 0:
        raise ValueError("--deals must be positive")
    seconds = args.minutes * 60 if args.minutes is not None else (None if args.deals is not None else 30.0)
    report = run_campaign(
        args.preset or sorted(PRESETS),
        seconds=seconds,
        deals=args.deals,
        seed=args.seed,
        progress=not args.no_progress,
        jobs=args.jobs,
        scheduler=args.scheduler,
    )
    console = Console()
    table = Table(title=f"comet fuzz --seed {args.seed} ({report.seconds:.0f} s)")
    for col in ("preset", "deals", "games", "steps", "distinct states", "settlement not recomputed", "failures"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    for p in report.presets:
        table.add_row(
            p.preset,
            str(p.deals),
            str(p.games),
            str(p.steps),
            str(p.distinct_states),
            str(p.settlement_skipped),
            str(len(p.failures)),
        )
    console.print(table)
    hits = Table(title="rule ids exercised")
    hits.add_column("rule id")
    hits.add_column("hits", justify="right")
    hits.add_column("counted")
    for rid, k in report.rule_hits:
        hits.add_row(rid, str(k), "by call" if rid in report.counted_by_call else "by situation")
    console.print(hits)
    if report.never_hit:
        console.print("Coverage gaps (rule ids never hit): " + ", ".join(report.never_hit))
    else:
        console.print("Every rule id was hit.")
    for text in report.failures:
        console.print("[bold red]FAILURE[/] " + escape(text), highlight=False)
    return 1 if report.failures else 0
