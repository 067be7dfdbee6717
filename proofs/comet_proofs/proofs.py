"""The proofs of a preset: its obligations for each player count (``plan``), run (``run_all``, ``prove``)
and combined (``discharge``: an assume-guarantee proof stands only with what it assumes), for
``comet prove`` / ``comet verify``; which invariant kinds of a preset they prove (``covered_invariants``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from comet_proofs.encoding import Encoding
from comet_proofs.obligation import Obligation, ProofResult
from comet_proofs.obligations import obligations
from comet_proofs.registry import encoding_for

# The invariant kinds of ``comet.presets.Preset.invariants`` and the obligation (name prefix) proving each.
INVARIANT_OBLIGATIONS: dict[str, str] = {
    "card_conservation": "card conservation",
    "termination": "termination",
    "legal_action_exists": "totality",
    "chips_zero_sum": "chip zero-sum",
    "points_non_negative": "deal scores non-negative",
    "game_total_is_sum_of_deals": "game total is the sum of deal scores",
}


def covered_invariants(obligation_names: Sequence[str]) -> tuple[str, ...]:
    """The invariant kinds some obligation in ``obligation_names`` proves."""
    return tuple(
        kind for kind, prefix in INVARIANT_OBLIGATIONS.items() if any(n.startswith(prefix) for n in obligation_names)
    )



def plan(preset: str = "standard", players: Sequence[int] | None = None) -> list[Obligation]:
    """The obligations ``run_all`` runs, in order (for progress bars)."""
    enc = encoding_for(preset)
    allowed = enc.player_counts
    counts = tuple(players) if players is not None else allowed
    for n in counts:
        if n not in allowed:
            shown = f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
            raise ValueError(f"the {enc.name} game is proved for {shown} players, not {n}")
    return [o for n in counts for o in obligations(enc, n, preset)]


def discharge(results: Sequence[ProofResult]) -> list[ProofResult]:
    """``results`` with every proof that assumes another obligation's conclusion (``assumes``) marked not
    proved when that obligation, for the same preset and player count, is not proved (or not among
    ``results``): an assume-guarantee proof stands only with what it assumes.  A failed joint check
    (``broken``) takes down only the obligations whose goals broke, each with its own counterexample.
    Repeated until nothing changes (the step bound assumes termination, which may assume the joint check)."""
    out = list(results)
    changed = True
    while changed:
        changed = False
        by_name = {(r.preset, r.players, r.name): r for r in out}
        for i, r in enumerate(out):
            if not r.proved:
                continue
            for a in r.assumes:
                dep = by_name.get((r.preset, r.players, a))
                if dep is not None and dep.proved:
                    continue
                broken = dict(dep.broken) if dep is not None else {}
                if dep is not None and dep.broken and r.name not in broken:
                    continue  # the joint check failed on another obligation's goal; this one's held
                why = broken.get(r.name) or f"the proof assumes {a}, which is not proved"
                out[i] = dataclasses.replace(r, proved=False, counterexample=why)
                changed = True
                break
    return out


def prove(enc: Encoding, players: int, only: Sequence[str] = ()) -> list[ProofResult]:
    """Run the obligations of ``enc`` for ``players`` seats (those whose name starts with one of ``only``,
    and the obligations they assume)."""
    obs = obligations(enc, players)
    wanted = [o for o in obs if not only or any(o.name.startswith(p) for p in only)]
    needed = {o.name for o in wanted}
    while True:
        more = {a for o in obs if o.name in needed for a in o.assumes} - needed
        if not more:
            break
        needed |= more
    ran = discharge([o.run() for o in obs if o.name in needed])
    return [r for r in ran if not only or any(r.name.startswith(p) for p in only)]


def run_all(preset: str = "standard", players: Sequence[int] | None = None) -> list[ProofResult]:
    """Every proof for ``preset`` and the player counts (default: every count its encoding covers);
    ValueError for an unknown preset or player count."""
    return discharge([o.run() for o in plan(preset, players)])
