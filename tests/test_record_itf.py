"""ITF traces are written and read with itf-py (issue 11): a trace read back gives, state by state, what
replaying the record's prefix gives (R-REC-STATE: hands, run, to_move, winner; R-REC-PAYMENTS:
payments and chips), and the published schema refuses a trace whose integers are not ``#bigint``."""

from __future__ import annotations

import json

import pytest
from comet.engine import player_counts, shuffled_deal
from comet.game import play_deal
from comet.presets import PRESETS
from comet.records.deal_record import record_from_state, replay_record
from comet.records.itf import deal_trace, read_trace
from test_replay_cli import validator


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_trace_read_back_is_the_replay_state_by_state(name: str) -> None:
    rules = PRESETS[name].rules
    players = player_counts(rules)[-1]
    start = shuffled_deal(rules, players, 0, 17)
    _, actions = play_deal(start)
    trace = deal_trace(start, actions, "test", name)
    trace["#meta"] = {**trace["#meta"], "record": record_from_state(start, name, actions).to_json()}  # type: ignore[dict-item]
    validator("itf-trace.json").validate(json.loads(json.dumps(trace)))
    states = read_trace(json.loads(json.dumps(trace)))
    assert len(states) == len(actions) + 1
    for i, st in enumerate(states):
        out = replay_record(record_from_state(start, name, actions[:i])).to_json()
        assert st["hands"] == out["hands"] and st["run"] == out["run"]
        assert st["to_move"] == (-1 if out["to_move"] is None else out["to_move"])
        assert st["winner"] == (-1 if out["winner"] is None else out["winner"])
        assert st["payments"] == out["payments"] and st["chips"] == out["chips"]
        assert st["finished"] == out["finished"] and st["action"] == ("" if i == 0 else str(actions[i - 1]))


def test_schema_refuses_plain_integers_in_a_trace() -> None:
    """Planted: a trace writer that forgets ``#bigint`` is refused by spec/schemas/itf-trace.json."""
    start = shuffled_deal(PRESETS["standard"].rules, 3, 2, 1)
    trace = deal_trace(start, (), "test", "planted")
    trace["#meta"] = {**trace["#meta"], "record": record_from_state(start, "standard").to_json()}  # type: ignore[dict-item]
    good = json.loads(json.dumps(trace))
    validator("itf-trace.json").validate(good)
    bad = json.loads(json.dumps(trace))
    bad["states"][0]["to_move"] = 0
    assert not validator("itf-trace.json").is_valid(bad)
