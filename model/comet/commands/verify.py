"""``comet verify``: the main job — every proof for every preset, then a short fuzz campaign
over every preset, and one summary table.  Exit 0 only if everything proved and nothing failed."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from comet.presets import PRESETS, preset

if TYPE_CHECKING:
    from comet_proofs.dealt import DealtResult
    from comet_proofs.refine import RefineResult

    from comet.fuzz import CampaignReport, ChunkReport


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="run all proofs and a short fuzz campaign over every preset; print a summary table",
        description="The main job: prove the obligations of every preset with Z3 in worker processes "
        "(card conservation from the pack, chip zero-sum or no chips, the step bound, termination, "
        "totality, where chips go in play and at settlement; see spec/proofs.md), re-check the cheap "
        "ones with a second solver, run the directed refinement check and the bounds, then fuzz whole "
        "deals and games of every preset under random readings of every ruling, and print the tables. "
        "Exit code 0 when every proof holds and nothing failed, 1 otherwise.",
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
        help="worker processes for the proofs and the fuzz campaign (default 2; 1 runs in this process)",
    )
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write a machine-readable summary (one object per preset) to FILE",
    )
    p.add_argument(
        "--no-recheck",
        action="store_true",
        help="skip the second solver's re-check of the cheap proved obligations",
    )
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the fuzz campaign (default 0)")
    p.add_argument("--no-proofs", action="store_true", help="skip the proofs")
    p.add_argument("--no-fuzz", action="store_true", help="skip the fuzz campaign")
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
    p.set_defaults(run=run)


#: The default campaign: draws per preset (two work units of ``comet.fuzz.CHUNK``), handed to the proofs'
#: worker pool beside the obligations, so its CPU fills the cores instead of following them.  A fixed number,
#: not a time budget: the same campaign on any machine (``--seconds`` still runs a timed one after the pool).
FUZZ_DRAWS = 40


@dataclass(frozen=True, slots=True)
class ProofSummary:
    proved: int
    total: int
    seconds: float
    problems: tuple[str, ...]
    # the second solver's verdicts on the re-checked obligations: agrees / no answer / DISAGREES counts
    agrees: int = 0
    no_answer: int = 0
    disagrees: int = 0
    # per obligation the second solver did not answer: what it was and why (Z3's reason, the budget)
    unanswered: tuple[str, ...] = ()


def prove_presets(names: list[str], console: Any, jobs: int, recheck: bool) -> dict[str, ProofSummary]:
    """Every proof obligation of every preset in ``names``, in ``jobs`` worker processes, with a progress
    bar; a preset without an encoding is a problem, not a pass.  Seconds are solver seconds (summed over
    the obligations, whichever worker ran them)."""
    from comet_proofs.parallel import prove_presets as run_parallel
    from rich.progress import Progress

    runnable, out, work = provable(names)
    total = len(work)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("proving", total=total)

        def advance(t: Any, r: Any) -> None:
            bar.update(task, description=f"proved {t.preset}, {t.players} players: {t.name}")
            bar.advance(task)

        results = run_parallel(runnable, jobs=jobs, recheck=recheck, progress=advance) if runnable else {}
    for name, rs in results.items():
        out[name] = summarize(name, rs)
    return {name: out[name] for name in names}


def provable(names: list[str]) -> tuple[list[str], dict[str, ProofSummary], list[Any]]:
    """The presets with proofs, a problem for each preset without an encoding (not a pass), and the
    proof tasks of the presets with proofs, slowest first (as ``parallel.tasks`` orders them: each plan is
    built once here)."""
    from comet_proofs.parallel import tasks

    out: dict[str, ProofSummary] = {}
    runnable: list[str] = []
    work: list[Any] = []
    for name in names:
        try:
            work += tasks([name])
            runnable.append(name)
        except (ValueError, KeyError) as err:
            out[name] = ProofSummary(0, 0, 0.0, (f"{name}: no proofs: {err}",))
    return runnable, out, sorted(work, key=lambda t: -t.weight)


def summarize(name: str, rs: list[Any]) -> ProofSummary:
    """One preset's proof results as a table row: proved, total, solver seconds, problems, second solver."""
    problems = tuple(f"{name}, {r.players} players, {r.name}:\n{r.counterexample or ''}" for r in rs if not r.proved)
    return ProofSummary(
        sum(1 for r in rs if r.proved),
        len(rs),
        sum(r.seconds for r in rs),
        problems,
        sum(1 for r in rs if r.second == "agrees"),
        sum(1 for r in rs if r.second == "no answer"),
        sum(1 for r in rs if r.second == "DISAGREES"),
        tuple(f"{name}, {r.players} players, {r.name}: {r.second_reason}" for r in rs if r.second == "no answer"),
    )


