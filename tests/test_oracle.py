"""`comet oracle`: the JSON-lines session, its schemas, and hostile requests (spec/record.md).

R-PLAY-MUST, R-PLAY-HELD and R-COMET-BONUS are exercised through legal/apply/settle."""

from __future__ import annotations

import io
import json

from comet.oracle.protocol import handle_line, serve, session
from comet.records.deal_record import JsonObject
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_record import ACTIONS, HAND_RECORD, json_values
from test_replay_cli import validator


def ask(**req: object) -> JsonObject:
    resp = handle_line(json.dumps(req))
    assert resp is not None
    validator("oracle-response.json").validate(resp)
    return resp


def test_legal_after_prefix() -> None:
    """R-PLAY-MUST: after 2S Anna holds the 3 and may not pass."""
    req = {"id": "a", "op": "legal", "record": {**HAND_RECORD, "actions": ["play 2S"]}}
    validator("oracle-request.json").validate(req)
    resp = ask(**req)
    assert resp["ok"] is True and resp["id"] == "a"
    result = resp["result"]
    assert isinstance(result, dict)
    assert result["to_move"] == 0 and result["legal_actions"] == ["play 3S", "play 9D as 3"]


def test_apply_illegal_names_rule() -> None:
    """R-PLAY-HELD: Anna does not hold 6C."""
    resp = ask(id=2, op="apply", record={**HAND_RECORD, "actions": []}, action="play 6C")
    result = resp["result"]
    assert isinstance(result, dict) and result["legal"] is False
    err = result["error"]
    assert isinstance(err, dict) and err["rule"] == "R-PLAY-HELD" and err["index"] == 0


def test_settle_and_replay_agree() -> None:
    """R-COMET-BONUS and R-SETTLE-POINTS: settle's chips equal replay's."""
    settle = ask(id=3, op="settle", record=HAND_RECORD)["result"]
    replay = ask(id=4, op="replay", record=HAND_RECORD)["result"]
    assert isinstance(settle, dict) and isinstance(replay, dict)
    assert settle["chips"] == replay["chips"] and settle["payments"] == replay["payments"]


def test_session_goes_on_after_errors_and_stops_at_quit() -> None:
    lines = [
        "garbage",
        json.dumps({"id": 1, "op": "dance"}),
        json.dumps({"id": 2, "op": "legal"}),
        json.dumps({"id": 3, "op": "apply", "record": HAND_RECORD, "action": "play  2S"}),
        json.dumps({"id": 4, "op": "legal", "record_text": "{oops"}),
        "",
        json.dumps({"id": 5, "op": "apply", "record": {**HAND_RECORD, "actions": ACTIONS[:3]}, "action": "play 5C"}),
        json.dumps({"id": 6, "op": "quit"}),
        json.dumps({"id": 7, "op": "hello"}),
    ]
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    resps = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["id"] for r in resps] == [None, 1, 2, 3, 4, 5, 6]
    assert [r["error"]["kind"] for r in resps[:5]] == ["json", "request", "request", "action-syntax", "json"]
    assert resps[5]["ok"] and resps[5]["result"]["legal"] is True and resps[5]["result"]["to_move"] == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["legal", "apply", "settle", "replay", "explain", "hello", "x"]),
    json_values,
    st.sampled_from(["record", "action", "id", "op", "record_text"]),
    json_values,
)
def test_hostile_requests_get_one_clean_response(op: str, record: object, key: str, value: object) -> None:
    req: dict[str, object] = {"id": 1, "op": op, "record": record, "action": "pass"}
    req[key] = value
    for line in (json.dumps(req), json.dumps({**req, "record": {**HAND_RECORD, key: value}})):
        out = list(session([line]))
        assert len(out) == 1
        resp = json.loads(out[0])
        validator("oracle-response.json").validate(resp)
