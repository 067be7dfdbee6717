"""Game records: a whole game as one JSON object, read, checked deal by deal, and written.

The contract is ``spec/record.md`` ("Game records"), the schema ``spec/schemas/game-record.json``::

    {"format": 3, "variant": "standard", "rulings": {}, "players": 4, "length": 4,
     "draw": [["5H", "9C", "2S", "KD"]], "first_dealer": 2,
     "deals": [{"record": DEAL_RECORD, "after": {"standings": [...], "comet_values": [2], "length": 4}}, ...],
     "end": {"standings": [...], "winners": [1]}}

A JSON object with a ``deals`` field is a game record (a deal record has none).  This module reads one
(``parse_game_record``: the shape, every field's type and limit; kind ``field`` / ``json`` faults);
``comet.records.game_replay`` checks it deal by deal, ``comet.records.game_verdict`` holds the verdict and
its output, ``comet.records.game_write`` plays and writes games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from comet.cards import card_text
from comet.errors import RecordError
from comet.game import (
    Draw,
)
from comet.records.contract import FORMAT, check_format
from comet.records.deal_record import (
    DealRecord,
    JsonObject,
    JsonValue,
    parse_card_code,
    parse_record,
    record_head,
    whole_number,
)
from comet.records.json_text import loads_json
from comet.ruleset import Ruleset

REQUIRED_FIELDS = ("variant", "players", "length", "first_dealer", "deals")
OPTIONAL_FIELDS = ("format", "rulings", "draw", "end")
DEAL_FIELDS = ("record", "seed", "after")
AFTER_FIELDS = ("standings", "comet_values", "length")
END_FIELDS = ("standings", "winners")
#: Guards against hostile input; far above any real game.
MAX_DEALS = 1_000
MAX_DRAW_ROUNDS = 100


def is_game_record(obj: object) -> bool:
    """A JSON object with a ``deals`` field is a game record."""
    return isinstance(obj, dict) and "deals" in obj


# --------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One deal of a game record: its record (None: dealt from ``seed``) and the values stated after it."""

    record: DealRecord | None
    seed: int | None
    standings: tuple[int, ...] | None
    comet_values: tuple[int, ...] | None
    length: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    variant: str
    rulings: tuple[tuple[str, str | int | bool], ...]
    players: int
    length: int
    draw: Draw | None
    first_dealer: int
    deals: tuple[DealEntry, ...]
    end_standings: tuple[int, ...] | None
    end_winners: tuple[int, ...] | None
    has_end: bool
    format: int | None = None  # the format the record states (None: not stated, read as the current one)

    def ruleset(self) -> Ruleset:
        """The preset's rules with the record's rulings over its format's defaults (RecordError kind
        ``ruling``)."""
        return DealRecord(self.variant, self.rulings, self.players, 0, None, (), (), (), (), self.format).ruleset()

    def to_json(self) -> JsonObject:
        out = record_head(self.variant, self.rulings, self.players, self.format)
        out["length"] = self.length
        if self.draw is not None:
            out["draw"] = [[None if c is None else card_text(c) for c in row] for row in self.draw]
        out["first_dealer"] = self.first_dealer
        deals: list[JsonValue] = []
        for d in self.deals:
            entry: JsonObject = {}
            if d.record is not None:
                entry["record"] = d.record.to_json()
            if d.seed is not None:
                entry["seed"] = d.seed
            if d.standings is not None and d.comet_values is not None and d.length is not None:
                entry["after"] = {
                    "standings": list(d.standings),
                    "comet_values": list(d.comet_values),
                    "length": d.length,
                }
            deals.append(entry)
        out["deals"] = deals
        if self.has_end:
            assert self.end_standings is not None and self.end_winners is not None
            out["end"] = {"standings": list(self.end_standings), "winners": list(self.end_winners)}
        return out


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object, where: str) -> int:
    n = whole_number(value)
    if n is None:
        raise RecordError("field", f"{where} must be a whole number, not {_show(value)}")
    return n


def _ints(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordError("field", f"{where} must be a list of whole numbers, not {_show(value)}")
    return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(value))


