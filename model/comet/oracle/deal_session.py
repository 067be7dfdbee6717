"""Deals held open by the oracle: apply one action at a time, ask for the legal actions or the whole
state, undo, without replaying the deal for every request.

The stateless oracle ops carry the record prefix they are about, so querying every step of a deal
replays it again and again (quadratic in its length).  Here ``comet oracle`` keeps each deal under
an id the client chooses (or one it is given): the stack of states it went through, so ``apply``
is one engine step and ``undo`` one pop.  The states are the engine's immutable ``DealState``
values, so the deal after ``undo`` is exactly the earlier state, not a recomputation of it.

Ops (each request is a JSON object; ``deal_id`` is a string or an integer):

- ``new``: open a deal from ``record`` (or ``record_text``; its actions are replayed) or from a
  seeded shuffle (``variant``, ``players``, ``seed``, optional ``dealer``, ``rulings``, ``pack``,
  ``comet_value``: the fields of the ``deal`` op).  Optional ``deal_id``; without one the session
  numbers the deal.
- ``apply`` with ``deal_id`` and ``action`` (notation text): one action by the player to move.
- ``legal_actions`` with ``deal_id``: what the player to move may do.
- ``state`` with ``deal_id``: every field of the ``DealState`` as JSON, the net chips and the record.
- ``undo`` with ``deal_id``: take the last action back.
- ``close`` with ``deal_id``: forget the deal.

Errors are responses, never exceptions: ``unknown-deal`` (no deal has that id), ``illegal`` (with the
``rule`` the action breaks; the deal is unchanged), ``request`` (a missing or malformed field,
nothing to undo, an id in use) and the record kinds of ``spec/record.md`` for a bad record.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from comet.cards import SUITS, card_text, rank_text
from comet.engine import apply, check_players, legal_actions, packs_in_rotation, returns, shuffled_deal
from comet.errors import IllegalAction, PortableError, RecordError
from comet.presets import preset
from comet.records.deal_record import (
    DealRecord,
    JsonObject,
    JsonValue,
    check_reading,
    parse_action_text,
    record_from_state,
    requested_record,
    whole_number,
)
from comet.ruleset import Ruleset
from comet.state import Action, DealState, Payment

#: The ops of a deal session (``apply`` is shared with the stateless oracle: it is a session op when
#: the request names a ``deal_id``).
SESSION_OPS = ("new", "legal_actions", "state", "undo", "close")
#: Open deals one session may hold (each holds its states; close the ones you are done with).
MAX_DEALS = 10_000


class SessionError(PortableError):
    """A request the session cannot answer: ``kind`` and ``message`` as in every error response,
    ``rule`` for an illegal action."""

    def __init__(self, kind: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.rule = rule


@dataclass
class OpenDeal:
    """One deal held by a session: ``states[i]`` is the state after ``i`` actions (never empty)."""

    variant: str
    states: list[DealState]
    actions: list[Action] = field(default_factory=list)

    @property
    def now(self) -> DealState:
        return self.states[-1]


def is_session_request(req: JsonObject) -> bool:
    """Does this request belong to the deal session (rather than to the stateless ops)?"""
    op = req.get("op")
    return op in SESSION_OPS or (op == "apply" and "deal_id" in req)


def respond(rid: JsonValue, req: JsonObject, run: Callable[[JsonObject], JsonObject]) -> JsonObject:
    """The response to one request of a session (deals here, games in ``comet.oracle.game_session``): ``run``'s
    result, or the ``SessionError`` or ``RecordError`` it raised as an error response (never raises for bad
    input)."""
    op = req.get("op")
    echo: JsonValue = op if isinstance(op, str) else None
    try:
        result = run(req)
    except SessionError as e:
        error: JsonObject = {"kind": e.kind, "message": e.message}
        if e.rule is not None:
            error["rule"] = e.rule
        return {"id": rid, "ok": False, "op": echo, "error": error}
    except RecordError as e:
        return {"id": rid, "ok": False, "op": echo, "error": {"kind": e.kind, "message": e.message}}
    return {"id": rid, "ok": True, "op": echo, "result": result}


def id_field(req: JsonObject, name: str) -> str | int:
    """The open deal's or game's id the request names in field ``name`` (a string or an integer)."""
    if name not in req:
        raise SessionError("request", f"op {req.get('op')!r} needs a {name!r} field (a string or an integer)")
    value = req[name]
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise SessionError("request", f"{name!r} must be a string or an integer, not {json.dumps(value)}")
    return value


def requested_rules(req: JsonObject) -> tuple[str, Ruleset]:
    """The preset a request names in ``variant`` (default standard) and its rules with the request's
    ``rulings`` applied (shared by the oracle's ``deal`` and the game session's ``game_new``)."""
    variant = req.get("variant", "standard")
    if not isinstance(variant, str):
        raise RecordError("request", f"'variant' must be a preset name, not {json.dumps(variant)}")
    rulings = req.get("rulings", {})
    if not isinstance(rulings, dict):
        raise RecordError("request", "'rulings' must be an object of name: reading")
    for name, value in rulings.items():
        if not isinstance(value, str | int | bool):
            raise RecordError("ruling", f"ruling {name!r}: a reading is a string, a whole number or a boolean")
        check_reading(str(name), value)
    try:
        return variant, preset(variant).rules.with_overrides(dict(rulings))
    except ValueError as e:
        raise RecordError(e.kind if isinstance(e, RecordError) else "ruling", str(e)) from None


def whole_field(req: JsonObject, name: str, default: int | None = None) -> int:
    """The whole number in field ``name`` of the request (``default`` when the field is absent, if given)."""
    if name not in req:
        if default is None:
            raise RecordError("request", f"op {req.get('op')!r} needs a whole-number {name!r} field")
        return default
    value = whole_number(req[name])
    if value is None:
        raise RecordError("request", f"{name!r} must be a whole number, not {json.dumps(req[name])}")
    return value


def seeded_record(req: JsonObject) -> DealRecord:
    """The record (no actions yet) of the seeded deal a request describes, as ``comet perft`` and the vectors
    deal it: ``variant`` (default standard), ``players``, ``seed``, ``dealer`` (default the last seat),
    ``rulings``, ``pack`` (the index in the rotation, default 0) and ``comet_value`` (default the game's)."""
    variant, rules = requested_rules(req)
    players = whole_field(req, "players")
    seed = whole_field(req, "seed")
    check_players(players, rules)
    dealer = whole_field(req, "dealer", players - 1)
    packs = packs_in_rotation(rules, players)
    pack = whole_field(req, "pack", 0)
    if not 0 <= pack < len(packs):
        raise RecordError("request", f"'pack' is an index into the rotation 0..{len(packs) - 1}, not {pack}")
    value = whole_field(req, "comet_value", -1)
    start = shuffled_deal(rules, players, dealer, seed, packs[pack], None if value < 0 else value)
    return record_from_state(start, variant)


class Sessions:
    """The deals a session holds, by id, and the answers to the session ops."""

    def __init__(self) -> None:
        self.deals: dict[str | int, OpenDeal] = {}
        self.numbered = 0

    def respond(self, rid: JsonValue, req: JsonObject) -> JsonObject:
        """The response to one session request (never raises for bad input)."""
        return respond(rid, req, self.run)

    def run(self, req: JsonObject) -> JsonObject:
        op = req.get("op")
        if op == "new":
            return self.new(req)
        deal_id = id_field(req, "deal_id")
        deal = self.deals.get(deal_id)
        if deal is None:
            raise SessionError("unknown-deal", f"no open deal has the id {deal_id!r}; open one with op 'new'")
        if op == "apply":
            if "action" not in req:
                raise SessionError("request", "op 'apply' needs an 'action' field (e.g. \"play 5H\" or \"pass\")")
            if not isinstance(req["action"], str):  # a bad request field, as the session's other fields
                raise SessionError("request", f"'action' must be a string such as \"play 5H\", not {req['action']!r}")
            action = read_action(req["action"], len(deal.actions))
            try:
                after = apply(deal.now, action)
            except IllegalAction as e:
                raise SessionError(
                    "illegal", f"action {len(deal.actions)} {req['action']!r}: {e.message}", e.rule
                ) from None
            deal.states.append(after)
            deal.actions.append(action)
            return summary(deal_id, deal)
        if op == "legal_actions":
            out = summary(deal_id, deal)
            out["legal_actions"] = [str(a) for a in legal_actions(deal.now)]
            return out
        if op == "state":
            return {
                "deal_id": deal_id,
                "state": state_json(deal.now),
                "chips": list(returns(deal.now)),
                "record": record_of(deal).to_json(),
            }
        if op == "undo":
            if not deal.actions:
                raise SessionError("request", f"deal {deal_id!r} is at its start: there is nothing to undo")
            deal.states.pop()
            undone = deal.actions.pop()
            out = summary(deal_id, deal)
            out["undone"] = str(undone)
            return out
        if op == "close":
            del self.deals[deal_id]
            return {"deal_id": deal_id, "closed": True}
        raise SessionError("request", f"op {op!r} is not a deal-session op")

    def new(self, req: JsonObject) -> JsonObject:
        """``new``: open a deal from a record or a seeded shuffle."""
        if len(self.deals) >= MAX_DEALS:
            raise SessionError("request", f"{MAX_DEALS} deals are open; close some with op 'close' first")
        if "deal_id" in req:
            deal_id = id_field(req, "deal_id")
            if deal_id in self.deals:
                raise SessionError("request", f"a deal with the id {deal_id!r} is open; close it first")
        else:
            deal_id = self._next_id()
        rec = requested_record(req)
        if rec is None:
            rec = seeded_record(req)  # the seeded-deal fields of the stateless 'deal' op
        deal = OpenDeal(rec.variant, [rec.start()])
        for i, action in enumerate(rec.actions):
            try:
                deal.states.append(apply(deal.now, action))
            except IllegalAction as e:
                raise SessionError(
                    "illegal", f"the record's action {i} {rec.action_texts[i]!r}: {e.message}", e.rule
                ) from None
            deal.actions.append(action)
        self.deals[deal_id] = deal
        return summary(deal_id, deal)

    def _next_id(self) -> int:
        while True:
            self.numbered += 1
            if self.numbered not in self.deals:
                return self.numbered


def read_action(text: object, index: int) -> Action:
    """Action notation in its exact form, as in records (each distinct text is parsed once)."""
    return parse_action_text(text, index)


def summary(deal_id: str | int, deal: OpenDeal) -> JsonObject:
    """The short answer to ``new``, ``apply`` and ``undo``: where the deal stands."""
    s = deal.now
    return {
        "deal_id": deal_id,
        "applied": len(deal.actions),
        "finished": s.terminal,
        "to_move": None if s.terminal else s.to_move,
        "winner": s.winner if s.winner >= 0 else None,
    }


def record_of(deal: OpenDeal) -> DealRecord:
    """The deal so far as a record (replaying it gives the deal's state)."""
    return record_from_state(deal.states[0], deal.variant, deal.actions)


def _cards(cards: tuple[int, ...]) -> list[JsonValue]:
    return [card_text(c) for c in cards]


def _encode(value: object) -> JsonValue:
    """A state field's value as JSON, for the fields without a reading of their own below."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, Payment):
        return {"payer": value.payer, "payee": value.payee, "amount": value.amount, "rule": value.rule}
    if isinstance(value, Ruleset):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def state_json(s: DealState) -> JsonObject:
    """Every field of ``s`` as JSON (cards as card codes, ranks as rank codes, "none" values as null),
    plus ``finished``.  A field added to ``DealState`` later appears here too (plainly encoded)."""
    readings: dict[str, JsonValue] = {
        "wild": _cards(s.wild),
        "hands": [_cards(h) for h in s.hands],
        "dead": _cards(s.dead),
        "played": _cards(s.played),
        "run": [rank_text(r) for r in s.run],
        "out_wild_as": rank_text(s.out_wild_as) if s.out_wild_as else None,
        "run_suit": SUITS[s.run_suit] if s.run_suit >= 0 else None,
        "branch": card_text(s.branch) if s.branch else None,
        "winner": s.winner if s.winner >= 0 else None,
    }
    out: JsonObject = {}
    for f in dataclasses.fields(s):
        out[f.name] = readings[f.name] if f.name in readings else _encode(getattr(s, f.name))
    out["finished"] = s.terminal
    return out


#: The session ``comet oracle`` answers from (one process, one session).
SESSIONS = Sessions()
