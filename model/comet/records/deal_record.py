"""Deal records: parse, validate and serialise them, and replay one to a verdict.

A deal record is one JSON object (the contract is ``spec/record.md``, the
schema ``spec/schemas/record.json``)::

    {"variant": "standard", "rulings": {}, "players": 3, "dealer": 2, "comet_value": 2,
     "hands": [[...], [...], [...]], "dead": [...], "actions": ["play 5H", "pass", ...]}

Reading a record never raises anything but ``RecordError`` (with a ``kind``
that conformance vectors name); checking which pack the cards form and whether
the deal sizes are right is left to the engine (``explicit_deal``), so new
presets work here unchanged.  ``replay_record`` turns a record into a
``Verdict``: legal with the final state, or illegal at one action with the rule
id the engine gives.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from comet.cards import CARD_CODES, card_text, rank_of, rank_text, suit_of
from comet.engine import apply, deal_points, explicit_deal, legal_actions, returns, settlement
from comet.errors import IllegalAction, RecordError
from comet.notation import narrate, parse_action, seat_name
from comet.presets import preset
from comet.records.contract import FORMAT, check_format, pinned_readings
from comet.records.json_text import MAX_CHARS, loads_json
from comet.ruleset import Ruleset, field_readings
from comet.state import Action, DealState, Payment
from comet.trace import rule

#: The fields a record may hold; the first group is required.
REQUIRED_FIELDS = ("variant", "players", "dealer", "hands", "dead", "actions")
OPTIONAL_FIELDS = ("format", "rulings", "comet_value")
#: Guards against hostile input; far above any real deal.
MAX_ACTIONS = 10_000
MAX_TEXT = MAX_CHARS  # the limit of every record's text (json_text, R-REC-LIMITS)

CARD_RE = re.compile(r"(?:10|[2-9AJQK])[CDHS]")
RANK_RE = r"(?:10|[2-9AJQK])"
ACTION_RE = re.compile(rf"pass|play {CARD_RE.pattern}(?: {CARD_RE.pattern})*(?: as {RANK_RE})?")

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
JsonObject: TypeAlias = dict[str, JsonValue]


def record_head(
    variant: str, rulings: tuple[tuple[str, str | int | bool], ...], players: int, fmt: int | None = None
) -> JsonObject:
    """The fields a deal record and a game record both start with, in the contract's order (``fmt``: the
    format the record states, None for the current one)."""
    return {
        "format": FORMAT if fmt is None else fmt,
        "variant": variant,
        "rulings": {k: v for k, v in rulings},
        "players": players,
    }


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A parsed record: card codes already read, actions already parsed (not yet checked for legality)."""

    variant: str
    rulings: tuple[tuple[str, str | int | bool], ...]
    players: int
    dealer: int
    comet_value: int | None  # None: the variant's own value (2 in the standard game)
    hands: tuple[tuple[int, ...], ...]
    dead: tuple[int, ...]
    actions: tuple[Action, ...]
    action_texts: tuple[str, ...]
    format: int | None = None  # the format the record states (None: not stated, read as the current one)

    def ruleset(self) -> Ruleset:
        """The preset's ruleset with this record's rulings applied (RecordError kind ``ruling``), over the
        defaults of the record's format (``comet.records.contract.pinned_readings``)."""
        base = preset(self.variant).rules
        for name, value in self.rulings:
            check_reading(name, value)
        try:
            return base.with_overrides({**pinned_readings(self.format, self.variant), **dict(self.rulings)})
        except ValueError as e:
            raise RecordError("ruling", str(e)) from None

    def start(self) -> DealState:
        """The state before the first action; the engine checks pack, deal sizes and dealer."""
        return explicit_deal(self.ruleset(), self.players, self.dealer, self.hands, self.dead, self.comet_value)

    def with_actions(self, actions: Sequence[Action]) -> DealRecord:
        return DealRecord(
            self.variant,
            self.rulings,
            self.players,
            self.dealer,
            self.comet_value,
            self.hands,
            self.dead,
            tuple(actions),
            tuple(str(a) for a in actions),
            self.format,
        )

    def to_json(self) -> JsonObject:
        """The record as a JSON object in canonical form (field order of the contract)."""
        out = record_head(self.variant, self.rulings, self.players, self.format)
        out["dealer"] = self.dealer
        if self.comet_value is not None:
            out["comet_value"] = self.comet_value
        out["hands"] = [[card_text(c) for c in h] for h in self.hands]
        out["dead"] = [card_text(c) for c in self.dead]
        out["actions"] = list(self.action_texts)
        return out


