"""The standard game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from comet import engine
from comet.cards import rank_of
from comet.checks.game import (
    BASE_COMET,
    COMET_STEP,
    chip_game_end,
    chips_follow_payments,
)
from comet.checks.recompute import (
    added_payments,
    chips_only,
    from_each_other,
    table_text,
)
from comet.checks.registry import GameCheck, register_check
from comet.state import Action, DealState, GameState

# 002:24-28 "| Card | Normal Score (Without Comet in Hand) | Score With Comet in Hand |": a card
# scores the value marked on it (2..9), ten for 10, Jack, Queen and King (000:61 "Jack, Queen and
# King 10 each"); the Comet only ever counts inside a hand that is doubled, as 18 (002:28 "| Comet |
# N/A | 18 |", 000:63 "the Comet counting 9 (so 18)").
_STANDARD_SCORE: dict[int, int] = {r: r for r in range(2, 10)} | {10: 10, 11: 10, 12: 10, 13: 10}


_COMET_IN_HAND = 18


def standard_settlement(state: DealState) -> dict[tuple[int, int], int]:
    """What each loser pays the winner, recomputed from the seeds' tables (standard game).

    - 000:61 "Every other player pays that player 1 chip for every point still in their hand"
    - 000:63 "A player caught with the Comet in hand pays double for all their cards"
    - 000:64 "If the winner's last card was the Comet, everyone pays double; if it stood for a 9,
      four times as much."

    With the Opera option (000:83 "if the first player goes out in their very first turn,
    everyone pays double"; 002:31 "doubled again ... doubled yet again") the Opera's x2 is
    multiplied with the Comet's x2/x4, or only the larger counts (``opera_stack``).  Whether a
    deal is drawn (000:83 "the deal is drawn") needs a search and is taken from the state.

    Returns ``{(payer, payee): amount}`` without zero amounts.
    """
    out: dict[tuple[int, int], int] = {}
    if state.winner < 0:
        return out
    if state.out_wild_as == 0:
        comet = 1
    elif state.out_wild_as == 9:
        comet = 4
    else:
        comet = 2
    first = (state.dealer + 1) % state.players
    opera = 2 if state.rules.opera and state.winner == first and state.turn == 0 else 1
    last = comet * opera if state.rules.opera_stack == "multiply" else max(comet, opera)
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        caught = any(c in state.wild for c in hand)
        total = 0
        for c in hand:
            if c in state.wild:
                total += _COMET_IN_HAND
            else:
                total += _STANDARD_SCORE[rank_of(c)] * (2 if caught else 1)
        pay = total * last
        if caught and opera == 2 and state.rules.opera_caught == "highest":
            # RUL-OPERA-CAUGHT: the caught hand's doubled table value (002:26) is not doubled again
            # by the Opera; only the higher of the two doublings counts (the hand's plain value x2).
            pay = total // 2 * max(2, last)
        if pay:
            out[(seat, state.winner)] = pay
    return out


def standard_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """The Comet's bonus in the standard game, recomputed from the sources: 000:55 "Whoever plays the
    Comet collects 2 chips from every other player" (the deal's ``comet_value`` after escalation);
    002:29 "four chips" / "8 chips" when it is the last card, x2 / x4 of it (RUL-COMET-BONUS-LAST);
    in an Opera that is not drawn, x2 more (000:83 "everyone pays double") under
    RUL-OPERA-COMET-BONUS = doubled, multiplied or capped as RUL-OPERA-STACK says.  Nothing else is
    paid during play."""
    want: dict[tuple[int, int], int] = {}
    wild = [c for c in action.cards if c in before.wild]
    if wild:
        out_now = not after.hands[before.to_move]
        factor = 1
        if out_now and before.rules.comet_bonus_last == "multiplied":
            factor = 4 if action.as_rank == 9 else 2
        first = (before.dealer + 1) % before.players
        opera = before.rules.opera and before.turn == 0 and before.to_move == first and out_now
        if opera and not after.drawn and before.rules.opera_comet_bonus == "doubled":
            factor = factor * 2 if before.rules.opera_stack == "multiply" else max(factor, 2)
        want = from_each_other(before.players, before.to_move, before.comet_value * factor)
    got = added_payments(before, after)
    if got != want:
        return [f"{action} paid {table_text(got)} during play; the Comet's bonus recomputed is {table_text(want)}"]
    return []


def standard_game_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """The chip economy of the standard game, recomputed from the seeds: the Comet's value
    escalates by 2 while it lies in the dead hand and goes back to 2 once dealt (000:55), each
    deal is zero-sum (000:61 "Every other player pays that player"), and under the ``debt``
    reading the balances move by exactly the deal's payments."""
    out: list[str] = []
    rotation = engine.packs_in_rotation(before.rules, before.players)
    net = after.history[-1] if after.history else ()
    key = 0 if before.rules.escalation == "shared" else before.deal_index % len(rotation)
    dealt = not any(c in start.wild for c in start.dead)
    expected = before.comet_values[key]
    if dealt and before.rules.comet_reset == "same_deal":
        expected = BASE_COMET
    if start.comet_value != expected:
        out.append(f"deal {before.deal_index}: the Comet is worth {start.comet_value}, expected {expected}")
    # RUL-ESCALATION-TRIGGER: 000:55 "ends up in the dead hand", or 002:22 "did not appear"
    not_played = not any(c in final.wild for c in final.played)
    rises = not dealt if before.rules.escalate_on == "dead_hand" else not_played
    carried = start.comet_value + COMET_STEP if rises else BASE_COMET
    if after.comet_values[key] != carried:
        out.append(
            f"deal {before.deal_index}: the Comet's value carried to the next deal is "
            f"{after.comet_values[key]}, expected {carried}"
        )
    return out + chips_follow_payments(before, final, after, net)


CHECK = register_check(
    "standard",
    GameCheck(settlement=chips_only(standard_settlement), step=standard_step, economy=standard_game_economy, end=chip_game_end),
)
