"""Whole deals and games played under the one checker (``comet.checks``), stopping at the first violation:
used by the every-preset tests; the fuzzers call the same checks step by step."""

from __future__ import annotations

import random
from collections.abc import Callable

from comet.checks.deal import check_state, check_terminal, check_transition
from comet.checks.game import check_game_economy, check_game_economy_end, check_game_end, check_game_step
from comet.engine import apply, deal_points, legal_actions, step_bound
from comet.game import deal_over, finish_deal, game_over, new_game, next_deal
from comet.policy import Policy, random_policy
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState


def check_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """One transition, by the one checker: the invariants of the state reached (every card of ``before``
    still somewhere, a legal action if the deal goes on, ...) and of the transition itself."""
    return check_state(after, before) + check_transition(before, action, after)


def check_final(final: DealState) -> list[str]:
    """A finished deal, by the one checker: the settlement (and points) against the game's own
    recomputation, payments within the bound, deal points non-negative."""
    out, _skipped = check_terminal(final)
    pts = deal_points(final)
    if len(pts) != final.players or any(p < 0 for p in pts):
        out.append(f"deal points must be one non-negative number per seat: {pts}")
    return out


def play_checked(
    start: DealState, policy: Policy, game: GameState | None = None
) -> tuple[DealState, tuple[Action, ...], list[str]]:
    """Play ``start`` to its end with ``policy`` (as a deal of ``game``: until ``deal_over``, which a game
    won inside the deal makes early), checking every step; stops at the first violation."""
    s = start
    actions: list[Action] = []
    bound = step_bound(start)
    if not s.terminal and not legal_actions(s):
        return s, (), [f"no legal action at the start for seat {s.to_move}"]
    while not (s.terminal if game is None else deal_over(game, s)):
        if len(actions) > bound:
            return s, tuple(actions), [f"deal did not end within step_bound {bound} actions"]
        legal = legal_actions(s)
        a = policy(s, legal)
        nxt = apply(s, a)
        actions.append(a)
        problems = check_step(s, a, nxt)
        if problems:
            return nxt, tuple(actions), problems
        s = nxt
    return s, tuple(actions), check_final(s) if s.terminal else []


def check_game(
    rules: Ruleset,
    players: int,
    seed: int,
    deals: int | None = None,
    policy_for: Callable[[random.Random], Policy] = random_policy,
) -> tuple[GameState, list[str]]:
    """Play a whole seeded game under the one checker: every deal, every deal's carry-over, the game's end."""
    rng = random.Random(seed)
    game = new_game(rules, players, deals, rng.randrange(players))
    first = game
    policy = policy_for(rng)
    while not game_over(game):
        start = next_deal(game, rng.getrandbits(64))
        final, _, problems = play_checked(start, policy, game)
        if problems:
            return game, [f"deal {game.deal_index + 1}: {p}" for p in problems]
        after = finish_deal(game, final)
        problems = check_game_step(game, start, final, after) + check_game_economy(game, start, final, after)[0]
        if problems:
            return after, [f"deal {game.deal_index + 1}: {p}" for p in problems]
        game = after
    return game, check_game_end(first, game) + check_game_economy_end(first, game)[0]
