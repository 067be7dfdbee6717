"""The one checker's game invariants: dealer rotation, pack alternation, balances, the end of a game,
and the economy shapes (chip games, points games, races to a target) the games' own checks build on."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from comet import engine
from comet import game as game_module
from comet.checks.recompute import (
    payments_table,
    table_text,
)
from comet.checks.registry import check_of
from comet.state import DealState, GameState, Payment
from comet.variant import variant_of

# 000:55 "it is worth 2 chips more in the next deal (4, then 6 …), until it is dealt to a player
# again; then it goes back to 2."
BASE_COMET = 2


COMET_STEP = 2


def check_game_step(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """One deal of a whole game: dealer rotation, pack alternation, balances and history.

    The variant-specific chip economy (Comet escalation, zero-sum) is ``check_game_economy``."""
    out: list[str] = []
    n = before.players
    # RUL-INSOLVENCY = drop_out: a deal is dealt to the seats still in, in seat order
    in_play = [s for s in range(n) if s not in before.out]
    rotation = engine.packs_in_rotation(before.rules, len(in_play))
    if start.players != len(in_play) or in_play[start.dealer] != before.dealer:
        out.append(
            f"deal {before.deal_index}: dealt by seat {start.dealer} of {start.players}, but seat "
            f"{before.dealer} of the seats in play {in_play} was due"
        )
    left = (before.dealer + 1) % n
    while left in after.out:
        left = (left + 1) % n
    if after.dealer != left:
        out.append(f"deal {before.deal_index}: the deal passed to seat {after.dealer}, not to the left")
    due = rotation[before.deal_index % len(rotation)].name
    if start.pack != due:
        out.append(f"deal {before.deal_index}: played with the {start.pack} pack, but the {due} pack was due")
    net = after.history[-1] if after.history else ()
    if len(after.history) != len(before.history) + 1:
        out.append("the game history did not grow by one deal")
    if tuple(a + d for a, d in zip(before.balances, net, strict=False)) != after.balances:
        out.append(f"balances {after.balances} are not the previous {before.balances} plus the deal's net {net}")
    return out


def check_game_end(first: GameState, game: GameState) -> list[str]:
    """At the end of a game: the first balances plus every deal's net are the balances; the
    winners are the seats with the most (chips or points; the fewest where the variant declares
    ``lower_wins``); not more deals than agreed."""
    out: list[str] = []
    totals = tuple(first.balances[i] + sum(h[i] for h in game.history) for i in range(game.players))
    if totals != game.balances:
        out.append(f"balances {game.balances} differ from the first balances plus every deal's net {totals}")
    # Penalty-point games (``Variant.lower_wins``; 002:88 "the player with the lowest total score") rank the other way.
    # A seat that dropped out (RUL-INSOLVENCY = drop_out) cannot win.
    lowest = variant_of(game.rules).lower_wins
    held = [b for i, b in enumerate(game.balances) if i not in game.out]
    best = min(held) if lowest else max(held)
    richest = tuple(i for i, b in enumerate(game.balances) if b == best and i not in game.out)
    if game_module.winners(game) != richest:
        most = "fewest" if lowest else "most"
        out.append(f"winners {game_module.winners(game)} are not the seats with the {most} {richest}")
    if len(game.history) > game.deals:
        out.append(f"{len(game.history)} deals played, only {game.deals} agreed")
    return out


def chips_follow_payments(before: GameState, final: DealState, after: GameState, net: tuple[int, ...]) -> list[str]:
    """The deal is zero-sum; under ``debt`` the balances move by exactly its payments, under
    ``pay_what_you_have`` no balance goes below zero (RUL-INSOLVENCY)."""
    out: list[str] = []
    if sum(net) != 0:
        out.append(f"the deal's net {net} is not zero-sum")
    if before.rules.insolvency == "drop_out":
        return out + dropped_out_payments(before, final, after, net)
    owed = [0] * before.players
    for p in final.payments + engine.settlement(final):
        owed[p.payer] -= p.amount
        owed[p.payee] += p.amount
    if before.rules.insolvency == "debt" and tuple(owed) != net:
        out.append(f"the deal's net {net} differs from its payments {tuple(owed)}")
    if before.rules.insolvency == "pay_what_you_have" and any(
        b < 0 <= a for a, b in zip(before.balances, after.balances, strict=True)
    ):
        out.append(f"a balance went negative under insolvency=pay_what_you_have: {after.balances}")
    return out


def in_creditor_order(reading: str, pays: tuple[Payment, ...], players: int) -> tuple[Payment, ...]:
    """RUL-CREDITOR-ORDER recomputed: seat_order keeps the settlement's order; from_left has each payer who
    pays several in a row start with their left neighbour and go round the table."""
    if reading != "from_left":
        return pays
    out: list[Payment] = []
    for payer, group in itertools.groupby(pays, key=lambda p: p.payer):
        rota = [(payer + k) % players for k in range(players)]
        out.extend(sorted(group, key=lambda p: rota.index(p.payee)))
    return tuple(out)


def dropped_out_payments(before: GameState, final: DealState, after: GameState, net: tuple[int, ...]) -> list[str]:
    """RUL-INSOLVENCY = drop_out, recomputed: the deal's payments in order between the seats still in (deal
    seat j is the j-th of them); a payer short of the amount pays what they have and is out, and nothing
    more is paid to or by them; the balances never go below zero and the seats out are the game's."""
    seats = [s for s in range(before.players) if s not in before.out]
    held = list(before.balances)
    gone = list(before.out)
    for p in final.payments + in_creditor_order(before.rules.creditor_order, engine.settlement(final), len(seats)):
        payer, payee = seats[p.payer], seats[p.payee]
        if payer in gone or payee in gone:
            continue
        paid = min(p.amount, held[payer])
        if paid < p.amount:
            gone.append(payer)
        held[payer] -= paid
        held[payee] += paid
    out: list[str] = []
    if tuple(b - a for a, b in zip(before.balances, held, strict=True)) != net:
        out.append(f"the deal's net {net} differs from its payments with drop-outs {tuple(held)}")
    if tuple(gone) != after.out:
        out.append(f"the seats out after the deal are {after.out}, the payments put out {tuple(gone)}")
    if any(b < 0 for b in after.balances):
        out.append(f"a balance went negative under insolvency=drop_out: {after.balances}")
    return out