@rule("R-REC-FAULTS")
def check_reading(name: str, value: str | int | bool) -> None:
    """A reading in a record is a JSON value of the ruling's own type: ``true``/``false`` for a yes-or-no
    ruling, a whole number (0 or more) for a number, a string for a named reading.  ``"yes"``, ``"true"``
    or ``"1"`` for a boolean and ``"50"`` for a number are refused (kind ``ruling``), as are negative
    numbers; the command line's ``--ruling FIELD=VALUE`` is text and is parsed, a record is not."""
    try:
        readings = field_readings(name)
    except ValueError:
        return  # an unknown ruling: with_overrides names it
    if readings is None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError("ruling", f"ruling {name!r} takes a whole number, not {_show(value)}")
        if value < 0:
            raise RecordError("ruling", f"ruling {name!r} takes a whole number 0 or more, not {value}")
    elif False in readings and len(readings) == 2:
        if not isinstance(value, bool):
            raise RecordError("ruling", f"ruling {name!r} takes true or false (JSON booleans), not {_show(value)}")
    elif not isinstance(value, str):
        shown = ", ".join(json.dumps(r) for r in readings)
        raise RecordError("ruling", f"ruling {name!r} takes one of {shown}, not {_show(value)}")


def record_from_state(start: DealState, variant: str, actions: Sequence[Action] = ()) -> DealRecord:
    """A record for a deal that starts in ``start`` (rulings: those differing from the preset)."""
    diff = start.rules.differences(preset(variant).rules)
    rulings: list[tuple[str, str | int | bool]] = []
    for name in sorted(diff):
        value = diff[name]
        if isinstance(value, bool | int | str):
            rulings.append((name, value))
    return DealRecord(
        variant,
        tuple(rulings),
        start.players,
        start.dealer,
        start.comet_value,
        start.hands,
        start.dead,
        tuple(actions),
        tuple(str(a) for a in actions),
    )


# --------------------------------------------------------------------- reading


def _int_field(obj: Mapping[str, object], name: str) -> int:
    value = whole_number(obj[name])
    if value is None:
        raise RecordError("field", f"{name!r} must be a whole number, not {_show(obj[name])}")
    return value


