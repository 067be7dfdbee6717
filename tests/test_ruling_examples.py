"""Issue 20: a ruling's example is a real deal record that replays (``spec/examples/RUL-*.json``).

Each file holds a full deal record (``spec/record.md``) and, per reading of the ruling's field, what
``comet replay`` gives under it (legal or the illegal action's rule; winner, chips, points).  The
ruling's **Example.** names its file.  Every switchable ruling a single deal can show has one; a ruling
ever let off is listed in ``WITHOUT_RECORD`` (empty now), which may only shrink.
Rulings that are not switchable, or whose readings act only between deals (``NOT_IN_A_DEAL``), cannot be
shown by one deal record and need none; such a ruling may have a whole game record as its example
(RUL-COMMIT-C-RACE, RUL-INSOLVENCY), replayed the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from comet.errors import RecordError
from comet.game import winners
from comet.records.deal_record import loads_record, replay_record, state_summary
from comet.records.game_record import parse_game_record, with_rulings
from comet.records.game_replay import replay_game
from comet.ruleset import GAME_LEVEL_FIELDS
from spec_checks import SPEC_DIR, parse_files, spec_files

EXAMPLES = SPEC_DIR / "examples"
FILES = sorted(EXAMPLES.glob("RUL-*.json"))
SECTIONS = {s.id: s for s in parse_files(spec_files()).sections if s.kind == "ruling"}


def replay_outcome(record: dict[str, Any], field: str, value: object) -> dict[str, Any]:
    """What the record replays to with ``field = value`` (the fields kept in the example files).  A game
    record (an object with ``deals``: the example of a ruling that acts between deals) states the reading
    in the game and in every deal record alike."""
    if "deals" in record:
        return replay_game_outcome(record, field, value)
    rec = dict(record, rulings=dict(record.get("rulings", {}), **{field: value}))
    try:
        verdict = replay_record(loads_record(json.dumps(rec)))
    except RecordError as e:  # a deal that is not one of this reading's (deck, deal sizes): a fault kind
        return {"legal": False, "fault": e.kind}
    if verdict.error is not None:
        return {"legal": False, "applied": verdict.applied, "rule": verdict.error.rule}
    s = state_summary(verdict.final)
    return {k: s[k] for k in ("legal", "finished", "winner", "drawn", "chips", "points")}


def replay_game_outcome(record: dict[str, Any], field: str, value: object) -> dict[str, Any]:
    """A game record replayed with ``field = value``: the first fault (its item and rule), or the standings
    and, once the game is over, the winners."""
    try:
        rec = parse_game_record(record)
        verdict = replay_game(with_rulings(rec, {**dict(rec.rulings), field: value}))  # type: ignore[dict-item]
    except RecordError as e:
        return {"legal": False, "fault": e.kind}
    if verdict.fault is not None:
        return {"legal": False, "item": verdict.fault.item, "rule": verdict.fault.rule}
    assert verdict.game is not None
    won = list(winners(verdict.game)) if verdict.finished else None
    return {"legal": True, "finished": verdict.finished, "standings": list(verdict.game.balances), "winners": won}


def example_problems(path: Path, data: dict[str, Any]) -> list[str]:
    """Stale outcomes, and readings the example does not tell apart.  ``also`` may add further records (each
    with its ``readings``) where one deal cannot part three readings at once."""
    out = []
    seen: dict[str, list[str]] = {}
    for case in [data, *data.get("also", [])]:
        for reading in case["readings"]:
            got = replay_outcome(case["record"], data["field"], reading["value"])
            if got != reading["outcome"]:
                out.append(
                    f"{path.name}: {data['field']} = {reading['value']!r} replays to {got}, not {reading['outcome']}"
                )
            seen.setdefault(json.dumps(reading["value"]), []).append(json.dumps(got, sort_keys=True))
    if len({tuple(v) for v in seen.values()}) < len(seen):
        out.append(f"{path.name}: two readings replay alike, so the example does not show the ruling")
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_example_record_replays_as_stated(path: Path) -> None:
    """RUL-OPERA-COMET-BONUS and every ruling with an example file: the record is legal where stated and
    gives the stated outcome under each reading; the readings part ways on it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["ruling"] == path.stem
    assert example_problems(path, data) == []
    section = SECTIONS[path.stem]
    assert any(f"examples/{path.name}" in line for line in section.body), f"{path.stem}'s Example names no record"
    assert any(f"`{data['field']} = " in line for line in section.body)


# Rulings written before issue 20 whose example is told as a position, not yet as a record.
WITHOUT_RECORD: frozenset[str] = frozenset()


# Fields a deal record cannot show: they act between deals (``comet.ruleset.GAME_LEVEL_FIELDS``, and Old
# Comet's rising manille), or only on how a seed is dealt, which a record's explicit hands leave out.
NOT_IN_A_DEAL = GAME_LEVEL_FIELDS | {"old_escalation", "deal_order"}


def needs_record(rid: str) -> bool:
    """A switchable ruling with an example, one of whose fields a single deal can show."""
    s = SECTIONS[rid]
    fields = {r.field for r in s.readings}
    has_example = any(line.startswith("**Example.**") for line in s.body)
    return has_example and bool(fields - NOT_IN_A_DEAL)


def _without_record() -> set[str]:
    named = {p.stem for p in FILES}
    return {rid for rid in SECTIONS if rid not in named and needs_record(rid)}


def test_a_tampered_outcome_is_reported(tmp_path: Path) -> None:
    """A planted fault: an example file whose stated chips are wrong is reported with the replayed figures."""
    data = json.loads((EXAMPLES / "RUL-OPERA-COMET-BONUS.json").read_text(encoding="utf-8"))
    data["readings"][1]["outcome"]["chips"] = [1368, -680, -688]
    (problem,) = example_problems(tmp_path / "RUL-OPERA-COMET-BONUS.json", data)
    assert "opera_comet_bonus = 'doubled' replays to" in problem and "1384" in problem
    data["readings"][1] = dict(data["readings"][0], value="doubled")
    data["record"]["actions"] = data["record"]["actions"][:3]  # the deal no longer reaches the Comet
    problems = example_problems(tmp_path / "x.json", data)
    assert problems[-1].endswith("two readings replay alike, so the example does not show the ruling")


def test_the_list_only_shrinks() -> None:
    """Every ruling with an **Example.** has a record, or is listed in ``WITHOUT_RECORD``; a listed ruling that
    gains a record (or no longer exists) must leave the list."""
    missing = _without_record()
    assert sorted(missing - WITHOUT_RECORD) == [], "rulings whose example has no record file"
    assert sorted(WITHOUT_RECORD - missing) == [], "listed rulings that now have a record (or are gone): unlist them"
