"""Whole games under fuzzing: several deals in a row with the deal passing left (R-DEAL-DEALER),
packs in turn (R-PACK-ALTERNATE), the Comet's value escalating from the dead hand
(R-COMET-ESCALATE), chip balances (R-GAME-CHIPS, R-GAME-DEALS) and a result that agrees with
the balances (R-GAME-WINNER)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from comet import game as game_module
from comet.checks import check_game_economy, check_game_end, check_game_step
from comet.engine import player_counts
from comet.fuzz import check_game, game_length, pick_policy
from comet.ruleset import Ruleset
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import KNOWN_RULES, budget, rulesets


@settings(max_examples=budget(25))
@given(rules=rulesets(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_whole_games_keep_every_invariant(rules: Ruleset, data: st.DataObject, seed: int) -> None:
    rng = random.Random(seed)
    players = data.draw(st.sampled_from(player_counts(rules)), label="players")
    deals = game_length(rules, players, rng)
    dealer = data.draw(st.integers(0, players - 1), label="first dealer")
    out = check_game(rules, players, deals, dealer, rng, pick_policy(rng), KNOWN_RULES)
    assert not out.failure, out.failure
    assert game_module.game_over(out.game)


def _one_deal_game() -> list[str]:
    rules = Ruleset()
    rng = random.Random(3)
    game = first = game_module.new_game(rules, 3, 3, 0)
    problems: list[str] = []
    while not game_module.game_over(game):
        start = game_module.next_deal(game, rng.getrandbits(32))
        # put the Comet in the dead hand so that its value must escalate (000:55)
        if not any(c in start.wild for c in start.dead):
            seat = next(i for i, h in enumerate(start.hands) if any(c in start.wild for c in h))
            wild = next(c for c in start.hands[seat] if c in start.wild)
            swap = start.dead[0]
            hands = list(start.hands)
            hands[seat] = tuple(sorted([c for c in hands[seat] if c != wild] + [swap]))
            start = replace(start, hands=tuple(hands), dead=tuple(sorted([*start.dead[1:], wild])))
        final, _ = game_module.play_deal(start)
        after = game_module.finish_deal(game, final)
        economy, skipped = check_game_economy(game, start, final, after)
        assert not skipped
        problems += check_game_step(game, start, final, after) + economy
        game = after
    return problems + check_game_end(first, game)


def test_escalation_check_passes_on_the_model() -> None:
    """R-COMET-ESCALATE: the Comet in the dead hand is worth 2 more in the next deal."""
    assert _one_deal_game() == []


def test_planted_escalation_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the Comet's value grows by 3 instead of 2 (000:55 '4, then 6')."""
    monkeypatch.setattr(game_module, "COMET_STEP", 3)
    problems = _one_deal_game()
    assert any("Comet" in p and "expected" in p for p in problems), problems


def test_planted_winner_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the winner is the poorest seat (R-GAME-WINNER)."""
    game = first = game_module.new_game(Ruleset(deal_count="any"), 3, 1, 0)
    rng = random.Random(1)
    final, _ = game_module.play_deal(game_module.next_deal(game, rng.getrandbits(32)))
    game = game_module.finish_deal(game, final)
    assert check_game_end(first, game) == []
    monkeypatch.setattr(
        game_module, "winners", lambda g: tuple(i for i, b in enumerate(g.balances) if b == min(g.balances))
    )
    assert any("winners" in p for p in check_game_end(first, game))
