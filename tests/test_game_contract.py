"""The game-record fault contract of spec/record.md ("Faults of a game record", issue 34): the table's
rows are the code's check order (``GAME_CHECK_ORDER``), every row is reached by a planted fault with the
``expected`` / ``found`` the table states, and of any two faults planted in one record the earlier row
(of two deals, the earlier deal) is the one reported (R-GAME-DEALS, R-DEAL-DEALER, R-PACK-ALTERNATE,
R-COMET-ESCALATE, R-GAME-CHIPS, R-GAME-WINNER)."""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import comet.records.game_verdict as game_verdict
import pytest
from comet.errors import RecordError
from comet.presets import preset
from comet.records.game_record import parse_game_record
from comet.records.game_replay import replay_game
from comet.records.game_verdict import GAME_CHECK_ORDER, check_rank, item_pattern
from comet.records.game_write import record_game

ROOT = Path(__file__).resolve().parent.parent
RECORD_MD = (ROOT / "spec" / "record.md").read_text(encoding="utf-8")

Obj = dict[str, Any]


def table_rows() -> list[tuple[str, str, str, str]]:
    """(item, rule, expected, found) of every row of the game-fault table, in order."""
    body = RECORD_MD.split("<!-- game-faults:begin -->")[1].split("<!-- game-faults:end -->")[0]
    rows = []
    for line in body.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append((cells[0].strip("`"), cells[1], cells[3], cells[4]))
    return rows


def test_the_table_is_the_code_order() -> None:
    """The rows of spec/record.md's table are GAME_CHECK_ORDER's items, in the same order."""
    assert [r[0] for r in table_rows()] == [item for item, _ in GAME_CHECK_ORDER]


BASE: Obj = record_game(preset("standard").rules, "standard", 4, 4, 1).to_json()


def _deal(o: Obj, i: int) -> Obj:
    d: Obj = o["deals"][i]
    return d


def _truncate(o: Obj, i: int, keep_after: bool) -> None:
    d = _deal(o, i)
    d["record"]["actions"] = d["record"]["actions"][:3]
    if not keep_after:
        del d["after"]


def _other_pack(o: Obj) -> None:
    d0, d1 = _deal(o, 0)["record"], _deal(o, 1)["record"]
    d1["hands"], d1["dead"] = copy.deepcopy(d0["hands"]), copy.deepcopy(d0["dead"])


def _bump(path: list[Any], by: int = 1) -> Callable[[Obj], None]:
    def change(o: Obj) -> None:
        target: Any = o
        for p in path[:-1]:
            target = target[p]
        last = path[-1]
        if isinstance(target[last], list):
            target[last][0] += by
        else:
            target[last] += by

    return change


#: name -> (the change, the item it plants)
PLANTED: dict[str, tuple[Callable[[Obj], None], str]] = {
    "length": (_bump(["length"], 1), "length"),
    "draw-card": (lambda o: o["draw"][0].__setitem__(0, "AC"), "draw[0]"),
    "first-dealer": (lambda o: o.__setitem__("first_dealer", (o["first_dealer"] + 1) % 4), "first_dealer"),
    "deal-after-the-end": (lambda o: o["deals"].append(copy.deepcopy(o["deals"][0])), "deals[4]"),
    "deal-after-unfinished": (lambda o: _truncate(o, 1, keep_after=False), "deals[2]"),
    "dealer": (lambda o: _deal(o, 2)["record"].__setitem__("dealer", 3), "deals[2].record.dealer"),
    "pack": (_other_pack, "deals[1].record"),
    "comet-value": (_bump(["deals", 3, "record", "comet_value"]), "deals[3].record.comet_value"),
    "illegal-action": (lambda o: _deal(o, 1)["record"]["actions"].__setitem__(0, "pass"), "deals[1].record.actions[0]"),
    "after-unfinished": (lambda o: _truncate(o, 3, keep_after=True), "deals[3].after"),
    "after-standings": (_bump(["deals", 0, "after", "standings"]), "deals[0].after.standings"),
    "after-values": (_bump(["deals", 1, "after", "comet_values"]), "deals[1].after.comet_values"),
    "after-length": (_bump(["deals", 2, "after", "length"], 4), "deals[2].after.length"),
    "end": (lambda o: o["deals"].pop(), "end"),
    "end-standings": (_bump(["end", "standings"]), "end.standings"),
    "end-winners": (lambda o: o["end"].__setitem__("winners", [0]), "end.winners"),
}


