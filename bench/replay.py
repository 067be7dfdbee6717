"""Benchmark the reference model: ``replay_record`` records/s and complete deals/s, on one core.

Usage:  .venv/bin/python bench/replay.py [--seconds S] [--players N] [--preset P] [--profile]

Records are complete deals played from seeded shuffles with a seeded random policy, so every
run replays the same records.  ``replay_record`` is timed on parsed records (``parse_record``
once, outside the clock) and, separately, from JSON text (``loads_record`` + ``replay_record``).
Deals are shuffled, played with the simple policy and settled, as in ``bench/bench.py``.
``--profile`` prints a cProfile of the replay loop instead.  Measured, never asserted by a test.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import json
import pstats
import random

from comet.commands.bench import cpu_rate
from comet.engine import apply, legal_actions, returns, shuffled_deal
from comet.policy import random_policy, simple_policy
from comet.presets import preset
from comet.records.deal_record import DealRecord, loads_record, record_from_state, replay_record


def sample_records(preset_name: str, players: int, count: int, seed: int = 1) -> list[DealRecord]:
    """``count`` complete deals of ``preset_name`` as records (seeded shuffles, random play)."""
    rules = preset(preset_name).rules
    out: list[DealRecord] = []
    for i in range(count):
        start = shuffled_deal(rules, players, i % players, seed * 100_003 + i)
        choose = random_policy(random.Random(i))
        s = start
        actions = []
        while not s.terminal:
            a = choose(s, legal_actions(s))
            actions.append(a)
            s = apply(s, a)
        out.append(record_from_state(start, preset_name, actions))
    return out


def replay_records_per_second(records: list[DealRecord], seconds: float) -> float:
    def work() -> int:
        for rec in records:
            v = replay_record(rec)
            assert v.legal
        return len(records)

    return cpu_rate(work, seconds)


def replay_texts_per_second(records: list[DealRecord], seconds: float) -> float:
    texts = [json.dumps(r.to_json()) for r in records]

    def work() -> int:
        for t in texts:
            replay_record(loads_record(t))
        return len(texts)

    return cpu_rate(work, seconds)


def deals_per_second(preset_name: str, players: int, seconds: float, pass_legal: bool = False) -> float:
    """Complete deals/s: shuffle, the simple policy to the end, settle.  ``pass_legal``: hand the legal
    actions the policy chose from to ``apply`` (``legal=``) instead of letting it compute them again."""
    rules = preset(preset_name).rules
    count = [0]

    def work() -> int:
        n = count[0]
        s = shuffled_deal(rules, players, n % players, n)
        while not s.terminal:
            legal = legal_actions(s)
            action = simple_policy(s, legal)
            s = apply(s, action, legal=legal) if pass_legal else apply(s, action)
        returns(s)
        count[0] += 1
        return 1

    return cpu_rate(work, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--records", type=int, default=80, help="number of distinct records replayed")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of replay_record instead")
    args = ap.parse_args()
    records = sample_records(args.preset, args.players, args.records)
    actions = sum(len(r.actions) for r in records) / len(records)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(5):
            for rec in records:
                replay_record(rec)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    print(f"{args.preset}, {args.players} players, {len(records)} records of {actions:.0f} actions on average")
    print(f"replay_record (parsed)    {replay_records_per_second(records, args.seconds):>9.0f} records/s")
    print(f"loads_record + replay     {replay_texts_per_second(records, args.seconds):>9.0f} records/s")
    print(f"complete deals (simple)   {deals_per_second(args.preset, args.players, args.seconds):>9.0f} deals/s")
    if "legal" in inspect.signature(apply).parameters:
        rate = deals_per_second(args.preset, args.players, args.seconds, pass_legal=True)
        print(f"  the same, apply(legal=)  {rate:>9.0f} deals/s")


if __name__ == "__main__":
    main()