Directed = tuple[Any, tuple[str, ...]]


def directed_deals(names: list[str]) -> Directed:
    """The directed deals' hits and failures (``comet.fuzz.directed_hits`` over the proofs' shipped witness
    deals of ``names``): what ``directed`` reports for the rule ids random play missed."""
    from comet_proofs.traces import shipped_deals

    from comet.fuzz import directed_hits

    return directed_hits(shipped_deals(names))


def run_pooled(
    names: list[str], console: Any, args: argparse.Namespace, fuzz_draws: int = 0
) -> tuple[
    dict[str, ProofSummary],
    dict[str, RefineResult],
    list[Any],
    dict[str, DealtResult],
    Directed | None,
    CampaignReport | None,
]:
    """The proofs, the refinement check, the bounds, the starting points and the directed deals together in
    one pool of ``args.jobs`` processes, so that neither core waits for the other between phases.  The
    tasks go out longest first, as idle workers take them: the refinement checks and the bounds (seconds
    each), the starting points, the directed deals (replayed here while the proofs run, not after the fuzz
    campaign: ``directed``), the fuzz campaign's ``fuzz_draws`` draws per preset as work units (``comet.fuzz``:
    the report is the one-core campaign's for the same draws), then the obligations slowest first, hundreds of
    them under a tenth of a second, which fill the end so that no worker waits long for the other (the bounds
    went out last before, and a card-level encoding's, several seconds, could end the run on one core).
    Meanwhile this process loads what the campaign's report needs (``coverage.load_model``, every module of
    the model, for the rule universe)."""
    from concurrent.futures import Future, ProcessPoolExecutor, as_completed

    from comet_proofs.bounds import bounds, typical_players
    from comet_proofs.dealt import check_dealt
    from comet_proofs.parallel import collect, submit
    from comet_proofs.refine import refine
    from rich.progress import Progress

    from comet.fuzz import campaign_report, fuzz_chunk, fuzz_units

    proofs: dict[str, ProofSummary] = {}
    runnable: list[str] = []
    work: list[Any] = []
    if not args.no_proofs:
        runnable, proofs, work = provable(names)
    done: dict[Any, Any] = {}
    refined: dict[str, RefineResult] = {}
    bound_rows: dict[str, list[Any]] = {}
    dealt: dict[str, DealtResult] = {}
    directed_result: Directed | None = None
    chunks: list[ChunkReport] = []
    pool_started = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, Progress(console=console, transient=True) as bar:
        what: dict[Future[Any], tuple[str, Any]] = {}
        if not args.no_refine:
            what.update({pool.submit(refine, name): ("refine", name) for name in names})
        if not args.no_bounds:
            for name in names:
                fut = pool.submit(bounds, name, players=(typical_players(name),), deals=100)
                what[fut] = ("bounds", name)
        what.update({pool.submit(check_dealt, name): ("dealt", name) for name in runnable})
        if not args.no_fuzz:
            what[pool.submit(directed_deals, names)] = ("directed", None)
        if fuzz_draws:
            what.update({pool.submit(fuzz_chunk, u): ("fuzz", u) for u in fuzz_units(names, args.seed, fuzz_draws)})
        what.update({f: ("proof", t) for f, t in submit(pool, work, not args.no_recheck).items()})
        if not args.no_fuzz:
            # while the workers run: the fuzz campaign's rule universe (every module of the model imported,
            # the fast engine's among them, about 1.4 s), which it would otherwise load after the pool
            from comet.checks.coverage import load_model

            load_model()
        task = bar.add_task("proofs, refinement check, bounds", total=len(what))
        for fut in as_completed(what):
            kind, key = what[fut]
            result: Any = fut.result()
            if kind == "proof":
                done[key] = result
                text = f"proved {key.preset}, {key.players} players: {key.name}"
            elif kind == "refine":
                refined[key] = result
                text = f"refinement check: {key} done"
            elif kind == "dealt":
                dealt[key] = result
                text = f"starting points of {key} checked"
            elif kind == "directed":
                directed_result = result
                text = "directed deals replayed"
            elif kind == "fuzz":
                chunks.append(result)
                text = f"fuzzed {key.preset}, draws {key.start}-{key.stop - 1}"
            else:
                bound_rows[key] = result
                text = f"bounds of {key} done"
            bar.update(task, description=text)
            bar.advance(task)
    for name, rs in (collect(runnable, done) if runnable else {}).items():
        proofs[name] = summarize(name, rs)
    ordered = {name: proofs[name] for name in names if name in proofs}
    bounds_out = [b for n in names for b in bound_rows.get(n, [])]
    report = campaign_report(names, chunks, time.monotonic() - pool_started) if fuzz_draws else None
    return (
        ordered,
        {n: refined[n] for n in names if n in refined},
        bounds_out,
        {n: dealt[n] for n in names if n in dealt},
        directed_result,
        report,
    )


