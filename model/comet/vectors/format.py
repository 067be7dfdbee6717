"""How a vector file is written: ITF traces and cases as compact, deterministic JSON text."""

from __future__ import annotations

import json
from dataclasses import dataclass

from comet.records.deal_record import (
    JsonObject,
    JsonValue,
)


def dump_itf(trace: JsonObject) -> str:
    """ITF text with one state per line (diff-friendly), otherwise compact."""
    states = trace["states"]
    assert isinstance(states, list)
    head = {k: v for k, v in trace.items() if k != "states"}
    lines = [json.dumps(st, separators=(",", ":"), ensure_ascii=True) for st in states]
    body = json.dumps(head, separators=(",", ":"), ensure_ascii=True)[:-1]
    return body + ',"states":[\n' + ",\n".join(lines) + "\n]}\n"


def compact(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def case_text(case: JsonObject) -> str:
    """A case file: one top-level key per line, each value compact (small, and diff-friendly)."""
    items = [f"{json.dumps(k)}:{compact(case[k])}" for k in sorted(case)]
    return "{\n" + ",\n".join(items) + "\n}\n"


@dataclass(frozen=True, slots=True)
class VectorFile:
    """One vector file: where it goes, its kind, its text, the rule ids it exercises and a description."""

    path: str
    kind: str
    text: str
    rules: tuple[str, ...]
    description: str