def _replay(o: Obj) -> dict[str, Any]:
    out: dict[str, Any] = replay_game(parse_game_record(json.loads(json.dumps(o)))).to_json()
    return out


def _planted(*names: str) -> Obj:
    o = copy.deepcopy(BASE)
    for n in names:
        PLANTED[n][0](o)
    return o


def test_every_row_is_planted() -> None:
    """Every row of the table but the race cut (a commit_cats vector) has a planted fault here."""
    rows = {item for item, _ in GAME_CHECK_ORDER}
    assert {item_pattern(item)[0] for _, item in PLANTED.values()} == rows


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_fault_alone(name: str) -> None:
    """Each planted fault is reported at its item, with the table's expected / found, and the output of
    a faulty game as the table says (standings, finished, winners, per-deal entries)."""
    out = _replay(_planted(name))
    error = out["error"]
    assert error["item"] == PLANTED[name][1], error
    pattern, deal = item_pattern(error["item"])
    assert error["deal"] == deal
    assert out["legal"] is False
    rows = {r[0]: r for r in table_rows()}
    row = rows[pattern]
    if row[2] == "`null`":
        assert error["expected"] is None, error
    if row[3] == "`null`":
        assert error["found"] is None, error
    if pattern == "length":
        assert out["standings"] is None and out["deals"] == []
    elif pattern in ("draw[r]", "first_dealer") or error["item"].startswith("deals[0].record"):
        stock = preset("standard").rules.starting_chips
        assert out["standings"] == [stock] * 4, out["standings"]  # the starting stock
    if pattern in ("deals[i]", "deals[i].record.dealer", "deals[i].record", "deals[i].record.comet_value"):
        assert len(out["deals"]) == deal  # no entry for a deal stopped at its start
    elif deal is not None:
        assert len(out["deals"]) == deal + 1
    # a deal entry has its standings exactly when that deal is over
    for entry in out["deals"]:
        assert ("standings" in entry) == bool(entry["verdict"].get("finished")), entry
    assert (out["winners"] is not None) == out["finished"]


def test_an_after_on_an_unfinished_deal_and_a_seed_deal() -> None:
    """R-GAME-DEALS: an 'after' on an unfinished deal is deals[i].after with null / null; a deal given by
    'seed' is unplayed, so an 'after' on it is the same fault and a deal after it is deals[i+1]."""
    o = _planted("after-unfinished")
    assert _replay(o)["error"]["expected"] is None and _replay(o)["error"]["found"] is None
    seeded = copy.deepcopy(BASE)
    seeded["deals"][1] = {"seed": 7, "after": seeded["deals"][1]["after"]}
    assert _replay(seeded)["error"]["item"] == "deals[1].after"
    del seeded["deals"][1]["after"]
    assert _replay(seeded)["error"]["item"] == "deals[2]"


def test_first_dealer_not_a_seat_is_malformed() -> None:
    """R-DEAL-DEALER: a first_dealer that is not a seat is kind dealer (exit 2), before any fault."""
    o = _planted("length")
    o["first_dealer"] = 9
    with pytest.raises(RecordError) as e:
        replay_game(parse_game_record(o))
    assert e.value.kind == "dealer"


def test_a_deal_stating_a_default_the_game_leaves_out_is_accepted() -> None:
    """Same rulings means the same rule set: a deal stating comet_lead = king (the default) in a game that
    states nothing is accepted; stating another reading is kind field, prefixed deals[i].record."""
    o = copy.deepcopy(BASE)
    o["deals"][0]["record"]["rulings"] = {"comet_lead": "king"}
    assert _replay(o)["legal"] is True
    o["deals"][0]["record"]["rulings"] = {"comet_lead": "any_rank"}
    with pytest.raises(RecordError) as e:
        replay_game(parse_game_record(o))
    assert e.value.kind == "field" and e.value.message.startswith("deals[0].record: ")