def summary_json(
    names: list[str],
    proofs: dict[str, ProofSummary],
    refined: dict[str, RefineResult],
    report: Any,
    wall: float,
    ok: bool,
    dealt: dict[str, DealtResult] | None = None,
) -> dict[str, Any]:
    """The machine-readable summary: one object per preset (proofs, refinement check, fuzz), and the
    whole run's verdict and wall time."""
    fuzz_rows = {p.preset: p for p in report.presets} if report is not None else {}
    out: list[dict[str, Any]] = []
    for name in names:
        obj: dict[str, Any] = {"preset": name}
        pr = proofs.get(name)
        if pr is not None:
            obj["proofs"] = {
                "proved": pr.proved,
                "total": pr.total,
                "solver_seconds": round(pr.seconds, 2),
                "second_solver": {
                    "agrees": pr.agrees,
                    "no_answer": pr.no_answer,
                    "disagrees": pr.disagrees,
                    "no_answer_reasons": list(pr.unanswered),
                },
                "problems": list(pr.problems),
            }
        rf = refined.get(name)
        if rf is not None:
            obj["refine"] = {
                "classes": len(rf.classes),
                "classes_covered": rf.covered,
                "witnesses": rf.witnesses,
                "random_states": rf.random_states,
                "certified_witnesses": rf.certified,
                "certificate_notes": list(rf.certificate_notes),
                "seconds": round(rf.seconds, 2),
                "ok": rf.ok,
                "failures": rf.failures(),
            }
        dr = (dealt or {}).get(name)
        if dr is not None:
            obj["starting_points"] = {
                "fresh_deals": dr.deals,
                "readings_of_init": dr.combinations,
                "scripted_games": dr.games,
                "seconds": round(dr.seconds, 2),
                "problems": list(dr.problems),
            }
        fz = fuzz_rows.get(name)
        if fz is not None:
            obj["fuzz"] = {
                "deals": fz.deals,
                "games": fz.games,
                "steps": fz.steps,
                "distinct_states": fz.distinct_states,
                "failures": list(fz.failures),
            }
        out.append(obj)
    return {"ok": ok, "wall_seconds": round(wall, 1), "presets": out}


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from comet.fuzz import run_campaign

    names = args.preset or sorted(PRESETS)
    for name in names:
        preset(name)
    if args.seconds is not None and args.fuzz_deals is not None:
        raise ValueError("give --seconds (a time budget) or --fuzz-deals (a number of draws), not both")
    if args.seconds is not None and args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    if args.fuzz_deals is not None and args.fuzz_deals <= 0:
        raise ValueError("--fuzz-deals must be positive")
    seconds: float | None = args.seconds
    draws = 0 if args.no_fuzz or seconds is not None else args.fuzz_deals or FUZZ_DRAWS
    if args.jobs < 1:
        raise ValueError(f"--jobs takes a number of processes >= 1, not {args.jobs}")
    started = time.monotonic()
    # piped output: wide enough that no preset name is cut short ("commit_…")
    console = Console() if sys.stdout.isatty() else Console(width=200)
    proofs: dict[str, ProofSummary] = {}
    bound_rows: list[Any] | None = None
    dealt: dict[str, DealtResult] = {}
    replayed: Directed | None = None
    report = None
    if args.jobs > 1:
        proofs, refined, bound_rows, dealt, replayed, report = run_pooled(names, console, args, draws)
    else:
        if not args.no_proofs:
            proofs = prove_presets(names, console, args.jobs, not args.no_recheck)
            dealt = dealt_presets([n for n in names if proofs[n].total], console)
        refined = {} if args.no_refine else refine_presets(names, console)
    if not args.no_fuzz and report is None:
        # a timed campaign (--seconds) after the proofs, or the counted one in this process (--jobs 1)
        report = run_campaign(
            names, seconds=seconds, deals=draws or None, seed=args.seed, progress=True, jobs=args.jobs
        )
    table = Table(title="comet verify")
    for col in (
        "preset",
        "proofs",
        "solver s",
        "2nd solver",
        "fuzz deals",
        "games",
        "steps",
        "distinct states",
        "fuzz failures",
    ):
        table.add_column(col, justify="left" if col == "preset" else "right", no_wrap=col == "preset")
    fuzz_rows = {p.preset: p for p in report.presets} if report else {}
    failed = False
    for name in names:
        pr = proofs.get(name)
        fz = fuzz_rows.get(name)
        if pr is not None and (pr.problems or pr.proved < pr.total):
            failed = True
        if fz is not None and fz.failures:
            failed = True
        proof_cell = "skipped" if pr is None else f"{pr.proved}/{pr.total}" if pr.total else "[red]none[/red]"
        if pr is not None and pr.total and pr.proved == pr.total:
            proof_cell = f"[green]{proof_cell}[/green]"
        elif pr is not None and pr.total:
            proof_cell = f"[red]{proof_cell}[/red]"
        table.add_row(
            name,
            proof_cell,
            "" if pr is None else f"{pr.seconds:.1f}",
            "" if pr is None else second_cell(pr),
            "" if fz is None else str(fz.deals),
            "" if fz is None else str(fz.games),
            "" if fz is None else str(fz.steps),
            "" if fz is None else str(fz.distinct_states),
            "" if fz is None else (f"[red]{len(fz.failures)}[/red]" if fz.failures else "[green]0[/green]"),
        )
    console.print(table)
    failed = print_dealt(console, dealt) or failed
    failed = print_refine(console, refined) or failed
    if not args.no_bounds:
        failed = print_bounds(console, names, bound_rows) or failed
    for pr in proofs.values():
        for line in pr.unanswered:
            console.print(f"second solver, no answer: {line}", highlight=False, markup=False)
        for problem in pr.problems:
            console.print(f"[red]proof problem[/red] {problem}", highlight=False)
    if report is not None:
        for f in report.failures:
            console.print(f"[red]fuzz failure[/red] {f}", highlight=False, markup=False)
        if report.never_hit:
            failed = directed(console, names, report.never_hit, replayed) or failed
    wall = time.monotonic() - started
    if args.json:
        import json
        from pathlib import Path

        summary = summary_json(names, proofs, refined, report, wall, not failed, dealt)
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    console.print(f"wall time {wall:.1f} s ({args.jobs} worker processes)")
    console.print("[red]verify: FAILED[/red]" if failed else "[green]verify: all proofs hold, no fuzz failures[/green]")
    return 1 if failed else 0


