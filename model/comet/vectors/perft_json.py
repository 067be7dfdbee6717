"""The perft counts as JSON (``perft.json`` in the vectors): seeded deals, each with its record."""

from __future__ import annotations

import json
from collections.abc import Sequence

from comet.oracle.perft import perft_counts, reference_rows, seeded_start
from comet.presets import preset
from comet.records.deal_record import (
    JsonValue,
    record_from_state,
)
from comet.vectors.format import compact
from comet.vectors.readings import FORMAT_VERSION

PERFT_FILE = "perft.json"
PERFT_JSON_DEPTH = 5


def perft_rows_json(presets: Sequence[str] | None = None, depth: int = PERFT_JSON_DEPTH) -> list[JsonValue]:
    """Every reference perft row (spec/perft.md) with the seeded deal's record, to ``depth``."""
    rows: list[JsonValue] = []
    for name, players, seed in reference_rows():
        if presets is not None and name not in presets:
            continue
        rules = preset(name).rules
        start = seeded_start(rules, players, seed)
        counts: list[JsonValue] = [c for c in perft_counts(rules, players, seed, depth)]
        rows.append(
            {
                "preset": name,
                "players": players,
                "seed": seed,
                "record": record_from_state(start, name).to_json(),
                "counts": counts,
            }
        )
    return rows


def perft_json(presets: Sequence[str] | None = None) -> str:
    """``vectors/perft.json``: one object per line under ``rows``."""
    rows = perft_rows_json(presets)
    head = json.dumps({"format": FORMAT_VERSION, "depth": PERFT_JSON_DEPTH}, separators=(",", ":"))[:-1]
    return head + ',"rows":[\n' + ",\n".join(compact(r) for r in rows) + "\n]}\n"
