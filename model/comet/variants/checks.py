"""Variant-generic invariant checks, used by the variant tests (and usable by fuzzing).

Each check returns a list of readable violations (empty: fine).  They hold for
every preset: card conservation, a legal action in every non-terminal state,
termination within ``engine.step_bound``, and either zero-sum chips (chip
games) or non-negative deal scores whose sum is the game total (points games).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from comet.cards import cards_text
from comet.engine import apply, deal_points, legal_actions, returns, step_bound
from comet.game import GameState, finish_deal, game_over, new_game, next_deal
from comet.policy import Policy, random_policy
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variants.base import variant_of


def _all_cards(s: DealState) -> Counter[int]:
    return Counter([c for h in s.hands for c in h] + list(s.dead) + list(s.played))


def check_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """Conservation of cards and the legal-action guarantee across one transition."""
    out: list[str] = []
    if _all_cards(before) != _all_cards(after):
        lost = _all_cards(before) - _all_cards(after)
        made = _all_cards(after) - _all_cards(before)
        out.append(
            f"cards not conserved by {action}: lost [{cards_text(lost.elements())}], "
            f"appeared [{cards_text(made.elements())}]"
        )
    if not after.terminal and not legal_actions(after):
        out.append(
            f"no legal action for seat {after.to_move} after {action} (hand {cards_text(after.hands[after.to_move])}, "
            f"run {after.run})"
        )
    return out


def check_final(final: DealState) -> list[str]:
    """Zero-sum chips or non-negative points for a finished deal."""
    v = variant_of(final.rules)
    out: list[str] = []
    net = returns(final)
    if sum(net) != 0:
        out.append(f"chips not zero-sum: net {net}")
    if v.scoring == "points":
        pts = deal_points(final)
        if len(pts) != final.players or any(p < 0 for p in pts):
            out.append(f"deal points must be one non-negative number per seat: {pts}")
    return out


def play_checked(start: DealState, policy: Policy) -> tuple[DealState, tuple[Action, ...], list[str]]:
    """Play ``start`` to its end with ``policy``, checking every step; stops at the first violation."""
    s = start
    actions: list[Action] = []
    bound = step_bound(start)
    if not s.terminal and not legal_actions(s):
        return s, (), [f"no legal action at the start for seat {s.to_move}"]
    while not s.terminal:
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
    return s, tuple(actions), check_final(s)


def check_game(
    rules: Ruleset,
    players: int,
    seed: int,
    deals: int | None = None,
    policy_for: Callable[[random.Random], Policy] = random_policy,
) -> tuple[GameState, list[str]]:
    """Play a whole seeded game with checks; for points games, totals must equal the sum of deal scores."""
    rng = random.Random(seed)
    game = new_game(rules, players, deals, rng.randrange(players))
    v = variant_of(rules)
    policy = policy_for(rng)
    while not game_over(game):
        start = next_deal(game, rng.getrandbits(64))
        final, _, problems = play_checked(start, policy)
        if problems:
            return game, [f"deal {game.deal_index + 1}: {p}" for p in problems]
        game = finish_deal(game, final)
    problems = []
    if v.scoring == "points":
        summed = tuple(sum(col) for col in zip(*game.history, strict=True)) if game.history else (0,) * players
        if summed != game.balances:
            problems.append(f"game totals {game.balances} differ from the sum of the deal scores {summed}")
        if any(p < 0 for row in game.history for p in row):
            problems.append(f"a deal score is negative: {game.history}")
    elif v.game_end == "deals" and rules.insolvency == "debt" and sum(game.balances) != rules.starting_chips * players:
        problems.append(f"chips not conserved over the game: {game.balances}")
    if v.game_end == "target" and game.deal_index < game.deals and max(game.balances) < v.target:
        problems.append(f"game stopped before anyone reached {v.target}: {game.balances}")
    return game, problems
