"""Tests written to kill the mutants that survived the mutation run over record.py, notation.py,
oracle.py and game.py (spec/mutants.md): the oracle's op dispatch and result keys, the deal/perft
request fields and their bounds, the request-line size limit, error messages that name the offending
value, parse_action on its own, seat names, narrations equal to the golden vectors, a record with its
own comet_value, and play_game against a loop written here.  Rules: R-REC-FAULTS, R-REC-NUMBERS,
R-REC-STATE, R-COMET-BONUS, R-GAME-DEALS, R-PACK-ALTERNATE, R-DEAL-SIZES."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from comet.engine import packs_in_rotation
from comet.errors import RecordError
from comet.game import (
    default_deals,
    draw_first_dealer,
    finish_deal,
    game_over,
    new_game,
    next_deal,
    play_deal,
    play_game,
)
from comet.notation import narrate, parse_action, seat_name
from comet.oracle.protocol import MAX_PERFT_DEPTH, handle, handle_line, session
from comet.policy import random_policy, simple_policy
from comet.presets import PRESETS
from comet.records.deal_record import (
    MAX_TEXT,
    explain_lines,
    loads_record,
    parse_action_text,
    parse_card_code,
    replay_record,
)
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState
from test_record import ACTIONS, HAND_RECORD
from test_record_contract import ROWS, apply_example

ROOT = Path(__file__).resolve().parent.parent


def ask(**req: object) -> dict[str, Any]:
    resp: dict[str, Any] = handle(req)
    return resp


# --------------------------------------------------------------------- oracle dispatch


def test_an_unknown_op_is_refused_even_with_a_record() -> None:
    resp = ask(id=3, op="nope", record=HAND_RECORD)
    assert resp == {"id": 3, "ok": False, "op": "nope", "error": resp["error"]}
    assert resp["error"]["kind"] == "request" and "nope" in resp["error"]["message"]


def test_a_request_that_is_not_an_object() -> None:
    resp: dict[str, Any] = handle([1, 2])
    assert resp["id"] is None and resp["op"] is None and resp["error"]["kind"] == "request"
    assert "object" in resp["error"]["message"]


def test_result_keys_of_legal_settle_explain_and_replay() -> None:
    """R-REC-STATE: each op's result holds exactly its documented keys (spec/record.md)."""
    legal = ask(op="legal", record=HAND_RECORD | {"actions": ACTIONS[:4]})["result"]
    assert legal == {"legal": True, "finished": False, "to_move": 0, "legal_actions": ["pass", "play 9D as 6"]}
    settle = ask(op="settle", record=HAND_RECORD)["result"]
    assert set(settle) == {"legal", "finished", "winner", "drawn", "chips", "payments"}
    assert settle["legal"] is True and settle["finished"] is True and settle["winner"] == 0
    assert settle["drawn"] is False
    explain = ask(op="explain", record=HAND_RECORD)["result"]
    assert explain == {"legal": True, "lines": explain_lines(replay_record(loads_record(json.dumps(HAND_RECORD))))}
    replay = ask(op="replay", record=HAND_RECORD)["result"]
    assert replay == replay_record(loads_record(json.dumps(HAND_RECORD))).to_json()


def test_apply_needs_an_action_and_echoes_the_illegal_one() -> None:
    assert ask(op="apply", record=HAND_RECORD)["error"]["kind"] == "request"
    out = ask(op="apply", record=HAND_RECORD | {"actions": ["play 2S"]}, action="pass")["result"]
    assert out["error"]["index"] == 1 and out["error"]["action"] == "pass" and out["applied"] == 1
    bad = ask(op="apply", record=HAND_RECORD | {"actions": ["play 2S"]}, action="jump")
    assert bad["error"]["kind"] == "action-syntax" and "action 1" in bad["error"]["message"]


def test_record_text_must_be_a_string() -> None:
    resp = ask(op="replay", record_text=5)
    assert resp["error"]["kind"] == "request" and "record_text" in resp["error"]["message"]


def test_hello_keys() -> None:
    result = ask(op="hello")["result"]
    assert set(result) == {"format", "protocol", "presets", "ops", "kinds", "rulings"}
    assert result["protocol"] == 1 and result["presets"] == sorted(PRESETS)


