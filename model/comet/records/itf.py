"""Traces in the Informal Trace Format (ITF) that Apalache and Quint write and read.

Written and read with itf-py (the ITF library of Apalache's author; ``trace_to_json`` and
``trace_from_json``), so the encoding follows the reference rather than our reading of ADR-015.
One trace is a JSON object ``{"#meta": {...}, "params": [], "vars": [...], "loop": null, "states": [...]}``;
every state maps each variable to a value: integers as ``{"#bigint": "N"}``,
strings and booleans as themselves, sequences as JSON lists, records as JSON
objects.  A deal's trace holds the start state and the state after every
action; ``mbt::actionTaken`` names the kind of step (``init``, ``play``,
``pass``) as Quint's model-based-testing drivers expect, and ``action`` holds
the action text of ``spec/record.md``.  The dead hand never changes and is in
``#meta.record``; the played cards are the pack less the hands and the dead hand.  ``winner`` and ``to_move`` are -1 when
there is none (ITF has no null).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence

from itf_py import State, Trace, trace_from_json, trace_to_json

from comet.cards import card_text, rank_text
from comet.engine import apply, returns, settlement
from comet.records.deal_record import JsonObject, JsonValue
from comet.state import Action, DealState

ITF_VARS = (
    "mbt::actionTaken",
    "action",
    "to_move",
    "hands",
    "run",
    "turn_played",
    "last_player",
    "winner",
    "drawn",
    "finished",
    "payments",
    "chips",
)

#: A payment as an ITF record (itf-py writes a named tuple as a record: a JSON object).
PaymentRecord = namedtuple("PaymentRecord", ["payer", "payee", "amount", "rule"])


def bigint(n: int) -> JsonObject:
    return {"#bigint": str(n)}


def _state_values(s: DealState, action: Action | None) -> dict[str, object]:
    pays = s.payments + settlement(s)
    return {
        "mbt::actionTaken": "init" if action is None else ("pass" if action.is_pass else "play"),
        "action": "" if action is None else str(action),
        "to_move": -1 if s.terminal else s.to_move,
        "hands": [[card_text(c) for c in h] for h in s.hands],
        "run": [rank_text(r) for r in s.run],
        "turn_played": s.turn_played,
        "last_player": s.last_player,
        "winner": s.winner,
        "drawn": s.drawn,
        "finished": s.terminal,
        "payments": [PaymentRecord(p.payer, p.payee, p.amount, p.rule) for p in pays],
        "chips": list(returns(s)),
    }


def deal_trace(start: DealState, actions: Sequence[Action], source: str, description: str) -> JsonObject:
    """The ITF trace of a legal deal: the start state, then one state per action (written by itf-py)."""
    states = [State({"index": 0}, _state_values(start, None))]
    s = start
    for i, a in enumerate(actions, 1):
        s = apply(s, a)
        states.append(State({"index": i}, _state_values(s, a)))
    meta = {
        "format": "ITF",
        "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
        "source": source,
        "description": description,
    }
    out: JsonObject = trace_to_json(Trace(meta=meta, params=[], vars=list(ITF_VARS), states=states, loop=None))
    return out


def _plain(value: object) -> JsonValue:
    """An itf-py value as plain JSON: integers, strings, booleans, lists, records as objects."""
    if isinstance(value, bool | int | str):
        return value
    asdict = getattr(value, "_asdict", None)
    if callable(asdict):
        fields = asdict()
        assert isinstance(fields, dict)
        return {str(k): _plain(v) for k, v in fields.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    raise ValueError(f"an ITF value this trace format does not use: {value!r}")


def read_trace(data: JsonObject) -> tuple[JsonObject, ...]:
    """The states of an ITF trace (read by itf-py), each as plain JSON values keyed by variable."""
    trace = trace_from_json(data)
    out: list[JsonObject] = []
    for st in trace.states:
        values: dict[str, object] = st.values
        out.append({str(k): _plain(v) for k, v in values.items()})
    return tuple(out)
