"""Options shared by several sub-commands: preset and ruling overrides."""

from __future__ import annotations

import argparse

from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, Ruleset


def add_rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--preset",
        default="standard",
        metavar="P",
        help=f"the game to play (one of: {', '.join(sorted(PRESETS))}; default: standard)",
    )
    p.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="select a reading of a ruling (repeatable); fields: " + ", ".join(RULING_FIELDS),
    )


def parse_overrides(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RecordError("ruling", f"--ruling takes FIELD=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out


def rules_from_args(args: argparse.Namespace) -> Ruleset:
    base = preset(args.preset).rules
    try:
        return base.with_overrides(parse_overrides(args.ruling))
    except ValueError as e:
        raise RecordError("ruling", str(e)) from None


def add_jobs_options(p: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--scheduler`` for commands whose work is cut into units (``comet.campaign``)."""
    from comet.campaign import default_jobs

    p.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        metavar="N",
        help=f"local worker processes (default: every core, here {default_jobs()}); the result is the same for any N",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the work units on the Dask distributed cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786)",
    )
