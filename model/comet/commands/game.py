"""``comet game``: play a whole seeded game and print the standings."""

from __future__ import annotations

import argparse
from typing import Any

from comet.commands.common import add_rules_options, rules_from_args
from comet.game import GameState, play_game, winners
from comet.notation import seat_name
from comet.state import Action, DealState


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "game",
        help="play a whole seeded game and print the standings",
        description="Play a whole game (the deal passing left, packs in turn, the Comet's value "
        "carried over) with a simple policy, then print each deal's result and the standings.",
    )
    p.add_argument("--players", type=int, default=3, metavar="N", help="number of players (default 3)")
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="D",
        help="number of deals (default: one round, as many deals as players)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed for the draw and the shuffles")
    add_rules_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    rules = rules_from_args(args)
    deals = args.players if args.deals is None else args.deals
    table = Table(title=f"comet game --preset {args.preset} --seed {args.seed}")
    table.add_column("deal", justify="right")
    table.add_column("dealer")
    table.add_column("pack")
    table.add_column("Comet", justify="right")
    for seat in range(args.players):
        table.add_column(seat_name(seat), justify="right")

    def on_deal(start: DealState, actions: tuple[Action, ...], game: GameState) -> None:
        net = game.history[-1]
        table.add_row(
            str(game.deal_index), seat_name(start.dealer), start.pack, str(start.comet_value), *(f"{v:+d}" for v in net)
        )

    game = play_game(rules, args.players, deals, args.seed, on_deal=on_deal)
    table.add_row("total", "", "", "", *(str(b) for b in game.balances), end_section=True)
    console = Console()
    console.print(table)
    won = winners(game)
    names = " and ".join(seat_name(s) for s in won)
    console.print(f"Winner{'s' if len(won) > 1 else ''}: {names} with {game.balances[won[0]]} chips")
    return 0
