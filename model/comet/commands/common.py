"""Options shared by several sub-commands: preset and ruling overrides."""

from __future__ import annotations

import argparse
from pathlib import Path

from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, Ruleset


def checkout_root(explicit: Path | None = None) -> Path:
    """The checkout whose ``spec/`` and ``seeds/`` a command reads: ``explicit`` if given; else the one this
    package runs from (an editable install or a source tree); else the current folder or the nearest folder
    above it that holds both (a wheel installed beside a clone, run from inside the clone).  A plain error
    saying how to point at one when none is found."""
    if explicit is not None:
        candidates = [explicit]
    else:
        here = Path.cwd().resolve()
        candidates = [Path(__file__).resolve().parents[3], here, *here.parents]
    for root in candidates:
        if (root / "spec").is_dir() and (root / "seeds").is_dir():
            return root
    where = explicit if explicit is not None else "this package's folder, the current folder or above it"
    raise ValueError(
        f"no checkout with spec/ and seeds/ found in {where}: run from a clone of comet-rules or point at one "
        "(--root DIR, or --spec DIR for the spec folder)"
    )


def reading_root(explicit: Path | None = None) -> Path:
    """The spec/ and seeds/ a command that only reads them uses (``comet site``, ``comet rules``): the
    checkout (``checkout_root``), else, in an installed wheel with no clone at hand, the copy shipped in the
    package (``comet.shipped``).  A plain error saying how to get one when there is neither."""
    try:
        return checkout_root(explicit)
    except ValueError as e:
        from comet.shipped import shipped_root

        if explicit is not None:
            raise
        found = shipped_root()
        if found is not None:
            return found
        raise ValueError(
            f"{e}; this installed package carries no copy of them (build the wheel from a clone with "
            "'python -m build', whose setup.py ships them, or pass --root CLONE)"
        ) from None


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
    """``--jobs`` and ``--scheduler`` for commands whose work is cut into units (``comet.parallel.runner``)."""
    from comet.parallel.runner import default_jobs

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