def test_a_request_line_of_exactly_the_limit_is_read() -> None:
    head = '{"op":"hello","pad":"'
    line = head + "x" * (MAX_TEXT - len(head) - 2) + '"}'
    assert len(line) == MAX_TEXT
    resp = handle_line(line)
    assert resp is not None and resp["ok"] is True
    longer = handle_line(line[:-2] + 'x"}')
    assert longer is not None and longer["ok"] is False
    err = longer["error"]
    assert isinstance(err, dict) and err["kind"] == "json" and str(MAX_TEXT) in str(err["message"])


def test_session_skips_blank_lines_and_stops_at_quit() -> None:
    out = list(session(['{"id":1,"op":"hello"}', "  ", '{"id":2,"op":"quit"}', '{"id":3,"op":"hello"}']))
    assert [json.loads(x)["id"] for x in out] == [1, 2]
    assert json.loads(out[1]) == {"id": 2, "ok": True, "op": "quit", "result": {}}


# --------------------------------------------------------------------- deal and perft


def test_deal_fields_are_honoured() -> None:
    """R-PACK-ALTERNATE, R-COMET-BONUS: dealer, pack index, comet_value (0 included) and rulings."""
    base = ask(op="deal", players=3, seed=4)["result"]["record"]
    assert base["dealer"] == 2 and base["comet_value"] == 2
    other = ask(op="deal", players=3, seed=4, dealer=0, pack=1, comet_value=0)["result"]["record"]
    assert other["dealer"] == 0 and other["comet_value"] == 0
    assert replay_record(loads_record(json.dumps(other))).to_json()["deck"] == "red"
    four = ask(op="deal", players=3, seed=4, comet_value=4)["result"]["record"]
    assert four["comet_value"] == 4
    ruled = ask(op="deal", players=3, seed=4, rulings={"comet_lead": "forbidden"})["result"]["record"]
    assert ruled["rulings"] == {"comet_lead": "forbidden"}
    cats = ask(op="deal", variant="commit_cats", players=4, seed=1)["result"]["record"]
    assert replay_record(loads_record(json.dumps(cats))).to_json()["deck"] == packs_in_rotation(
        PRESETS["commit_cats"].rules, 4
    )[0].name


@pytest.mark.parametrize(
    ("fields", "kind", "word"),
    [
        ({"players": 3}, "request", "seed"),
        ({"seed": 1}, "request", "players"),
        ({"players": "3", "seed": 1}, "request", "players"),
        ({"players": 3, "seed": 1, "variant": 5}, "request", "variant"),
        ({"players": 3, "seed": 1, "rulings": []}, "request", "rulings"),
        ({"players": 3, "seed": 1, "rulings": {"nope": 1}}, "ruling", "nope"),
        ({"players": 3, "seed": 1, "pack": 2}, "request", "0..1"),
        ({"players": 3, "seed": 1, "pack": -1}, "request", "pack"),
        ({"players": 3, "seed": 1, "dealer": 3}, "dealer", "dealer"),
        ({"players": 7, "seed": 1}, "players", "7"),
    ],
)
def test_deal_request_faults(fields: dict[str, object], kind: str, word: str) -> None:
    resp = ask(op="deal", **fields)
    assert resp["ok"] is False and resp["error"]["kind"] == kind and word in resp["error"]["message"], resp


def test_perft_depth_bounds() -> None:
    near = HAND_RECORD | {"actions": ACTIONS[:8]}
    assert ask(op="perft", record=near, depth=0)["result"] == {"legal": True, "counts": []}
    deep = ask(op="perft", record=near, depth=MAX_PERFT_DEPTH)["result"]
    assert deep["legal"] is True and deep["counts"][0] == 1 and len(deep["counts"]) == MAX_PERFT_DEPTH
    for depth in (-1, MAX_PERFT_DEPTH + 1):
        assert ask(op="perft", record=near, depth=depth)["error"]["kind"] == "request"


# --------------------------------------------------------------------- record messages and functions


