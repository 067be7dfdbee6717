"""R-REC-LIMITS: deal records, game records and oracle lines are read within one set of limits (kind
``json`` past any of them, before any field is read)."""

from __future__ import annotations

import json

import pytest
from comet.errors import RecordError
from comet.oracle.protocol import handle_line
from comet.records import json_text
from comet.records.deal_record import loads_record
from comet.records.game_record import loads_any, loads_game_record
from comet.records.json_text import MAX_CHARS, MAX_INT, MAX_LIST, loads_json
from test_record import HAND_RECORD


def _deal() -> dict[str, object]:
    return dict(HAND_RECORD)


def _kind(text: str) -> str:
    with pytest.raises(RecordError) as e:
        loads_any(text)
    return e.value.kind


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 9007199254740992}',  # 2^53: R-REC-LIMITS
        '{"a": -9007199254740992}',
        '{"a": 1e300}',
        '{"a": 9007199254740992.0}',
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": 1, "a": 1}',
        '\ufeff{"a": 1}',
        "[" * 40 + "]" * 40,
        json.dumps({"a": [0] * (MAX_LIST + 1)}),
    ],
)
def test_past_a_limit_is_json(text: str) -> None:
    """R-REC-LIMITS: every limit refuses with kind json and says which limit."""
    with pytest.raises(RecordError) as e:
        loads_json(text)
    assert e.value.kind == "json"


def test_within_the_limits() -> None:
    """R-REC-LIMITS: the largest integers, 5.0 and a list at the cap are read."""
    assert loads_json(f'{{"a": {MAX_INT}, "b": -{MAX_INT}, "c": 5.0}}') == {"a": MAX_INT, "b": -MAX_INT, "c": 5.0}
    assert loads_json(json.dumps([0] * MAX_LIST)) == [0] * MAX_LIST


def test_deal_and_game_records_alike_over_the_size() -> None:
    """R-REC-LIMITS (issue 34 point 8): a deal record and a game record over the size are both kind json."""
    rec = _deal()
    padded = json.dumps(rec) + " " * (MAX_CHARS + 1)
    assert _kind(padded) == "json"
    with pytest.raises(RecordError) as e:
        loads_record(padded)
    assert e.value.kind == "json"
    game = '{"deals": []' + " " * (MAX_CHARS + 1) + "}"
    with pytest.raises(RecordError) as e:
        loads_game_record(game)
    assert e.value.kind == "json" and "characters" in e.value.message


def test_big_numbers_in_records() -> None:
    """R-REC-LIMITS (issue 34 point 11): a comet_value of 10^100 is refused, not replayed exactly."""
    rec = _deal()
    text = json.dumps({**rec, "comet_value": 10**100})
    assert _kind(text) == "json"
    game = json.dumps({"variant": "standard", "players": 4, "length": 10**100, "first_dealer": 0, "deals": []})
    assert _kind(game) == "json"


def test_oracle_lines() -> None:
    """R-REC-LIMITS: the oracle reads its lines within the same limits, answering kind json."""
    for line in ['{"op": "hello", "op": "hello"}', '{"op": "hello", "id": 9007199254740993}']:
        resp = handle_line(line)
        assert resp is not None and resp["ok"] is False
        error = resp["error"]
        assert isinstance(error, dict) and error["kind"] == "json", resp


def test_planted_limit_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that forgot the integer limit (planted) lets 2^53 through: the check above would fail."""
    monkeypatch.setattr(json_text, "MAX_INT", 2**200)
    assert loads_json('{"a": 9007199254740992}') == {"a": 2**53}
