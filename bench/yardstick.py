"""The reference engine against the naive yardstick (``bench/naive.py``), side by side in one run.

Usage:  PYTHONPATH=model:proofs .venv/bin/python bench/yardstick.py [--seconds S] [--players N] [--json FILE]
        PYTHONPATH=model:proofs .venv/bin/python bench/yardstick.py --side reference|naive [--deals N]
        (one side only, dealing and all, timing nothing: for ``farm-bench --vs``, whole processes)

Two ratios (issue 32 item 6 and issue 21's goals: at least 2x and at least 0.6x):

- random deals: actions per CPU second of ``comet.engine``'s ``legal_actions`` + ``apply`` divided by the
  same for the yardstick's ``legal`` + ``apply``, over complete random ``players``-player standard deals.
  The loop is the same on both sides: deal ``seed`` is shuffled and dealt (not timed: neither
  ``legal_actions`` nor ``apply``), then each step lists the legal actions, takes one uniformly at random
  (``Random(seed).random()`` scaled to the list: one C call, so the choice weighs the same little on both
  sides) and applies it, given the list just made, and the deal is settled (timed).  Both sides play the
  very same deals (the same shuffle of the pack in its order) and so the same actions: every deal played
  by both is checked, the same number of actions and the same chips per seat, or the run stops with the
  first difference;
- replay: complete records per CPU second, ``replay_record`` over parsed records divided by the
  yardstick's ``replay`` over decoded JSON records (the same records: seeded deals played at random).

The two sides are timed in alternating rounds of ``seconds / 6`` CPU seconds each (``time.process_time``),
so a load that comes and goes on the machine falls on both.  Measured, never asserted by a test.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import naive
from comet.engine import apply, legal_actions, returns, shuffled_deal
from comet.records.deal_record import parse_record, record_from_state, replay_record
from comet.ruleset import Ruleset
from comet.state import DealState

RULES = Ruleset()


def reference_deal(players: int, seed: int) -> DealState:
    """Deal ``seed`` through the engine: the same cards as ``naive.shuffled`` deals."""
    return shuffled_deal(RULES, players, seed % players, seed)


def reference_play_random(state: DealState, seed: int) -> tuple[list[int], int]:
    """The loop of ``naive.play_random``, step for step, through ``legal_actions`` + ``apply``."""
    choose = random.Random(seed).random
    actions = 0
    while not state.terminal:
        options = legal_actions(state)
        state = apply(state, options[int(choose() * len(options))], legal=options)
        actions += 1
    return list(returns(state)), actions


def reference_random_deal(players: int, seed: int) -> tuple[list[int], int]:
    return reference_play_random(reference_deal(players, seed), seed)


Results = dict[int, tuple[list[int], int]]


def timed_deals(
    deal: Callable[[int, int], Any], play: Callable[[Any, int], tuple[list[int], int]], players: int
) -> tuple[Callable[[], tuple[int, float]], Results]:
    """A unit of work for ``alternate``: the next ``BATCH`` seeds are dealt (not timed), then played and
    settled (timed); it gives the actions taken and the CPU seconds of the play.  Also the results by
    seed, for the check."""
    seeds = itertools.count()
    results: Results = {}

    def batch() -> tuple[int, float]:
        dealt = [(seed, deal(players, seed)) for seed in itertools.islice(seeds, BATCH)]
        start = time.process_time()
        played = [(seed, play(d, seed)) for seed, d in dealt]
        spent = time.process_time() - start
        results.update(played)
        return sum(actions for _, (_, actions) in played), spent

    return batch, results


BATCH = 20


def first_disagreement(a: dict[int, tuple[list[int], int]], b: dict[int, tuple[list[int], int]]) -> str | None:
    """The first deal both sides played with different chips or a different number of actions."""
    for seed in sorted(a.keys() & b.keys()):
        if a[seed] != b[seed]:
            return f"deal {seed}: reference (chips, actions) {a[seed]} but naive {b[seed]}"
    return None


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


def alternate(
    a: Callable[[], tuple[int, float]], b: Callable[[], tuple[int, float]], seconds: float
) -> tuple[float, float]:
    """Units per CPU second of ``a`` and of ``b``, timed in alternating rounds; each call of a side gives
    the units it did and the CPU seconds they took (what is not part of the measure is left out)."""
    done = [0, 0]
    spent = [0.0, 0.0]
    rounds = 3
    for _ in range(rounds):
        for k, work in enumerate((a, b)):
            start = time.process_time()
            while time.process_time() - start < seconds / (2 * rounds):
                units, cpu = work()
                done[k] += units
                spent[k] += cpu
    return done[0] / spent[0], done[1] / spent[1]


def whole(work: Callable[[], int]) -> Callable[[], tuple[int, float]]:
    """A unit of work timed whole."""

    def timed() -> tuple[int, float]:
        start = time.process_time()
        units = work()
        return units, time.process_time() - start

    return timed


def measure(seconds: float, players: int) -> dict[str, float]:
    ref_one, ref_results = timed_deals(reference_deal, reference_play_random, players)
    naive_one, naive_results = timed_deals(naive.shuffled_for, naive.play_random, players)
    ref_actions, naive_actions = alternate(ref_one, naive_one, seconds)
    problem = first_disagreement(ref_results, naive_results)
    if problem is not None:
        raise SystemExit(f"the yardstick and the engine disagree, so the ratio means nothing: {problem}")
    checked = len(ref_results.keys() & naive_results.keys())
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

    ref_records, naive_records = alternate(whole(ref_replay), whole(naive_replay), seconds)
    return {
        "players": players,
        "reference_actions_per_s": ref_actions,
        "naive_actions_per_s": naive_actions,
        "actions_ratio": ref_actions / naive_actions,
        "deals_checked": checked,
        "reference_records_per_s": ref_records,
        "naive_records_per_s": naive_records,
        "replay_ratio": ref_records / naive_records,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per ratio, both sides together")
    parser.add_argument("--players", type=int, default=4, help="players per deal (2 to 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--side",
        choices=("reference", "naive"),
        help="only deal and play --deals random deals on this side, timing nothing (for farm-bench --vs)",
    )
    parser.add_argument("--deals", type=int, default=3000, help="deals played with --side")
    args = parser.parse_args()
    if args.side is not None:
        deal, play = (
            (reference_deal, reference_play_random)
            if args.side == "reference"
            else (naive.shuffled_for, naive.play_random)
        )
        actions = sum(play(deal(args.players, seed), seed)[1] for seed in range(args.deals))
        print(f"{args.side}: {args.deals} deals, {actions} actions")
        return
    figures = measure(args.seconds, args.players)
    print(
        f"random {args.players}-player deals, actions/s: reference {figures['reference_actions_per_s']:,.0f}, "
        f"naive {figures['naive_actions_per_s']:,.0f}, ratio {figures['actions_ratio']:.2f}x (goal 2x; "
        f"{figures['deals_checked']:,} deals played by both, all agree)"
    )
    print(
        f"records replayed/s: replay_record {figures['reference_records_per_s']:,.0f}, "
        f"naive {figures['naive_records_per_s']:,.0f}, ratio {figures['replay_ratio']:.2f}x (goal 0.6x)"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
