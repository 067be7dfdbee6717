"""The oracle session: JSON lines in, JSON lines out, for another implementation's test harness.

Each request is one JSON object on one line; each gets exactly one response
line.  Requests are stateless: every request carries the record prefix it is
about, so a harness can ask in any order.  The contract (ops, fields, error
kinds) is ``spec/record.md``; schemas are ``spec/schemas/oracle-*.json``.

Operations:

- ``hello``: the protocol version, the presets, the ops, the error kinds and the ruling fields with their readings.
- ``legal``: the legal actions (and the state) after ``record``'s actions.
- ``apply``: ``record``'s actions followed by ``action``: the new state, or the rule id it breaks.
- ``settle``: the payments and net chips of ``record`` (the settlement once the deal is over).
- ``replay``: exactly the output of ``comet replay``.
- ``explain``: the narration of ``comet replay --explain``, as a list of lines.
- ``deal``: the record of a seeded deal (``players``, ``seed``; as ``comet perft`` deals it).
- ``perft``: perft counts to ``depth`` from the state after ``record``'s actions.
- ``quit``: end the session.

A malformed request gets ``{"ok": false, "op": OP, "error": {"kind": ..., "message": ...}}`` and the session goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TextIO

from comet.errors import RecordError
from comet.oracle.deal_session import SESSION_OPS, SESSIONS, is_session_request, seeded_record, whole_field
from comet.oracle.game_session import GAME_OPS, GAMES, is_game_request
from comet.oracle.perft import perft
from comet.presets import PRESETS
from comet.records.contract import FORMAT
from comet.records.deal_record import (
    CHECK_ORDER,
    JsonObject,
    JsonValue,
    Verdict,
    dumps_json,
    explain_lines,
    parse_action_text,
    replay_record,
    requested_record,
)
from comet.records.game_record import is_game_record, loads_game_record, parse_game_record
from comet.records.game_replay import replay_game
from comet.records.game_verdict import explain_game
from comet.records.json_text import loads_json
from comet.ruleset import RULING_FIELDS, field_readings, ruling_of
from comet.state import DealState
from comet.variant import families_reading

PROTOCOL_VERSION = 1
#: Every op; the deal session's (new, legal_actions, state, undo, close, and apply with a deal_id) are
#: answered by ``comet.oracle.deal_session``.
OPS: tuple[str, ...] = (
    "hello",
    "legal",
    "apply",
    "settle",
    "replay",
    "explain",
    "deal",
    "perft",
    "quit",
    *SESSION_OPS,
    *GAME_OPS,
)
#: The deepest perft the oracle counts in one request (deeper counts take minutes).
MAX_PERFT_DEPTH = 8


def _request_id(req: JsonObject) -> JsonValue:
    rid = req.get("id")
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


def error_response(rid: JsonValue, kind: str, message: str, op: JsonValue = None) -> JsonObject:
    """A failed request's response; ``op`` echoes the request's op (null if it had none that is a string)."""
    return {"id": rid, "ok": False, "op": op, "error": {"kind": kind, "message": message}}


def handle(req: object) -> JsonObject:
    """The response to one decoded request (never raises for bad input)."""
    if not isinstance(req, dict):
        return error_response(None, "request", "a request is a JSON object with an 'op' field")
    rid = _request_id(req)
    op = req.get("op")
    if is_session_request(req):  # new, apply with a deal_id, legal_actions, state, undo, close
        return SESSIONS.respond(rid, req)
    if is_game_request(req):  # game_new, game_deal, game_apply, game_legal_actions, game_standings, game_undo, ...
        return GAMES.respond(rid, req)
    echo: JsonValue = op if isinstance(op, str) else None
    if not isinstance(op, str) or op not in OPS:
        return error_response(rid, "request", f"unknown op {op!r}; known: {', '.join(OPS)}", echo)
    try:
        result = _run_op(op, req)
    except RecordError as e:
        return error_response(rid, e.kind, e.message, echo)
    return {"id": rid, "ok": True, "op": op, "result": result}


def _run_op(op: str, req: JsonObject) -> JsonObject:
    if op == "hello":
        return hello()
    if op == "quit":
        return {}
    if op == "deal":
        return deal_op(req)
    if op in ("replay", "explain") and _game_requested(req):
        return game_op(op, req)
    rec = requested_record(req)
    if rec is None:
        raise RecordError("request", f"op {op!r} needs a 'record' (or 'record_text') field")
    if op == "apply":
        if "action" not in req:
            raise RecordError("request", "op 'apply' needs an 'action' field")
        if not isinstance(req["action"], str):  # a bad request field (kind request), as in the sessions
            raise RecordError("request", f"'action' must be a string such as \"play 5H\", not {req['action']!r}")
        action = parse_action_text(req["action"], len(rec.actions))
        text = req["action"]
        assert isinstance(text, str)  # parse_action_text refused anything else
        # the new action is reported as written, as replay reports a record's actions
        rec = replace(rec, actions=(*rec.actions, action), action_texts=(*rec.action_texts, text))
    verdict = replay_record(rec)
    if op == "perft":
        return perft_op(req, verdict)
    if op == "explain":
        lines: list[JsonValue] = [line for line in explain_lines(verdict)]
        return {"legal": verdict.legal, "lines": lines}
    out = verdict.to_json()
    if op in BRIEF_FIELDS and verdict.legal:
        # 'legal' and 'settle' answer a legal record with part of the verdict (an illegal one: all of it)
        return {name: out[name] for name in BRIEF_FIELDS[op]}
    return out


#: the verdict's fields that the ops 'legal' and 'settle' answer with, in this order
BRIEF_FIELDS: dict[str, tuple[str, ...]] = {
    "legal": ("legal", "finished", "to_move", "legal_actions"),
    "settle": ("legal", "finished", "winner", "drawn", "chips", "payments"),
}


def _game_requested(req: JsonObject) -> bool:
    """Is the record of this request a game record (an object with ``deals``)?"""
    if "record" in req:
        return is_game_record(req["record"])
    text = req.get("record_text")
    if isinstance(text, str) and '"deals"' in text:
        try:
            return is_game_record(loads_json(text))
        except RecordError:
            return False
    return False


def game_op(op: str, req: JsonObject) -> JsonObject:
    """``replay`` and ``explain`` of a game record: ``comet replay``'s output (or narration) for it."""
    text = req.get("record_text")
    grec = loads_game_record(text) if isinstance(text, str) else parse_game_record(req["record"])
    verdict = replay_game(grec)
    if op == "explain":
        lines: list[JsonValue] = [line for line in explain_game(verdict)]
        return {"legal": verdict.legal, "lines": lines}
    return verdict.to_json()


