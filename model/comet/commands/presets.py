"""``comet presets``: list every preset with a description and its sources."""

from __future__ import annotations

import argparse
import json
from typing import Any

from comet.presets import PRESETS


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "presets",
        help="list the presets (games) with their sources",
        description="List every preset: its name, a one-line description and the seed passages it rests on "
        "(--json: machine-readable, with player counts, packs and ruling values).",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object instead of a table: each preset's name, description, player counts, "
        "scoring, packs per player count, sources and every ruling field that applies with its value",
    )
    p.set_defaults(run=run)


def presets_json() -> dict[str, object]:
    """Every preset as plain JSON data (``comet presets --json``)."""
    from comet.engine import packs_in_rotation
    from comet.ruleset import RULING_FIELDS
    from comet.variant import applies

    out: dict[str, object] = {}
    for name in sorted(PRESETS):
        pr = PRESETS[name]
        counts = list(pr.variant.player_counts)
        rulings = {}
        for field in RULING_FIELDS:
            try:
                if not applies(field, pr.rules.variant):
                    continue
            except KeyError:
                continue
            value = getattr(pr.rules, field)
            rulings[field] = value if isinstance(value, bool | int | str) else str(value)
        out[name] = {
            "name": name,
            "description": pr.description,
            "variant": pr.rules.variant,
            "players": counts,
            "scoring": pr.scoring,
            "packs": {str(n): [p.name for p in packs_in_rotation(pr.rules, n)] for n in counts},
            "sources": list(pr.sources),
            "rulings": rulings,
        }
    return {"presets": out}


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(presets_json(), sort_keys=True, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="comet presets")
    table.add_column("preset")
    table.add_column("description")
    table.add_column("players")
    table.add_column("scoring")
    table.add_column("sources")
    for name in sorted(PRESETS):
        pr = PRESETS[name]
        counts = pr.variant.player_counts
        shown = f"{counts[0]}-{counts[-1]}" if counts == tuple(range(counts[0], counts[-1] + 1)) else str(counts)
        table.add_row(name, pr.description, shown, pr.scoring, ", ".join(pr.sources))
    Console().print(table)
    return 0
