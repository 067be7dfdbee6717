"""``comet conform -- COMMAND``: test another implementation against the model over the conformance suite."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "conform",
        help="test another implementation (a JSON-lines oracle command) against the model",
        description="Run COMMAND (another implementation speaking the oracle's JSON-lines protocol: at least "
        "'hello', 'replay' and 'legal'; game records too if its hello lists 'game_new' or says "
        '"games": true) through the conformance suite: every vector, then random deals and games under '
        "random readings, some with planted faults, for --seconds, then hostile inputs.  Every answer is "
        "compared with the model's (messages and narration aside); each disagreement is shrunk to the "
        "smallest record that still disagrees and printed narrated, with both answers and the rule id.  "
        "A hang or a crash is reported as a disagreement and the command restarted.  Exit 0 when every "
        "case agrees, 1 otherwise, 2 for a usage error or a command that cannot say hello.  "
        "Example: comet conform -- comet oracle",
    )
    p.add_argument("impl", nargs=argparse.REMAINDER, metavar="-- COMMAND", help="the implementation's command")
    p.add_argument("--preset", action="append", default=None, help="only this preset (repeatable; default all)")
    p.add_argument("--seconds", type=float, default=20.0, help="time for random deals and games (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random cases (default 0)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for one answer (default 10)")
    p.add_argument("--vectors", type=Path, default=None, help="the vectors folder (default: the checkout's)")
    p.add_argument(
        "--generator",
        choices=("auto", "hypothesis", "stdlib"),
        default="auto",
        help="what makes and shrinks the random cases: Hypothesis, the standard library's seeded random with "
        "comet's own shrinker, or auto (Hypothesis when it is installed; default); the report says which ran",
    )
    p.add_argument("--junit", type=Path, default=None, help="write JUnit XML here")
    p.add_argument("--no-hostile", action="store_true", help="skip the hostile inputs (limits, bad requests)")
    p.add_argument("--no-coverage", action="store_true", help="do not print the coverage table by rule id")
    p.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from comet.commands.common import checkout_root
    from comet.conform.client import Implementation
    from comet.conform.report import junit_xml, text_report
    from comet.conform.runner import Options
    from comet.presets import PRESETS

    command = list(args.impl)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        print("comet conform: error: give the implementation's command after '--' (see --help)", file=sys.stderr)
        return 2
    if len(command) == 1 and " " in command[0]:
        command = shlex.split(command[0])
    presets = tuple(args.preset or sorted(PRESETS))
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        print(
            f"comet conform: error: unknown preset {unknown[0]!r}; known: {', '.join(sorted(PRESETS))}", file=sys.stderr
        )
        return 2
    try:
        vectors = args.vectors or checkout_root() / "vectors"
    except ValueError as e:
        print(f"comet conform: error: {e}", file=sys.stderr)
        return 2
    if not (vectors / "index.json").is_file():
        print(f"comet conform: error: no vectors/index.json in {vectors}", file=sys.stderr)
        return 2
    options = Options(
        presets, args.seconds, args.seed, vectors, args.timeout, not args.no_hostile, generator=args.generator
    )
    from comet.conform.runner import use_hypothesis

    try:
        use_hypothesis(args.generator)
    except ValueError as e:
        print(f"comet conform: error: {e}", file=sys.stderr)
        return 2
    impl = Implementation(command, args.timeout)
    try:
        report = _with_progress(impl, options, not args.no_progress and sys.stderr.isatty())
    finally:
        impl.close()
    sys.stdout.write(text_report(report, coverage=not args.no_coverage))
    if args.junit is not None:
        try:
            args.junit.write_text(junit_xml(report), encoding="utf-8")
        except OSError as e:
            print(f"comet conform: error: cannot write {args.junit}: {e}", file=sys.stderr)
            return 2
    if report.fatal is not None:
        return 2
    return 0 if report.ok else 1


def _with_progress(impl: Any, options: Any, show: bool) -> Any:
    from comet.conform.runner import run as run_suite

    if not show:
        return run_suite(impl, options)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("conform", total=None)

        def tick(source: str, done: int) -> None:
            progress.update(task, description=f"{source}: {done} cases")

        return run_suite(impl, options, tick)
