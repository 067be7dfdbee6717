"""``comet game``: play a whole seeded game and print the standings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from comet.commands.common import add_rules_options, rules_from_args
from comet.game import default_deals, play_game, seats_in_play, winners
from comet.notation import seat_name
from comet.state import Action, DealState, GameState
from comet.trace import IMPLEMENTATIONS
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
    start = rules.starting_chips if unit == "chips" else 0
    if start:
        # the chips everyone holds before the first deal, so that each column adds up to its total
        table.add_row("start", "", "", "", *(str(start) for _ in range(players)), end_section=True)

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
    for line in explain_game(game, asked_deals=args.deals):
        out.print(line, highlight=False)
    return 0


def explain_game(game: GameState, asked_deals: int | None = None) -> list[str]:
    """The lines under the standings that make them add up: the starting chips the totals include, what a
    total below nothing means under the game's RUL-INSOLVENCY reading, why the game ended, and who won."""
    v = variant_of(game.rules)
    unit = "chips" if v.scoring == "chips" else "points"
    lines: list[str] = []
    start = game.rules.starting_chips if v.scoring == "chips" else 0
    if start:
        lines.append(
            f"Everyone started with {start} chips (RUL-STARTING-CHIPS); each total is that "
            "start plus the player's signed result in every deal above."
        )
    else:
        lines.append(f"Everyone started at 0 {unit}; a total is the sum of the player's deals above.")
    if v.scoring == "chips":
        owing = [s for s in range(game.players) if game.balances[s] < 0 and game.rules.insolvency == "debt"]
        for s in owing:
            lines.append(
                f"{seat_name(s)} ends at {game.balances[s]}: a debt of {-game.balances[s]} chips, owed to the "
                "others (RUL-INSOLVENCY = debt: a player who runs out of chips goes on playing and owes the rest)."
            )
    if v.scoring == "chips" and game.rules.insolvency == "pay_what_you_have":
        for s in range(game.players):
            if game.balances[s] == 0:
                lines.append(
                    f"{seat_name(s)} ends with no chips: a player who cannot pay in full pays what they have and "
                    "owes nothing more (RUL-INSOLVENCY = pay_what_you_have)."
                )
    for s in game.out:
        lines.append(f"{seat_name(s)} ran out of chips and dropped out (RUL-INSOLVENCY = drop_out).")
    lines.append(end_reason(game, asked_deals))
    won = winners(game)
    names = " and ".join(seat_name(s) for s in won)
    how = " (the lowest total wins)" if v.lower_wins else ""
    lines.append(f"Winner{'s' if len(won) > 1 else ''}: {names} with {game.balances[won[0]]} {unit}{how}.")
    return lines


def end_reason(game: GameState, asked_deals: int | None) -> str:
    """Why the game stopped where it did, in words (the test of ``comet.game.game_over`` that ended it)."""
    v = variant_of(game.rules)
    played = game.deal_index
    cite = _rule_ids(v.game_over) or "R-GAME-DEALS"
    after = f"The game ended after {played} deal{'s' if played != 1 else ''}"
    if game.out and len(seats_in_play(game)) not in v.player_counts:
        return f"{after}: too few players were left to deal to after the others dropped out."
    if v.game_end == "target":
        best = min(game.balances) if v.lower_wins else max(game.balances)
        if best >= v.target or (v.game_over is not None and v.game_over(game) and played < game.deals):
            return f"{after}: a player reached the target of {v.target} points, which ends the game ({cite})."
        return f"{after}, the most this run allows (--deals {game.deals}), before anyone reached {v.target} points."
    if asked_deals is not None:
        return f"{after}, as many as asked for (--deals {asked_deals})."
    if played == game.players:
        return f"{after}: a game is one round, each of the {game.players} players dealing once ({cite})."
    return f"{after}, the preset's length of a game for {game.players} players ({cite})."


def _rule_ids(fn: object) -> str:
    """The rule ids ``fn`` is marked as implementing (``comet.trace.rule``), comma-separated; '' if none."""
    if fn is None:
        return ""
    name = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', '')}"
    return ", ".join(rid for rid, names in IMPLEMENTATIONS.items() if name in names)
