"""``comet verify``'s tables, one per check, each followed by its problems in full: the summary per preset
(proofs, second solver, fuzz), the units that failed, the starting points, the refinement check, the
bounds, the shipped vectors, the fast engines, the directed deals and the problems of the proofs and the
campaign."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from comet.verify.fastcheck import FastResult
from comet.verify.pool import UnitFailure
from comet.verify.results import Directed, ProofSummary, Verified
from comet.verify.shipped import VectorsResult

if TYPE_CHECKING:
    from comet_proofs.bounds import Bound
    from comet_proofs.dealt import DealtResult
    from comet_proofs.refine import RefineResult


#: Problems of one kind printed per preset (all of them are in ``--json``).
SHOWN = 5


def shown(lines: Sequence[str]) -> list[str]:
    """The first ``SHOWN`` of ``lines``, and how many more there are."""
    more = len(lines) - SHOWN
    return [*lines[:SHOWN], *([f"... and {more} more (every one in --json)"] if more > 0 else [])]


def table(title: str, columns: Sequence[str], left: Sequence[str] = ("preset",)) -> Table:
    out = Table(title=title)
    for col in columns:
        out.add_column(col, justify="left" if col in left else "right", no_wrap=col == "preset")
    return out


def verdict_cell(ok: bool, problems: int, noun: str = "problems") -> str:
    return "[green]ok[/green]" if ok else f"[red]{problems} {noun}[/red]"


def second_cell(pr: ProofSummary) -> str:
    """The second solver's verdicts: agreeing / re-checked (and any disagreement, in red)."""
    checked = pr.agrees + pr.no_answer + pr.disagrees
    if pr.disagrees:
        return f"[red]{pr.disagrees} DISAGREE[/red]"
    return f"{pr.agrees}/{checked} agree" if checked else "-"


def print_all(console: Console, found: Verified) -> None:
    """Every table of the run, in the order a reader checks them."""
    print_summary(console, found)
    print_failures(console, found.failures)
    print_dealt(console, found.in_order(found.dealt))
    print_refine(console, found.in_order(found.refined))
    if found.bound_rows():
        print_bounds(console, found.bound_rows())
    print_vectors(console, found.in_order(found.vectors))
    print_fast(console, found.in_order(found.fast))
    for pr in found.proofs.values():
        for line in pr.unanswered:
            console.print(f"second solver, no answer: {line}", highlight=False, markup=False)
        for problem in pr.problems:
            console.print(f"[red]proof problem[/red] {escape(problem)}", highlight=False)
    if found.report is not None:
        for f in found.report.failures:
            console.print(f"[red]fuzz failure[/red] {escape(f)}", highlight=False)
    print_directed(console, found.report.never_hit if found.report is not None else (), found.directed_result())