def chip_economy(before: GameState, final: DealState, after: GameState, value: int, name: str) -> list[str]:
    """A chip game whose wild card is worth ``value`` in every deal (it never rises): the deal is
    zero-sum, and under ``debt`` the balances move by exactly its payments."""
    out: list[str] = []
    net = after.history[-1] if after.history else ()
    if final.comet_value != value:
        out.append(f"deal {before.deal_index}: the {name} is worth {final.comet_value}, not {value}")
    if any(v != value for v in after.comet_values):
        out.append(f"deal {before.deal_index}: the {name}'s value carried on is {after.comet_values}, not {value}")
    return out + chips_follow_payments(before, final, after, net)


def points_economy(before: GameState, final: DealState, after: GameState) -> list[str]:
    """A points game: no chips move, the deal's scores are the recomputed ones and never negative,
    and the totals grow by exactly them."""
    out: list[str] = []
    net = after.history[-1] if after.history else ()
    if final.payments or engine.settlement(final):
        out.append(
            f"chips moved in a points game: {table_text(payments_table(final.payments + engine.settlement(final)))}"
        )
    check = check_of(final.rules.variant)
    expected = check.settlement(final) if check is not None else None
    if expected is not None and expected.points is not None and net != expected.points:
        out.append(f"the deal added {net} to the totals, the recomputation from the hands gives {expected.points}")
    if any(p < 0 for p in net):
        out.append(f"a deal score is negative: {net}")
    if any(b < 0 for b in after.balances):
        out.append(f"a game total is negative: {after.balances}")
    return out


def points_game_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    return points_economy(before, final, after)


def fixed_deals_end(first: GameState, game: GameState, start_total: int, lowest: bool) -> list[str]:
    """A game of an agreed number of deals (000:70; 002:86 "a number of hands equal to the number of
    players"), extra rounds for a tie only under game_tie=extra_round (at most 3); the best total is
    the highest, or the lowest in a penalty-point game (002:88)."""
    out: list[str] = []
    if any(b != start_total for b in first.balances):
        out.append(f"the game started with {first.balances}, not {start_total} each")
    left = game.players - len(game.out)
    if len(game.history) != game.deals and left in variant_of(game.rules).player_counts:
        out.append(f"{len(game.history)} deals played, {game.deals} agreed")
    held = [b for i, b in enumerate(game.balances) if i not in game.out]  # RUL-INSOLVENCY = drop_out
    best = min(held) if lowest else max(held)
    tied = sum(b == best for b in held) > 1
    if tied and game.rules.game_tie == "extra_round" and game.extra_rounds < 3:
        out.append("the game ended tied although extra rounds remain (game_tie=extra_round)")
    if game.extra_rounds and game.rules.game_tie == "share":
        out.append("extra rounds were played although tied leaders share the win (game_tie=share)")
    return out


def chip_game_end(first: GameState, game: GameState) -> list[str]:
    return fixed_deals_end(first, game, game.rules.starting_chips, lowest=False)


def target_end(first: GameState, game: GameState, reached: Callable[[tuple[int, ...], int], bool]) -> list[str]:
    """A race: the game ends after the first deal at whose end ``reached(totals, deals played)``
    holds, or after the agreed cap on deals if it never does; totals start at 0."""
    out: list[str] = []
    if any(first.balances):
        out.append(f"a points game started at {first.balances}, not 0 each")
    totals = list(first.balances)
    expected_length = game.deals
    for i, net in enumerate(game.history):
        totals = [t + d for t, d in zip(totals, net, strict=True)]
        if reached(tuple(totals), i + 1):
            expected_length = i + 1
            break
    if len(game.history) != min(expected_length, game.deals):
        out.append(
            f"the game ended after {len(game.history)} deals; by its end condition it ends after "
            f"{min(expected_length, game.deals)} (totals per deal {game.history})"
        )
    return out


def check_game_economy(
    before: GameState, start: DealState, final: DealState, after: GameState
) -> tuple[list[str], bool]:
    """Run the game family's economy recomputation; (violations, skipped)."""
    check = check_of(before.rules.variant)
    if check is None:
        return [], True
    return check.economy(before, start, final, after), False


def check_game_economy_end(first: GameState, game: GameState) -> tuple[list[str], bool]:
    """Run the game family's end-of-game check; (violations, skipped)."""
    check = check_of(game.rules.variant)
    if check is None:
        return [], True
    return check.end(first, game), False
