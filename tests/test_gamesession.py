"""The oracle holds games (spec/record.md, "Games held open"): a seeded game driven deal by deal through
``comet oracle`` gives the very game record ``comet game --record`` writes (R-DEAL-DEALER, R-GAME-CHIPS,
R-COMET-ESCALATE, R-GAME-DEALS, R-GAME-WINNER carried by the engine), undo crosses deal boundaries, and
a deal that is not the game's next is refused with the rule id of what it gets wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest
from comet.oracle.game_session import GAME_OPS, Games
from comet.oracle.protocol import handle
from comet.presets import PRESETS
from comet.records.game_write import record_game
from comet.variant import variant_of


def recorded(name: str = "standard", players: int = 3, seed: int = 7) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(record_game(PRESETS[name].rules, name, players, None, seed).to_json()))
    return out


def ask(games: Games, **req: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(games.respond(None, req)))
    return out


def result(games: Games, **req: Any) -> dict[str, Any]:
    out = ask(games, **req)
    assert out["ok"], out
    res: dict[str, Any] = out["result"]
    return res


@pytest.mark.parametrize("name", ["standard", "two_player", "commit_cats"])
def test_a_game_played_through_the_oracle_is_comet_games_record(name: str) -> None:
    rules = PRESETS[name].rules
    players = variant_of(rules).default_players
    want = recorded(name, players)
    games = Games()
    result(games, op="game_new", game_id="g", variant=name, players=players, seed=7)
    for d in want["deals"]:
        result(games, op="game_deal", game_id="g")
        for action in d["record"]["actions"]:
            now = result(games, op="game_apply", game_id="g", action=action)
        assert not now["in_deal"] and now["standings"] == d["after"]["standings"]
        assert now["comet_values"] == d["after"]["comet_values"]
    final = result(games, op="game_standings", game_id="g")
    assert final["finished"] and final["winners"] == want["end"]["winners"]
    assert final["record"] == want


def test_undo_crosses_the_end_of_a_deal_and_the_deal_itself() -> None:
    want = recorded()
    games = Games()
    start = result(games, op="game_new", game_id=1, players=3, seed=7)
    result(games, op="game_deal", game_id=1)
    for action in want["deals"][0]["record"]["actions"]:
        after = result(games, op="game_apply", game_id=1, action=action)
    undone = result(games, op="game_undo", game_id=1)
    assert undone["in_deal"] and undone["standings"] == start["standings"] and undone["deals_played"] == 0
    redone = result(games, op="game_apply", game_id=1, action=want["deals"][0]["record"]["actions"][-1])
    assert redone == after
    for _ in want["deals"][0]["record"]["actions"]:
        result(games, op="game_undo", game_id=1)
    back = result(games, op="game_undo", game_id=1)
    assert back == start
    assert ask(games, op="game_undo", game_id=1)["error"]["kind"] == "request"


def test_a_game_record_opens_where_it_stands() -> None:
    want = recorded()
    games = Games()
    opened = result(games, op="game_new", game_id="r", record=want)
    assert opened["finished"] and opened["standings"] == want["end"]["standings"]
    out = ask(games, op="game_deal", game_id="r")
    assert out["error"] == {"kind": "illegal", "message": "the game is over", "rule": "R-GAME-DEALS"}
    bad = json.loads(json.dumps(want))
    bad["deals"][0]["after"]["standings"][0] += 1
    refused = ask(games, op="game_new", record=bad)
    assert refused["error"]["kind"] == "illegal" and refused["error"]["rule"] == "R-GAME-CHIPS"


def test_errors_are_responses() -> None:
    want = recorded()
    games = Games()
    assert ask(games, op="game_apply", game_id="x", action="pass")["error"]["kind"] == "unknown-game"
    going = {k: v for k, v in want.items() if k != "end"} | {"deals": want["deals"][:1]}
    result(games, op="game_new", game_id="g", record=going)
    second = want["deals"][1]["record"]
    wrong_dealer = {**second, "dealer": want["deals"][0]["record"]["dealer"]}
    out = ask(games, op="game_deal", game_id="g", record=wrong_dealer)
    assert out["error"]["kind"] == "illegal" and out["error"]["rule"] == "R-DEAL-DEALER"
    assert result(games, op="game_deal", game_id="g", record=second)["deals_played"] == 2
    assert ask(games, op="game_apply", game_id="g", action="pass")["error"]["kind"] == "request"
    assert ask(games, op="game_new", game_id="g", players=3, seed=1)["error"]["kind"] == "request"
    assert ask(games, op="game_new", players=9, seed=1)["error"]["kind"] == "players"
    assert result(games, op="game_close", game_id="g") == {"game_id": "g", "closed": True}


def test_hello_lists_the_game_ops_and_the_oracle_routes_them() -> None:
    ops = handle({"op": "hello"})["result"]
    assert isinstance(ops, dict) and set(GAME_OPS) <= set(ops["ops"])  # type: ignore[arg-type]
    out = handle({"op": "game_new", "players": 4, "seed": 3})
    assert out["ok"] is True


@pytest.mark.parametrize(
    ("name", "players", "length", "rulings"),
    [
        ("commit_cats", 4, None, {"commit_race": "race"}),
        ("standard", 4, 12, {"insolvency": "drop_out", "deal_count": "any"}),
    ],
)
def test_race_and_drop_out_games_through_the_oracle(
    name: str, players: int, length: int | None, rulings: dict[str, str]
) -> None:
    """RUL-COMMIT-C-RACE (R-COMMIT-C-GAME): the deal in which 100 is reached ends there; RUL-INSOLVENCY =
    drop_out (R-GAME-CHIPS, R-DEAL-DEALER): later deals are dealt to the players left.  Driven through the
    oracle, both games give the record ``comet game --record`` writes; under the race, a deal record that
    goes on after the winning action is refused with the game's rule."""
    rules = PRESETS[name].rules.with_overrides(rulings)
    want: dict[str, Any] = json.loads(json.dumps(record_game(rules, name, players, length, 7).to_json()))
    games = Games()
    extra = {} if length is None else {"length": length}
    result(games, op="game_new", game_id="g", variant=name, players=players, seed=7, rulings=rulings, **extra)
    for d in want["deals"]:
        result(games, op="game_deal", game_id="g")
        for action in d["record"]["actions"]:
            now = result(games, op="game_apply", game_id="g", action=action)
        assert not now["in_deal"] and now["standings"] == d["after"]["standings"]
    final = result(games, op="game_standings", game_id="g")
    assert final["finished"] and final["record"] == want
    if name != "commit_cats":
        assert any(d["record"]["players"] < players for d in want["deals"])
        return
    from comet.records.game_record import parse_game_record
    from comet.records.game_replay import replay_game

    assert not replay_game(parse_game_record(want)).deals[-1].verdict.final.terminal  # the race cut it short
    last = want["deals"][-1]["record"]
    going = {k: v for k, v in want.items() if k != "end"} | {"deals": want["deals"][:-1]}
    result(games, op="game_new", game_id="h", record=going)
    longer = {**last, "actions": [*last["actions"], "pass"]}
    out = ask(games, op="game_deal", game_id="h", record=longer)
    assert out["error"]["kind"] == "illegal" and out["error"]["rule"] == "R-COMMIT-C-GAME"
