"""``comet verify``: the main job's command line.  Its arguments, the run (``comet.verify.plan`` makes the
units, ``comet.verify.pool`` runs them, ``comet.verify.tables`` prints each check's table, ``--json`` writes
``comet.verify.summary``), the exit code: 0 only if everything proved and nothing failed."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.verify.fastcheck import FAST_SEEDS
from comet.verify.plan import FUZZ_DRAWS, Options

__all__ = ["FUZZ_DRAWS", "register", "run"]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="run all proofs, a short fuzz campaign, the shipped vectors and the fast engines' check over every "
        "preset; print a table per check",
        description="The main job: prove the obligations of every preset with Z3 in worker processes "
        "(card conservation from the pack, chip zero-sum or no chips, the step bound, termination, "
        "totality, where chips go in play and at settlement; see spec/proofs.md), re-check the cheap "
        "ones with a second solver, run the directed refinement check, the bounds and the starting points, "
        "fuzz whole deals and games of every preset under random readings of every ruling, replay the shipped "
        "conformance vectors (deal and game records, malformed inputs) through the model, check the fast "
        f"engines against the reference on {FAST_SEEDS} seeds per preset and player count, and print the tables. "
        "A check that raises instead of answering is a row of its own (check, preset, player count, error); "
        "the others still print. Exit code 0 when every proof holds and nothing failed, 1 otherwise.",
    )
    p.add_argument(
        "--preset",
        action="append",
        default=None,
        metavar="P",
        help="limit to this preset (repeatable; default: every preset)",
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help=f"fuzz for S seconds (wall clock) after the proofs, instead of the default campaign of {FUZZ_DRAWS} "
        "draws per preset run beside the proofs; give it for a longer campaign",
    )
    p.add_argument(
        "--fuzz-deals",
        type=int,
        default=None,
        metavar="D",
        help=f"fuzz D draws per preset (default {FUZZ_DRAWS}; a draw is one deal, or one time in five a short "
        "game), in the proofs' worker pool: the same campaign however loaded the machine is, for any --jobs; "
        "not with --seconds",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=2,
        metavar="N",
        help="worker processes for every check (default 2; 1 runs in this process)",
    )
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write a machine-readable summary (one object per preset, the failed units) to FILE",
    )
    p.add_argument(
        "--no-recheck",
        action="store_true",
        help="skip the second solver's re-check of the cheap proved obligations",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the fuzz campaign and the fast engines' deals (default 0)",
    )
    p.add_argument("--no-proofs", action="store_true", help="skip the proofs (and their starting points)")
    p.add_argument("--no-fuzz", action="store_true", help="skip the fuzz campaign (and the directed deals)")
    p.add_argument(
        "--no-refine",
        action="store_true",
        help="skip the directed refinement check (Z3 witnesses of every behaviour class, compared with the model)",
    )
    p.add_argument(
        "--no-bounds",
        action="store_true",
        help="skip the bounds (the most actions a deal takes, the most chips or points a seat wins or pays)",
    )
    p.add_argument(
        "--vectors",
        default=None,
        metavar="DIR",
        help="the conformance vectors to replay (default: the checkout's vectors/; a row says so when absent)",
    )
    p.add_argument("--no-vectors", action="store_true", help="skip replaying the shipped vectors")
    p.add_argument("--no-fast", action="store_true", help="skip the fast engines' check against the reference")
    p.set_defaults(run=run)


def options_of(args: argparse.Namespace) -> Options:
    """The checks the arguments ask for (bad numbers: ValueError, one line, exit 2)."""
    from comet.verify.shipped import default_root

    if args.seconds is not None and args.fuzz_deals is not None:
        raise ValueError("give --seconds (a time budget) or --fuzz-deals (a number of draws), not both")
    if args.seconds is not None and args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    if args.fuzz_deals is not None and args.fuzz_deals <= 0:
        raise ValueError("--fuzz-deals must be positive")
    if args.jobs < 1:
        raise ValueError(f"--jobs takes a number of processes >= 1, not {args.jobs}")
    if args.vectors is not None and not (Path(args.vectors) / "index.json").is_file():
        raise RecordError(
            "vectors", f"--vectors {args.vectors}: no index.json there (a directory `comet vectors` wrote)"
        )
    draws = 0 if args.no_fuzz or args.seconds is not None else args.fuzz_deals or FUZZ_DRAWS
    return Options(
        proofs=not args.no_proofs,
        recheck=not args.no_recheck,
        refine=not args.no_refine,
        bounds=not args.no_bounds,
        fuzz_draws=draws,
        directed=not args.no_fuzz,
        vectors=None if args.no_vectors else str(args.vectors or default_root()),
        fast=not args.no_fast,
        seed=args.seed,
    )


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from comet.verify.plan import plan
    from comet.verify.pool import run_units
    from comet.verify.tables import print_all

    names = args.preset or sorted(PRESETS)
    for name in names:
        preset(name)
    options = options_of(args)
    started = time.monotonic()
    # piped output: wide enough that no preset name is cut short ("commit_…")
    console = Console() if sys.stdout.isatty() else Console(width=200)
    work = plan(names, options)
    meanwhile = None
    if not args.no_fuzz:
        # while the workers run: the fuzz campaign's rule universe (every module of the model imported,
        # the fast engine's among them, about 1.4 s), which it would otherwise load after the pool
        from comet.checks.coverage import load_model

        meanwhile = load_model
    pool_started = time.monotonic()
    work.found.failures += run_units(work.units, args.jobs, console, meanwhile)
    found = work.finish(time.monotonic() - pool_started)
    if args.seconds is not None and not args.no_fuzz:
        from comet.fuzz import run_campaign

        found.report = run_campaign(
            names, seconds=args.seconds, deals=None, seed=args.seed, progress=True, jobs=args.jobs
        )
    print_all(console, found)
    failed = found.failed()
    wall = time.monotonic() - started
    if args.json:
        import json

        from comet.verify.summary import summary_json

        Path(args.json).write_text(json.dumps(summary_json(found, wall, not failed), indent=2) + "\n", encoding="utf-8")
    console.print(f"wall time {wall:.1f} s ({args.jobs} worker processes)")
    console.print("[red]verify: FAILED[/red]" if failed else "[green]verify: all proofs hold, no fuzz failures[/green]")
    return 1 if failed else 0
