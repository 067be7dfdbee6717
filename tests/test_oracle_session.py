"""The oracle's deal session (comet.oracle.deal_session): new / apply / legal_actions / state / undo / close.

Every step of a session deal must agree with ``replay_record`` of the same actions (the stateless
reference), undo must give back the exact earlier state, and bad requests get error responses
(R-PLAY-MUST and R-PLAY-HELD name the illegal actions below), never a traceback.  A planted undo
that takes back two actions is caught by the same round-trip check."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections.abc import Iterator

import pytest
from comet.engine import apply, legal_actions
from comet.oracle import deal_session as session_module
from comet.oracle.bench import ORACLE_COMMAND
from comet.oracle.deal_session import SESSION_OPS, Sessions, state_json
from comet.oracle.protocol import handle, handle_line, session
from comet.presets import PRESETS, preset
from comet.records.deal_record import JsonObject, JsonValue, parse_record, replay_record
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from hypothesis import given, settings
from hypothesis import strategies as st


def ask(sessions: Sessions, **req: JsonValue) -> JsonObject:
    return sessions.respond(req.get("id"), req)


def ok(resp: JsonObject) -> JsonObject:
    assert resp["ok"] is True, resp
    result = resp["result"]
    assert isinstance(result, dict)
    return result


def error(resp: JsonObject) -> JsonObject:
    assert resp["ok"] is False, resp
    err = resp["error"]
    assert isinstance(err, dict)
    return err


def seeded_record(variant: str, players: int, seed: int) -> JsonObject:
    """The record of the seeded deal, from the stateless 'deal' op (independent of the session)."""
    result = ok(handle({"op": "deal", "variant": variant, "players": players, "seed": seed}))
    record = result["record"]
    assert isinstance(record, dict)
    return record


def round_trip(sessions: Sessions, variant: str, players: int, seed: int, moves: list[int]) -> str | None:
    """Drive one session deal with ``moves`` (an index into the legal actions, or -1: undo) and compare
    it after every request with ``replay_record`` of the actions so far; the first disagreement."""
    record = seeded_record(variant, players, seed)
    rec = parse_record(record)
    ok(ask(sessions, op="new", deal_id="d", variant=variant, players=players, seed=seed))
    actions: list[Action] = []
    for step, move in enumerate(moves):
        reference = replay_record(rec.with_actions(actions))
        assert reference.legal
        if move < 0:
            resp = ask(sessions, op="undo", deal_id="d")
            if not actions:
                if resp["ok"] or error(resp)["kind"] != "request":
                    return f"step {step}: undo at the start answered {resp}"
                continue
            actions.pop()
        else:
            legal = legal_actions(reference.final)
            if not legal:
                continue
            action = legal[move % len(legal)]
            resp = ask(sessions, op="apply", deal_id="d", action=str(action))
            actions.append(action)
        if not resp["ok"]:
            return f"step {step}: {resp}"
        expected = replay_record(rec.with_actions(actions)).final
        got = ok(ask(sessions, op="state", deal_id="d"))
        if got["state"] != state_json(expected):
            return f"step {step} ({len(actions)} actions): the session's state differs from the replay's"
        listed = ok(ask(sessions, op="legal_actions", deal_id="d"))["legal_actions"]
        if listed != [str(a) for a in legal_actions(expected)]:
            return f"step {step}: the session's legal actions differ from the replay's"
        if ok(resp)["applied"] != len(actions):
            return f"step {step}: the session counts {ok(resp)['applied']} actions, the replay {len(actions)}"
    ok(ask(sessions, op="close", deal_id="d"))
    return None


deals = st.sampled_from(sorted(PRESETS)).flatmap(
    lambda name: st.tuples(
        st.just(name),
        st.sampled_from(preset(name).variant.player_counts),
        st.integers(0, 10_000),
        st.lists(st.integers(-1, 20), min_size=1, max_size=80),
    )
)


@settings(max_examples=25, deadline=None)
@given(deals)
def test_session_agrees_with_replay_record_at_every_step(deal: tuple[str, int, int, list[int]]) -> None:
    """Random deals of every preset, random legal actions with undos between: new/apply/undo/state/
    legal_actions answer what replay_record answers for the same actions."""
    variant, players, seed, moves = deal
    assert round_trip(Sessions(), variant, players, seed, moves) is None


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_undo_gives_back_the_exact_earlier_states(seed: int, length: int) -> None:
    """After any number of applies, undo after undo gives back the very states passed through."""
    sessions = Sessions()
    ok(ask(sessions, op="new", deal_id=7, variant="standard", players=4, seed=seed))
    seen: list[DealState] = [sessions.deals[7].now]
    while len(seen) <= length and not seen[-1].terminal:
        ok(ask(sessions, op="apply", deal_id=7, action=str(legal_actions(seen[-1])[-1])))
        seen.append(sessions.deals[7].now)
    while len(seen) > 1:
        seen.pop()
        result = ok(ask(sessions, op="undo", deal_id=7))
        assert sessions.deals[7].now == seen[-1] and result["applied"] == len(seen) - 1
    assert error(ask(sessions, op="undo", deal_id=7))["kind"] == "request"


def test_new_from_a_record_replays_its_actions_and_can_undo_them() -> None:
    """A deal opened from a record holds every state of its actions, so undo goes back past them."""
    record = seeded_record("standard", 3, 11)
    rec = parse_record(record)
    s = rec.start()
    actions = []
    for _ in range(6):
        a = legal_actions(s)[0]
        actions.append(a)
        s = apply(s, a)
    sessions = Sessions()
    record["actions"] = [str(a) for a in actions]
    assert ok(ask(sessions, op="new", deal_id="r", record=record))["applied"] == 6
    assert sessions.deals["r"].now == s
    for _ in range(6):
        ok(ask(sessions, op="undo", deal_id="r"))
    assert sessions.deals["r"].now == rec.start()
    text = ok(ask(sessions, op="new", record_text=json.dumps(record)))
    assert text["deal_id"] == 1 and text["applied"] == 6  # numbered by the session


def test_state_has_every_field_of_the_deal_state() -> None:
    """'state' carries every DealState field (turn_played and last_player included) as JSON."""
    sessions = Sessions()
    ok(ask(sessions, op="new", deal_id="s", variant="standard", players=4, seed=3))
    s = sessions.deals["s"].now
    ok(ask(sessions, op="apply", deal_id="s", action=str(legal_actions(s)[0])))
    got = ok(ask(sessions, op="state", deal_id="s"))
    state = got["state"]
    assert isinstance(state, dict)
    assert {f.name for f in dataclasses.fields(DealState)} <= set(state)
    assert state["turn_played"] is True and state["last_player"] == 0 and state["to_move"] == 0
    assert state["finished"] is False and state["winner"] is None and state["steps"] == 1
    rules = state["rules"]
    assert isinstance(rules, dict) and rules["variant"] == "standard"
    assert set(rules) == {f.name for f in dataclasses.fields(Ruleset)}
    assert json.loads(json.dumps(got)) == got  # plain JSON throughout
    record = got["record"]
    assert isinstance(record, dict) and replay_record(parse_record(record)).final == sessions.deals["s"].now


@pytest.fixture
def sessions() -> Iterator[Sessions]:
    s = Sessions()
    ok(ask(s, op="new", deal_id="a", variant="standard", players=4, seed=7))
    yield s


def test_illegal_action_is_an_error_with_the_rule_and_leaves_the_deal(sessions: Sessions) -> None:
    """R-PLAY-MUST: the leader may not pass; R-PLAY-HELD: nor play a card they do not hold."""
    before = sessions.deals["a"].now
    err = error(ask(sessions, id=5, op="apply", deal_id="a", action="pass"))
    assert err["kind"] == "illegal" and err["rule"] == "R-PLAY-MUST"
    resp = ask(sessions, id=6, op="apply", deal_id="a", action="play 9D as 2")
    assert resp["id"] == 6 and resp["op"] == "apply" and error(resp)["rule"] == "R-PLAY-HELD"
    assert sessions.deals["a"].now is before and not sessions.deals["a"].actions


@pytest.mark.parametrize(
    "req, kind",
    [
        ({"op": "apply", "deal_id": "nope", "action": "pass"}, "unknown-deal"),
        ({"op": "state", "deal_id": 99}, "unknown-deal"),
        ({"op": "undo"}, "request"),
        ({"op": "legal_actions", "deal_id": ["a"]}, "request"),
        ({"op": "apply", "deal_id": "a"}, "request"),
        ({"op": "apply", "deal_id": "a", "action": "play  4S"}, "action-syntax"),
        ({"op": "apply", "deal_id": "a", "action": 4}, "request"),  # a bad request field (format 3)
        ({"op": "undo", "deal_id": "a"}, "request"),
        ({"op": "new", "deal_id": "a", "players": 4, "seed": 1}, "request"),
        ({"op": "new", "deal_id": True, "players": 4, "seed": 1}, "request"),
        ({"op": "new", "players": 9, "seed": 1}, "players"),
        ({"op": "new", "players": 4}, "request"),
        ({"op": "new", "record": {"variant": "standard"}}, "field"),
        ({"op": "new", "record_text": "{oops"}, "json"),
        (
            {"op": "new", "record": {**{"variant": "standard", "players": 4, "dealer": 3}, "hands": [], "dead": []}},
            "field",
        ),
    ],
)
def test_bad_requests_get_error_responses(sessions: Sessions, req: JsonObject, kind: str) -> None:
    resp = sessions.respond(42, req)
    err = error(resp)
    assert err["kind"] == kind, err
    assert resp["id"] == 42 and resp["op"] == req["op"] and isinstance(err["message"], str) and err["message"]


def test_a_record_with_an_illegal_action_is_refused_with_its_rule() -> None:
    """R-PLAY-MUST: a record whose first action passes on the lead opens no deal."""
    record = seeded_record("standard", 4, 2)
    record["actions"] = ["pass"]
    sessions = Sessions()
    err = error(ask(sessions, op="new", deal_id="x", record=record))
    assert err["kind"] == "illegal" and err["rule"] == "R-PLAY-MUST" and not sessions.deals


def test_close_forgets_the_deal(sessions: Sessions) -> None:
    assert ok(ask(sessions, op="close", deal_id="a"))["closed"] is True
    assert error(ask(sessions, op="state", deal_id="a"))["kind"] == "unknown-deal"


def test_planted_undo_that_drops_two_actions_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session whose undo takes back two actions (when it can) fails the round-trip check."""
    real = Sessions.run

    def greedy_undo(self: Sessions, req: JsonObject) -> JsonObject:
        deal = self.deals.get(req.get("deal_id"))  # type: ignore[arg-type]
        if req.get("op") == "undo" and deal is not None and len(deal.actions) >= 2:
            deal.states.pop()
            deal.actions.pop()
        return real(self, req)

    monkeypatch.setattr(Sessions, "run", greedy_undo)
    problem = round_trip(Sessions(), "standard", 4, 5, [0, 0, 0, -1, 0])
    assert problem is not None and "step 3" in problem and "differs" in problem, problem


