"""The red nines game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from comet.cards import DIAMONDS, HEARTS, KING, card, rank_of
from comet.checks.game import (
    fixed_deals_end,
    points_game_economy,
)
from comet.checks.recompute import (
    Expected,
    no_chips_step,
)
from comet.checks.registry import GameCheck, register_check
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState

# 002:75-81: "2 to 10 | Face value", "Jack | 11", "Queen | 12", "King | 13", "Ace | 20"; a red nine
# counts its nine (002:83 "including the nine points for the red nine itself").
_RED9_SCORE: dict[int, int] = {1: 20} | {r: r for r in range(2, 11)} | {11: 11, 12: 12, 13: 13}


_RED_NINES = (card(9, DIAMONDS), card(9, HEARTS))  # 002:65-67 "nine of Diamonds ♦ and nine of Hearts ♥"


def red_nines_recomputed(state: DealState) -> Expected:
    """Red Nines (002:72-85): the winner scores 0; the others their cards, "doubled" for one red nine
    held, "quadrupled" for two (RUL-RED9-MANY beyond), "also doubled" if the winner's last card was a
    red nine (RUL-RED9-OUT: x4 when it stood for a 9 under like_comet)."""
    if state.winner < 0:
        return Expected({}, (0,) * state.players)
    last_wild = bool(state.played) and state.played[-1] in _RED_NINES
    out_mult = 1
    if last_wild:
        out_mult = 4 if state.rules.red_nines_out == "like_comet" and state.out_wild_as == 9 else 2
    points = []
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            points.append(0)
            continue
        held = sum(1 for c in hand if c in _RED_NINES)
        mult = 2**held if state.rules.red_nines_many == "double_each" else (1, 2, 4)[min(held, 2)]
        points.append(sum(_RED9_SCORE[rank_of(c)] for c in hand) * mult * out_mult)
    return Expected({}, tuple(points))


def red_nines_step(before: DealState, action: Action, after: DealState) -> list[str]:
    out = no_chips_step(before, action, after)
    if any(after.scores):
        out.append(f"Red Nines scores only at the end of a hand, but the scores in play are {after.scores}")
    return out


def red_nines_game_end(first: GameState, game: GameState) -> list[str]:
    """002:86-88: one hand per player (or as many as agreed), the lowest total wins; totals start at 0."""
    return fixed_deals_end(first, game, 0, lowest=True)


def red_nines_run_top(rules: Ruleset) -> int:
    """A King ends a run, except a King of another suit under RUL-RED9-KING = suit_king (002:68-71)."""
    return KING + 1 if rules.red_nines_king == "suit_king" else KING


CHECK = register_check(
    "red_nines",
    GameCheck(settlement=red_nines_recomputed, step=red_nines_step, economy=points_game_economy, end=red_nines_game_end, run_top=red_nines_run_top),
)
