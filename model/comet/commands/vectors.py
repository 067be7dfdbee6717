"""``comet vectors``: write the conformance vectors (spec/vectors.md) to a directory."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from comet.errors import RecordError
from comet.presets import preset
from comet.vectors.games import all_game_readings
from comet.vectors.readings import Reading, all_readings
from comet.vectors.table import coverage_markdown, update_spec_table, vector_rule_ids
from comet.vectors.write import write_vectors


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "vectors",
        help="write conformance test vectors for every preset and ruling reading",
        description="Write replay cases, ITF traces, illegal-action and malformed-record cases and golden "
        "narrated deals for every preset and every reading of every deal-level ruling into OUT_DIR "
        "(layout: spec/vectors.md).  Deterministic: the same version writes byte-identical files.",
    )
    p.add_argument("out_dir", metavar="OUT_DIR", help="directory to write (created if missing)")
    p.add_argument(
        "--preset",
        action="append",
        default=None,
        metavar="P",
        help="only this preset (repeatable; default: every preset)",
    )
    p.add_argument(
        "--update-spec",
        default=None,
        metavar="FILE",
        help="also rewrite the coverage table (rule id x vector count) between the markers of FILE "
        "(spec/vectors.md) from the index just written",
    )
    p.add_argument(
        "--digest",
        action="store_true",
        help="write nothing: print the digest of the vectors already in OUT_DIR (the 'Vectors digest:' line "
        "of spec/CHANGELOG.md's latest entry)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    if args.digest:
        from comet.records.contract import vectors_digest

        root = Path(args.out_dir)
        if not (root / "index.json").is_file():
            raise RecordError("io", f"{root} holds no vectors (no index.json)")
        print(vectors_digest(root))
        return 0
    presets = args.preset
    if presets is not None:
        for name in presets:
            preset(name)
    out = Path(args.out_dir)
    if out.exists() and not out.is_dir():
        raise RecordError("io", f"{out} exists and is not a directory")
    total = len(all_readings(presets)) + len(all_game_readings(presets))
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("writing vectors", total=total)

        def step(reading: Reading) -> None:
            progress.update(task, advance=1, description=f"{reading.preset} {reading.name}")

        written = write_vectors(out, presets, step)
    print(f"wrote {len(written)} files for {total} readings to {out}")
    if args.update_spec is not None:
        spec = Path(args.update_spec)
        try:
            index = json.loads((out / "index.json").read_text(encoding="utf-8"))
            text = spec.read_text(encoding="utf-8")
            spec.write_text(update_spec_table(text, coverage_markdown(index, vector_rule_ids())), encoding="utf-8")
        except OSError as e:
            raise RecordError("io", f"cannot update {spec}: {e}") from None
        print(f"updated the coverage table in {spec}")
    return 0
