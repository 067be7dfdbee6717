"""The shipped conformance vectors (spec/vectors.md): regeneration is byte-identical, every case file
matches its schema, every preset and deal-level ruling reading is covered, and the illegal cases name
rule ids (R-PLAY-MUST, R-PLAY-HELD, R-PLAY-CONTINUE, R-COMET-WILD, R-END-OUT, R-FOUR-OF-A-KIND)."""

from __future__ import annotations

import json
from pathlib import Path

import comet.engine as engine
import pytest
from comet.cards import KING, rank_of
from comet.presets import PRESETS
from comet.vectors import all_readings, write_vectors
from test_replay_cli import validator

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "vectors"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("vectors")
    write_vectors(out)
    return tree(out)


def test_regeneration_is_byte_identical(regenerated: dict[str, bytes]) -> None:
    shipped = tree(SHIPPED)
    missing = sorted(set(regenerated) - set(shipped))
    stale = sorted(set(shipped) - set(regenerated))
    changed = sorted(p for p in set(shipped) & set(regenerated) if shipped[p] != regenerated[p])
    assert not (missing or stale or changed), (
        f"vectors/ is out of date (run: comet vectors vectors/); missing {missing[:5]}, stale {stale[:5]}, "
        f"changed {changed[:5]}"
    )


def test_every_preset_and_reading_has_each_kind(regenerated: dict[str, bytes]) -> None:
    for reading in all_readings():
        base = f"{reading.preset}/{reading.name}/"
        kinds = {p[len(base) :].split("/")[0] for p in regenerated if p.startswith(base)}
        assert {"replay", "trace", "illegal", "golden"} <= kinds, (base, kinds)
    assert {p.split("/")[0] for p in regenerated if "/" in p} == set(PRESETS)


def test_cases_match_schemas(regenerated: dict[str, bytes]) -> None:
    case_schema = validator("vector-case.json")
    for path, data in regenerated.items():
        if path.endswith(".json") and "/trace/" not in path and path != "index.json":
            case_schema.validate(json.loads(data))


def test_itf_traces_are_well_formed(regenerated: dict[str, bytes]) -> None:
    for path, data in regenerated.items():
        if "/trace/" not in path:
            continue
        trace = json.loads(data)
        assert trace["#meta"]["format"] == "ITF"
        for i, state in enumerate(trace["states"]):
            assert state["#meta"] == {"index": i}
            assert set(state) == {"#meta", *trace["vars"]}
            assert set(state["to_move"]) == {"#bigint"}


def test_illegal_cases_cover_core_rules(regenerated: dict[str, bytes]) -> None:
    rules = {
        json.loads(d)["expected"]["error"]["rule"]
        for p, d in regenerated.items()
        if p.startswith("standard/default/illegal/")
    }
    assert {"R-PLAY-MUST", "R-PLAY-HELD", "R-PLAY-CONTINUE", "R-COMET-WILD", "R-END-OUT"} <= rules


def test_planted_engine_bug_changes_the_vectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that scores Kings 13 instead of 10 (R-SETTLE-POINTS broken) writes different expectations."""
    honest = tmp_path / "honest"
    buggy = tmp_path / "buggy"
    write_vectors(honest, ["standard"])
    real = engine.card_points
    monkeypatch.setattr(engine, "card_points", lambda c: 13 if rank_of(c) == KING else real(c))
    write_vectors(buggy, ["standard"])
    before, after = tree(honest), tree(buggy)
    changed = sorted(p for p, d in before.items() if after.get(p) != d)
    assert any("/replay/" in p for p in changed), "a changed settlement must change the replay vectors"
