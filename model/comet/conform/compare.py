"""The model's answer beside the implementation's: what must agree and what may differ.

Everything in a response is compared except what is for a person: ``message`` (the wording of an
error or a fault), the narration's ``lines``, and the request's ``id`` echo.  So the verdict, the state,
the payments, the legal actions in order, an error's ``kind``, a fault's item, rule, expected and
found must all be the same (``spec/implementing.md``, "Testing an implementation").
"""

from __future__ import annotations

import json
import re

from comet.conform.client import Answer
from comet.oracle.protocol import handle_line
from comet.records.answers import MODEL_AND_IMPLEMENTATION, first_difference
from comet.records.deal_record import JsonObject, JsonValue

#: Keys for a person, not compared.
FREE_TEXT = frozenset({"message", "lines", "id"})


def model_answer(request: JsonObject) -> JsonObject:
    """What ``comet oracle`` answers to ``request`` sent as the line the implementation gets (in process;
    the model is the reference; the line's own limits included)."""
    answer = handle_line(json.dumps(request, ensure_ascii=False))
    assert answer is not None  # a request is never a blank line
    return answer


def comparable(value: JsonValue) -> JsonValue:
    """``value`` without the free-text keys, at every depth."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in FREE_TEXT}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def difference(model: JsonObject, answer: Answer) -> str | None:
    """None when the implementation agrees; else a one-line account of the first difference."""
    if answer.response is None:
        return f"{answer.problem}: {answer.detail}"
    return first_difference(comparable(model), comparable(answer.response), MODEL_AND_IMPLEMENTATION)


def rule_of(model: JsonObject, problem: str = "") -> str | None:
    """The rule id the model's answer names (an illegal action's or a game fault's), or the rule of the
    payment where the answers first differ (``problem`` from ``difference``), if any."""
    result = model.get("result")
    m = re.match(r"result(?:\.deals\[(\d+)\]\.verdict)?\.payments\[(\d+)\]", problem)
    if m and isinstance(result, dict):
        where: JsonValue = result
        if m.group(1) is not None:
            deals = result.get("deals")
            entry = deals[int(m.group(1))] if isinstance(deals, list) and int(m.group(1)) < len(deals) else None
            where = entry.get("verdict") if isinstance(entry, dict) else None
        payments = where.get("payments") if isinstance(where, dict) else None
        i = int(m.group(2))
        payment = payments[i] if isinstance(payments, list) and i < len(payments) else None
        rid = payment.get("rule") if isinstance(payment, dict) else None
        if isinstance(rid, str):
            return rid
    if isinstance(result, dict):
        error = result.get("error")
        if isinstance(error, dict) and isinstance(error.get("rule"), str):
            return str(error["rule"])
    error = model.get("error")
    if isinstance(error, dict) and isinstance(error.get("kind"), str):
        return "R-REC-FAULTS"
    return None
