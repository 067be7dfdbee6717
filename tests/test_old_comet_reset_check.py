"""Old Comet's game economy under RUL-OLD-ESCALATION = plus_two with RUL-ESCALATION-RESET = same_deal: a
raised manille dealt to a player is worth 10 again in that deal (the check expected the raised value, so
``comet verify``'s fuzz campaign reported correct games).

Rules exercised: R-OLD-MANILLE-PLAY, R-COMET-ESCALATE.
"""

from __future__ import annotations

import pytest
from comet import game as game_module
from comet.games.old_comet.check import old_comet_economy
from comet.presets import PRESETS

RULES = PRESETS["old_comet"].rules.with_overrides({"old_escalation": "plus_two", "comet_reset": "same_deal"})


def problems_after_a_dead_manille() -> list[str]:
    """Deals of 3-player games until the manille has lain dead and then been dealt; the check's verdicts."""
    for first in range(200):
        game = game_module.new_game(RULES, 3, 6)
        raised = False
        for k in range(6):
            start = game_module.next_deal(game, first * 100 + k)
            final, _ = game_module.play_deal(start)
            after = game_module.finish_deal(game, final)
            out = old_comet_economy(game, start, final, after)
            if raised and not any(c in start.wild for c in start.dead):
                return out
            raised = game.comet_values[0] > 10 or any(c in start.wild for c in start.dead)
            game = after
    raise AssertionError("no game dealt a raised manille")


def test_a_dealt_raised_manille_is_worth_ten_again() -> None:
    assert problems_after_a_dead_manille() == []


def test_a_planted_manille_that_keeps_its_raise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model planted to ignore RUL-ESCALATION-RESET: the dealt manille keeps its raised value."""
    monkeypatch.setattr(game_module, "comet_value_for", lambda game, dealt: game.comet_values[0])
    problems = problems_after_a_dead_manille()
    assert problems and "the manille is worth 12, not 10" in problems[0]
