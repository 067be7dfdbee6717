"""The old comet game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from collections import Counter

from comet.cards import DIAMONDS, KING, card, rank_of
from comet.checks.game import (
    chip_economy,
    chip_game_end,
    chips_follow_payments,
)
from comet.checks.recompute import (
    Expected,
    added_payments,
    from_each_other,
    table_text,
)
from comet.checks.registry import GameCheck, register_check
from comet.games.opera.check import first_turn_opera
from comet.state import Action, DealState, GameState

# 000:85 "the Ace counts as 1", "1 chip per point left in the other hands, Ace 1"; "as above" for the
# rest (000:61: 2 to 10 their number, Jack, Queen and King 10); the manille counts "9 to the winner".
_OLD_SCORE: dict[int, int] = {1: 1} | {r: r for r in range(2, 11)} | {11: 10, 12: 10, 13: 10}


_MANILLE = card(9, DIAMONDS)  # 000:85 "the 9♦ is the only wild card (then called the manille)"


_MANILLE_CAUGHT = 10  # 000:85 "a player left with the 9♦ pays 10 chips to each other player"


def old_comet_recomputed(state: DealState) -> Expected:
    """Old Comet (000:85): each loser pays the winner 1 chip per point in hand (Ace 1, the manille
    9); whoever is left with the 9♦ also pays 10 to each other player (RUL-OLD-CAUGHT: the winner
    too, or not); going out on the manille multiplies the points only under RUL-OLD-MANILLE-LAST;
    the Opera option doubles the points paid to the winner (002:31 "pay double for each card"), and
    the caught manille's 10s only under RUL-OLD-OPERA-CAUGHT = doubled (000:83 "everyone pays double")."""
    out: Counter[tuple[int, int]] = Counter()
    if state.winner < 0:
        return Expected({})
    mult = 1
    if state.out_wild_as and state.rules.old_manille_last == "multiplied":
        mult = 4 if state.out_wild_as == 9 else 2
    caught = _MANILLE_CAUGHT
    if state.rules.old_opera_caught == "doubled":
        caught = first_turn_opera(state, 1) * _MANILLE_CAUGHT
    mult = first_turn_opera(state, mult)
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        # RUL-OLD-COURT-POINTS = rank: Jack 11, Queen 12, King 13 (the Ace 1 and the manille 9 either way)
        score = _OLD_SCORE if state.rules.old_court_points == "ten" else {r: r for r in range(1, 14)}
        points = sum(9 if c == _MANILLE else score[rank_of(c)] for c in hand)
        # RUL-OLD-CAUGHT-DOUBLE = doubled: 000:63 "pays double for all their cards" carried over
        doubled = 2 if _MANILLE in hand and state.rules.old_caught_double == "doubled" else 1
        out[(seat, state.winner)] += points * mult * doubled
        if _MANILLE in hand and state.rules.old_caught_nine == "extra":  # RUL-OLD-CAUGHT-NINE: "plus 9" on top
            out[(seat, state.winner)] += 9
        for _ in range(hand.count(_MANILLE)):
            for other in range(state.players):
                if other == seat or (other == state.winner and state.rules.old_caught == "nine_only"):
                    continue
                out[(seat, other)] += caught
    # RUL-OLD-OPERA-BONUS = doubled: the manille's bonus on the Opera's last card (10, or x2 / x4 under
    # RUL-OLD-BONUS-LAST) is doubled by the Opera; the extra comes with the settlement
    if state.rules.old_opera_bonus == "doubled" and state.out_wild_as:
        paid = state.comet_value
        if state.rules.old_bonus_last == "multiplied":
            paid *= 4 if state.out_wild_as == 9 else 2
        extra = first_turn_opera(state, paid) - paid
        for other in range(state.players):
            if other != state.winner and extra:
                out[(other, state.winner)] += extra
    return Expected({k: v for k, v in out.items() if v})


def old_comet_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """000:85 "Whoever plays a King, or the last card before everyone passes, collects 1 chip from
    each player; playing the 9♦ earns 10 chips from each" (the manille's value is the deal's
    ``comet_value``, 10 in every deal of a game: ``old_comet_economy``).  The manille standing for a
    King earns the King's 1 as well only under RUL-OLD-MANILLE-KING = manille_and_king."""
    n = before.players
    want: Counter[tuple[int, int]] = Counter()
    if action.is_pass:
        # everyone else has passed: the turn is back at the player who put the last card on a run
        if before.run and after.to_move == before.last_player:
            want.update(from_each_other(n, before.last_player, 1))
    else:
        seat = before.to_move
        for c in action.cards:
            if c == _MANILLE:
                # RUL-OLD-BONUS-LAST = multiplied: as the winner's last card, x2, or x4 standing for a 9
                # (the player's last card even when an Opera deal is drawn: the bonus stands, RUL-OPERA-DRAW)
                last = not after.hands[seat] and before.rules.old_bonus_last == "multiplied"
                times = (4 if action.as_rank == 9 else 2) if last else 1
                want.update(from_each_other(n, seat, before.comet_value * times))
                if action.as_rank == KING and before.rules.old_manille_king == "manille_and_king":
                    want.update(from_each_other(n, seat, 1))
            elif rank_of(c) == KING and (before.rules.old_king_quartet == "per_king" or c == min(action.cards)):
                # RUL-OLD-KING-QUARTET = per_play: four Kings at once earn 1 from each, not 4
                want.update(from_each_other(n, seat, 1))
        # RUL-OLD-LAST-CARD = every_run_end: a play after which the run is over (or the deal) earns 1 more
        if before.rules.old_last_card == "every_run_end" and (not after.run or not after.hands[seat]):
            want.update(from_each_other(n, seat, 1))
    got = added_payments(before, after)
    if got != dict(want):
        return [f"{action} paid {table_text(got)}; the Old Comet payments are {table_text(dict(want))}"]
    return []


def old_comet_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """000:85 "playing the 9♦ earns 10 chips from each": the manille is worth 10 in every deal; under
    RUL-OLD-ESCALATION = plus_two 000:55's "2 chips more in the next deal" while it lies in the dead hand,
    back to 10 once dealt."""
    if before.rules.old_escalation == "fixed":
        return chip_economy(before, final, after, 10, "manille")
    out: list[str] = []
    expected = before.comet_values[0]
    # RUL-ESCALATION-RESET = same_deal (000:55 "until it is dealt to a player again; then it goes back"):
    # a raised manille dealt to a player is worth 10 again in that very deal
    if before.rules.comet_reset == "same_deal" and _MANILLE not in start.dead:
        expected = 10
    if start.comet_value != expected:
        out.append(f"deal {before.deal_index}: the manille is worth {start.comet_value}, not {expected}")
    carried = start.comet_value + 2 if _MANILLE in start.dead else 10
    if after.comet_values != (carried,):
        out.append(f"deal {before.deal_index}: the manille's value carried on is {after.comet_values}, not {carried}")
    return out + chips_follow_payments(before, final, after, after.history[-1] if after.history else ())


CHECK = register_check(
    "old_comet",
    GameCheck(settlement=old_comet_recomputed, step=old_comet_step, economy=old_comet_economy, end=chip_game_end),
)
