"""Where ``comet verify``'s CPU goes: every task of the main job (each proof obligation, refinement check,
bound and starting-point check of every preset) run in this process, timed with ``time.process_time``.

    PYTHONPATH=model:proofs .venv/bin/python bench/verify_profile.py [--json FILE]

Prints CPU seconds per component and preset and the slowest obligations; the fuzz campaign (a fixed wall
budget) is not included.  Run it under ``flock /tmp/comet-heavy.lock`` on a shared machine and state the load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", default=None, metavar="FILE", help="also write the figures to FILE")
    parser.add_argument(
        "--no-obligations",
        action="store_true",
        help="only the refinement checks, bounds and starting points (for comparing those: a third of the CPU)",
    )
    args = parser.parse_args()
    from comet.presets import PRESETS
    from comet_proofs.bounds import bounds, typical_players
    from comet_proofs.dealt import check_dealt
    from comet_proofs.parallel import run_task, tasks
    from comet_proofs.refine import refine

    names = sorted(PRESETS)
    out: dict[str, float] = {}
    slowest: list[tuple[float, str]] = []
    t = time.process_time()
    work = [] if args.no_obligations else tasks(names)
    out["plans"] = time.process_time() - t
    for task in work:
        t = time.process_time()
        run_task(task, True)
        spent = time.process_time() - t
        out[f"obligations {task.preset}"] = out.get(f"obligations {task.preset}", 0.0) + spent
        slowest.append((spent, f"{task.preset}, {task.players} players, {task.name}"))
    for name in names:
        for what, run in (
            ("refinement check", lambda n: refine(n)),
            ("bounds", lambda n: bounds(n, players=(typical_players(n),), deals=100)),
            ("starting points", lambda n: check_dealt(n)),
        ):
            t = time.process_time()
            run(name)
            out[f"{what} {name}"] = time.process_time() - t
    out["total"] = sum(out.values())
    for key, value in out.items():
        print(f"{value:8.2f} s  {key}")
    print("slowest obligations:")
    for spent, what in sorted(slowest, reverse=True)[:10]:
        print(f"{spent:8.2f} s  {what}")
    print(f"load average {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({k: round(v, 2) for k, v in out.items()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
