"""Replaying a conformance vector and comparing two answers to it, for every harness that does so: ``comet
verify`` (the vector's expected answer against the model's, ``comet.verify.shipped``) and ``comet
conform`` (the model's answer against another implementation's, ``comet.conform``).

``vector_request`` is the oracle request that replays a vector case as another implementation gets it
(the record's JSON text, or the malformed case's input text); ``first_difference`` says where two
answers first part, in words, naming the two sides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from comet.records.deal_record import JsonObject

#: A quoted value longer than this is cut (with "...") in a difference.
SHOWN = 200


@dataclass(frozen=True, slots=True)
class Sides:
    """What the two answers are called in a difference: the reference (``want``) and the one tested."""

    want: str
    got: str


#: ``comet verify``: the vector's expected answer against the model's.
VECTOR_AND_MODEL = Sides("the vector", "the model")
#: ``comet conform``: the model's answer against the implementation's.
MODEL_AND_IMPLEMENTATION = Sides("the model", "the implementation")


def vector_request(case: Mapping[str, object], op: str = "replay") -> JsonObject:
    """The oracle request that replays a vector case: its ``input`` text (a malformed case) or its
    ``record`` as JSON text, which the implementation parses itself."""
    text = case["input"] if "input" in case else json.dumps(case["record"])
    if not isinstance(text, str):
        raise ValueError("a vector case's input must be a string")
    return {"op": op, "record_text": text}


def shown(value: object) -> str:
    """``value`` as JSON, cut to ``SHOWN`` characters."""
    text = json.dumps(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def first_difference(want: object, got: object, sides: Sides, where: str = "") -> str | None:
    """None when the answers are equal; else the path of the first difference (``result.payments[2].amount``)
    and what each side has there."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            path = f"{where}.{key}" if where else str(key)
            if key not in got:
                return f"{path}: missing from {sides.got}'s answer ({sides.want} has {shown(want[key])})"
            if key not in want:
                return f"{path}: in {sides.got}'s answer ({shown(got[key])}), not in {sides.want}'s"
            found = first_difference(want[key], got[key], sides, path)
            if found is not None:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            found = first_difference(a, b, sides, f"{where}[{i}]")
            if found is not None:
                return found
        return None
    if want != got:
        return f"{where or 'the answer'}: {sides.want} says {shown(want)}, {sides.got} {shown(got)}"
    return None
