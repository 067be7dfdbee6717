"""Benchmark: complete deals per second on one core, and proof time.

Usage:  .venv/bin/python bench/bench.py [--seconds S] [--preset P] [--players N] [--proofs]

Deals are shuffled, played to the end with the simple policy and settled through the
public API (``shuffled_deal``, ``legal_actions``, ``apply``, ``returns``), so the figure is
what a client of the reference model gets.  It is measured, not asserted by any test.
"""

from __future__ import annotations

import argparse
import time

from comet.engine import PLAYER_COUNTS, apply, legal_actions, returns, shuffled_deal
from comet.policy import simple_policy
from comet.presets import preset


def deals_per_second(preset_name: str, players: int, seconds: float) -> tuple[float, float]:
    rules = preset(preset_name).rules
    n = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = shuffled_deal(rules, players, n % players, n)
        while not s.terminal:
            s = apply(s, simple_policy(s, legal_actions(s)))
            steps += 1
        returns(s)
        n += 1
    dt = time.perf_counter() - t0
    return n / dt, steps / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--players", type=int, default=0, help="0: every player count the preset allows")
    ap.add_argument("--proofs", action="store_true", help="also time comet_proofs.run_all")
    args = ap.parse_args()
    counts = [args.players] if args.players else list(PLAYER_COUNTS)
    print(f"{'preset':<12} {'players':>7} {'deals/s':>10} {'actions/s':>11}")
    for n in counts:
        dps, aps = deals_per_second(args.preset, n, args.seconds)
        print(f"{args.preset:<12} {n:>7} {dps:>10.0f} {aps:>11.0f}")
    if args.proofs:
        from comet_proofs import run_all

        t0 = time.perf_counter()
        results = run_all(args.preset)
        dt = time.perf_counter() - t0
        ok = sum(r.proved for r in results)
        print(f"proofs: {ok}/{len(results)} proved in {dt:.1f} s")


if __name__ == "__main__":
    main()