def print_summary(console: Console, found: Verified) -> None:
    """One row per preset: proofs, solver seconds, the second solver, the fuzz campaign."""
    out = table(
        "comet verify",
        (
            "preset",
            "proofs",
            "solver s",
            "2nd solver",
            "fuzz deals",
            "games",
            "steps",
            "distinct states",
            "fuzz failures",
        ),
    )
    fuzz_rows = {p.preset: p for p in found.report.presets} if found.report is not None else {}
    for name in found.names:
        pr = found.proofs.get(name)
        fz = fuzz_rows.get(name)
        proof_cell = "skipped" if pr is None else f"{pr.proved}/{pr.total}" if pr.total else "[red]none[/red]"
        if pr is not None and pr.total:
            proof_cell = f"[green]{proof_cell}[/green]" if pr.ok else f"[red]{proof_cell}[/red]"
        out.add_row(
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
    console.print(out)


def print_failures(console: Console, failures: Sequence[UnitFailure]) -> None:
    """The units that raised instead of answering, one row each (what, preset, player count, the error),
    then where each was raised; the other checks' tables still follow."""
    if not failures:
        return
    out = table(
        "units that failed (raised instead of answering; every other result below is complete)",
        ("check", "preset", "players", "unit", "error"),
        left=("check", "preset", "unit", "error"),
    )
    for f in failures:
        out.add_row(escape(f.check), escape(f.preset), f.players, escape(f.what), f"[red]{escape(f.message)}[/red]")
    console.print(out)
    for f in failures:
        if f.where:
            console.print(f"{f.check} of {f.preset}: raised at {f.where}", highlight=False, markup=False)


def print_dealt(console: Console, results: dict[str, DealtResult]) -> None:
    """One row per preset: fresh deals replayed as initial states, reading combinations of Init covered,
    scripted games checked against the stated game end; every problem in full."""
    if not results:
        return
    out = table(
        "starting points (non-vacuity): fresh deals of the model are initial states under every reading "
        "of Init, deal sizes and game ends as the sources state them",
        ("preset", "fresh deals", "readings of Init", "scripted games", "seconds", "result"),
    )
    for name, r in results.items():
        out.add_row(
            name,
            str(r.deals),
            str(r.combinations),
            str(r.games),
            f"{r.seconds:.1f}",
            verdict_cell(r.ok, len(r.problems)),
        )
    console.print(out)
    for r in results.values():
        for problem in r.problems:
            console.print(f"[red]starting point problem[/red] {escape(problem)}", highlight=False)


def print_refine(console: Console, results: dict[str, RefineResult]) -> None:
    """One row per preset (classes covered, witnesses found, random states, verdict), then every failure."""
    if not results:
        return
    out = table(
        "directed refinement check (the model against the encoding on Z3 witnesses)",
        ("preset", "classes covered", "witnesses", "random states", "seconds", "result"),
    )
    for name, r in results.items():
        covered = f"{r.covered}/{len(r.classes)}"
        verdict = verdict_cell(r.ok, len(r.failures()), "failures")
        out.add_row(name, covered, str(r.witnesses), str(r.random_states), f"{r.seconds:.1f}", verdict)
    console.print(out)
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


def print_bounds(console: Console, rows: Sequence[Bound]) -> None:
    """The bounds of each preset at its typical player count, two facts apart: the proved upper bound (Z3
    Optimize over Inv, an over-approximation) and the most a shipped witness deal reaches, replayed by the
    model, with the gap between them ("exact" when there is none).  The best of the sampled deals is only a
    check: a real deal above a proved bound is shown in red (and fails the run)."""
    out = table(
        "bounds per deal: proved (the optimum over Inv at the Comet's starting value, by Z3 Optimize or a stored "
        "model attaining it and an unsat proof that nothing exceeds it, and for every value v) "
        "against the most a witness deal reaches (replayed by the model)",
        ("preset", "players", "quantity", "proved ≤", "for every v", "witness deal", "gap", "sampled best"),
        left=("preset", "quantity"),
    )
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
        out.add_row(b.preset, str(b.players), b.quantity, upper, in_value, witness, gap, sampled)
    console.print(out)
    if rows:
        exact = sum(b.exact for b in rows)
        console.print(
            f"bounds: {exact} of {len(rows)} rows exact (proved and reached by a shipped deal); the others show "
            "their gap (spec/extremes.md; the search for better deals is `comet bounds --search`)",
            highlight=False,
        )
    for note in dict.fromkeys(note for b in rows for note in b.certificate_notes):
        console.print(note, markup=False, highlight=False)


def print_vectors(console: Console, results: dict[str, VectorsResult]) -> None:
    """One row per preset: the shipped deal records, game records and malformed inputs the model replayed
    with the stated verdict, then every disagreement."""
    if not results:
        return
    out = table(
        "shipped vectors replayed by the model (deal and game records: verdict and exit code as stated; "
        "malformed inputs: refused with the stated kind; the files as index.json lists them)",
        ("preset", "deal records", "game records", "malformed", "seconds", "result"),
    )
    for name, r in results.items():
        verdict = (
            f"[yellow]{escape(r.missing)}[/yellow]" if r.missing else verdict_cell(r.ok, len(r.failures), "failures")
        )
        out.add_row(name, str(r.deals), str(r.games), str(r.malformed), f"{r.seconds:.1f}", verdict)
    console.print(out)
    for r in results.values():
        for f in shown(r.failures):
            console.print(f"[red]vector failure[/red] {escape(f)}", highlight=False)


def print_fast(console: Console, results: dict[str, FastResult]) -> None:
    """One row per preset: player counts and deals the fast engine played and the reference replayed action
    for action, then every mismatch; a row says why nothing was checked (no numba, rules it does not play)."""
    if not results:
        return
    out = table(
        "fast engine (comet.fast, compiled) against the reference: seeded deals of random play replayed action "
        "for action (cards, legal-action counts, choices, outcome)",
        ("preset", "players", "deals", "seconds", "result"),
    )
    for name, r in results.items():
        counts = f"{r.players[0]}-{r.players[-1]}" if len(r.players) > 1 else "".join(map(str, r.players))
        if r.skipped:
            verdict = f"[yellow]not checked: {escape(r.skipped)}[/yellow]"
        else:
            verdict = verdict_cell(r.ok, len(r.mismatches), "mismatches")
        out.add_row(name, counts or "-", str(r.deals), f"{r.seconds:.1f}", verdict)
    console.print(out)
    for r in results.values():
        for m in shown(r.mismatches):
            console.print(f"[red]fast engine mismatch[/red] {escape(m)}", highlight=False)


def print_directed(console: Console, missed: Sequence[str], replayed: Directed | None) -> None:
    """The rule ids random play missed, met by directed deals instead (the proofs' shipped witness deals,
    played under every check of the fuzzer); the ids still missed; every directed deal that failed a check."""
    if replayed is None:
        if missed:
            console.print("rules random play missed (the directed deals were not replayed): " + ", ".join(missed))
        return
    hits, failures = replayed
    met = [rid for rid in missed if hits[rid]]
    still = [rid for rid in missed if not hits[rid]]
    if met:
        console.print("rules random play missed, met by the directed deals (witness deals): " + ", ".join(met))
    if still:
        console.print("rules never hit, by random play or the directed deals (coverage gaps): " + ", ".join(still))
    for f in failures:
        console.print(f"[red]fuzz failure[/red] {escape(f)}", highlight=False)
