"""``comet deal``: deal and play one deal with a simple policy, narrated."""

from __future__ import annotations

import argparse
from typing import Any

from comet.commands.common import add_rules_options, rules_from_args
from comet.engine import check_players, packs_in_rotation, shuffled_deal
from comet.errors import RecordError
from comet.game import play_deal
from comet.notation import narrate
from comet.variant import variant_of


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "deal",
        help="deal and play one narrated deal with a simple policy",
        description="Deal a seeded deal, play it with a simple policy (natural cards first, "
        "the Comet only when stuck) and narrate each turn in the sources' words.",
    )
    p.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players (default: the preset's usual count)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="shuffle seed (default 0)")
    p.add_argument("--dealer", type=int, default=None, metavar="D", help="dealer seat (default: the last seat)")
    p.add_argument(
        "--pack", type=int, default=0, metavar="I", help="which pack in rotation (standard: 0 black, 1 red; default 0)"
    )
    p.add_argument(
        "--comet-value",
        type=int,
        default=None,
        metavar="V",
        help="the wild card's value this deal (default: the preset's first-deal value, 2 in the standard game)",
    )
    add_rules_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = variant_of(rules).default_players if args.players is None else args.players
    check_players(players, rules)
    packs = packs_in_rotation(rules, players)
    if not 0 <= args.pack < len(packs):
        raise RecordError("pack", f"--pack must be 0..{len(packs) - 1}")
    dealer = players - 1 if args.dealer is None else args.dealer
    start = shuffled_deal(rules, players, dealer, args.seed, packs[args.pack], args.comet_value)
    _, actions = play_deal(start)
    for line in narrate(start, actions):
        print(line)
    return 0