def directed(console: Any, names: list[str], missed: tuple[str, ...], replayed: Directed | None = None) -> bool:
    """The rule ids random play missed, met by directed deals instead (the proofs' shipped witness deals,
    played under every check of the fuzzer; ``replayed``: already replayed in the pool, ``directed_deals``);
    the ids still missed are printed.  True if a directed deal failed a check."""
    hits, failures = replayed if replayed is not None else directed_deals(names)
    met = [rid for rid in missed if hits[rid]]
    still = [rid for rid in missed if not hits[rid]]
    if met:
        console.print("rules random play missed, met by the directed deals (witness deals): " + ", ".join(met))
    if still:
        console.print("rules never hit, by random play or the directed deals (coverage gaps): " + ", ".join(still))
    for f in failures:
        console.print(f"[red]fuzz failure[/red] {f}", highlight=False, markup=False)
    return bool(failures)


def second_cell(pr: ProofSummary) -> str:
    """The second solver's verdicts: agreeing / re-checked (and any disagreement, in red)."""
    checked = pr.agrees + pr.no_answer + pr.disagrees
    if pr.disagrees:
        return f"[red]{pr.disagrees} DISAGREE[/red]"
    return f"{pr.agrees}/{checked} agree" if checked else "-"


# ---------------------------------------------------------------- the proofs' starting points (issue 23)