def test_every_fault_message_is_one_line_naming_the_value() -> None:
    """R-REC-FAULTS: messages are for people, but each names the offending value where there is one."""
    for kind, example in ROWS:
        try:
            replay_record(loads_record(apply_example(HAND_RECORD, example)))
        except RecordError as e:
            assert e.kind == kind and isinstance(e.message, str) and e.message and "\n" not in e.message
            if "=" in example and not example.startswith(("move", "text")):
                value = json.loads(example.split("=", 1)[1])
                if not isinstance(value, dict | list) and value not in (True, None) and kind not in (
                    "players",
                    "hand-size",
                    "pack",
                    "dealer",
                ):
                    assert json.dumps(value) in e.message or str(value) in e.message, (example, e.message)
        else:
            raise AssertionError(example)


def test_unknown_field_names_are_listed() -> None:
    with pytest.raises(RecordError) as info:
        loads_record(json.dumps(HAND_RECORD | {"zeta": 1, "alpha": 2}))
    assert "'alpha', 'zeta'" in info.value.message


def test_long_values_are_shortened_in_messages() -> None:
    with pytest.raises(RecordError) as info:
        loads_record(json.dumps(HAND_RECORD | {"players": "x" * 100}))
    assert '"' + "x" * 36 + "..." in info.value.message and "x" * 50 not in info.value.message


def test_card_and_action_readers_on_their_own() -> None:
    """R-REC-FAULTS: the public readers give the record's kinds for non-strings too."""
    for bad, kind in ((5, "field"), ("5h", "card"), ("", "card")):
        with pytest.raises(RecordError) as info:
            parse_card_code(bad, "here")
        assert info.value.kind == kind and info.value.message.startswith("here: ")
    for text, kind in ((5, "field"), ("play", "action-syntax"), ("pass pass", "action-syntax")):
        with pytest.raises(RecordError) as info:
            parse_action_text(text, 7)
        assert info.value.kind == kind and "action 7" in info.value.message


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (5, "action-syntax"),
        ("", "action-syntax"),
        ("play", "action-syntax"),
        ("pass 5H", "action-syntax"),
        ("jump 5H", "action-syntax"),
        ("play as 5", "action-syntax"),
        ("play 5H as", "action-syntax"),
        ("play 5H as 5 6", "action-syntax"),
        ("play 5H as Z", "action-syntax"),
        ("play 5Z", "card"),
    ],
)
def test_parse_action_on_its_own(text: object, kind: str) -> None:
    """notation.parse_action is public (the CLI reads actions with it): its own kinds and messages."""
    with pytest.raises(RecordError) as info:
        parse_action(text)  # type: ignore[arg-type]
    assert info.value.kind == kind and info.value.message and repr(text) in info.value.message


def test_parse_action_reads_every_form() -> None:
    assert str(parse_action("pass")) == "pass"
    assert str(parse_action("play 9S 9C 9S")) == "play 9C 9S 9S"
    assert str(parse_action("play 9D as 6")) == "play 9D as 6"
    assert str(parse_action("play 9C 9S 9S 9D as 9")) == "play 9C 9D 9S 9S as 9"


def test_seat_names() -> None:
    assert [seat_name(s) for s in (0, 7, 8, -1)] == ["Anna", "Hanna", "Seat 8", "Seat -1"]


def test_a_record_with_its_own_comet_value() -> None:
    """R-COMET-BONUS: the record's comet_value is what the Comet earns, through apply as well."""
    four = HAND_RECORD | {"comet_value": 4, "actions": ACTIONS[:5]}
    out = replay_record(loads_record(json.dumps(four))).to_json()
    pays: Any = out["payments"]
    assert [p["amount"] for p in pays] == [4, 4, 4, 4]
    applied = ask(op="apply", record=HAND_RECORD | {"comet_value": 4, "actions": ACTIONS[:4]}, action=ACTIONS[4])
    assert [p["amount"] for p in applied["result"]["payments"]] == [4, 4, 4, 4]
    legal = ask(op="legal", record=HAND_RECORD | {"comet_value": 0, "actions": ACTIONS[:5]})["result"]
    assert legal["finished"] is False


# --------------------------------------------------------------------- narration = golden vectors


def golden_cases() -> list[Path]:
    return sorted((ROOT / "vectors").glob("*/*/golden/*.txt"))