@rule("R-REC-NUMBERS")
def whole_number(value: object) -> int | None:
    """A JSON number with no fractional part as an int (``2`` and ``2.0`` alike; JSON has one number
    type); None for anything else (``true``, ``2.5``, ``"2"``, an infinity)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _show(value: object) -> str:
    text = json.dumps(value) if _is_jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def parse_card_code(text: object, where: str) -> int:
    """A card code in its exact form (``5H``, ``10C``, ``AS``); RecordError kind ``card`` otherwise
    (kind ``field`` if it is not a string at all)."""
    if not isinstance(text, str):
        raise RecordError("field", f'{where}: a card is a string such as "5H", not {_show(text)}')
    c = CARD_CODES.get(text)  # exactly the codes CARD_RE matches
    if c is None:
        raise RecordError(
            "card", f"{where}: unknown card {_show(text)}: expected a rank 2..10, J, Q, K or A then C, D, H or S"
        )
    return c


def parse_action_text(text: object, index: int) -> Action:
    """One action in its exact form; RecordError kind ``action-syntax`` (or ``card``) otherwise."""
    if not isinstance(text, str):
        raise RecordError("field", f"action {index} must be a string, not {_show(text)}")
    action = exact_action(text)
    if action is None:
        raise RecordError(
            "action-syntax",
            f"action {index} {_show(text)}: expected 'pass', 'play CARD', 'play CARD as RANK' or 'play C1 C2 C3 C4'"
            " (single spaces, upper-case card codes)",
        )
    return action


@functools.lru_cache(maxsize=4096)
def exact_action(text: str) -> Action | None:
    """The action ``text`` spells in its exact form, or None; each distinct text is parsed once
    (a deal uses a few dozen, and actions are immutable)."""
    return parse_action(text) if ACTION_RE.fullmatch(text) else None


#: The order in which the kinds of fault are checked (spec/record.md, R-REC-FAULTS); the first
#: fault found is the one reported.  ``hand-size`` appears twice: the number of hands is checked
#: before the pack, the size of each hand after it.
CHECK_ORDER = (
    "json",
    "field",
    "variant",
    "card",
    "action-syntax",
    "ruling",
    "players",
    "hand-size",
    "pack",
    "dealer",
)


def _check_shape(obj: object) -> dict[str, object]:
    """Kind ``field``: the record is an object with exactly the known fields, each of the right JSON type."""
    if not isinstance(obj, dict):
        raise RecordError("field", f"a record is a JSON object, not {_show(obj)}")
    for name in REQUIRED_FIELDS:
        if name not in obj:
            raise RecordError("field", f"the record has no {name!r} field")
    unknown = sorted(str(k) for k in obj if k not in REQUIRED_FIELDS + OPTIONAL_FIELDS)
    if unknown:
        raise RecordError("field", f"unknown field(s) {', '.join(map(repr, unknown))}")
    if "format" in obj:
        why = check_format(_int_field(obj, "format"))
        if why is not None:
            raise RecordError("field", why)
    if not isinstance(obj["variant"], str):
        raise RecordError("field", f"'variant' must be a preset name (a string), not {_show(obj['variant'])}")
    rulings_raw = obj.get("rulings", {})
    if not isinstance(rulings_raw, dict):
        raise RecordError("field", f"'rulings' must be an object of name: reading, not {_show(rulings_raw)}")
    for name in sorted(rulings_raw):
        value = rulings_raw[name]
        if not isinstance(value, str | bool) and whole_number(value) is None:
            raise RecordError(
                "field", f"ruling {name!r}: a reading is a string, a whole number or a boolean, not {_show(value)}"
            )
    _int_field(obj, "players")
    _int_field(obj, "dealer")
    if "comet_value" in obj and _int_field(obj, "comet_value") < 0:
        raise RecordError("field", f"'comet_value' must not be negative, not {_show(obj['comet_value'])}")
    hands_raw = obj["hands"]
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise RecordError(
            "field", f"'hands' must be a list of lists of card codes, one per seat, not {_show(hands_raw)}"
        )
    for seat, hand in enumerate(hands_raw):
        _card_strings(hand, f"hands[{seat}]")
    dead_raw = obj["dead"]
    if not isinstance(dead_raw, list):
        raise RecordError("field", f"'dead' must be a list of card codes, not {_show(dead_raw)}")
    _card_strings(dead_raw, "dead")
    actions_raw = obj["actions"]
    if not isinstance(actions_raw, list):
        raise RecordError("field", f"'actions' must be a list of action strings, not {_show(actions_raw)}")
    if len(actions_raw) > MAX_ACTIONS:
        raise RecordError("field", f"'actions' holds {len(actions_raw)} actions; at most {MAX_ACTIONS} are read")
    for i, a in enumerate(actions_raw):
        if not isinstance(a, str):
            raise RecordError("field", f"action {i} must be a string, not {_show(a)}")
    return obj


def _card_strings(cards: list[object], where: str) -> None:
    """RecordError kind ``field`` for the first card of ``cards`` (a hand or the dead hand, named ``where``)
    that is not a string."""
    for i, c in enumerate(cards):
        if not isinstance(c, str):
            raise RecordError("field", f'{where}[{i}]: a card is a string such as "5H", not {_show(c)}')


@rule("R-REC-FAULTS")
def parse_record(obj: object) -> DealRecord:
    """Read a decoded JSON value as a deal record; RecordError (with a kind) for anything malformed.

    The checks run in ``CHECK_ORDER``: shape and types (``field``), the preset name, card codes, action
    syntax here; ruling readings, player count, hands, pack, deal sizes and dealer when the deal starts
    (``DealRecord.start``)."""
    rec = _check_shape(obj)
    variant = rec["variant"]
    assert isinstance(variant, str)
    preset(variant)  # RecordError kind "variant" if unknown
    rulings_raw = rec.get("rulings", {})
    assert isinstance(rulings_raw, dict)
    rulings: list[tuple[str, str | int | bool]] = []
    for name in sorted(rulings_raw):
        value = rulings_raw[name]
        if isinstance(value, str | bool):
            rulings.append((str(name), value))
        else:
            number = whole_number(value)
            assert number is not None  # _check_shape refused anything else
            rulings.append((str(name), number))
    players = _int_field(rec, "players")
    dealer = _int_field(rec, "dealer")
    comet_value = _int_field(rec, "comet_value") if "comet_value" in rec else None
    hands_raw = rec["hands"]
    dead_raw = rec["dead"]
    actions_raw = rec["actions"]
    assert isinstance(hands_raw, list) and isinstance(dead_raw, list) and isinstance(actions_raw, list)
    hands = tuple(
        tuple(parse_card_code(c, f"hands[{seat}][{i}]") for i, c in enumerate(h)) for seat, h in enumerate(hands_raw)
    )
    dead = tuple(parse_card_code(c, f"dead[{i}]") for i, c in enumerate(dead_raw))
    actions = tuple(parse_action_text(a, i) for i, a in enumerate(actions_raw))
    texts = tuple(str(a) for a in actions_raw)
    fmt = _int_field(rec, "format") if "format" in rec else None
    fmt = None if fmt == FORMAT else fmt  # None: the current format, stated or not
    return DealRecord(variant, tuple(rulings), players, dealer, comet_value, hands, dead, actions, texts, fmt)


def loads_record(text: str) -> DealRecord:
    """Parse record text (JSON); RecordError kind ``json`` if it is not JSON at all."""
    return parse_record(loads_json(text))


def requested_record(req: Mapping[str, object]) -> DealRecord | None:
    """The deal record an oracle or session request carries, as ``record_text`` (the record's JSON text) or
    ``record`` (its JSON); None when it carries neither.  RecordError kind ``request`` for a
    ``record_text`` that is not a string."""
    if "record_text" in req:
        text = req["record_text"]
        if not isinstance(text, str):
            raise RecordError("request", "'record_text' must be a string holding the record's JSON text")
        return loads_record(text)
    if "record" in req:
        return parse_record(req["record"])
    return None


def dumps_json(value: object) -> str:
    """Canonical JSON text: sorted keys, compact, ASCII; byte-identical for equal values."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


# --------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of replaying a record.  ``error`` is set iff an action was illegal."""

    record: DealRecord
    start: DealState
    final: DealState
    applied: int
    error: IllegalAction | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    def payments(self) -> tuple[Payment, ...]:
        """Payments made during play, then the settlement (empty while the deal goes on)."""
        return self.final.payments + settlement(self.final)

    def to_json(self) -> JsonObject:
        """The replay output of ``spec/schemas/replay-output.json``."""
        if self.error is not None:
            return {
                "format": FORMAT,
                "legal": False,
                "error": {
                    "index": self.applied,
                    "action": self.record.action_texts[self.applied],
                    "rule": self.error.rule,
                    "message": self.error.message,
                },
                "applied": self.applied,
            }
        return state_summary(self.final)


@rule("R-REC-ACTION-ORDER")
def action_order_key(action: Action) -> tuple[tuple[tuple[int, int], ...], int]:
    """The canonical order of actions: by the list of cards, each card by (rank, suit) with suits
    C < D < H < S, card by card (a list that is a prefix of another comes first, so ``pass`` is
    first), then by the rank a wild card stands for (none first).  The cards of a play are listed in
    the same order inside the action."""
    return tuple((rank_of(c), suit_of(c)) for c in action.cards), action.as_rank


def canonical_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    """``actions`` without duplicates, in the canonical order (R-REC-ACTION-ORDER)."""
    return tuple(sorted(set(actions), key=action_order_key))


@rule("R-REC-STATE", "R-REC-PAYMENTS")
def state_summary(s: DealState) -> JsonObject:
    """The JSON description of a state reached legally (replay output and oracle responses)."""
    winner: JsonValue = s.winner if s.winner >= 0 else None
    pays = s.payments + settlement(s)
    return {
        "format": FORMAT,
        "legal": True,
        "finished": s.terminal,
        "winner": winner,
        "drawn": s.drawn,
        "chips": list(returns(s)),
        "points": list(deal_points(s)),
        "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "rule": p.rule} for p in pays],
        "deck": s.pack,
        "to_move": None if s.terminal else s.to_move,
        "hands": [[card_text(c) for c in h] for h in s.hands],
        "dead": [card_text(c) for c in s.dead],
        "run": [rank_text(r) for r in s.run],
        "applied": s.steps,
        "legal_actions": [str(a) for a in canonical_actions(legal_actions(s))],
    }


def replay_record(rec: DealRecord) -> Verdict:
    """Apply the record's actions in order; stop at the first illegal one."""
    return replay_from(rec, rec.start())


def replay_from(rec: DealRecord, start: DealState) -> Verdict:
    """``replay_record`` from a given start (e.g. the record's deal under other rules, ``comet diverge``)."""
    s = start
    for i, a in enumerate(rec.actions):
        try:
            s = apply(s, a)
        except IllegalAction as e:
            return Verdict(rec, start, s, i, e)
    return Verdict(rec, start, s, len(rec.actions))


def explain_lines(verdict: Verdict) -> list[str]:
    """The deal narrated for a person (``comet replay --explain``), up to the first illegal action."""
    rec = verdict.record
    lines = narrate(verdict.start, rec.actions[: verdict.applied])
    err = verdict.error
    if err is not None:
        text = rec.action_texts[verdict.applied]
        lines.append(f"Action {verdict.applied} {text!r} is illegal: {err.rule}: {err.message}")
    elif not verdict.final.terminal:
        lines.append(f"The deal goes on; {seat_name(verdict.final.to_move)} is to move.")
    return lines
