"""``comet perft``: count distinct legal action sequences from a seeded deal (like chess perft)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from comet.commands.common import add_jobs_options, add_rules_options, rules_from_args
from comet.errors import RecordError
from comet.oracle.perft import PerftRow, perft_counts, reference_rows, reference_table, table_markdown, update_spec


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "perft",
        help="count legal action sequences of length D from a seeded deal",
        description="Shuffle the first pack in rotation with --seed, deal it with the last seat as dealer, "
        "and print the number of distinct legal action sequences of each length 1..D (sequences cut "
        "short by the end of the deal do not count).  --table prints the reference table of "
        "spec/perft.md instead.",
    )
    p.add_argument("--players", type=int, default=3, metavar="N", help="number of players (default 3)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="shuffle seed (default 1)")
    p.add_argument("--depth", type=int, default=4, metavar="D", help="sequence length (default 4)")
    p.add_argument("--table", action="store_true", help="print the reference table (markdown) of spec/perft.md")
    p.add_argument(
        "--update",
        default=None,
        metavar="FILE",
        help="with --table: rewrite the table between the markers of FILE (spec/perft.md) instead of printing",
    )
    add_jobs_options(p)
    add_rules_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    if args.update is not None and not args.table:
        raise ValueError("--update needs --table")
    if args.table:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("perft reference table", total=len(reference_rows()))

            def step(row: PerftRow) -> None:
                progress.update(task, advance=1, description=f"{row.preset} {row.players}p seed {row.seed}")

            rows = reference_table(step, jobs=args.jobs, scheduler=args.scheduler)
        table = table_markdown(rows)
        if args.update is None:
            print(table, end="")
            return 0
        path = Path(args.update)
        try:
            text = path.read_text(encoding="utf-8")
            path.write_text(update_spec(text, table), encoding="utf-8")
        except OSError as e:
            raise RecordError("io", f"cannot update {path}: {e}") from None
        print(f"updated the perft table in {path}")
        return 0
    if not 0 <= args.depth <= 40:
        raise ValueError(f"--depth must be 0..40, not {args.depth}")
    rules = rules_from_args(args)
    with Progress(console=Console(stderr=True), transient=True) as progress:
        progress.add_task(f"perft depth {args.depth}", total=None)
        counts = perft_counts(rules, args.players, args.seed, args.depth)
    for d, c in enumerate(counts, 1):
        print(f"perft({d}) = {c}")
    return 0
