"""The commit cats game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from comet.cards import DIAMONDS, KING, card, rank_of
from comet.checks.game import (
    points_game_economy,
    target_end,
)
from comet.checks.recompute import (
    Expected,
    no_chips_step,
)
from comet.checks.registry import GameCheck, register_check
from comet.state import Action, DealState, GameState

_NINE_D = card(9, DIAMONDS)  # 002:32 "the nine of Diamonds is considered the Comet"


def commit_cats_recomputed(state: DealState) -> Expected:
    """002's Commit (002:43-45): the points scored in play (a King 1, the Comet 2; ``scores``), then
    the first player out "scores one point for that accomplishment", "two points for each King found
    remaining in each other players hand and one point for every other card"; for a Comet still in
    a hand "every player except the player whose hand it was found in scores one additional point"."""
    points = list(state.scores) if state.scores else [0] * state.players
    if state.winner < 0:
        return Expected({}, tuple(points))
    points[state.winner] += 1
    # RUL-COMMIT-C-COMET-OUT = doubled: 000:64 / 002:29's double (x4 "if it stood for a 9") for the hands
    last_comet = bool(state.played) and state.played[-1] == _NINE_D
    mult = 1
    if state.rules.commit_comet_out == "doubled" and last_comet:
        mult = 4 if state.out_wild_as == 9 else 2
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        for c in hand:
            points[state.winner] += mult * (2 if rank_of(c) == KING and c != _NINE_D else 1)
            if c == _NINE_D:
                for other in range(state.players):
                    if other != seat:
                        points[other] += 1
    return Expected({}, tuple(points))


def commit_cats_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """002:43-44: a King played "scores 1 point", the Comet "earns the player two points"
    (the Comet standing for a King scores its 2 only, or 2 + 1 under RUL-COMMIT-C-COMET-KING =
    comet_and_king); nothing else scores in play."""
    out = no_chips_step(before, action, after)
    was = list(before.scores) if before.scores else [0] * before.players
    gained = sum(2 if c == _NINE_D else 1 if rank_of(c) == KING else 0 for c in action.cards)
    if _NINE_D in action.cards and action.as_rank == KING and before.rules.commit_comet_king == "comet_and_king":
        gained += 1
    was[before.to_move] += gained
    now = list(after.scores) if after.scores else [0] * after.players
    if now != was:
        out.append(f"{action} left the scores in play at {tuple(now)}, not {tuple(was)}")
    return out


def commit_cats_race_net(totals: tuple[int, ...], state: DealState, share: bool) -> tuple[int, ...]:
    """RUL-COMMIT-C-RACE = race (002:45 "The first player to accumulate 100 total points"): what the deal
    adds to ``totals`` when the game is won the moment someone has 100 (the leader alone, or tied leaders
    with ``share``).  Points arrive in play (``scores``), then, once someone is out, the winner's, then
    the caught Comet's; the first of those moments at which 100 is reached is where the deal stops counting."""
    played = list(state.scores) if state.scores else [0] * state.players
    moments = [tuple(played)]
    if state.winner >= 0:
        full = commit_cats_recomputed(state).points
        assert full is not None
        caught = [0] * state.players
        for seat, hand in enumerate(state.hands):
            if _NINE_D in hand and seat != state.winner:
                caught = [c + (other != seat) for other, c in enumerate(caught)]
        moments.append(tuple(f - c for f, c in zip(full, caught, strict=True)))
        moments.append(full)
    for moment in moments:
        now = tuple(t + p for t, p in zip(totals, moment, strict=True))
        if max(now) >= 100 and (share or now.count(max(now)) == 1):
            return moment
    return moments[-1]


def commit_cats_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """The points economy; under RUL-COMMIT-C-RACE = race the deal adds what it had scored when the game was
    won (``commit_cats_race_net``), and a deal cut short must have won it."""
    if before.rules.commit_race != "race":
        return points_game_economy(before, start, final, after)
    net = after.history[-1] if after.history else ()
    want = commit_cats_race_net(before.balances, final, before.rules.commit_tie == "share")
    out = []
    if net != want:
        out.append(f"the deal added {net} to the totals {before.balances}; in the race it adds {want}")
    if not final.terminal and (max(after.balances) < 100):
        out.append(f"the deal stopped before its end with nobody on 100: {after.balances}")
    return out


def commit_cats_game_end(first: GameState, game: GameState) -> list[str]:
    """002:45 "The first player to accumulate 100 total points" (RUL-COMMIT-C-TARGET: tied leaders
    share, or play on until one is ahead)."""
    share = game.rules.commit_tie == "share"
    return target_end(first, game, lambda t, k: max(t) >= 100 and (share or t.count(max(t)) == 1))


CHECK = register_check(
    "commit_cats",
    GameCheck(settlement=commit_cats_recomputed, step=commit_cats_step, economy=commit_cats_economy, end=commit_cats_game_end),
)
