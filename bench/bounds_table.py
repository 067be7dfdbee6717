"""spec/proofs.md's bounds table ("Bounds"): for each preset and player count in it, every quantity's proved
bound, the most a shipped witness deal reaches (replayed by the model now), the gap, and the best of 200 seeded
deals (the check that no real deal beats the bound; never printed as the extreme).

    PYTHONPATH=model:proofs .venv/bin/python bench/bounds_table.py

Prints the Markdown table and the CPU seconds it took.
"""

from __future__ import annotations

import time

from comet_proofs.bounds import Bound, bounds
from comet_proofs.bounds.extremes import ROWS as EXTREME_ROWS

ROWS = EXTREME_ROWS  # the table's presets and player counts, as `comet bounds` searches them


def gap_text(b: Bound) -> str:
    """ "exact" where a witness deal reaches the proved bound; else the gap, to the sampled best where no witness
    deal does better."""
    if b.upper is None:
        return "no bound"
    if b.witness is not None and b.witness >= b.sampled and b.upper == b.witness:
        return "**exact**"
    if b.witness is None or b.sampled > b.witness:
        return f"{b.upper - b.sampled} (to sampled)"
    return str(b.upper - b.witness)


def main() -> None:
    started = time.process_time()
    print(
        "| preset | players | quantity | proved ≤ | for every v | reached by a witness deal | gap | best of 200 sampled deals |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, players in ROWS:
        for b in bounds(name, players=(players,), deals=200):
            upper = "-" if b.upper is None else str(b.upper)
            line = "" if b.per_value is None else f"{b.per_value[0]} + {b.per_value[1]}v"
            witness = "none" if b.witness is None else f"{b.witness} (`{b.witness_file.split('/')[-1]}`)"
            print(
                f"| {name} | {players} | {b.quantity} | {upper} | {line} | {witness} | {gap_text(b)} "
                f"| {b.sampled} (seed {b.seed}) |"
            )
    print(f"CPU {time.process_time() - started:.1f} s")


if __name__ == "__main__":
    main()
