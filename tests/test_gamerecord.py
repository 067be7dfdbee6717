"""Game records (spec/record.md, "Game records"): written by ``comet game --record``, read back and checked
deal by deal by ``comet replay``; every carried value that is wrong is a fault with its rule id
(R-DEAL-DEALER, R-PACK-ALTERNATE, R-COMET-ESCALATE, R-GAME-CHIPS, R-GAME-DEALS, R-GAME-WINNER, and the
variants' game rules R-2P-GAME, R-COMMIT-C-GAME, R-RED9-GAME), and an illegal action inside a deal is
reported with the deal's rule id."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import comet.game
import comet.records.game_replay as gamerecord
import pytest
from comet.errors import RecordError
from comet.game import play_game, winners
from comet.presets import PRESETS
from comet.records.contract import FORMAT
from comet.records.game_record import parse_game_record
from comet.records.game_replay import replay_game
from comet.records.game_write import game_trace, record_game
from comet.records.itf import read_trace
from comet.variant import variant_of

COMET = str(Path(sys.executable).with_name("comet"))


def game_json(name: str = "standard", seed: int = 4, deals: int | None = None, **rulings: Any) -> dict[str, Any]:
    rules = PRESETS[name].rules.with_overrides(rulings)
    rec = record_game(rules, name, variant_of(rules).default_players, deals, seed)
    out: dict[str, Any] = json.loads(json.dumps(rec.to_json()))
    return out


def verdict(obj: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = replay_game(parse_game_record(obj)).to_json()
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_written_game_replays_legal_with_the_games_winners(name: str) -> None:
    """R-GAME-WINNER, R-GAME-DEALS: the record of a seeded game checks out and names play_game's winners."""
    obj = game_json(name)
    out = verdict(obj)
    rules = PRESETS[name].rules
    game = play_game(rules, variant_of(rules).default_players, None, 4)
    assert out["legal"] and out["finished"] and "error" not in out
    assert out["winners"] == list(winners(game)) == obj["end"]["winners"]
    assert out["standings"] == list(game.balances)
    assert [d["standings"] for d in out["deals"]] == [d["after"]["standings"] for d in obj["deals"]]
    assert out["format"] == obj["format"] == FORMAT


def fault_of(obj: dict[str, Any]) -> tuple[str, str]:
    out = verdict(obj)
    assert not out["legal"], out
    return out["error"]["item"], out["error"]["rule"]


def test_wrong_standings_are_an_r_game_chips_fault() -> None:
    obj = game_json()
    obj["deals"][1]["after"]["standings"][0] += 1
    assert fault_of(obj) == ("deals[1].after.standings", "R-GAME-CHIPS")


def test_wrong_points_in_a_points_game_are_its_game_rule() -> None:
    obj = game_json("two_player")
    obj["deals"][0]["after"]["standings"][1] += 1
    assert fault_of(obj) == ("deals[0].after.standings", "R-2P-GAME")


def test_a_wrong_comet_value_carried_is_r_comet_escalate() -> None:
    obj = game_json()
    obj["deals"][0]["after"]["comet_values"] = [9]
    assert fault_of(obj) == ("deals[0].after.comet_values", "R-COMET-ESCALATE")
    obj = game_json()
    obj["deals"][1]["record"]["comet_value"] = 6
    assert fault_of(obj) == ("deals[1].record.comet_value", "R-COMET-ESCALATE")


def test_the_wrong_dealer_is_r_deal_dealer() -> None:
    obj = game_json()
    obj["deals"][1]["record"]["dealer"] = obj["deals"][0]["record"]["dealer"]
    assert fault_of(obj) == ("deals[1].record.dealer", "R-DEAL-DEALER")
    obj = game_json()
    obj["first_dealer"] = (obj["first_dealer"] + 1) % obj["players"]
    assert fault_of(obj) == ("first_dealer", "R-DEAL-DEALER")


def test_a_draw_that_is_not_decided_or_goes_on_is_r_deal_dealer() -> None:
    obj = game_json()
    obj["draw"] = [["5S", "5C", "7S"]]  # a tie for the lowest: the tied seats draw again (RUL-FIRST-DEALER)
    assert fault_of(obj) == ("draw[1]", "R-DEAL-DEALER")
    obj["draw"] = [["5S", "5C", "7S"], ["8C", "3S", None]]
    obj["first_dealer"] = 1
    assert fault_of(obj)[1] == "R-DEAL-DEALER"  # decided for seat 1, but then the deals must pass from seat 1
    obj["draw"] = [["5S", "6C", "7S"], ["8C", None, None]]
    assert fault_of(obj) == ("draw[1]", "R-DEAL-DEALER")


def test_the_packs_in_turn_is_r_pack_alternate() -> None:
    """Deal 1 dealt from deal 0's pack (same cards, the right dealer): the packs are used in turn."""
    obj = game_json()
    obj["deals"][1] = copy.deepcopy(obj["deals"][0]) | {"after": obj["deals"][1]["after"]}
    obj["deals"][1]["record"]["dealer"] = (obj["deals"][0]["record"]["dealer"] + 1) % obj["players"]
    assert fault_of(obj) == ("deals[1].record", "R-PACK-ALTERNATE")


def test_a_deal_after_the_end_and_an_end_too_early_are_r_game_deals() -> None:
    obj = game_json()
    obj["deals"].append(obj["deals"][0])
    assert fault_of(obj) == ("deals[3]", "R-GAME-DEALS")
    obj = game_json()
    del obj["deals"][-1]
    assert fault_of(obj) == ("end", "R-GAME-DEALS")
    del obj["end"]
    out = verdict(obj)
    assert out["legal"] and not out["finished"] and out["winners"] is None


