"""``comet presets``: list every preset with a description and its sources."""

from __future__ import annotations

import argparse
from typing import Any

from comet.presets import PRESETS


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "presets",
        help="list the presets (games) with their sources",
        description="List every preset: its name, a one-line description and the seed passages it rests on.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
