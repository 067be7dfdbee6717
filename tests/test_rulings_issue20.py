"""Issue 20: readings that had been decided in code without a ruling, outside 002's Commit.

RUL-ESCALATION-RESET in Old Comet (under RUL-OLD-ESCALATION = plus_two); RUL-OLD-OPERA-BONUS;
RUL-COMMIT-H-NINE-LEAD-TURN.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from comet.cards import parse_card
from comet.checks import check_settlement, check_transition
from comet.engine import apply, legal_actions, settlement, shuffled_deal
from comet.errors import IllegalAction
from comet.game import comet_value_for, finish_deal, new_game
from comet.presets import PRESETS
from comet.state import PASS, Action, DealState

OLD = PRESETS["old_comet"].rules


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(w) for w in text.split()))


@pytest.mark.parametrize(("reading", "value"), [("next_deal", 12), ("same_deal", 10)])
def test_old_comet_manille_reset(reading: str, value: int) -> None:
    """RUL-ESCALATION-RESET x RUL-OLD-ESCALATION = plus_two (R-COMET-ESCALATE, R-OLD-MANILLE-PLAY): the manille
    lay in the dead hand last deal (12 now); dealt to a player in this deal it pays 12 (next_deal) or 10."""
    rules = OLD.with_overrides({"old_escalation": "plus_two", "comet_reset": reading})
    game = replace(new_game(rules, 3), comet_values=(12,))
    assert comet_value_for(game, comet_dealt=True) == value
    assert comet_value_for(game, comet_dealt=False) == 12
    # under the default fixed manille both readings agree: 10
    fixed = replace(new_game(OLD.with_overrides({"comet_reset": reading}), 3), comet_values=(10,))
    assert comet_value_for(fixed, comet_dealt=True) == 10


def _old_opera_out(reading: str) -> tuple[DealState, DealState]:
    """Anna (seat 0, first to play) holds 2C 3C and the manille; she plays them all in her first turn."""
    rules = OLD.with_overrides({"opera": True, "opera_draw": "never", "old_opera_bonus": reading})
    start = replace(
        shuffled_deal(rules, 3, 2, 0),
        hands=(cards("2C 3C 9D"), cards("KS 5H"), cards("4S 6S")),
    )
    s = apply(apply(start, Action(cards("2C"))), Action(cards("3C")))
    return s, apply(s, Action(cards("9D"), 4))


@pytest.mark.parametrize(("reading", "extra"), [("plain", 0), ("doubled", 10)])
def test_old_comet_opera_doubles_the_manille(reading: str, extra: int) -> None:
    """RUL-OLD-OPERA-BONUS (R-OPERA-DOUBLE, R-OLD-MANILLE-PLAY): Anna goes out in her first turn on the manille
    as the 4: its 10 from each is paid in play; doubled adds 10 more from each at the settlement."""
    before, final = _old_opera_out(reading)
    assert final.winner == 0 and final.out_wild_as == 4
    extras = [p for p in settlement(final) if p.rule == "R-OPERA-DOUBLE"]
    assert [(p.payer, p.payee, p.amount) for p in extras] == ([(1, 0, extra), (2, 0, extra)] if extra else [])
    assert check_settlement(final) == ([], False)
    assert check_transition(before, Action(cards("9D"), 4), final) == []


def test_old_comet_opera_bonus_planted_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the settlement ignoring RUL-OLD-OPERA-BONUS = doubled is reported by the recomputation."""
    from comet.games.old_comet import rules as old_rules

    monkeypatch.setattr(old_rules, "opera_manille_bonus", lambda state: ())
    _, final = _old_opera_out("doubled")
    problems, skipped = check_settlement(final)
    assert not skipped and len(problems) == 1 and "differs from the recomputation" in problems[0]


HOYLE = PRESETS["commit_hoyle"].rules


@pytest.mark.parametrize("reading", ["ends", "goes_on"])
def test_led_nine_of_diamonds_and_the_turn(reading: str) -> None:
    """RUL-COMMIT-H-NINE-LEAD-TURN (R-COMMIT-H-NINE, R-COMMIT-H-SUIT): Anna leads the 9D holding 10D 3C.
    ends: her turn is over (only a pass); goes_on: she must go on with the 10D, as after any led card."""
    rules = HOYLE.with_overrides({"commit_nine_lead_turn": reading})
    start = replace(shuffled_deal(rules, 3, 2, 0), hands=(cards("9D 10D 3C"), cards("KS 5H"), cards("4S 6S")))
    nine = Action(cards("9D"))
    assert nine in legal_actions(start)
    after = apply(start, nine)
    assert after.run == (9,) and after.to_move == 0
    if reading == "ends":
        assert legal_actions(after) == (PASS,)
        with pytest.raises(IllegalAction) as e:
            apply(after, Action(cards("10D")))
        assert e.value.rule == "R-COMMIT-H-NINE"
    else:
        assert legal_actions(after) == (Action(cards("10D")),)
        assert apply(after, Action(cards("10D"))).run == (9, 10)
    # the 9D played on a run ends the turn under both readings
    on_run = replace(start, run=(4,), run_suit=0, last_player=2, hands=(cards("9D 2H"), cards("KS 5H"), cards("4S 6S")))
    assert legal_actions(apply(on_run, nine)) == (PASS,)


@pytest.mark.parametrize(("reading", "value"), [("dead_hand", 10), ("not_played", 12)])
def test_old_comet_manille_rises_when_not_played(reading: str, value: int) -> None:
    """RUL-ESCALATION-TRIGGER x RUL-OLD-ESCALATION = plus_two (R-COMET-ESCALATE): a deal ends with the manille
    caught in a loser's hand: dead_hand: back to 10; not_played: it rises to 12."""
    rules = OLD.with_overrides({"old_escalation": "plus_two", "escalate_on": reading})
    start = replace(shuffled_deal(rules, 3, 2, 0), hands=(cards("2C"), cards("9D 5H"), cards("4S 6S")))
    final = apply(start, Action(cards("2C")))
    assert final.winner == 0
    assert finish_deal(new_game(rules, 3), final).comet_values == (value,)
