"""Run the proof obligations of several presets in worker processes (``comet verify``, ``comet prove``).

An ``Obligation`` holds closures over Z3 terms, which do not cross process boundaries, so a task names
an obligation by (preset, players, index in ``plan``) and the worker finds the plan among those built
before it was forked, or builds it (cached per process).  Each obligation is solved in a Z3 context of
its own (``solving.solve_alone``), so the terms a worker built before do not change how Z3 searches
(Z3 keeps a little state across contexts, so a search's size can still vary slightly with what the
worker did before: ``solving.Solved``).  Tasks go out slowest first (the encodings of
the greatest ``proof_weight``, the larger player counts), so two workers finish close together.  With ``jobs=1``
everything runs in this process (a test's monkeypatched encoding is then seen).

``recheck``: every obligation the first solver proved with little work, in at most three cases, is
checked a second time by Z3 with another tactic pipeline (simplify, propagate-values, solve-eqs,
elim-uncnstr, then the SMT core, not the default solver's preprocessing) under a resource limit of a few
times the first solver's work (``proofs.second_budget``); ``ProofResult.second`` says "agrees", "no
answer" or "DISAGREES" (a disagreement fails the obligation).  The joint step checks are not re-checked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from comet_proofs.encoding import Encoding
from comet_proofs.obligation import Obligation, ProofResult
from comet_proofs.proofs import discharge, plan
from comet_proofs.registry import encoding_for

SPLIT_WEIGHT = 8.0


@dataclass(frozen=True, slots=True)
class Task:
    """One obligation to prove: the ``index``-th of ``preset``'s plan for ``players`` seats, and its weight
    (its encoding's ``proof_weight``, the player count, a case split's cost) for handing out the costliest first."""

    preset: str
    players: int
    index: int
    name: str
    weight: float


_PLANS: dict[tuple[str, int, type[Encoding]], list[Obligation]] = {}


def _plan(preset: str, players: int) -> list[Obligation]:
    """The plan of ``preset`` for ``players`` seats, built once per process and encoding class (a test's
    planted encoding gets a plan of its own; the class is held by the key, so never mistaken for
    another).  ``tasks`` builds them in the main process, so workers forked after it inherit them
    (``comet verify``: 2 s less wall time, 2026-12-01)."""
    key = (preset, players, type(encoding_for(preset)))
    if key not in _PLANS:
        _PLANS[key] = plan(preset, [players])
    return _PLANS[key]


def tasks(presets: Sequence[str], players: Sequence[int] | None = None) -> list[Task]:
    """Every obligation of ``presets`` (each for its own player counts, or ``players``), slowest first;
    ValueError for an unknown preset or player count."""
    out: list[Task] = []
    for preset in presets:
        enc = encoding_for(preset)
        counts = sorted(players if players is not None else enc.player_counts)
        for n in counts:
            for i, ob in enumerate(_plan(preset, n)):
                weight = enc.proof_weight * n * (SPLIT_WEIGHT if ob.cases and len(ob.cases) > 2 else 1.0)
                out.append(Task(preset, n, i, ob.name, weight))
    return sorted(out, key=lambda t: -t.weight)


def run_task(task: Task, recheck: bool = True) -> ProofResult:
    """Prove one obligation (in a worker: on the plan inherited from the main process, or built there)."""
    ob = _plan(task.preset, task.players)[task.index]
    if ob.name != task.name:
        raise RuntimeError(f"plan changed under the task: {ob.name!r} is not {task.name!r}")
    return ob.run(recheck=recheck)


def default_jobs() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def submit(pool: Executor, work: Sequence[Task], recheck: bool) -> dict[Future[ProofResult], Task]:
    """Hand every task to ``pool`` (in the order given: slowest first), for ``collect``."""
    return {pool.submit(run_task, t, recheck): t for t in work}


def collect(presets: Sequence[str], done: dict[Task, ProofResult]) -> dict[str, list[ProofResult]]:
    """The results per preset in plan order, with every assume-guarantee proof discharged."""
    out: dict[str, list[ProofResult]] = {p: [] for p in presets}
    for t in sorted(done, key=lambda t: (presets.index(t.preset), t.players, t.index)):
        out[t.preset].append(done[t])
    return {p: discharge(rs) for p, rs in out.items()}


def prove_presets(
    presets: Sequence[str],
    players: Sequence[int] | None = None,
    jobs: int = 2,
    recheck: bool = True,
    progress: Callable[[Task, ProofResult], None] | None = None,
) -> dict[str, list[ProofResult]]:
    """Every obligation of ``presets``, in ``jobs`` processes; results per preset in plan order."""
    work = tasks(presets, players)
    done: dict[Task, ProofResult] = {}
    if jobs <= 1:  # in this process, on the plans ``tasks`` just built (kept per encoding class)
        for t in work:
            done[t] = run_task(t, recheck)
            if progress is not None:
                progress(t, done[t])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = submit(pool, work, recheck)
            for fut in as_completed(futures):
                t = futures[fut]
                done[t] = fut.result()
                if progress is not None:
                    progress(t, done[t])
    return collect(presets, done)
