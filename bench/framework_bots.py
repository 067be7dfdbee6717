"""OpenSpiel's stock MCTS and ISMCTS bots against uniform random players, every preset (README,
"Comet in OpenSpiel and PettingZoo").

Usage:  .venv/bin/python bench/framework_bots.py [--deals N] [--simulations S] [--preset P ...] [--json FILE]

For deal i the bot sits at seat ``i % players`` (so no seat is favoured) and random players take the
other seats; the same chance seed is then played with a random player in the bot's seat, which gives
the baseline.  A deal is won by the seat that goes out (Opera's drawn deals are won by nobody).  The
table shows, per preset at its usual player count, the share of deals won and the mean utility of
the seat, for MCTS (which searches the true state, hidden cards included: a perfect-information
baseline), ISMCTS (which searches deals redealt from what its seat knows) and random.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import comet.frameworks.openspiel as cos
import comet.frameworks.openspiel_play as play
import comet.frameworks.openspiel_resample as resample
from comet.presets import PRESETS
from rich.console import Console
from rich.progress import Progress


class RandomBot:
    """Uniform random among the legal actions, with a seeded generator (the baseline's seat)."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal: list[int] = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


def measure(preset: str, deals: int, simulations: int) -> dict[str, Any]:
    game = cos.load_game(preset)
    n = game.num_players()
    out: dict[str, Any] = {"preset": preset, "players": n, "deals": deals, "simulations": simulations}
    for kind in ("mcts", "ismcts", "random"):
        wins = 0
        total = 0.0
        resample.RESAMPLE_FALLBACKS[0] = resample.RESAMPLE_CALLS[0] = 0
        t0 = time.process_time()
        for i in range(deals):
            seat = i % n
            bot: Any
            if kind == "mcts":
                bot = play.mcts_bot(game, simulations, seed=i)
            elif kind == "ismcts":
                bot = play.ismcts_bot(game, simulations, seed=i)
            else:
                bot = RandomBot(i)
            end = play.play_against_random(game, bot, seat, seed=1000 + i)
            assert end.deal is not None
            wins += end.deal.winner == seat
            total += end.returns()[seat]
        out[kind] = {
            "won": wins / deals,
            "mean_utility": total / deals,
            "cpu_s_per_deal": (time.process_time() - t0) / deals,
            "resample_fallbacks": resample.RESAMPLE_FALLBACKS[0] if kind == "ismcts" else 0,
            "resamples": resample.RESAMPLE_CALLS[0] if kind == "ismcts" else 0,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=30, help="deals per bot and preset (default 30)")
    ap.add_argument("--simulations", type=int, default=50, help="MCTS/ISMCTS simulations per move (default 50)")
    ap.add_argument("--preset", action="append", default=None, help="this preset only (repeatable)")
    ap.add_argument("--json", default=None, help="also write the results to FILE")
    args = ap.parse_args()
    if args.deals <= 0 or args.simulations <= 0:
        ap.error("--deals and --simulations must be positive")
    names = args.preset or list(PRESETS)
    for name in names:
        if name not in PRESETS:
            ap.error(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    results = []
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("bots", total=len(names))
        for name in names:
            progress.update(task, description=name)
            results.append(measure(name, args.deals, args.simulations))
            progress.advance(task)
    print(
        "| preset | players | MCTS won | ISMCTS won | random won | MCTS mean | ISMCTS mean | random mean | ISMCTS CPU s/deal |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        m, i, z = r["mcts"], r["ismcts"], r["random"]
        print(
            f"| {r['preset']} | {r['players']} | {m['won']:.0%} | {i['won']:.0%} | {z['won']:.0%} "
            f"| {m['mean_utility']:+.1f} | {i['mean_utility']:+.1f} | {z['mean_utility']:+.1f} | {i['cpu_s_per_deal']:.1f} |"
        )
    fallbacks = sum(r["ismcts"]["resample_fallbacks"] for r in results)
    calls = sum(r["ismcts"]["resamples"] for r in results)
    print(
        f"\n{args.deals} deals per bot and preset, {args.simulations} simulations per move; the ISMCTS "
        f"resampler returned the true state in {fallbacks} of {calls} redeals."
    )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
