"""The bounds table: for each player count of a preset, every quantity's proved bound beside what sampled
and witness deals reach."""

from __future__ import annotations

import time
from collections.abc import Sequence

from comet_proofs.bounds.proved import proved_bounds_in_value
from comet_proofs.bounds.quantities import Bound
from comet_proofs.bounds.reached import reached_values, witness_values
from comet_proofs.certificates import Certificates
from comet_proofs.registry import encoding_for


def typical_players(preset: str) -> int:
    """The player count ``comet verify`` reports bounds for: 3 where the game allows, else its first count."""
    counts = encoding_for(preset).player_counts
    return counts[min(1, len(counts) - 1)]


def bounds(
    preset: str,
    players: Sequence[int] | None = None,
    deals: int = 200,
    seed: int = 0,
    certificates: Certificates | None = None,
) -> list[Bound]:
    """Every bound of ``preset`` for each of its player counts (or ``players``); ``certificates``: the stored
    optima to check before searching (default: the preset's committed ones; ``Certificates.searching``:
    none)."""
    enc = encoding_for(preset)
    counts = tuple(players) if players else enc.player_counts
    certs = certificates if certificates is not None else Certificates.stored(preset)
    out: list[Bound] = []
    for n in counts:
        before = len(certs.notes)
        certs.absence("bounds")
        proved = proved_bounds_in_value(preset, n, certs)
        notes = tuple(certs.notes[before:])
        reached = reached_values(preset, n, deals, seed)
        shipped = witness_values(preset, n)
        for name, (value, deal_seed, length) in reached.items():
            upper, per_value = proved.get(name, (None, None))
            witness, where = shipped.get(name, (None, ""))
            out.append(Bound(preset, n, name, upper, value, deal_seed, length, per_value, witness, where, notes))
    return out


def main() -> None:  # pragma: no cover - a manual run: python -m comet_proofs.bounds PRESET
    import sys

    for name in sys.argv[1:]:
        t0 = time.perf_counter()
        for b in bounds(name):
            line = f"{b.preset} {b.players}p {b.quantity}: proved <= {b.upper}, a witness deal reaches {b.witness}"
            line += f" ({b.witness_file or 'none shipped'}), gap {b.gap}; best sampled {b.sampled} (seed {b.seed})"
            print(line + (f", at most {b.per_value[0]} + {b.per_value[1]}v" if b.per_value else ""))
        print(f"{name}: {time.perf_counter() - t0:.1f} s")
