"""Which units of work a ``comet verify`` run has, in the order they go out, and what is made of their
results once all are in.

The units, longest first so that neither worker waits for the other at the end: the fast engines against
the reference (one unit per compiled kernel: seconds when Numba's cache is warm, about half a minute each
when it compiles), the refinement check and the bounds (seconds each), the starting points, the shipped
vectors, the directed deals (replayed while the proofs run, not after the campaign), the fuzz campaign's
draws (``comet.fuzz``'s work units: the report is the one-core campaign's for the same draws), then the
proof obligations slowest first, hundreds of them under a tenth of a second, which fill the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from comet.verify.fastcheck import FastResult, check_presets, kernel_groups
from comet.verify.pool import Unit, failure
from comet.verify.results import Directed, ProofSummary, Verified, summarize
from comet.verify.shipped import replay_preset

if TYPE_CHECKING:
    from comet_proofs.bounds import Bound
    from comet_proofs.parallel import Task

#: The default campaign: draws per preset (two work units of ``comet.fuzz.CHUNK``), handed to the worker
#: pool beside the obligations, so its CPU fills the cores instead of following them.  A fixed number, not a
#: time budget: the same campaign on any machine (``--seconds`` still runs a timed one after the pool).
FUZZ_DRAWS = 40
#: Deals sampled per preset by the bounds check (the best of them must stay under each proved bound).
BOUND_DEALS = 100


@dataclass(frozen=True, slots=True)
class Options:
    """What a run checks: ``fuzz_draws`` 0 runs no counted campaign in the units (``--no-fuzz``, or a timed
    one after them); ``directed`` the directed deals (with any campaign); ``vectors`` the vectors directory
    to replay (None: skipped)."""

    proofs: bool = True
    recheck: bool = True
    refine: bool = True
    bounds: bool = True
    fuzz_draws: int = FUZZ_DRAWS
    directed: bool = True
    vectors: str | None = None
    fast: bool = True
    seed: int = 0


@dataclass
class Plan:
    """A run's units, the presets whose proofs were planned (with how many obligations each), and where the
    results go."""

    units: list[Unit[Any]]
    runnable: list[str]
    planned: dict[str, int]
    found: Verified

    def finish(self, seconds: float) -> Verified:
        """The proofs summed up per preset (each assume-guarantee proof discharged), the campaign's report
        made from its units."""
        from comet_proofs.parallel import collect

        found = self.found
        for name, rs in (collect(self.runnable, found.proved) if self.runnable else {}).items():
            found.proofs[name] = summarize(name, rs, self.planned[name])
        found.proofs = found.in_order(found.proofs)
        if any(u.check == "fuzz" for u in self.units):
            from comet.fuzz import campaign_report

            found.report = campaign_report(found.names, found.chunks, seconds)
        return found


def directed_deals(names: Sequence[str]) -> Directed:
    """The directed deals' hits and failures (``comet.fuzz.directed_hits`` over the proofs' shipped witness
    deals of ``names``): what the run reports for the rule ids random play missed."""
    from comet_proofs.traces import shipped_deals

    from comet.fuzz import directed_hits

    return directed_hits(shipped_deals(names))


def typical_bounds(name: str, deals: int = BOUND_DEALS) -> list[Bound]:
    """The bounds of ``name`` at its typical player count (``comet_proofs.bounds.typical_players``)."""
    from comet_proofs.bounds import bounds, typical_players

    return bounds(name, players=(typical_players(name),), deals=deals)


def typical_count(name: str) -> str:
    """The player count the bounds are reported at, for a failure's row ("?" where there is no encoding)."""
    from comet_proofs.bounds import typical_players

    try:
        return str(typical_players(name))
    except (KeyError, ValueError):
        return "?"


def proof_tasks(names: Sequence[str], found: Verified) -> tuple[list[str], dict[str, int], list[Task]]:
    """The presets with proofs, how many obligations each, and their tasks slowest first (as
    ``comet_proofs.parallel.tasks`` orders them; each plan is built once here, before the workers fork).  A
    preset without an encoding is a problem, not a pass; one whose plan cannot be built, a failed unit."""
    from comet_proofs.parallel import tasks

    runnable: list[str] = []
    planned: dict[str, int] = {}
    work: list[Task] = []
    for name in names:
        try:
            mine = tasks([name])
        except (ValueError, KeyError) as err:
            found.proofs[name] = ProofSummary(0, 0, 0.0, (f"{name}: no proofs: {err}",))
            continue
        except Exception as err:
            found.failures.append(failure("proof plan", name, "all its counts", "", err))
            continue
        runnable.append(name)
        planned[name] = len(mine)
        work += mine
    return runnable, planned, sorted(work, key=lambda t: -t.weight)


def plan(names: list[str], options: Options) -> Plan:
    """The units of a run over ``names``, longest first (see the module's docstring)."""
    found = Verified(names)
    units: list[Unit[Any]] = []

    def keep(into: dict[str, Any], key: str) -> Callable[[Any], None]:
        return lambda result: into.__setitem__(key, result)

    def keep_fast(results: tuple[FastResult, ...]) -> None:
        found.fast.update({r.preset: r for r in results})

    if options.fast:
        for kernel, members in kernel_groups(names):
            check = partial(check_presets, members, options.seed)
            units.append(
                Unit("fast engine", ", ".join(members), "all its counts", f"{kernel} kernel", check, keep_fast)
            )
    if options.refine:
        from comet_proofs.refine import refine

        for name in names:
            units.append(
                Unit("refinement check", name, "all its counts", "", partial(refine, name), keep(found.refined, name))
            )
    if options.bounds:
        for name in names:
            units.append(
                Unit("bounds", name, typical_count(name), "", partial(typical_bounds, name), keep(found.bounds, name))
            )
    runnable: list[str] = []
    planned: dict[str, int] = {}
    work: list[Task] = []
    if options.proofs:
        runnable, planned, work = proof_tasks(names, found)
        from comet_proofs.dealt import check_dealt

        for name in runnable:
            units.append(
                Unit("starting points", name, "all its counts", "", partial(check_dealt, name), keep(found.dealt, name))
            )
    if options.vectors is not None:
        for name in names:
            replay = partial(replay_preset, name, options.vectors)
            units.append(Unit("vectors", name, "all its counts", "", replay, keep(found.vectors, name)))
    if options.directed:
        for name in names:
            deals = partial(directed_deals, (name,))
            units.append(Unit("directed deals", name, "all its counts", "", deals, keep(found.directed, name)))
    if options.fuzz_draws:
        from comet.fuzz import fuzz_chunk, fuzz_units

        for u in fuzz_units(names, options.seed, options.fuzz_draws):
            what = f"draws {u.start}-{u.stop - 1}"
            units.append(Unit("fuzz", u.preset, "any", what, partial(fuzz_chunk, u), found.chunks.append))
    if work:
        from comet_proofs.parallel import run_task

        for t in work:

            def take_proof(result: Any, t: Task = t) -> None:
                found.proved[t] = result

            units.append(
                Unit("proof", t.preset, str(t.players), t.name, partial(run_task, t, options.recheck), take_proof)
            )
    return Plan(units, runnable, planned, found)
