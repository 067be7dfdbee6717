"""Legality under fuzzing: arbitrary actions (not only legal ones) are offered at every step;
the model accepts exactly those in ``legal_actions`` and rejects every other one with the id
of the rule it breaks (R-PLAY-HELD, R-PLAY-CONTINUE, R-PLAY-MUST, R-NEW-RUN, R-COMET-WILD,
R-FOUR-OF-A-KIND, R-END-OUT)."""

from __future__ import annotations

import random

import pytest
from comet import engine
from comet.checks import check_rejection
from comet.errors import IllegalAction
from comet.fuzz import arbitrary_action, make_deal
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import KNOWN_RULES, LegalityMachine, arbitrary_actions, budget, deal_starts

TestLegality = LegalityMachine.TestCase
TestLegality.settings = settings(max_examples=budget(30), stateful_step_count=50)


@settings(max_examples=budget(150))
@given(data=st.data(), start=deal_starts(), walk=st.integers(0, 60), seed=st.integers(0, 2**16))
def test_arbitrary_action_accepted_iff_legal(data: st.DataObject, start: DealState, walk: int, seed: int) -> None:
    """Mid-deal, any action is accepted exactly when it is listed as legal."""
    rng = random.Random(seed)
    s = start
    for _ in range(walk):
        if s.terminal:
            break
        legal = engine.legal_actions(s)
        s = engine.apply(s, legal[rng.randrange(len(legal))])
    action = data.draw(arbitrary_actions(s)) if not s.terminal else arbitrary_action(s, rng)
    assert not check_rejection(s, action, set(KNOWN_RULES))


def _unheld(s: DealState) -> int:
    return next(c for c in s.dead if c not in s.wild and c not in s.hands[s.to_move])


def test_rejections_name_rule_ids_the_model_declares() -> None:
    """R-PLAY-HELD: playing an unheld card is rejected with a rule id that some @rule declares."""
    s = make_deal(Ruleset(), 3, 2, 4, 0, 2, "shuffled", 0)
    with pytest.raises(IllegalAction) as err:
        engine.apply(s, Action((_unheld(s),)))
    assert err.value.rule == "R-PLAY-HELD"
    assert err.value.rule in KNOWN_RULES


def test_check_rejection_catches_an_unknown_rule_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the rejection names a rule id no @rule declares."""
    s = make_deal(Ruleset(), 3, 2, 4, 0, 2, "shuffled", 0)
    assert not check_rejection(s, Action((_unheld(s),)), set(KNOWN_RULES))
    monkeypatch.setattr(engine, "why_illegal", lambda state, action: IllegalAction("R-NOPE", "made up"))
    problems = check_rejection(s, Action((_unheld(s),)), set(KNOWN_RULES))
    assert problems and "unknown rule id 'R-NOPE'" in problems[0]


def test_check_rejection_catches_an_engine_accepting_an_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: apply takes an unheld card as a pass instead of rejecting it (R-PLAY-HELD)."""
    s = make_deal(Ruleset(), 3, 2, 4, 0, 2, "shuffled", 0)
    monkeypatch.setattr(engine, "apply", lambda state, action: engine.end_turn(state))
    problems = check_rejection(s, Action((_unheld(s),)), set(KNOWN_RULES))
    assert problems and "not among the legal actions but was accepted" in problems[0]