def test_a_deal_fault_of_the_pack_kind_names_the_deal() -> None:
    """Issue 34 point 7: a pack fault inside a game's deal record is prefixed deals[i].record."""
    o = copy.deepcopy(BASE)
    o["deals"][2]["record"]["dead"][0] = "KS" if o["deals"][2]["record"]["dead"][0] != "KS" else "QS"
    with pytest.raises(RecordError) as e:
        replay_game(parse_game_record(o))
    assert e.value.kind in ("pack", "hand-size") and e.value.message.startswith("deals[2].record: ")


def test_a_finished_game_without_end_is_legal_and_finished() -> None:
    """Issue 34 point 10: 'end' is optional; the output says the game is over."""
    o = copy.deepcopy(BASE)
    del o["end"]
    out = _replay(o)
    assert out["legal"] is True and out["finished"] is True and out["winners"] == BASE["end"]["winners"]


def expected_first(a: str, b: str) -> str:
    """Of the items of two faults, the one the check order reports (by GAME_CHECK_ORDER as it is now)."""
    return min(a, b, key=check_rank)


#: Pairs whose faults overlap, so that one changes what the other plants (not a question of order).
OVERLAPPING = {
    frozenset({"end", "comet-value"}),  # the popped deal is the one whose value was bumped
    frozenset({"end", "after-unfinished"}),
    frozenset({"deal-after-the-end", "end"}),
    frozenset({"deal-after-unfinished", "illegal-action"}),  # both rewrite deal 1's actions
    frozenset({"deal-after-unfinished", "after-values"}),  # deal 1 loses its 'after'
    frozenset({"deal-after-unfinished", "pack"}),
    frozenset({"pack", "illegal-action"}),
    frozenset({"pack", "after-values"}),
}


def _pairs() -> list[tuple[str, str]]:
    return [(a, b) for a, b in itertools.combinations(sorted(PLANTED), 2) if frozenset({a, b}) not in OVERLAPPING]


def disagreements() -> list[str]:
    """Pairs where the code reports another item than the earlier of the two by the table's order."""
    out = []
    for a, b in _pairs():
        want = expected_first(PLANTED[a][1], PLANTED[b][1])
        got = _replay(_planted(a, b))["error"]["item"]
        if got != want:
            out.append(f"{a} + {b}: reported {got}, the check order says {want}")
    return out


def test_of_two_faults_the_earlier_row_is_reported() -> None:
    """Every pair of planted faults: the reported item is the one the table's order puts first."""
    problems = disagreements()
    assert not problems, "\n".join(problems)


def test_a_reordered_table_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the table with 'length' after the draw (the order the issue found written down) no longer
    predicts the code, and the pairwise check names the pair."""
    order = list(game_verdict.GAME_CHECK_ORDER)
    order[0], order[1] = order[1], order[0]
    monkeypatch.setattr(game_verdict, "_PATTERNS", [item for item, _ in order])
    problems = disagreements()
    assert any(re.match(r"draw-card \+ length", p) for p in problems), problems


def test_the_race_row_has_its_vector() -> None:
    """R-COMMIT-C-GAME under RUL-COMMIT-C-RACE = race: one action after the game was won inside a deal is
    the race row (an action item with the game's end rule, expected null, found the action)."""
    path = ROOT / "vectors" / "commit_cats" / "commit_race=race" / "game" / "01-action-after-the-race-was-won.json"
    case = json.loads(path.read_text(encoding="utf-8"))
    error = case["expected"]["error"]
    assert item_pattern(error["item"])[0] == "deals[i].record.actions[j]" and error["rule"] == "R-COMMIT-C-GAME"
    assert error["expected"] is None and error["found"] == case["record"]["deals"][-1]["record"]["actions"][-1]
    assert _replay(case["record"]) == case["expected"]


def test_every_row_has_a_vector() -> None:
    """Every row of the table is the fault of some game vector (vectors/*/*/game/*.json)."""
    seen = set()
    for path in (ROOT / "vectors").glob("*/*/game/*.json"):
        error = json.loads(path.read_text(encoding="utf-8"))["expected"].get("error")
        if isinstance(error, dict):
            seen.add(item_pattern(error["item"])[0])
    assert {item for item, _ in GAME_CHECK_ORDER} - seen == set()