def test_narrations_equal_the_golden_vectors() -> None:
    """comet replay --explain narrates every golden vector's deal exactly as shipped."""
    cases = golden_cases()
    assert len(cases) > 20
    for path in cases:
        replay = path.parent.parent / "replay" / (path.stem + ".json")
        record = json.loads(replay.read_text(encoding="utf-8"))["record"]
        verdict = replay_record(loads_record(json.dumps(record)))
        assert narrate(verdict.start, verdict.record.actions) == path.read_text(encoding="utf-8").splitlines(), path


def test_narration_of_an_unfinished_deal_and_an_illegal_action() -> None:
    lines = explain_lines(replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": ACTIONS[:3]}))))
    assert lines[-2:] == ["Anna: 2, 3, 4 …", "The deal goes on; Anna is to move."]
    bad = explain_lines(replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": ["play 2S", "pass"]}))))
    assert bad[-1].startswith("Action 1 'pass' is illegal: R-PLAY-MUST: ")


# --------------------------------------------------------------------- game.py


def test_play_game_is_the_loop_it_describes() -> None:
    """R-GAME-DEALS, R-DEAL-DEALER: play_game = draw the dealer, then one seeded deal after another."""
    for name, players, deals in (("standard", 3, 3), ("old_comet", 4, 4), ("commit_cats", 4, 2)):
        rules = PRESETS[name].rules
        seen: list[tuple[DealState, int, int]] = []

        def note(start: DealState, actions: tuple[Action, ...], game: GameState, seen: list[Any] = seen) -> None:
            seen.append((start, len(actions), game.deal_index))

        game = play_game(rules, players, deals, 11, random_policy(random.Random(5)), note)
        rng = random.Random(11)
        choose = random_policy(random.Random(5))
        mine = new_game(rules, players, deals, draw_first_dealer(rules, players, rng))
        starts = []
        while not game_over(mine):
            start = next_deal(mine, rng.getrandbits(64))
            final, actions = play_deal(start, choose)
            mine = finish_deal(mine, final)
            starts.append((start, len(actions), mine.deal_index))
        assert game == mine and seen == starts and len(seen) == deals
    assert play_game(Ruleset(), 3, 3, 11) == play_game(Ruleset(), 3, 3, 11, simple_policy, None)


def test_next_deal_uses_the_packs_and_sizes_of_the_player_count() -> None:
    """R-DEAL-SIZES, R-PACK-ALTERNATE: Old Comet deals its 52 cards; Commit's pack depends on the players."""
    old = next_deal(new_game(PRESETS["old_comet"].rules, 4, 4), 1)
    assert sum(len(h) for h in old.hands) + len(old.dead) == 52
    cats_rules = PRESETS["commit_cats"].rules
    cats = next_deal(new_game(cats_rules, 4, 4), 1)
    assert cats.pack == packs_in_rotation(cats_rules, 4)[0].name


def test_default_deals() -> None:
    """R-GAME-DEALS: one round by default, a variant's own count, or a target game's bound."""
    assert default_deals(Ruleset(), 3) == 3
    assert default_deals(PRESETS["commit_cats"].rules, 4) == 1000
    red = PRESETS["red_nines"].rules
    from comet.variant import variant_of

    hook = variant_of(red).default_deals
    assert hook is not None and default_deals(red, 5) == hook(5) == 5


def test_canonical_json_text() -> None:
    """The oracle's and replay's JSON is canonical: sorted keys, no spaces, ASCII only."""
    from comet.records.deal_record import dumps_json

    assert dumps_json({"b": [1, 2], "a": "é"}) == '{"a":"\\u00e9","b":[1,2]}'


def test_record_text_size_limit() -> None:
    """R-REC-FAULTS: a record of exactly 1,000,000 characters is read; one more is kind json."""
    text = json.dumps(HAND_RECORD)
    padded = text + " " * (MAX_TEXT - len(text))
    assert len(padded) == MAX_TEXT and loads_record(padded) == loads_record(text)
    with pytest.raises(RecordError) as info:
        loads_record(padded + " ")
    assert info.value.kind == "json" and str(MAX_TEXT + 1) in info.value.message


def test_illegal_verdict_keys() -> None:
    out = replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": ["pass"]}))).to_json()
    assert set(out) == {"format", "legal", "error", "applied"} and out["applied"] == 0
    err: Any = out["error"]
    assert set(err) == {"index", "action", "rule", "message"} and err["message"]



def test_the_action_limit() -> None:
    """R-REC-FAULTS: 10,000 actions are read (here: the first illegal one decides); 10,001 are kind field."""
    ok_rec = HAND_RECORD | {"actions": ["pass"] * 10_000}
    assert replay_record(loads_record(json.dumps(ok_rec))).to_json()["legal"] is False
    with pytest.raises(RecordError) as info:
        loads_record(json.dumps(HAND_RECORD | {"actions": ["pass"] * 10_001}))
    assert info.value.kind == "field" and "10001" in info.value.message


def test_verdict_payments_and_format_action() -> None:
    """R-REC-PAYMENTS: Verdict.payments() is the play's payments then the settlement, as replay lists them."""
    from comet.notation import format_action

    verdict = replay_record(loads_record(json.dumps(HAND_RECORD)))
    listed: Any = verdict.to_json()["payments"]
    assert [(p.payer, p.payee, p.amount, p.rule) for p in verdict.payments()] == [
        (p["payer"], p["payee"], p["amount"], p["rule"]) for p in listed
    ]
    assert format_action(parse_action("play 9D as 6")) == "play 9D as 6"


def test_error_messages_are_never_empty() -> None:
    """Messages are for people, but always a non-empty string (the response schema requires one)."""
    for req in ({"op": "apply", "record": HAND_RECORD}, {"op": "replay", "record_text": 5}, {"op": "deal", "players": 3}):
        resp = ask(**req)
        assert isinstance(resp["error"]["message"], str) and resp["error"]["message"]
    line = handle_line("{oops")
    assert line is not None
    err: Any = line["error"]
    assert err["message"].startswith("not JSON: ")


def test_deal_uses_the_games_own_player_counts() -> None:
    """R-PLAYERS: Commit is dealt to 8 players and Red Nines to 8, which the standard game refuses."""
    for name in ("commit_cats", "red_nines"):
        record = ask(op="deal", variant=name, players=8, seed=1)["result"]["record"]
        assert len(record["hands"]) == 8


def test_next_deal_packs_per_player_count() -> None:
    """R-PACK-ALTERNATE: Commit's pack for three players is its own, not the default one."""
    rules = PRESETS["commit_cats"].rules
    for players in (2, 3):
        assert next_deal(new_game(rules, players, 2), 1).pack == packs_in_rotation(rules, players)[0].name


def test_narration_of_without_after_a_stop() -> None:
    """Under new_run=may a player may end the turn after the Comet's stop: 'without' with no rank."""
    rec = HAND_RECORD | {"rulings": {"new_run": "may"}, "actions": [*ACTIONS[:5], "pass"]}
    lines = explain_lines(replay_record(loads_record(json.dumps(rec))))
    assert any(line == "Anna: 2, 3, 4, 5, Comet as 6 (collects 8) – without." for line in lines), lines


def test_narration_of_a_drawn_opera_deal_and_a_five_card_play() -> None:
    """The narration's rarer lines (spec/mutants.md gaps, closed): Opera's draw names the dealer
    (R-OPERA-DRAW); a play of five cards of a rank in Red Nines is spoken as '5 Aces'."""
    from comet.fuzz import make_deal

    opera = make_deal(PRESETS["opera"].rules, 2, 1, 26, 0, 2, "one_turn_out", 0)
    final, actions = play_deal(opera, simple_policy)
    assert final.drawn
    lines = narrate(opera, actions)
    assert f"  Opera: {seat_name(opera.dealer)} could also have gone out at once: the deal is drawn." in lines
    red = make_deal(PRESETS["red_nines"].rules, 5, 4, 0, 0, 0, "quartets", 0)
    _, acts = play_deal(red, simple_policy)
    five = next(a for a in acts if len(a.cards) == 5)
    assert any("5 Aces" in line for line in narrate(red, acts)), str(five)