def hello() -> JsonObject:
    """The protocol, presets, ops, error kinds (in check order) and every ruling field with its readings."""
    names: list[JsonValue] = [name for name in sorted(PRESETS)]
    ops: list[JsonValue] = [op for op in OPS]
    kinds: list[JsonValue] = ["io", *CHECK_ORDER, "request"]
    return {
        "format": FORMAT,
        "protocol": PROTOCOL_VERSION,
        "presets": names,
        "ops": ops,
        "kinds": kinds,
        "rulings": ruling_fields(),
    }


def ruling_fields() -> JsonObject:
    """Ruling field -> its ruling id, readings (null: any whole number), presets and each preset's default."""
    out: JsonObject = {}
    for field in RULING_FIELDS:
        ruling, applies = ruling_of(field), families_reading(field)
        values = field_readings(field)
        readings: JsonValue = None if values is None else [_json_scalar(v) for v in values]
        presets = [name for name in sorted(PRESETS) if PRESETS[name].rules.variant in applies]
        defaults: JsonObject = {name: _json_scalar(getattr(PRESETS[name].rules, field)) for name in presets}
        out[field] = {
            "ruling": ruling or None,
            "readings": readings,
            "presets": [name for name in presets],
            "defaults": defaults,
        }
    return out


def _json_scalar(value: object) -> JsonValue:
    return value if isinstance(value, bool | int | str) else str(value)


def deal_op(req: JsonObject) -> JsonObject:
    """``deal``: the record (no actions yet) of a seeded deal, as ``comet perft`` and the vectors deal it:
    ``variant`` (default standard), ``players``, ``seed``, ``dealer`` (default the last seat), ``rulings``,
    ``pack`` (the index in the rotation, default 0) and ``comet_value`` (default the game's)."""
    return {"record": seeded_record(req).to_json()}


def perft_op(req: JsonObject, verdict: Verdict) -> JsonObject:
    """``perft``: counts for depths 1..``depth`` from the state after the record's actions."""
    depth = whole_field(req, "depth")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise RecordError("request", f"'depth' must be 0..{MAX_PERFT_DEPTH}, not {depth}")
    if not verdict.legal:
        return verdict.to_json()
    memo: dict[tuple[DealState, int], int] = {}
    counts: list[JsonValue] = [perft(verdict.final, d, memo) for d in range(1, depth + 1)]
    return {"legal": True, "counts": counts}


def handle_line(line: str) -> JsonObject | None:
    """The response to one request line, or None for a blank line."""
    if not line.strip():
        return None
    try:
        req = loads_json(line, "the request line")
    except RecordError as e:
        return error_response(None, "json", e.message)
    return handle(req)


def session(lines: Iterable[str]) -> Iterator[str]:
    """Response lines (canonical JSON) for request lines, until ``quit`` or the end of input."""
    for line in lines:
        resp = handle_line(line)
        if resp is None:
            continue
        yield dumps_json(resp)
        if resp.get("ok") and resp.get("op") == "quit":
            return


def serve(inp: TextIO, out: TextIO) -> None:
    """Run a session on text streams, flushing after every response."""
    for text in session(inp):
        out.write(text + "\n")
        out.flush()