def test_wrong_winners_are_r_game_winner() -> None:
    obj = game_json()
    obj["end"]["winners"] = [s for s in range(obj["players"]) if s not in obj["end"]["winners"]]
    assert fault_of(obj) == ("end.winners", "R-GAME-WINNER")


def test_a_length_that_is_not_a_multiple_of_the_players_is_r_game_deals() -> None:
    """RUL-GAME-LENGTH: by default the agreed deals are a multiple of the players; 'any' allows 4 of 3."""
    obj = game_json(deals=4, deal_count="any")
    assert verdict(obj)["legal"]
    obj["rulings"] = {}
    for d in obj["deals"]:
        d["record"]["rulings"] = {}
    assert fault_of(obj) == ("length", "R-GAME-DEALS")


def test_an_illegal_action_inside_a_deal_names_its_rule() -> None:
    obj = game_json()
    obj["deals"][1]["record"]["actions"][0] = "pass"
    item, rid = fault_of(obj)
    assert item == "deals[1].record.actions[0]" and rid == "R-PLAY-MUST"


def test_an_unfinished_deal_ends_the_record_and_a_seed_stands_for_its_deal() -> None:
    obj = game_json()
    last = obj["deals"][-1]
    del obj["end"], last["after"]
    last["record"]["actions"] = last["record"]["actions"][:3]
    out = verdict(obj)
    assert out["legal"] and not out["finished"] and out["deals"][-1]["verdict"]["finished"] is False
    obj["deals"].append(copy.deepcopy(last))
    assert fault_of(obj) == ("deals[3]", "R-GAME-DEALS")
    seeded = game_json()
    seeded["deals"] = [{"seed": 11}]
    del seeded["end"]
    out = verdict(seeded)
    assert out["legal"] and out["deals"][0]["verdict"]["applied"] == 0


@pytest.mark.parametrize(
    ("change", "kind"),
    [
        (lambda o: o.__setitem__("deals", {}), "field"),
        (lambda o: o["deals"][0]["record"]["hands"][0].__setitem__(0, "1Z"), "card"),
        (lambda o: o["deals"][0]["record"].__setitem__("players", 4), "field"),
        (lambda o: o["deals"][0]["record"].__setitem__("rulings", {"escalation": "per_pack"}), "field"),
        (lambda o: o["deals"][0].__setitem__("seed", 3), "field"),
        (lambda o: o.__setitem__("variant", "bridge"), "variant"),
        (lambda o: o.__setitem__("rulings", {"nonesuch": 1}), "ruling"),
        (lambda o: o.__setitem__("players", 9), "players"),
        (lambda o: o.__setitem__("format", 99), "field"),
        (lambda o: o["deals"][0]["after"].__setitem__("standings", "50"), "field"),
    ],
)
def test_malformed_game_records_get_a_kind(change: Any, kind: str) -> None:
    obj = game_json()
    change(obj)
    with pytest.raises(RecordError) as e:
        replay_game(parse_game_record(obj))
    assert e.value.kind == kind


def test_a_planted_economy_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checker whose finish_deal forgets RUL-INSOLVENCY's reading reports the record as inconsistent."""
    obj = game_json(seed=1, deals=30, insolvency="pay_what_you_have", starting_chips=5)
    assert verdict(obj)["legal"]
    real = comet.game.finish_deal

    def debt_always(game: Any, final: Any) -> Any:
        return real(dataclasses.replace(game, rules=game.rules.with_overrides({"insolvency": "debt"})), final)

    monkeypatch.setattr(gamerecord, "finish_deal", debt_always)
    assert fault_of(obj)[1] == "R-GAME-CHIPS"


def test_game_itf_trace_has_a_state_per_deal() -> None:
    obj = game_json("commit_cats")
    trace = game_trace(parse_game_record(obj), "test")
    states = read_trace(trace)
    assert len(states) == len(obj["deals"]) + 1
    assert states[-1]["standings"] == obj["end"]["standings"] and states[-1]["winners"] == obj["end"]["winners"]
    assert states[0]["finished"] is False and states[-1]["finished"] is True


def test_comet_game_record_and_replay_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run = subprocess.run(
        [COMET, "game", "--seed", "5", "--record", str(path), "--itf", str(tmp_path / "g.itf.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = subprocess.run([COMET, "replay", str(path)], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and json.loads(out.stdout)["legal"] is True
    obj = json.loads(path.read_text())
    obj["end"]["standings"][0] += 1
    path.write_text(json.dumps(obj))
    out = subprocess.run([COMET, "replay", str(path)], capture_output=True, text=True, check=False)
    assert out.returncode == 1 and json.loads(out.stdout)["error"]["rule"] == "R-GAME-CHIPS"
    path.write_text(json.dumps({**obj, "deals": 3}))
    out = subprocess.run([COMET, "replay", str(path)], capture_output=True, text=True, check=False)
    assert out.returncode == 2 and "[field]" in out.stderr and not out.stdout
    explain = subprocess.run(
        [COMET, "replay", "--explain", str(tmp_path / "g.itf.json")], capture_output=True, text=True, check=False
    )
    assert explain.returncode == 2


@pytest.mark.parametrize("name", ["standard", "two_player"])
def test_game_records_and_outputs_match_their_schemas(name: str) -> None:
    from test_replay_cli import validator

    obj = game_json(name)
    validator("game-record.json").validate(obj)
    validator("game-output.json").validate(verdict(obj))
    obj["end"]["winners"] = []
    validator("game-output.json").validate(verdict(obj))  # with its error
