"""Traces in the Informal Trace Format (ITF) that Apalache and Quint write and read.

One trace is a JSON object ``{"#meta": {...}, "vars": [...], "states": [...]}``;
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

from collections.abc import Sequence

from comet.cards import card_text, rank_text
from comet.engine import apply, returns, settlement
from comet.record import JsonObject, JsonValue
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


def bigint(n: int) -> JsonObject:
    return {"#bigint": str(n)}


def itf_state(index: int, s: DealState, action: Action | None) -> JsonObject:
    """One ITF state: the deal after ``action`` (None: the start)."""
    pays = s.payments + settlement(s)
    taken = "init" if action is None else ("pass" if action.is_pass else "play")
    state: JsonObject = {
        "#meta": {"index": index},
        "mbt::actionTaken": taken,
        "action": "" if action is None else str(action),
        "to_move": bigint(-1 if s.terminal else s.to_move),
        "hands": [[card_text(c) for c in h] for h in s.hands],
        "run": [rank_text(r) for r in s.run],
        "turn_played": s.turn_played,
        "last_player": bigint(s.last_player),
        "winner": bigint(s.winner),
        "drawn": s.drawn,
        "finished": s.terminal,
        "payments": [
            {"payer": bigint(p.payer), "payee": bigint(p.payee), "amount": bigint(p.amount), "rule": p.rule}
            for p in pays
        ],
        "chips": [bigint(v) for v in returns(s)],
    }
    return state


def deal_trace(start: DealState, actions: Sequence[Action], source: str, description: str) -> JsonObject:
    """The ITF trace of a legal deal: the start state, then one state per action."""
    states: list[JsonValue] = [itf_state(0, start, None)]
    s = start
    for i, a in enumerate(actions, 1):
        s = apply(s, a)
        states.append(itf_state(i, s, a))
    return {
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": source,
            "description": description,
        },
        "vars": list(ITF_VARS),
        "states": states,
    }
