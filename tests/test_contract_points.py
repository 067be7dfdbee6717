"""The points an independent implementation tripped on (issue 19 item 5): readings are JSON values of the
ruling's type (R-REC-FAULTS: "yes", "true", "1" for a boolean are refused with kind ``ruling``, as is a
negative stock), the oracle's ``apply`` reports an illegal action as written (R-REC-ILLEGAL-PRECEDENCE
names the rule; the text is the client's), and game-level rulings in a deal record change nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from comet.cards import card_text
from comet.errors import RecordError
from comet.notation import parse_action
from comet.oracle.game_session import Games
from comet.oracle.protocol import handle
from comet.records.deal_record import loads_record, replay_record

ROOT = Path(__file__).resolve().parent.parent
CASE = json.loads((ROOT / "vectors" / "standard" / "default" / "replay" / "00.json").read_text(encoding="utf-8"))
RECORD: dict[str, Any] = CASE["record"]


@pytest.mark.parametrize(
    "rulings",
    [
        {"may_stop_early": "yes"},
        {"may_stop_early": "true"},
        {"may_stop_early": "on"},
        {"may_stop_early": "1"},
        {"may_stop_early": 1},
        {"opera": "true"},
        {"starting_chips": "50"},
        {"starting_chips": -5},
        {"starting_chips": True},
        {"comet_lead": True},
    ],
)
def test_a_reading_of_another_json_type_is_a_ruling_fault(rulings: dict[str, object]) -> None:
    with pytest.raises(RecordError) as e:
        replay_record(loads_record(json.dumps({**RECORD, "rulings": rulings})))
    assert e.value.kind == "ruling"
    out: dict[str, Any] = json.loads(json.dumps(handle({"op": "deal", "players": 3, "seed": 1, "rulings": rulings})))
    assert out["ok"] is False and out["error"]["kind"] == "ruling"
    request: dict[str, Any] = {"op": "game_new", "players": 3, "seed": 1, "rulings": rulings}
    game: dict[str, Any] = json.loads(json.dumps(Games().respond(None, request)))
    assert game["ok"] is False and game["error"]["kind"] == "ruling"


def test_readings_of_the_right_type_are_read() -> None:
    for rulings in ({"may_stop_early": True}, {"starting_chips": 0}, {"starting_chips": 20.0}, {"comet_lead": "king"}):
        assert replay_record(loads_record(json.dumps({**RECORD, "rulings": rulings}))).legal


def test_game_level_rulings_in_a_deal_record_change_nothing() -> None:
    plain = replay_record(loads_record(json.dumps(RECORD))).to_json()
    for rulings in (
        {"escalation": "per_pack"},
        {"insolvency": "pay_what_you_have"},
        {"starting_chips": 7},
        {"game_tie": "extra_round"},
        {"two_player_end": "first_to_target"},  # another game's ruling at its default
    ):
        assert replay_record(loads_record(json.dumps({**RECORD, "rulings": rulings}))).to_json() == plain


def test_oracle_apply_reports_an_illegal_action_as_written() -> None:
    hand = RECORD["hands"][(RECORD["dealer"] + 1) % RECORD["players"]]
    low, high = sorted({parse_action(f"play {c}").cards[0] for c in hand})[:2]
    written = f"play {card_text(high)} {card_text(low)}"  # two different cards: illegal, and not in canonical order
    assert str(parse_action(written)) != written
    out = handle({"op": "apply", "record": {**RECORD, "actions": []}, "action": written})
    result = out["result"]
    assert isinstance(result, dict) and result["legal"] is False
    error = result["error"]
    assert isinstance(error, dict) and error["action"] == written
    replayed = replay_record(loads_record(json.dumps({**RECORD, "actions": [written]}))).to_json()
    assert replayed == result
