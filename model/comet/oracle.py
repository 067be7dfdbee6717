"""The oracle session: JSON lines in, JSON lines out, for another implementation's test harness.

Each request is one JSON object on one line; each gets exactly one response
line.  Requests are stateless: every request carries the record prefix it is
about, so a harness can ask in any order.  The contract (ops, fields, error
kinds) is ``spec/record.md``; schemas are ``spec/schemas/oracle-*.json``.

Operations:

- ``hello``: the protocol version, the presets and the ops.
- ``legal``: the legal actions (and the state) after ``record``'s actions.
- ``apply``: ``record``'s actions followed by ``action``: the new state, or the rule id it breaks.
- ``settle``: the payments and net chips of ``record`` (the settlement once the deal is over).
- ``replay``: exactly the output of ``comet replay``.
- ``explain``: the narration of ``comet replay --explain``, as a list of lines.
- ``quit``: end the session.

A malformed request gets ``{"ok": false, "error": {"kind": ..., "message": ...}}`` and the session goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TextIO

from comet.errors import RecordError
from comet.presets import PRESETS
from comet.record import (
    MAX_TEXT,
    JsonObject,
    JsonValue,
    dumps_json,
    explain_lines,
    loads_record,
    parse_action_text,
    parse_record,
    replay_record,
)

PROTOCOL_VERSION = 1
OPS = ("hello", "legal", "apply", "settle", "replay", "explain", "quit")


def _request_id(req: JsonObject) -> JsonValue:
    rid = req.get("id")
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


def error_response(rid: JsonValue, kind: str, message: str) -> JsonObject:
    return {"id": rid, "ok": False, "error": {"kind": kind, "message": message}}


def handle(req: object) -> JsonObject:
    """The response to one decoded request (never raises for bad input)."""
    if not isinstance(req, dict):
        return error_response(None, "request", "a request is a JSON object with an 'op' field")
    rid = _request_id(req)
    op = req.get("op")
    if not isinstance(op, str) or op not in OPS:
        return error_response(rid, "request", f"unknown op {op!r}; known: {', '.join(OPS)}")
    try:
        result = _run_op(op, req)
    except RecordError as e:
        return error_response(rid, e.kind, e.message)
    return {"id": rid, "ok": True, "op": op, "result": result}


def _run_op(op: str, req: JsonObject) -> JsonObject:
    if op == "hello":
        names: list[JsonValue] = [name for name in sorted(PRESETS)]
        ops: list[JsonValue] = [op for op in OPS]
        return {"protocol": PROTOCOL_VERSION, "presets": names, "ops": ops}
    if op == "quit":
        return {}
    if "record_text" in req:
        text = req["record_text"]
        if not isinstance(text, str):
            raise RecordError("request", "'record_text' must be a string holding the record's JSON text")
        rec = loads_record(text)
    elif "record" in req:
        rec = parse_record(req["record"])
    else:
        raise RecordError("request", f"op {op!r} needs a 'record' (or 'record_text') field")
    if op == "apply":
        if "action" not in req:
            raise RecordError("request", "op 'apply' needs an 'action' field")
        action = parse_action_text(req["action"], len(rec.actions))
        rec = rec.with_actions((*rec.actions, action))
    verdict = replay_record(rec)
    if op == "explain":
        lines: list[JsonValue] = [line for line in explain_lines(verdict)]
        return {"legal": verdict.legal, "lines": lines}
    out = verdict.to_json()
    if op == "legal" and verdict.legal:
        return {
            "legal": True,
            "finished": out["finished"],
            "to_move": out["to_move"],
            "legal_actions": out["legal_actions"],
        }
    if op == "settle" and verdict.legal:
        return {
            "legal": True,
            "finished": out["finished"],
            "winner": out["winner"],
            "drawn": out["drawn"],
            "chips": out["chips"],
            "payments": out["payments"],
        }
    return out


def handle_line(line: str) -> JsonObject | None:
    """The response to one request line, or None for a blank line."""
    if not line.strip():
        return None
    if len(line) > MAX_TEXT:
        return error_response(None, "json", f"request line longer than {MAX_TEXT} characters")
    try:
        req = json.loads(line)
    except (ValueError, RecursionError) as e:
        return error_response(None, "json", f"not JSON: {e}")
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