def test_planted_apply_that_keeps_the_old_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session that answers apply but forgets the new state fails the round-trip check."""
    monkeypatch.setattr(session_module, "apply", lambda state, action: state)
    problem = round_trip(Sessions(), "standard", 4, 5, [0, 0])
    assert problem is not None and "step 0" in problem, problem


def test_oracle_routes_session_ops_and_hello_lists_them() -> None:
    """Through oracle.session (the JSON lines loop): the stateless ops are unchanged beside the session ops."""
    session_module.SESSIONS.deals.pop("route", None)
    lines = [
        json.dumps({"id": 1, "op": "new", "deal_id": "route", "players": 3, "seed": 4}),
        json.dumps({"id": 2, "op": "legal_actions", "deal_id": "route"}),
        json.dumps({"id": 3, "op": "apply", "deal_id": "route", "action": "pass"}),
        json.dumps({"id": 4, "op": "hello"}),
        json.dumps({"id": 5, "op": "close", "deal_id": "route"}),
    ]
    out = [json.loads(line) for line in session(lines)]
    assert [r["id"] for r in out] == [1, 2, 3, 4, 5]
    assert out[0]["ok"] and out[1]["result"]["to_move"] == 0
    assert out[2]["ok"] is False and out[2]["error"]["kind"] == "illegal"
    assert set(SESSION_OPS) <= set(out[3]["result"]["ops"])
    assert out[4]["result"] == {"closed": True, "deal_id": "route"}
    bad = handle_line(json.dumps({"id": 6, "op": "apply", "deal_id": "route", "action": "pass"}))
    assert bad is not None and error(bad)["kind"] == "unknown-deal"


def test_comet_oracle_subprocess_session() -> None:
    """`comet oracle` over a pipe: a deal opened, one action applied and taken back, then quit."""
    requests = [
        {"id": 1, "op": "new", "deal_id": 1, "players": 4, "seed": 7},
        {"id": 2, "op": "apply", "deal_id": 1, "action": "play 4S"},
        {"id": 3, "op": "undo", "deal_id": 1},
        {"id": 4, "op": "apply", "deal_id": 2, "action": "pass"},
        {"id": 5, "op": "quit"},
    ]
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(ORACLE_COMMAND, input=text, capture_output=True, text=True, timeout=60, check=True)
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["ok"] for r in out] == [True, True, True, False, True], out
    assert out[1]["result"]["applied"] == 1 and out[2]["result"]["undone"] == "play 4S"
    assert done.stderr == ""