def dealt_presets(names: list[str], console: Any) -> dict[str, DealtResult]:
    """``comet_proofs.dealt.check_dealt`` for each preset in this process (``--jobs 1``)."""
    from comet_proofs.dealt import check_dealt
    from rich.progress import Progress

    out: dict[str, DealtResult] = {}
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("starting points", total=len(names))
        for name in names:
            bar.update(task, description=f"starting points of {name}")
            out[name] = check_dealt(name)
            bar.advance(task)
    return out


def print_dealt(console: Any, results: dict[str, DealtResult]) -> bool:
    """One row per preset: fresh deals replayed as initial states, reading combinations of Init covered,
    scripted games checked against the stated game end; every problem in full.  True if any failed."""
    from rich.markup import escape
    from rich.table import Table

    if not results:
        return False
    table = Table(
        title="starting points (non-vacuity): fresh deals of the model are initial states under every reading "
        "of Init, deal sizes and game ends as the sources state them"
    )
    for col in ("preset", "fresh deals", "readings of Init", "scripted games", "seconds", "result"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    for name, r in results.items():
        verdict = "[green]ok[/green]" if r.ok else f"[red]{len(r.problems)} problems[/red]"
        table.add_row(name, str(r.deals), str(r.combinations), str(r.games), f"{r.seconds:.1f}", verdict)
    console.print(table)
    for r in results.values():
        for problem in r.problems:
            console.print(f"[red]starting point problem[/red] {escape(problem)}", highlight=False)
    return not all(r.ok for r in results.values())


# ---------------------------------------------------------------- the directed refinement check (issue 8, P1)


def refine_presets(names: list[str], console: Any) -> dict[str, RefineResult]:
    """``comet_proofs.refine.refine`` for each preset in this process (a ``RefineResult`` per name), with a
    progress bar (``--jobs 1``; with more workers ``run_pooled`` runs them in the pool)."""
    from comet_proofs.refine import refine
    from rich.progress import Progress

    out: dict[str, RefineResult] = {}
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("refinement check", total=len(names))
        for name in names:
            out[name] = refine(name, progress=lambda text: bar.update(task, description=text))
            bar.advance(task)
    return out


def print_refine(console: Any, results: dict[str, RefineResult]) -> bool:
    """One table row per preset (classes covered, witnesses found, random states, verdict), then every
    failure in full; True if any preset failed."""
    from rich.table import Table

    if not results:
        return False
    table = Table(title="directed refinement check (the model against the encoding on Z3 witnesses)")
    for col in ("preset", "classes covered", "witnesses", "random states", "seconds", "result"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    failed = False
    for name, r in results.items():
        failed = failed or not r.ok
        verdict = "[green]ok[/green]" if r.ok else f"[red]{len(r.failures())} failures[/red]"
        covered = f"{r.covered}/{len(r.classes)}"
        table.add_row(name, covered, str(r.witnesses), str(r.random_states), f"{r.seconds:.1f}", verdict)
    console.print(table)
    certified, found = sum(r.certified for r in results.values()), sum(r.witnesses for r in results.values())
    if certified:
        console.print(
            f"{certified} of {found} witnesses are stored Z3 models (certificates) that still satisfy the formula "
            "built now: checked by evaluation, not searched; the comparison with the model is the same"
        )
    for r in results.values():
        for note in r.certificate_notes:
            console.print(note, markup=False, highlight=False)
        for failure in r.failures():
            console.print("[red]refinement failure[/red]")
            console.print(failure, markup=False, highlight=False)
    return failed


def print_bounds(console: Any, names: list[str], computed: list[Any] | None = None) -> bool:
    """The bounds of each preset at its typical player count (``computed`` when the pool made them), two
    facts apart: the proved upper bound (Z3 Optimize over Inv, an over-approximation) and the most a shipped
    witness deal reaches, replayed by the model, with the gap between them ("exact" when there is none).  The
    best of the sampled deals is only a check: True if a real deal beat a proved bound."""
    from comet_proofs.bounds import bounds, typical_players
    from rich.progress import Progress
    from rich.table import Table

    rows = list(computed) if computed is not None else []
    if computed is None:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("bounds", total=len(names))
            for name in names:
                bar.update(task, description=f"bounds of {name}")
                rows += bounds(name, players=(typical_players(name),), deals=100)
                bar.advance(task)
    table = Table(
        title="bounds per deal: proved (the optimum over Inv at the Comet's starting value, by Z3 Optimize or a stored "
        "model attaining it and an unsat proof that nothing exceeds it, and for every value v) "
        "against the most a witness deal reaches (replayed by the model)"
    )
    for col in ("preset", "players", "quantity", "proved ≤", "for every v", "witness deal", "gap", "sampled best"):
        table.add_column(col, justify="left" if col in ("preset", "quantity") else "right")
    for b in rows:
        upper = "-" if b.upper is None else str(b.upper)
        in_value = "" if b.per_value is None else f"{b.per_value[0]} + {b.per_value[1]}v"
        witness = "none" if b.witness is None else f"{b.witness} ({b.witness_file.split('/')[-1]})"
        if b.exact:
            gap = "[green]exact[/green]"
        elif b.upper is None:
            gap = "no bound"
        elif b.witness is None or b.sampled > b.witness:
            gap = f"{b.upper - b.sampled} (to sampled)"
        else:
            gap = str(b.gap)
        sampled = f"{b.sampled} (seed {b.seed})" if b.ok else f"[red]{b.sampled} (seed {b.seed}) ABOVE[/red]"
        table.add_row(b.preset, str(b.players), b.quantity, upper, in_value, witness, gap, sampled)
    console.print(table)
    for note in dict.fromkeys(note for b in rows for note in b.certificate_notes):
        console.print(note, markup=False, highlight=False)
    return not all(b.ok for b in rows)