def _object(value: object, where: str, required: Sequence[str], optional: Sequence[str]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RecordError("field", f"{where} must be a JSON object, not {_show(value)}")
    for name in required:
        if name not in value:
            raise RecordError("field", f"{where} has no {name!r} field")
    unknown = sorted(str(k) for k in value if k not in (*required, *optional))
    if unknown:
        raise RecordError("field", f"{where}: unknown field(s) {', '.join(map(repr, unknown))}")
    return value


def parse_game_record(obj: object) -> GameRecord:
    """Read a decoded JSON value as a game record; RecordError (kind as for deal records, the message
    naming the item, ``deals[2].record: ...``) for anything malformed."""
    rec = _object(obj, "a game record", REQUIRED_FIELDS, OPTIONAL_FIELDS)
    fmt = None
    if "format" in rec:
        fmt = _whole(rec["format"], "'format'")
        why = check_format(fmt)
        if why is not None:
            raise RecordError("field", why)
        fmt = None if fmt == FORMAT else fmt  # None: the current format, stated or not
    variant = rec["variant"]
    if not isinstance(variant, str):
        raise RecordError("field", f"'variant' must be a preset name (a string), not {_show(variant)}")
    rulings_raw = rec.get("rulings", {})
    if not isinstance(rulings_raw, dict):
        raise RecordError("field", f"'rulings' must be an object of name: reading, not {_show(rulings_raw)}")
    players = _whole(rec["players"], "'players'")
    length = _whole(rec["length"], "'length'")
    first_dealer = _whole(rec["first_dealer"], "'first_dealer'")
    draw: Draw | None = None
    if "draw" in rec:
        draw_raw = rec["draw"]
        if not isinstance(draw_raw, list) or not 1 <= len(draw_raw) <= MAX_DRAW_ROUNDS:
            raise RecordError("field", f"'draw' must be a list of 1 to {MAX_DRAW_ROUNDS} rounds, not {_show(draw_raw)}")
        rows = []
        for r, row in enumerate(draw_raw):
            if not isinstance(row, list):
                raise RecordError("field", f"draw[{r}] must be a list (a card code or null per seat)")
            rows.append(tuple(None if c is None else parse_card_code(c, f"draw[{r}][{s}]") for s, c in enumerate(row)))
        draw = tuple(rows)
    deals_raw = rec["deals"]
    if not isinstance(deals_raw, list) or len(deals_raw) > MAX_DEALS:
        raise RecordError("field", f"'deals' must be a list of at most {MAX_DEALS} deals, not {_show(deals_raw)}")
    deals = tuple(_parse_deal(d, i) for i, d in enumerate(deals_raw))
    end_standings = end_winners = None
    if "end" in rec:
        end = _object(rec["end"], "'end'", END_FIELDS, ())
        end_standings = _ints(end["standings"], "end.standings")
        end_winners = _ints(end["winners"], "end.winners")
    # the deal-record checks that need no rules (preset name, rulings readable) come with the game's
    probe = {"variant": variant, "rulings": rulings_raw, "players": players, "dealer": 0, "hands": [], "dead": []}
    head = parse_record({**probe, "actions": []})
    return GameRecord(
        variant,
        head.rulings,
        players,
        length,
        draw,
        first_dealer,
        deals,
        end_standings,
        end_winners,
        "end" in rec,
        fmt,
    )


def _parse_deal(value: object, i: int) -> DealEntry:
    where = f"deals[{i}]"
    d = _object(value, where, (), DEAL_FIELDS)
    if ("record" in d) == ("seed" in d):
        raise RecordError("field", f"{where} must have exactly one of 'record' and 'seed'")
    record = None
    seed = None
    if "record" in d:
        try:
            record = parse_record(d["record"])
        except RecordError as e:
            raise RecordError(e.kind, f"{where}.record: {e.message}") from None
    else:
        seed = _whole(d["seed"], f"{where}.seed")
    standings = comet_values = length = None
    if "after" in d:
        after = _object(d["after"], f"{where}.after", AFTER_FIELDS, ())
        standings = _ints(after["standings"], f"{where}.after.standings")
        comet_values = _ints(after["comet_values"], f"{where}.after.comet_values")
        length = _whole(after["length"], f"{where}.after.length")
    return DealEntry(record, seed, standings, comet_values, length)


def loads_game_record(text: str) -> GameRecord:
    return parse_game_record(loads_json(text))


def with_rulings(rec: GameRecord, rulings: Mapping[str, str | int | bool]) -> GameRecord:
    """The same game record stating other rulings (game and deals alike): what an implementation that
    ignores a ruling would read (the game vectors' check that a default-only reader fails)."""
    pairs = tuple(sorted(rulings.items()))
    deals = tuple(d if d.record is None else replace(d, record=replace(d.record, rulings=pairs)) for d in rec.deals)
    return replace(rec, rulings=pairs, deals=deals)


def loads_any(text: str) -> DealRecord | GameRecord:
    """A deal record or a game record (an object with ``deals``), read from JSON text; the limits of
    ``json_text`` hold for both (kind ``json`` past them, R-REC-LIMITS)."""
    obj = loads_json(text)
    return parse_game_record(obj) if is_game_record(obj) else parse_record(obj)
