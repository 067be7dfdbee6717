"""``comet prove``: run the Z3 proofs of a preset's invariants (package ``comet_proofs``)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "prove",
        help="prove card conservation, chip zero-sum, termination, totality and the payment rules with Z3",
        description="Prove, with Z3, the invariants of one deal (card conservation, chip zero-sum, "
        "termination within engine.step_bound, totality, zero-sum settlement) for every "
        "combination of the rulings that change play, over an encoding cross-checked against "
        "the model (see spec/proofs.md).  Exit code 1 if any proof fails.",
    )
    p.add_argument(
        "--preset", default="standard", metavar="P", help="the game whose rules are proved (default: standard)"
    )
    p.add_argument("--all", action="store_true", help="prove every preset of 'comet presets' in turn")
    p.add_argument(
        "--players",
        type=int,
        action="append",
        default=None,
        metavar="N",
        help="player count to prove for (repeatable; default: every count the preset's encoding covers)",
    )
    p.add_argument(
        "--crosscheck",
        type=int,
        default=0,
        metavar="D",
        help="also cross-check the encoding against the model on D random deals per player count",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed for the cross-check sample (default 0)")
    p.add_argument(
        "--refine",
        action="store_true",
        help="also run the directed refinement check: a Z3 witness for every behaviour class of the preset, "
        "turned into a real deal state, where the model must agree with the encoding (spec/proofs.md)",
    )
    p.add_argument(
        "--refine-sweep",
        action="store_true",
        help="with --refine: also witness every class under each reading of every quantified ruling, one "
        "at a time (slower; readings under which a class cannot happen are listed, not failed)",
    )
    p.add_argument(
        "--witness-traces",
        default=None,
        metavar="DIR",
        help="instead of proving, find whole deals that end in chosen ways (the Comet as a 9, a loser caught "
        "with it, a stuck run, the variants' own) by bounded model checking of the encoding, replay them "
        "through the model and write them as ITF traces under DIR/<preset>/ with DIR/index.json",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from comet_proofs import plan
    from rich.console import Console

    from comet.presets import PRESETS, preset

    if args.crosscheck < 0:
        raise ValueError(f"--crosscheck takes a number of deals >= 0, not {args.crosscheck}")
    if args.all:
        if args.players:
            raise ValueError("--all proves every preset for its own player counts; leave out --players")
        names = list(PRESETS)
    else:
        preset(args.preset)  # unknown preset: RecordError naming the known ones
        names = [args.preset]
    if args.witness_traces is not None:
        return write_witness_traces(names, args.witness_traces)
    plans: dict[str, list[Any]] = {}
    missing: list[str] = []
    for name in names:
        try:
            plans[name] = plan(name, args.players)  # bad player count: ValueError before any work
        except ValueError as err:
            if not args.all:
                raise
            missing.append(f"{name}: {err}")
    console = Console()
    status = 0
    for name, obligations in plans.items():
        status = max(status, prove_one(console, name, obligations, args))
    for line in missing:
        console.print(f"[red]not proved[/red] {line}", markup=True, highlight=False)
    return 1 if missing else status


def prove_one(console: Any, name: str, obligations: list[Any], args: argparse.Namespace) -> int:
    """Run one preset's obligations (and its cross-check); 1 if anything fails."""
    from comet_proofs import ProofResult, encoding_for, sample_states
    from comet_proofs.crosscheck import crosscheck
    from comet_proofs.proofs import discharge
    from rich.progress import Progress
    from rich.table import Table

    results: list[ProofResult] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("proving", total=len(obligations))
        for ob in obligations:
            progress.update(task, description=f"{name}, {ob.players} players: {ob.name}")
            results.append(ob.run())
            progress.advance(task)
    results = discharge(results)
    table = Table(title=f"comet prove --preset {name} (every reading of the rulings the encoding covers)")
    table.add_column("players", justify="right")
    table.add_column("property")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for r in results:
        verdict = "[green]proved[/green]" if r.proved else "[red]FAILED[/red]"
        table.add_row(str(r.players), r.name, verdict, f"{r.seconds:.2f}")
    console.print(table)
    failed = [r for r in results if not r.proved]
    for r in failed:
        console.print(f"[red]counterexample[/red] ({name}, {r.players} players, {r.name}):", markup=True)
        console.print(r.counterexample or "", markup=False, highlight=False)
    total = sum(r.seconds for r in results)
    console.print(f"{name}: {len(results) - len(failed)}/{len(results)} proved in {total:.1f} s")
    if args.crosscheck:
        enc = encoding_for(name)
        players = args.players or list(enc.player_counts)
        states = sample_states(players, args.crosscheck, args.seed, preset=name)
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"cross-checking the {name} encoding against the model", total=len(states))
            report = crosscheck(enc, states, lambda: progress.advance(task))
        console.print(
            f"{name} cross-check: {report.states} states, {report.successors} model successors, "
            f"{len(report.mismatches)} mismatching states"
        )
        for m in report.mismatches:
            console.print(m, markup=False, highlight=False)
        if not report.ok:
            return 1
    if (args.refine or args.refine_sweep) and refine_one(console, name, args.players, args.refine_sweep) != 0:
        return 1
    return 1 if failed else 0


def refine_one(console: Any, name: str, players: list[int] | None, sweep: bool = False) -> int:
    """``comet prove --refine``: the directed refinement check of one preset, every class listed."""
    from comet_proofs.refine import refine
    from rich.progress import Progress
    from rich.table import Table

    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"refinement check of {name}", total=None)
        result = refine(
            name, players=players, sweep=sweep, progress=lambda text: progress.update(task, description=text)
        )
    table = Table(title=f"directed refinement check of {name}")
    for col in ("class", "witnesses", "players", "steps", "result") + (("impossible under",) if sweep else ()):
        table.add_column(col)
    for c in result.classes:
        verdict = "[green]ok[/green]" if c.ok else "[red]no witness[/red]" if c.missing else "[red]MISMATCH[/red]"
        table.add_row(
            c.name,
            str(len(c.witnesses)),
            " ".join(str(w.players) for w in c.witnesses),
            "; ".join(dict.fromkeys(w.action for w in c.witnesses)),
            verdict,
            *((("; ".join(x.split(" (")[0].removeprefix("under ") for x in c.impossible) or "-"),) if sweep else ()),
        )
    console.print(table)
    console.print(
        f"{name}: {result.covered}/{len(result.classes)} classes covered, {result.witnesses} witnesses, "
        f"{result.random_states} random states, {result.seconds:.1f} s"
    )
    for failure in result.failures():
        console.print("[red]refinement failure[/red]")
        console.print(failure, markup=False, highlight=False)
    return 0 if result.ok else 1


def write_witness_traces(names: list[str], directory: str) -> int:
    """``comet prove --witness-traces DIR``: 1 if some scenario has no deal."""
    from pathlib import Path

    from comet_proofs.traces import scenarios_for, write_traces
    from rich.console import Console
    from rich.progress import Progress

    console = Console()
    total = sum(len(scenarios_for(n)) for n in names)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("witness traces", total=total)

        def step(text: str) -> None:
            progress.update(task, description=text)
            progress.advance(task)

        written, missing = write_traces(Path(directory), names, step)
    for rel in written:
        console.print(f"wrote {Path(directory) / rel}", highlight=False)
    for line in missing:
        console.print(f"[red]no deal found[/red] {line}", highlight=False)
    return 1 if missing else 0
