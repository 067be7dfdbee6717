"""The reference engine against the naive yardstick (``bench/naive.py``), side by side in one run.

Usage:  .venv/bin/python bench/yardstick.py [--seconds S] [--players N] [--json FILE]

Two ratios (issue 21's goals: at least 2x and at least 0.6x):

- random deals: complete random ``players``-player standard deals per CPU second, shuffled, played with
  uniformly random legal actions and settled, by ``comet.engine`` divided by the same for the yardstick;
- replay: complete records per CPU second, ``replay_record`` over parsed records divided by the
  yardstick's ``replay`` over decoded JSON records (the same records: seeded deals played at random).

The two sides are timed in alternating rounds of ``seconds / 6`` CPU seconds each (``time.process_time``),
so a load that comes and goes on the machine falls on both.  Measured, never asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import naive
from comet.engine import apply, legal_actions, returns, shuffled_deal
from comet.records.deal_record import parse_record, record_from_state, replay_record
from comet.ruleset import Ruleset


def reference_random_deal(players: int, rng: random.Random) -> tuple[int, ...]:
    rules = Ruleset()
    state = shuffled_deal(rules, players, rng.randrange(players), rng.getrandbits(32))
    while not state.terminal:
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))], legal=options)
    return returns(state)


def sample_records(players: int, count: int) -> list[dict[str, object]]:
    out = []
    for i in range(count):
        start = shuffled_deal(Ruleset(), players, i % players, 1_000 + i)
        state, actions, rng = start, [], random.Random(i)
        while not state.terminal:
            a = rng.choice(legal_actions(state))
            actions.append(a)
            state = apply(state, a)
        out.append(record_from_state(start, "standard", actions).to_json())
    return out


def alternate(a: Callable[[], int], b: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Units per CPU second of ``a`` and of ``b``, timed in alternating rounds."""
    done = [0, 0]
    spent = [0.0, 0.0]
    rounds = 3
    for _ in range(rounds):
        for k, work in enumerate((a, b)):
            start = time.process_time()
            while time.process_time() - start < seconds / (2 * rounds):
                done[k] += work()
            spent[k] += time.process_time() - start
    return done[0] / spent[0], done[1] / spent[1]


def measure(seconds: float, players: int) -> dict[str, float]:
    rng_ref, rng_naive = random.Random(1), random.Random(1)
    ref_deals, naive_deals = alternate(
        lambda: (reference_random_deal(players, rng_ref), 1)[1],
        lambda: (naive.random_deal(players, rng_naive), 1)[1],
        seconds,
    )
    records = sample_records(players, 50)
    parsed = [parse_record(r) for r in records]

    def ref_replay() -> int:
        for rec in parsed:
            replay_record(rec)
        return len(parsed)

    def naive_replay() -> int:
        for rec in records:
            naive.replay(rec)
        return len(records)

    ref_records, naive_records = alternate(ref_replay, naive_replay, seconds)
    return {
        "players": players,
        "reference_deals_per_s": ref_deals,
        "naive_deals_per_s": naive_deals,
        "deals_ratio": ref_deals / naive_deals,
        "reference_records_per_s": ref_records,
        "naive_records_per_s": naive_records,
        "replay_ratio": ref_records / naive_records,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per ratio, both sides together")
    parser.add_argument("--players", type=int, default=4, help="players per deal (2 to 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    figures = measure(args.seconds, args.players)
    print(f"random {args.players}-player deals/s: reference {figures['reference_deals_per_s']:,.0f}, "
          f"naive {figures['naive_deals_per_s']:,.0f}, ratio {figures['deals_ratio']:.2f}x (goal 2x)")
    print(f"records replayed/s: replay_record {figures['reference_records_per_s']:,.0f}, "
          f"naive {figures['naive_records_per_s']:,.0f}, ratio {figures['replay_ratio']:.2f}x (goal 0.6x)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
