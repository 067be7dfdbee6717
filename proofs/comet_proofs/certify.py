"""The command that writes and checks the stored Z3 models of ``comet_proofs.certificates`` (spec/proofs.md
"Certificates"): ``python -m comet_proofs.certify --update`` searches every answer of the refinement check and
the bounds afresh and writes ``proofs/comet_proofs/certified/<preset>.json``; without ``--update`` it says
whether the stored files are current.  Kept apart from the store, which ``bounds`` and ``refine`` import, so
that no import runs in a circle."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from comet_proofs.bounds import bounds, proved_bounds_in_value, typical_players
from comet_proofs.certificates import FOLDER, Certificates
from comet_proofs.refine import audit, refine


def update(presets: Sequence[str]) -> list[str]:
    """Run the refinement check and the bounds of ``presets`` without their stored certificates (every answer
    searched, every optimum's model found) and write the files; the files written."""
    FOLDER.mkdir(exist_ok=True)
    written: list[str] = []
    for preset in presets:
        fresh = Certificates(preset, recording=True, notify_missing=False)
        refine(preset, certificates=fresh)
        bounds(preset, players=(typical_players(preset),), deals=0, certificates=fresh)
        path = FOLDER / f"{preset}.json"
        path.write_text(fresh.json(), encoding="utf-8")
        written.append(str(path))
    return written


def check(presets: Sequence[str]) -> list[str]:
    """Whether the stored certificates of ``presets`` are current: every witness the refinement check asks for
    still satisfies its formula and concretises (evaluated, no search, no comparison with the model), every
    optimum of the bounds is still attained and proved, and no stored entry is left unasked.  The notes
    (empty when current), each naming the command that refreshes the files."""
    notes: list[str] = []
    for preset in presets:
        stored = Certificates.stored(preset)
        stored.absence("check")
        audit(preset, stored)
        proved_bounds_in_value(preset, typical_players(preset), stored)
        for key in sorted(set(stored.witnesses) - stored.asked) + sorted(set(stored.optima) - stored.asked):
            stored.stale(repr(key), "stored but no longer asked for")
        notes += stored.notes
    return notes


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    from comet.presets import PRESETS

    parser = argparse.ArgumentParser(
        prog="python -m comet_proofs.certify",
        description="Write (--update) or check the stored Z3 models comet verify checks instead of searching.",
    )
    parser.add_argument("--update", action="store_true", help="search every answer afresh and write the files")
    parser.add_argument("--preset", action="append", default=None, metavar="P", help="only this preset (repeatable)")
    args = parser.parse_args(argv)
    names = args.preset or sorted(PRESETS)
    if args.update:
        for path in update(names):
            print(f"wrote {path}")
        return 0
    notes = check(names)
    for line in notes:
        print(line)
    print("certificates current" if not notes else f"{len(notes)} certificates stale or missing")
    return 1 if notes else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
