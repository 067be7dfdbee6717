"""Deal records: parsing, validation, replay verdicts and hostile input (spec/record.md).

Rules exercised: R-PLAY-MUST, R-PLAY-HELD, R-COMET-WILD, R-COMET-BONUS, R-SETTLE-POINTS, R-END-OUT,
R-DEAL-SIZES, R-PACK-BLACK, R-LEAD-FIRST.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from comet.engine import shuffled_deal
from comet.errors import RecordError
from comet.game import play_deal
from comet.records.deal_record import loads_record, parse_record, record_from_state, replay_record
from comet.ruleset import Ruleset
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent

# A 5-player deal written out by hand: seat 0 goes out in its first turn with the Comet as 6.
HANDS: list[list[str]] = [
    ["2S", "3S", "4C", "5C", "9D", "10C", "JC", "QS", "KS"],
    ["2C", "2C", "2S", "3C", "6C", "8C", "10C", "JS", "QC"],
    ["4C", "5S", "6C", "6S", "6S", "8S", "9S", "JC", "QC"],
    ["4S", "4S", "5C", "8C", "8S", "9C", "9S", "10S", "KC"],
    ["3S", "5S", "7C", "7C", "7S", "JS", "QS", "KC", "KS"],
]
ACTIONS: list[str] = [
    "play 2S",
    "play 3S",
    "play 4C",
    "play 5C",
    "play 9D as 6",
    "play 10C",
    "play JC",
    "play QS",
    "play KS",
]
HAND_RECORD: dict[str, object] = {
    "variant": "standard",
    "players": 5,
    "dealer": 4,
    "hands": HANDS,
    "dead": ["3C", "7S", "10S"],
    "actions": ACTIONS,
}


def with_(**changes: object) -> str:
    return json.dumps({**HAND_RECORD, **changes})


def test_hand_written_record_settles_by_hand_arithmetic() -> None:
    """R-COMET-BONUS: 2 from each of four; R-SETTLE-POINTS: seat 1 holds 2+2+2+3+6+8+10+10+10 = 53."""
    out = replay_record(loads_record(json.dumps(HAND_RECORD))).to_json()
    assert out["legal"] is True and out["finished"] is True and out["winner"] == 0
    pays = out["payments"]
    assert isinstance(pays, list)
    bonus = [p for p in pays if isinstance(p, dict) and p["rule"] == "R-COMET-BONUS"]
    assert [(p["payer"], p["amount"]) for p in bonus] == [(1, 2), (2, 2), (3, 2), (4, 2)]
    settle = {p["payer"]: p["amount"] for p in pays if isinstance(p, dict) and p["rule"] == "R-SETTLE-POINTS"}
    assert settle[1] == 2 + 2 + 2 + 3 + 6 + 8 + 10 + 10 + 10
    chips = out["chips"]
    assert isinstance(chips, list) and sum(int(str(v)) for v in chips) == 0 and chips[1] == -(53 + 2)
    assert out["deck"] == "black"


def test_illegal_pass_names_rule_and_index() -> None:
    """R-PLAY-MUST: seat 0 holds the 3 after the 2 and may not pass."""
    rec = loads_record(with_(actions=["play 2S", "pass"]))
    out = replay_record(rec).to_json()
    assert out["legal"] is False
    err = out["error"]
    assert isinstance(err, dict)
    assert (err["index"], err["action"], err["rule"]) == (1, "pass", "R-PLAY-MUST")


@pytest.mark.parametrize(
    ("actions", "rule"),
    [
        (["play 6C"], "R-PLAY-HELD"),  # seat 0 holds no 6C
        (["play 2S", "play 3S", "play 9D as 5"], "R-COMET-WILD"),  # must stand for the needed rank, 4
        (["play 2S", "play 4C"], "R-PLAY-CONTINUE"),
        ([*ACTIONS, "pass"], "R-END-OUT"),
    ],
)
def test_illegal_actions_give_rule_ids(actions: list[str], rule: str) -> None:
    out = replay_record(loads_record(with_(actions=actions))).to_json()
    err = out["error"]
    assert out["legal"] is False and isinstance(err, dict) and err["rule"] == rule
    assert err["index"] == len(actions) - 1


MALFORMED = [
    ("{not json", "json"),
    (with_(hands=[["1Z"], *HANDS[1:]]), "card"),
    (with_(hands=[["2s", *HANDS[0][1:]], *HANDS[1:]]), "card"),
    (with_(dead=["3C", "7S", "10S", "10S"]), "pack"),
    (with_(dealer=5), "dealer"),
    (with_(players=9), "players"),
    (with_(players=True), "field"),  # R-REC-NUMBERS: true is not a number
    (with_(actions=["play 2S as"]), "action-syntax"),
    (with_(actions=["Play 2S"]), "action-syntax"),
    (with_(variant="bridge"), "variant"),
    (with_(rulings={"comet_lead": "maybe"}), "ruling"),
    (with_(comet_value=-1), "field"),
    (json.dumps({k: v for k, v in HAND_RECORD.items() if k != "dead"}), "field"),
    ("[]", "field"),
]


@pytest.mark.parametrize(("text", "kind"), MALFORMED)
def test_malformed_records_give_error_kinds(text: str, kind: str) -> None:
    with pytest.raises(RecordError) as info:
        replay_record(loads_record(text))
    assert info.value.kind == kind
    assert "\n" not in str(info.value)


def test_wrong_hand_sizes_is_hand_size_error() -> None:
    """R-DEAL-SIZES: five players get 9 cards each; moving one card breaks it."""
    hands = [list(h) for h in HANDS]
    hands[1].append(hands[0].pop())
    with pytest.raises(RecordError) as info:
        replay_record(loads_record(with_(hands=hands)))
    assert info.value.kind == "hand-size"


def test_record_round_trips_through_json() -> None:
    start = shuffled_deal(Ruleset(), 3, 2, 11)
    _, actions = play_deal(start)
    rec = record_from_state(start, "standard", actions)
    again = parse_record(json.loads(json.dumps(rec.to_json())))
    assert again == rec
    assert replay_record(again).final.terminal


def test_spec_record_examples_replay_as_documented() -> None:
    """Every ```json record in spec/record.md followed by a ```json output block gives that output."""
    text = (ROOT / "spec" / "record.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    pairs = [(json.loads(a), json.loads(b)) for a, b in itertools.pairwise(blocks) if '"variant"' in a]
    assert pairs, "spec/record.md should hold a record and its replay output"
    for record, expected in pairs:
        if "legal" not in expected:
            continue
        got = replay_record(parse_record(record)).to_json()
        assert {k: got[k] for k in expected} == expected


# --------------------------------------------------------------------- hostile input

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
FIELDS = ("variant", "rulings", "players", "dealer", "comet_value", "hands", "dead", "actions")


def _clean_outcome(text: str) -> None:
    try:
        verdict = replay_record(loads_record(text))
    except RecordError as e:
        assert e.kind and "\n" not in str(e)
        return
    json.dumps(verdict.to_json())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_random_json_gives_clean_result_or_error(value: object) -> None:
    _clean_outcome(json.dumps(value))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELDS), json_values, st.integers(0, 8), st.text(max_size=6))
def test_mutated_records_give_clean_result_or_error(field: str, value: object, seat: int, card: str) -> None:
    mutated: dict[str, object] = dict(HAND_RECORD)
    mutated[field] = value
    _clean_outcome(json.dumps(mutated))
    # a single card or action replaced by random text
    hands = [list(h) for h in HANDS]
    hands[seat % 5][seat % 9] = card
    _clean_outcome(with_(hands=hands))
    actions = list(ACTIONS)
    actions[seat % len(actions)] = card
    _clean_outcome(with_(actions=actions))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_random_text_gives_clean_error(text: str) -> None:
    _clean_outcome(text)
