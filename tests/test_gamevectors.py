"""Game vectors (spec/vectors.md, "Game vectors"): every game rule id (R-DEAL-DEALER, R-GAME-CHIPS,
R-GAME-DEALS, R-GAME-WINNER, R-2P-GAME, R-COMMIT-C-GAME, R-RED9-GAME) and every reading of every
game-level ruling of every preset has one, the model agrees with each, and an implementation that plays
a ruling's default fails the vector of each of its other readings.  Reads the shipped vectors (fast)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from comet.records.game_record import parse_game_record, with_rulings
from comet.records.game_replay import replay_game
from comet.vectors.games import all_game_readings, game_coverage_gaps, game_rule_id_set, inert, tells_apart

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
INDEX: dict[str, Any] = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
GAME_FILES = [e for e in INDEX["files"] if e["kind"] == "game"]


def test_every_game_rule_id_and_game_reading_has_a_vector() -> None:
    assert game_coverage_gaps(INDEX) == []
    assert {"R-DEAL-DEALER", "R-GAME-CHIPS", "R-GAME-DEALS", "R-GAME-WINNER", "R-2P-GAME"} <= game_rule_id_set()


def test_a_missing_game_vector_is_reported() -> None:
    """Planted: the index without the vectors that exercise R-GAME-WINNER, and without one reading's."""
    dropped = {**INDEX, "files": [e for e in INDEX["files"] if "R-GAME-WINNER" not in e["rules"]]}
    assert "R-GAME-WINNER has no game vector" in game_coverage_gaps(dropped)
    dropped = {**INDEX, "files": [e for e in INDEX["files"] if e["reading"] != "game_tie=extra_round"]}
    assert "standard/game_tie=extra_round has no game vector" in game_coverage_gaps(dropped)


@pytest.mark.parametrize("entry", GAME_FILES, ids=[e["path"] for e in GAME_FILES])
def test_the_model_gives_each_game_vectors_expected_output(entry: dict[str, Any]) -> None:
    case = json.loads((VECTORS / entry["path"]).read_text(encoding="utf-8"))
    out = replay_game(parse_game_record(case["record"])).to_json()
    assert out == case["expected"]
    assert case["exit"] == (0 if out["legal"] else 1)


NON_DEFAULT = [r for r in all_game_readings() if r.field is not None]


@pytest.mark.parametrize("reading", NON_DEFAULT, ids=[f"{r.preset}/{r.name}" for r in NON_DEFAULT])
def test_a_default_only_implementation_fails_each_non_default_reading(reading: Any) -> None:
    case = json.loads((VECTORS / reading.preset / reading.name / "game" / "00.json").read_text(encoding="utf-8"))
    rec = parse_game_record(case["record"])
    assert tells_apart(rec, reading.field) or inert(reading)


def test_only_escalation_rulings_of_a_wild_card_that_does_not_rise_are_inert() -> None:
    """Inert game readings: the escalation rulings where the wild card never rises.  RUL-CREDITOR-ORDER,
    inert under the presets' RUL-INSOLVENCY = debt, is played under pay_what_you_have (``NEEDS``), so its
    vectors are witnesses too."""
    inert_ones = {f"{r.preset}/{r.name}" for r in NON_DEFAULT if inert(r)}
    allowed = ("escalation", "comet_reset", "escalate_on")
    assert all(name.split("/")[1].split("=")[0] in allowed for name in inert_ones)
    assert not any(name.startswith("standard/") for name in inert_ones)


@pytest.mark.parametrize("name", ["commit_hoyle", "old_comet"])
def test_the_creditor_order_vector_is_a_game_witness(name: str) -> None:
    """RUL-CREDITOR-ORDER (R-GAME-CHIPS): the shipped game of ``creditor_order=from_left`` is played under
    insolvency = pay_what_you_have and its result changes when the order is read at its default (000's
    Commit's included, which had no witness).  Planted: the same record read under debt tells nothing."""
    case = json.loads((VECTORS / name / "creditor_order=from_left" / "game" / "00.json").read_text(encoding="utf-8"))
    rec = parse_game_record(case["record"])
    assert dict(rec.rulings).get("insolvency") == "pay_what_you_have"
    assert tells_apart(rec, "creditor_order")
    under_debt = with_rulings(rec, {**dict(rec.rulings), "insolvency": "debt"})
    assert not tells_apart(under_debt, "creditor_order")


def test_a_record_that_does_not_need_the_ruling_is_not_counted() -> None:
    """The check can fail: the default game of standard is read alike whatever a ruling it does not set."""
    case = json.loads((VECTORS / "standard" / "default" / "game" / "00.json").read_text(encoding="utf-8"))
    rec = parse_game_record(case["record"])
    assert not tells_apart(rec, "game_tie") and not tells_apart(rec, "insolvency")


def test_the_default_readings_have_planted_faults_with_rule_ids() -> None:
    faults = {e["rules"][0] for e in GAME_FILES if e["reading"] == "default" and not e["path"].endswith("/00.json")}
    assert {
        "R-GAME-CHIPS",
        "R-COMET-ESCALATE",
        "R-DEAL-DEALER",
        "R-GAME-WINNER",
        "R-GAME-DEALS",
        "R-PLAY-MUST",
    } <= faults


def test_game_vectors_match_the_case_schema() -> None:
    from test_replay_cli import validator

    schema = validator("vector-case.json")
    for entry in GAME_FILES:
        schema.validate(json.loads((VECTORS / entry["path"]).read_text(encoding="utf-8")))
