"""``comet game``: play a whole seeded game and print the standings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from comet.commands.common import add_rules_options, rules_from_args
from comet.game import default_deals, play_game, winners
from comet.notation import seat_name
from comet.state import Action, DealState, GameState
from comet.variant import variant_of


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "game",
        help="play a whole seeded game and print the standings",
        description="Play a whole game to the preset's end condition (a number of deals, or a target "
        "score) with a simple policy, then print each deal's result and the standings.",
    )
    p.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players (default: the preset's usual count)"
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="D",
        help="number of deals (default: the preset's game, e.g. one round of as many deals as players; "
        "in a game to a target score, at most D deals)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed for the draw and the shuffles")
    p.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="also write the game record (spec/record.md, 'Game records') to FILE ('-': stdout, instead of the table)",
    )
    p.add_argument(
        "--itf",
        default=None,
        metavar="FILE",
        help="also write the game's ITF trace (the standings and carried values after each deal) to FILE",
    )
    add_rules_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    rules = rules_from_args(args)
    v = variant_of(rules)
    players = v.default_players if args.players is None else args.players
    deals = default_deals(rules, players) if args.deals is None else args.deals
    table = Table(title=f"comet game --preset {args.preset} --seed {args.seed}")
    table.add_column("deal", justify="right")
    table.add_column("dealer")
    table.add_column("pack")
    table.add_column(v.wild_name, justify="right")
    for seat in range(players):
        table.add_column(seat_name(seat), justify="right")
    unit = "chips" if v.scoring == "chips" else "points"
    console = Console(stderr=True)

    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playing deals", total=deals if v.game_end == "deals" else None)

        def on_deal(start: DealState, actions: tuple[Action, ...], game: GameState) -> None:
            net = game.history[-1]
            shown = (f"{n:+d}" for n in net) if unit == "chips" else (str(n) for n in net)
            table.add_row(str(game.deal_index), seat_name(start.dealer), start.pack, str(start.comet_value), *shown)
            progress.advance(task)

        game = play_game(rules, players, deals, args.seed, on_deal=on_deal)
    if args.record is not None or args.itf is not None:
        from comet.records.deal_record import dumps_json
        from comet.records.game_write import game_trace, record_game, write_text

        grec = record_game(rules, args.preset, players, args.deals, args.seed)
        if args.record is not None:
            write_text(args.record, dumps_json(grec.to_json()) + "\n")
        if args.itf is not None:
            write_text(args.itf, json.dumps(game_trace(grec, "comet game")) + "\n")
        if args.record == "-":
            return 0
    table.add_row("total", "", "", "", *(str(b) for b in game.balances), end_section=True)
    out = Console()
    out.print(table)
    won = winners(game)
    names = " and ".join(seat_name(s) for s in won)
    how = " (lowest total wins)" if v.lower_wins else ""
    out.print(f"Winner{'s' if len(won) > 1 else ''}: {names} with {game.balances[won[0]]} {unit}{how}")
    return 0
