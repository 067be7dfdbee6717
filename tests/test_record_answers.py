"""``comet.records.answers``: the one helper that replays a vector case and compares two answers, shared by
``comet verify`` (vector against model) and ``comet conform`` (model against implementation) (R-REC-FAULTS,
R-REC-PAYMENTS)."""

from __future__ import annotations

import json

import pytest
from comet.conform import compare
from comet.conform.client import Answer
from comet.records.answers import MODEL_AND_IMPLEMENTATION, VECTOR_AND_MODEL, first_difference, vector_request
from comet.records.deal_record import JsonObject
from comet.verify import shipped


def test_equal_answers_have_no_difference() -> None:
    answer = {"result": {"legal": True, "payments": [{"amount": 3, "rule": "R-SETTLE-POINTS"}]}}
    assert first_difference(answer, json.loads(json.dumps(answer)), VECTOR_AND_MODEL) is None


def test_the_first_difference_is_named_by_path_and_sides() -> None:
    want = {"result": {"payments": [{"amount": 3}, {"amount": 5}], "legal": True}}
    got = {"result": {"payments": [{"amount": 3}, {"amount": 6}], "legal": True}}
    assert first_difference(want, got, VECTOR_AND_MODEL) == "result.payments[1].amount: the vector says 5, the model 6"
    assert first_difference({"a": 1}, {}, MODEL_AND_IMPLEMENTATION) == (
        "a: missing from the implementation's answer (the model has 1)"
    )
    assert first_difference({}, {"b": [1]}, MODEL_AND_IMPLEMENTATION) == (
        "b: in the implementation's answer ([1]), not in the model's"
    )
    assert first_difference([1, 2], [1], VECTOR_AND_MODEL) == "the answer: the vector says [1, 2], the model [1]"


def test_a_vector_case_is_replayed_as_its_text() -> None:
    assert vector_request({"input": "{bad"}) == {"op": "replay", "record_text": "{bad"}
    assert vector_request({"record": {"a": 1}}, op="legal") == {"op": "legal", "record_text": '{"a": 1}'}
    with pytest.raises(ValueError):
        vector_request({"input": 5})


def test_verify_and_conform_use_the_one_helper() -> None:
    """Both harnesses say a difference the same way; conform's payment rule is found from that path."""
    assert not hasattr(shipped, "first_difference") or shipped.first_difference is first_difference
    model: JsonObject = {"ok": True, "result": {"legal": True, "payments": [{"amount": 3, "rule": "R-SETTLE-POINTS"}]}}
    wrong: JsonObject = {"ok": True, "result": {"legal": True, "payments": [{"amount": 4, "rule": "R-SETTLE-POINTS"}]}}
    problem = compare.difference(model, Answer(wrong))
    assert problem == "result.payments[0].amount: the model says 3, the implementation 4"
    assert compare.rule_of(model, problem) == "R-SETTLE-POINTS"
