"""What a ``comet verify`` run found, gathered as its units finish (``Verified``), and the verdict over all of
it: the proofs per preset (``ProofSummary``), the refinement check, the bounds, the starting points, the
directed deals, the fuzz campaign, the shipped vectors, the fast engines, and the units that failed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from comet.verify.fastcheck import FastResult
from comet.verify.pool import UnitFailure
from comet.verify.shipped import VectorsResult

if TYPE_CHECKING:
    from collections import Counter

    from comet_proofs.bounds import Bound
    from comet_proofs.dealt import DealtResult
    from comet_proofs.obligation import ProofResult
    from comet_proofs.parallel import Task
    from comet_proofs.refine import RefineResult

    from comet.fuzz import CampaignReport, ChunkReport

T = TypeVar("T")

#: The directed deals' result: hits per rule id, failures (``comet.fuzz.directed_hits``).
Directed = tuple["Counter[str]", tuple[str, ...]]


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

    @property
    def ok(self) -> bool:
        return not self.problems and self.proved == self.total


def summarize(name: str, rs: Sequence[ProofResult], planned: int | None = None) -> ProofSummary:
    """One preset's proof results as a table row: proved, total (the obligations planned, ``planned``, when
    some of them failed to run), solver seconds, problems, second solver."""
    problems = tuple(f"{name}, {r.players} players, {r.name}:\n{r.counterexample or ''}" for r in rs if not r.proved)
    return ProofSummary(
        sum(1 for r in rs if r.proved),
        len(rs) if planned is None else planned,
        sum(r.seconds for r in rs),
        problems,
        sum(1 for r in rs if r.second == "agrees"),
        sum(1 for r in rs if r.second == "no answer"),
        sum(1 for r in rs if r.second == "DISAGREES"),
        tuple(f"{name}, {r.players} players, {r.name}: {r.second_reason}" for r in rs if r.second == "no answer"),
    )


@dataclass
class Verified:
    """Everything a run found, filled in by its units' ``take`` (``comet.verify.plan``) in any order; read
    per preset in the order of ``names``."""

    names: list[str]
    proofs: dict[str, ProofSummary] = field(default_factory=dict)
    proved: dict[Task, ProofResult] = field(default_factory=dict)
    refined: dict[str, RefineResult] = field(default_factory=dict)
    bounds: dict[str, list[Bound]] = field(default_factory=dict)
    dealt: dict[str, DealtResult] = field(default_factory=dict)
    directed: dict[str, Directed] = field(default_factory=dict)
    chunks: list[ChunkReport] = field(default_factory=list)
    vectors: dict[str, VectorsResult] = field(default_factory=dict)
    fast: dict[str, FastResult] = field(default_factory=dict)
    failures: list[UnitFailure] = field(default_factory=list)
    report: CampaignReport | None = None

    def bound_rows(self) -> list[Bound]:
        return [b for n in self.names for b in self.bounds.get(n, [])]

    def in_order(self, found: dict[str, T]) -> dict[str, T]:
        return {n: found[n] for n in self.names if n in found}

    def directed_result(self) -> Directed | None:
        """The directed deals' hits and failures over every preset (None: none were replayed)."""
        if not self.directed:
            return None
        from collections import Counter

        hits: Counter[str] = Counter()
        failures: list[str] = []
        for name in self.names:
            if name in self.directed:
                more, bad = self.directed[name]
                hits.update(more)
                failures += bad
        return hits, tuple(failures)

    def failed(self) -> bool:
        """Anything failed: a proof, a fuzz draw, the starting points, the refinement check, a bound beaten
        by a real deal, a directed deal, a vector, the fast engine, or a unit that raised."""
        fuzz = self.report.failures if self.report is not None else ()
        directed = self.directed_result()
        return bool(
            self.failures
            or any(not p.ok for p in self.proofs.values())
            or fuzz
            or any(not r.ok for r in self.dealt.values())
            or any(not r.ok for r in self.refined.values())
            or any(not b.ok for b in self.bound_rows())
            or (directed is not None and directed[1])
            or any(not r.ok for r in self.vectors.values())
            or any(not r.ok for r in self.fast.values())
        )
