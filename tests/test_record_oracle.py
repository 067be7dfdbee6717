"""The oracle's non-session ops and machine-readable listings (issue 11): ``deal`` gives the seeded deal's
record, ``perft`` counts from a record, ``hello`` lists ruling fields and readings and the error kinds,
every error response echoes ``op``; ``comet presets --json``.  Rules: R-REC-FAULTS (error kinds),
R-REC-ACTION-ORDER (perft counts the canonical actions), R-PLAYERS (deal refuses a player count)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from comet.commands.presets import presets_json
from comet.engine import player_counts
from comet.oracle.perft import perft_counts, seeded_start
from comet.oracle.protocol import handle, handle_line
from comet.presets import PRESETS
from comet.records.deal_record import CHECK_ORDER, loads_record, replay_record
from comet.ruleset import RULING_FIELDS, field_readings
from test_record import HAND_RECORD
from test_replay_cli import validator

COMET = str(Path(sys.executable).with_name("comet"))


def ok(req: dict[str, object]) -> dict[str, Any]:
    resp: dict[str, Any] = handle(req)
    validator("oracle-response.json").validate(resp)
    assert resp["ok"] is True, resp
    result = resp["result"]
    assert isinstance(result, dict)
    return result


def test_hello_lists_ruling_fields_readings_and_kinds() -> None:
    result = ok({"id": 1, "op": "hello"})
    rulings = result["rulings"]
    assert isinstance(rulings, dict) and set(rulings) == set(RULING_FIELDS)
    for field, info in rulings.items():
        values = field_readings(field)
        assert info["readings"] == (None if values is None else list(values)), field
        for name, default in info["defaults"].items():
            assert getattr(PRESETS[name].rules, field) == default
    assert rulings["comet_lead"]["ruling"] == "RUL-COMET-LEAD"
    assert "standard" in rulings["comet_lead"]["presets"]
    assert result["kinds"] == ["io", *CHECK_ORDER, "request"]
    assert {"deal", "perft"} <= set(result["ops"])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_gives_the_seeded_deal_perft_starts_from(name: str) -> None:
    """deal(players, seed) is the record of comet.oracle.perft.seeded_start; perft from it matches perft_counts."""
    rules = PRESETS[name].rules
    players = player_counts(rules)[0]
    record = ok({"id": "d", "op": "deal", "variant": name, "players": players, "seed": 2})["record"]
    validator("record.json").validate(record)
    start = replay_record(loads_record(json.dumps(record))).final
    assert start == seeded_start(rules, players, 2)
    counts = ok({"id": 2, "op": "perft", "record": record, "depth": 3})["counts"]
    assert counts == list(perft_counts(rules, players, 2, 3))


def test_perft_from_a_record_with_actions_and_an_illegal_one() -> None:
    """perft counts from the state after the record's actions; an illegal record gives its verdict."""
    after = {**HAND_RECORD, "actions": ["play 2S", "play 3S"]}
    assert ok({"op": "perft", "record": after, "depth": 1})["counts"] == [2]  # the 4C, or the Comet as a 4
    bad = ok({"op": "perft", "record": {**HAND_RECORD, "actions": ["pass"]}, "depth": 2})
    assert bad["legal"] is False and bad["error"]["rule"] == "R-PLAY-MUST"


@pytest.mark.parametrize(
    ("request_", "op", "kind"),
    [
        ({"id": 1, "op": "nope"}, "nope", "request"),
        ({"id": 1}, None, "request"),
        ({"id": 1, "op": 7}, None, "request"),
        ({"id": 1, "op": "legal"}, "legal", "request"),
        ({"id": 1, "op": "replay", "record": {**HAND_RECORD, "players": True}}, "replay", "field"),
        ({"id": 1, "op": "replay", "record_text": "{"}, "replay", "json"),
        ({"id": 1, "op": "apply", "record": HAND_RECORD, "action": "jump"}, "apply", "action-syntax"),
        ({"id": 1, "op": "deal", "players": 9, "seed": 1}, "deal", "players"),
        ({"id": 1, "op": "deal", "players": 3}, "deal", "request"),
        ({"id": 1, "op": "deal", "variant": "bridge", "players": 3, "seed": 1}, "deal", "variant"),
        ({"id": 1, "op": "perft", "record": HAND_RECORD, "depth": 99}, "perft", "request"),
    ],
)
def test_every_error_response_echoes_op(request_: dict[str, object], op: str | None, kind: str) -> None:
    """R-REC-FAULTS: the error kind, and the request's op echoed (null when it had no string op)."""
    resp: dict[str, Any] = handle(request_)
    validator("oracle-response.json").validate(resp)
    assert resp["ok"] is False and resp["op"] == op and resp["error"]["kind"] == kind


def test_a_line_that_is_not_json_echoes_a_null_op() -> None:
    resp: dict[str, Any] | None = handle_line("oops")
    assert resp is not None and resp["op"] is None and resp["error"]["kind"] == "json"


def test_presets_json_lists_every_preset_with_counts_packs_and_rulings() -> None:
    proc = subprocess.run([COMET, "presets", "--json"], capture_output=True, text=True, timeout=120, check=True)
    assert set(json.loads(proc.stdout)["presets"]) == set(PRESETS)
    data = presets_json()["presets"]
    assert isinstance(data, dict) and set(data) == set(PRESETS)
    for name, info in data.items():
        rules = PRESETS[name].rules
        assert info["players"] == list(player_counts(rules))
        assert set(info["packs"]) == {str(n) for n in info["players"]}
        for field, value in info["rulings"].items():
            assert getattr(rules, field) == value
    assert data["standard"]["packs"]["3"] == ["black", "red"]
