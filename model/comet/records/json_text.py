"""JSON text as every reader of the contract reads it: the limits on sizes and numbers (R-REC-LIMITS).

Deal records, game records and oracle request lines are all read here, so one set of limits holds for
them all (``spec/record.md``, "Limits"):

- at most ``MAX_CHARS`` characters of text (a deal record, a game record, one oracle line alike);
- every integer within ``-MAX_INT .. MAX_INT`` (2^53 - 1, what a JavaScript number or a double holds
  exactly), and every number with a fraction or an exponent too (``1e300`` is refused, ``5.0`` is 5);
- no list longer than ``MAX_LIST`` elements, nesting at most ``MAX_DEPTH`` deep;
- no key twice in one object (``{"players": 4, "players": 5}``), no ``NaN`` / ``Infinity``, no byte
  order mark (the text is JSON from its first character).

Past any of them the text is refused with kind ``json`` and a message naming the limit; nothing here
knows what a record means (the field checks are ``deal_record`` and ``game_record``).
"""

from __future__ import annotations

import json
import math

from comet.errors import RecordError
from comet.trace import rule

#: The longest text read (characters): a record of either kind, or one oracle request line.
MAX_CHARS = 10_000_000
#: The largest integer magnitude read: 2^53 - 1, exact in every JSON reader (IEEE doubles).
MAX_INT = 2**53 - 1
#: The longest JSON list read (any list); the fields' own caps are lower (10,000 actions: kind field).
MAX_LIST = 100_000
#: The deepest nesting read (a record nests 5 deep; a game record 7).
MAX_DEPTH = 32


class _Refused(ValueError):
    """Raised inside the decoder's hooks; turned into RecordError kind ``json``."""


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(f"the key {k!r} appears twice in one object (a key is given once)")
        out[k] = v
    return out


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > 16 or abs(int(text)) > MAX_INT:
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise _Refused(f"the number {shown} is out of range: integers are read within -{MAX_INT} .. {MAX_INT}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_INT:
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise _Refused(f"the number {shown} is out of range: numbers are read within -{MAX_INT} .. {MAX_INT}")
    return value


def _constant(text: str) -> object:
    raise _Refused(f"{text} is not JSON (JSON numbers are finite)")


def _shape(value: object, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise _Refused(f"the value nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            raise _Refused(f"a list holds {len(value)} elements; at most {MAX_LIST} are read")
        for v in value:
            _shape(v, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            _shape(v, depth + 1)


@rule("R-REC-LIMITS")
def loads_json(text: str, what: str = "the record") -> object:
    """Decode ``text`` within the limits above; RecordError kind ``json`` (the message naming the limit)
    for anything past them or not JSON at all.  ``what`` names the text in messages."""
    if len(text) > MAX_CHARS:
        raise RecordError("json", f"{what} is {len(text)} characters long; at most {MAX_CHARS} are read")
    if text.startswith("\ufeff"):
        raise RecordError("json", f"{what} starts with a byte order mark (U+FEFF); JSON text starts with its value")
    try:
        value: object = json.loads(
            text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float, parse_constant=_constant
        )
        _shape(value)
    except _Refused as e:
        raise RecordError("json", str(e)) from None
    except (ValueError, RecursionError) as e:
        raise RecordError("json", f"not JSON: {e}") from None
    return value
