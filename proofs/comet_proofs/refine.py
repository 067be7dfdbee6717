"""The directed refinement check: the encoding against the model on states Z3 finds for each
behaviour class of the game (its folder's ``classes.py``, over ``catalogue.py``), not only on states random play happens to meet.

For each class of a preset and each reading combination it names, Z3 finds a step
``Inv(s) ∧ T(s, a, s2) ∧ guard(s, a, s2)``; ``concrete.concretise`` turns ``s`` into a real
``DealState`` (and ``enc.abstract`` must give ``s`` back, else Z3 is asked for another ``s``); then,
on that state, the model's legal actions and successors must equal the encoding's exactly
(``crosscheck.check_state``), and every finished successor's returns and points must equal the
encoding's (with the model's payments shown when they do not).  A class without a witness is a
failure.  A short random cross-check (``crosscheck.sample_states``) is a second source of states.

Finding ``s`` depends on the encoding alone, so the model Z3 found is kept as a certificate
(``certificates``, ``certified/<preset>.json``): a run evaluates the formula, built now, on the stored model
instead of searching (a few milliseconds), and searches only where it no longer evaluates to true or no
longer concretises (saying so).  The comparison with the model on the state is the same either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from comet_proofs.catalogue import BehaviourClass
from comet_proofs.certificates import Certificates
from comet_proofs.crosscheck import sample_states
from comet_proofs.encoding import Encoding
from comet_proofs.pinning import reading_combinations, sweep_combinations
from comet_proofs.refine_compare import check_witness, compare
from comet_proofs.refine_witness import Context, Witness, find_witness, stored_witness
from comet_proofs.registry import encoding_for, game_part


def classes_for(preset: str) -> tuple[BehaviourClass, ...]:
    """The behaviour classes of ``preset``'s game (its folder's ``classes.CLASSES``); ValueError if the game
    has none."""
    found = game_part(preset, "classes", "CLASSES")
    if not isinstance(found, tuple) or not all(isinstance(c, BehaviourClass) for c in found):
        raise ValueError(f"no behaviour classes for preset {preset!r}")
    return found


@dataclass(frozen=True, slots=True)
class ClassResult:
    """One behaviour class: its witnesses, the reading combinations without one, and the mismatches."""

    name: str
    witnesses: tuple[Witness, ...]
    missing: tuple[str, ...]
    mismatches: tuple[str, ...]
    # With ``sweep``: single readings under which the class cannot happen (not a failure: e.g. the Comet
    # leading under RUL-COMET-LEAD = forbidden).
    impossible: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.missing and not self.mismatches


@dataclass(frozen=True, slots=True)
class RefineResult:
    """The directed refinement check of one preset."""

    preset: str
    classes: tuple[ClassResult, ...]
    random_states: int
    random_mismatches: tuple[str, ...]
    seconds: float
    # witnesses taken from stored certificates (checked by evaluation, not searched), and one note per
    # certificate that was stale or missing (searched afresh instead: ``certificates``)
    certified: int = 0
    certificate_notes: tuple[str, ...] = ()

    @property
    def witnesses(self) -> int:
        return sum(len(c.witnesses) for c in self.classes)

    @property
    def covered(self) -> int:
        """Classes with a witness for every reading combination they name."""
        return sum(1 for c in self.classes if not c.missing)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.classes) and not self.random_mismatches

    def failures(self) -> list[str]:
        out: list[str] = []
        for c in self.classes:
            out += [f"{self.preset}: class '{c.name}' has no witness {m}" for m in c.missing]
            out += c.mismatches
        return out + [f"{self.preset}: random cross-check:\n{m}" for m in self.random_mismatches]


def refine(
    preset: str,
    *,
    players: Sequence[int] | None = None,
    random_deals: int = 1,
    seed: int = 0,
    enc: Encoding | None = None,
    only: Sequence[str] = (),
    sweep: bool = False,
    progress: Callable[[str], None] | None = None,
    certificates: Certificates | None = None,
) -> RefineResult:
    """The directed refinement check of ``preset`` over its player counts (or ``players``); ``enc``: its
    encoding, or a planted one in tests; ``only``: just the classes whose name contains one of these;
    ``sweep``: also witness every class under each reading of every quantified ruling, one at a time (a
    reading under which the class cannot happen is listed as impossible, not failed); ``certificates``:
    the stored witnesses to check before searching (default: the preset's committed ones;
    ``Certificates.searching``: none, every witness searched)."""
    t0 = time.perf_counter()
    enc = enc or encoding_for(preset)
    certs = certificates if certificates is not None else Certificates.stored(preset)
    notes_before, used_before = len(certs.notes), certs.used
    certs.absence("refinement check")
    counts = tuple(players) if players else enc.player_counts
    results: list[ClassResult] = []
    contexts: dict[int, Context] = {}

    def context(n: int) -> Context:
        if n not in contexts:
            contexts[n] = Context(enc, n)
        return contexts[n]

    catalogue = [c for c in classes_for(preset) if not only or any(k in c.name for k in only)]
    # rotate over a few spread player counts (each needs its formulas built); the rest only if needed
    spread = tuple(dict.fromkeys([counts[0], counts[min(1, len(counts) - 1)], counts[len(counts) // 2], counts[-1]]))
    for i, cls in enumerate(catalogue):
        k = i % len(spread)
        order = spread[k:] + spread[:k] + tuple(n for n in counts if n not in spread)
        witnesses: list[Witness] = []
        missing: list[str] = []
        mismatches: list[str] = []
        impossible: list[str] = []
        declared = reading_combinations(enc, cls)
        extra = [o for o in sweep_combinations(enc) if o not in declared] if sweep else []
        for overrides in declared + extra:
            if progress is not None:
                progress(f"refine {preset}: {cls.name}")
            # the sweep's extra combinations have no stored witness (none are written for them)
            w = find_witness(context, preset, cls, overrides, order, certs if overrides in declared else None)
            label = "under " + (", ".join(f"{k}={v}" for k, v in overrides) or "the preset's readings")
            if w is None:
                (missing if overrides in declared else impossible).append(
                    f"{label} ({', '.join(map(str, counts))} players)"
                )
                continue
            witnesses.append(w)
            mismatches += check_witness(contexts[w.players], w)
        results.append(ClassResult(cls.name, tuple(witnesses), tuple(missing), tuple(mismatches), tuple(impossible)))
    sample_states_n = 0
    random_bad: tuple[str, ...] = ()
    if random_deals > 0:
        if progress is not None:
            progress(f"refine {preset}: random cross-check")
        states = sample_states(counts[:2], random_deals, seed, per_deal=4, preset=preset)
        bad: list[str] = []
        for k, state in enumerate(states):
            bad += compare(context(state.players), state, f"{preset}: random state {k}", invariant=True)
        sample_states_n, random_bad = len(states), tuple(bad)
    return RefineResult(
        preset,
        tuple(results),
        sample_states_n,
        random_bad,
        time.perf_counter() - t0,
        certs.used - used_before,
        tuple(certs.notes[notes_before:]),
    )


def audit(preset: str, certificates: Certificates) -> None:
    """Look up the stored witness of every class of ``preset`` under every reading combination it names
    (``stored_witness``: evaluated, no search, no comparison with the model); the ones that do not fit, or
    are missing, leave their notes in ``certificates``."""
    enc = encoding_for(preset)
    contexts: dict[int, Context] = {}

    def context(n: int) -> Context:
        if n not in contexts:
            contexts[n] = Context(enc, n)
        return contexts[n]

    for cls in classes_for(preset):
        for overrides in reading_combinations(enc, cls):
            stored_witness(context, preset, cls, overrides, enc.player_counts, certificates)
