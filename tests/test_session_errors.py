"""The oracle sessions after every kind of refused request (issue 34 item 7, point 12): the session is in
the state the contract says (spec/record.md, "Deals held open", "Games held open": an error changes
nothing) and accepts the corrected request (R-GAME-DEALS, R-DEAL-DEALER, R-PLAY-MUST, R-REC-FAULTS)."""

from __future__ import annotations

import copy
from typing import Any

import comet.oracle.game_session as game_session
import pytest
from comet.oracle.deal_session import SessionError
from comet.oracle.protocol import handle
from comet.presets import preset
from comet.records.game_write import record_game

GAME = record_game(preset("standard").rules, "standard", 4, 4, 3).to_json()
_FIRST: Any = GAME["deals"]
DEAL0: dict[str, Any] = copy.deepcopy(_FIRST[0]["record"])


def ask(**req: Any) -> dict[str, Any]:
    out: dict[str, Any] = handle(req)
    return out


def ok(**req: Any) -> dict[str, Any]:
    resp = ask(**req)
    assert resp["ok"] is True, resp
    result: dict[str, Any] = resp["result"]
    return result


def refused(kind: str, **req: Any) -> dict[str, Any]:
    resp = ask(**req)
    assert resp["ok"] is False and resp["error"]["kind"] == kind, resp
    error: dict[str, Any] = resp["error"]
    return error


def _new_game(gid: str) -> dict[str, Any]:
    return ok(
        op="game_new", game_id=gid, record={k: v for k, v in GAME.items() if k not in ("deals", "end")} | {"deals": []}
    )


def _summary(gid: str) -> dict[str, Any]:
    return ok(op="game_legal_actions", game_id=gid)


def test_a_game_deal_of_the_wrong_dealer_changes_nothing() -> None:
    """R-DEAL-DEALER: refused as illegal; the game is between deals as before; the right deal is taken."""
    gid = "wrong-dealer"
    before = _new_game(gid)
    bad = {**DEAL0, "dealer": (DEAL0["dealer"] + 1) % 4}
    assert refused("illegal", op="game_deal", game_id=gid, record=bad)["rule"] == "R-DEAL-DEALER"
    assert _summary(gid) == {**before, "legal_actions": []}
    assert ok(op="game_deal", game_id=gid, record=DEAL0)["deals_played"] == 1
    ok(op="game_close", game_id=gid)


def rollback_then_redeal(gid: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(the game before, after a game_deal refused at its sixth action, the answer to dealing it again
    with its five legal actions)."""
    before = _new_game(gid)
    bad = copy.deepcopy(DEAL0)
    bad["actions"] = [*DEAL0["actions"][:5], "play 2C as 3"]
    refused("illegal", op="game_deal", game_id=gid, record=bad)
    after = _summary(gid)
    again = ask(op="game_deal", game_id=gid, record={**DEAL0, "actions": DEAL0["actions"][:5]})
    ask(op="game_close", game_id=gid)
    return before, after, again


def test_a_game_deal_with_an_illegal_action_is_rolled_back_whole() -> None:
    """An illegal action inside a game_deal record: the whole deal is taken back (not one snapshot too few),
    so dealing it again with its legal actions is accepted."""
    before, after, again = rollback_then_redeal("rolled-back")
    assert after == {**before, "legal_actions": []}
    assert again["ok"] is True and again["result"]["in_deal"] is True and again["result"]["applied"] == 5


def test_a_planted_rollback_slip_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted (point 12): the rollback deletes one snapshot too few (the new deal's start stays); the game
    is left mid-deal and dealing again is refused, so the test above fails."""
    original_deal, original_push = game_session.Games.deal, game_session.OpenGame.push
    pushed: list[Any] = []

    def push(self: Any, snap: Any) -> None:
        pushed.append(snap)
        original_push(self, snap)

    def deal(self: Any, gid: Any, g: Any, req: Any) -> Any:
        pushed.clear()
        try:
            return original_deal(self, gid, g, req)
        except SessionError:
            if pushed:
                g.history.append(pushed[0])  # the slip
            raise

    monkeypatch.setattr(game_session.OpenGame, "push", push)
    monkeypatch.setattr(game_session.Games, "deal", deal)
    before, after, again = rollback_then_redeal("slip")
    assert after != {**before, "legal_actions": []} and again["ok"] is False


def test_an_illegal_game_apply_changes_nothing() -> None:
    """R-PLAY-MUST etc.: an illegal action is refused, the deal unchanged; a legal one is then applied."""
    gid = "apply"
    _new_game(gid)
    ok(op="game_deal", game_id=gid, record={**DEAL0, "actions": []})
    before = _summary(gid)
    refused("illegal", op="game_apply", game_id=gid, action="play 2C as 3")
    assert _summary(gid) == before
    refused("request", op="game_apply", game_id=gid, action=5)  # not a string: the request is wrong
    refused("action-syntax", op="game_apply", game_id=gid, action="Play 2C")
    assert _summary(gid) == before
    after = ok(op="game_apply", game_id=gid, action=DEAL0["actions"][0])
    assert after["applied"] == 1
    ok(op="game_close", game_id=gid)


def test_request_errors_change_nothing() -> None:
    """A deal while one goes on, nothing to undo, an id in use, an unknown game: refused, nothing changed."""
    gid = "requests"
    before = _new_game(gid)
    refused("request", op="game_undo", game_id=gid)
    refused("request", op="game_new", game_id=gid, players=4, seed=1)
    assert _summary(gid) == {**before, "legal_actions": []}
    ok(op="game_deal", game_id=gid, record={**DEAL0, "actions": []})
    mid = _summary(gid)
    refused("request", op="game_deal", game_id=gid, record=DEAL0)
    assert _summary(gid) == mid
    refused("unknown-game", op="game_apply", game_id="no-such-game", action="pass")
    assert ok(op="game_undo", game_id=gid)["in_deal"] is False
    ok(op="game_close", game_id=gid)


def test_a_malformed_deal_record_changes_nothing() -> None:
    """R-REC-FAULTS: a malformed game_deal record (kind card) is refused; the good record is then taken."""
    gid = "malformed"
    before = _new_game(gid)
    bad = copy.deepcopy(DEAL0)
    bad["dead"][0] = "1Z"
    refused("card", op="game_deal", game_id=gid, record=bad)
    assert _summary(gid) == {**before, "legal_actions": []}
    assert ok(op="game_deal", game_id=gid, record=DEAL0)["deals_played"] == 1
    ok(op="game_close", game_id=gid)


def test_deal_sessions_after_errors() -> None:
    """Deal sessions: an illegal apply, a bad action text, undo at the start: refused, unchanged; the
    corrected request is accepted."""
    rec = {**DEAL0, "actions": []}
    opened = ok(op="new", deal_id="d", record=rec)
    refused("illegal", op="apply", deal_id="d", action="play 2C as 3")
    refused("action-syntax", op="apply", deal_id="d", action="Play 2C")
    refused("request", op="undo", deal_id="d")
    assert ok(op="legal_actions", deal_id="d")["applied"] == opened["applied"] == 0
    assert ok(op="apply", deal_id="d", action=DEAL0["actions"][0])["applied"] == 1
    assert ok(op="undo", deal_id="d")["applied"] == 0
    ok(op="close", deal_id="d")
