"""The shipped conformance vectors (spec/vectors.md): regeneration is byte-identical, every case file
matches its schema, every preset and deal-level ruling reading is covered, and the illegal cases name
rule ids (R-PLAY-MUST, R-PLAY-HELD, R-PLAY-CONTINUE, R-COMET-WILD, R-END-OUT, R-FOUR-OF-A-KIND)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import comet.engine as engine
import pytest
from comet.cards import KING, rank_of
from comet.engine import legal_actions, packs_in_rotation, player_counts
from comet.oracle.perft import seeded_start, spec_table
from comet.presets import PRESETS
from comet.records.deal_record import loads_record, replay_record
from comet.vectors.features import deal_features
from comet.vectors.readings import all_readings
from comet.vectors.table import TABLE_BEGIN, TABLE_END, coverage_gaps, coverage_markdown, vector_rule_ids
from comet.vectors.write import write_vectors
from once import built_once
from test_replay_cli import validator

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "vectors"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every vector written afresh, once per test run (under xdist, by one worker for all: ``built_once``)."""
    return tree(built_once(tmp_path_factory, "vectors", write_vectors))


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


def test_every_vector_file_matches_its_schema(regenerated: dict[str, bytes]) -> None:
    """Cases, ITF traces, index.json and perft.json against the published schemas (spec/schemas, with $ids)."""
    case_schema = validator("vector-case.json")
    trace_schema = validator("itf-trace.json")
    seen: Counter[str] = Counter()
    for path, data in regenerated.items():
        if path == "index.json":
            validator("vector-index.json").validate(json.loads(data))
        elif path == "perft.json":
            validator("vector-perft.json").validate(json.loads(data))
        elif "/trace/" in path:
            trace_schema.validate(json.loads(data))
        elif path.endswith(".json"):
            case_schema.validate(json.loads(data))
        else:
            continue
        seen[path.split("/")[-2] if "/" in path else path] += 1
    assert seen["index.json"] == seen["perft.json"] == 1 and seen["trace"] and seen["replay"] and seen["malformed"]


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


# --------------------------------------------------------------------- coverage (issue 11)


def index_of(files: dict[str, bytes]) -> dict[str, Any]:
    value = json.loads(files["index.json"])
    assert isinstance(value, dict)
    return value


def default_replays(files: dict[str, bytes], preset: str) -> list[dict[str, Any]]:
    prefix = f"{preset}/default/replay/"
    return [json.loads(d) for p, d in sorted(files.items()) if p.startswith(prefix)]


def test_every_rule_id_has_a_vector(regenerated: dict[str, bytes]) -> None:
    """Every rule id (R-REC-* included) appears in some vector; each preset's own ids in its default
    reading (coverage_gaps is empty)."""
    assert coverage_gaps(index_of(regenerated)) == []


def test_coverage_gaps_are_reported(regenerated: dict[str, bytes]) -> None:
    """Planted: drop every vector that exercises R-STOP-KING from the index; the gap is named."""
    index = index_of(regenerated)
    files = index["files"]
    assert isinstance(files, list)
    thinned = {**index, "files": [e for e in files if "R-STOP-KING" not in e["rules"]]}
    gaps = coverage_gaps(thinned)
    assert "R-STOP-KING has no vector" in gaps and "R-STOP-KING has no vector in standard/default" in gaps


def test_coverage_table_in_spec_is_current(regenerated: dict[str, bytes]) -> None:
    """spec/vectors.md's coverage table is the one the regenerated index gives (comet vectors --update-spec)."""
    text = (ROOT / "spec" / "vectors.md").read_text(encoding="utf-8")
    shown = text[text.index(TABLE_BEGIN) + len(TABLE_BEGIN) : text.index(TABLE_END)].lstrip("\n")
    assert shown == coverage_markdown(index_of(regenerated), vector_rule_ids()), (
        "run: comet vectors vectors/ --update-spec spec/vectors.md"
    )


def test_index_entries_describe_every_file(regenerated: dict[str, bytes]) -> None:
    """index.json: preset, reading, kind, known rule ids and a one-line description for every file."""
    known = vector_rule_ids()
    files = index_of(regenerated)["files"]
    assert isinstance(files, list)
    for e in files:
        assert e["path"] in regenerated and e["description"] and "\n" not in e["description"]
        assert set(e["rules"]) <= known, e
        if e["kind"] != "perft":
            assert e["path"].startswith(f"{e['preset']}/{e['reading']}/{e['kind']}/")


def test_default_readings_hold_every_player_count_pack_and_an_unfinished_deal(regenerated: dict[str, bytes]) -> None:
    """For every preset's default reading: replays and traces for every player count, every pack in
    rotation, and unfinished deals whose legal_actions offer a choice (R-REC-ACTION-ORDER)."""
    for name in sorted(PRESETS):
        rules = PRESETS[name].rules
        cases = default_replays(regenerated, name)
        counts = {c["record"]["players"] for c in cases}
        assert set(player_counts(rules)) <= counts, (name, counts)
        traced = {
            json.loads(d)["#meta"]["record"]["players"]
            for p, d in regenerated.items()
            if p.startswith(f"{name}/default/trace/")
        }
        assert traced == set(player_counts(rules)), (name, traced)
        decks = {c["expected"]["deck"] for c in cases}
        packs = {p.name for n in player_counts(rules) for p in packs_in_rotation(rules, n)}
        assert packs <= decks, (name, packs - decks)
        open_cases = [c for c in cases if not c["expected"]["finished"]]
        assert len(open_cases) >= len(player_counts(rules)), name
        assert any(len(c["expected"]["legal_actions"]) > 1 for c in open_cases), name


FEATURES = (
    "comet-led",
    "comet-continued",
    "comet-last-as-9",
    "comet-last-not-9",
    "comet-caught",
    "four-of-a-kind",
    "three-nines",
    "stuck-run",
)


@pytest.mark.parametrize("name", ["standard", "opera"])
def test_standard_default_vectors_show_every_comet_situation(regenerated: dict[str, bytes], name: str) -> None:
    """R-COMET-WILD, R-COMET-STOP, R-SETTLE-COMET-LAST, R-SETTLE-CAUGHT, R-FOUR-OF-A-KIND, R-THREE-NINES,
    R-STOP-STUCK: the Comet led, continued, last as a 9 and not, caught; four of a kind; the three 9s;
    a stuck run; every illegal rule id of the standard play."""
    tags: set[str] = set()
    for case in default_replays(regenerated, name):
        verdict = replay_record(loads_record(json.dumps(case["record"])))
        tags |= deal_features(verdict.start, verdict.record.actions)
    assert set(FEATURES) <= tags, sorted(set(FEATURES) - tags)
    rules = {
        json.loads(d)["expected"]["error"]["rule"]
        for p, d in regenerated.items()
        if p.startswith(f"{name}/default/illegal/")
    }
    assert rules >= {
        "R-PLAY-MUST",
        "R-PLAY-HELD",
        "R-PLAY-CONTINUE",
        "R-COMET-WILD",
        "R-END-OUT",
        "R-NEW-RUN",
        "R-FOUR-OF-A-KIND",
    }, rules


def test_perft_json_matches_the_spec_table_and_the_seeded_deals(regenerated: dict[str, bytes]) -> None:
    """perft.json: every row of spec/perft.md, its first depths equal to the table's, its record the
    seeded deal (so an implementation needs no CPython shuffle)."""
    table = spec_table((ROOT / "spec" / "perft.md").read_text(encoding="utf-8"))
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[(cells[0], int(cells[1]), int(cells[2]))] = [int(c) for c in cells[3:]]
    perft = json.loads(regenerated["perft.json"])
    assert {(r["preset"], r["players"], r["seed"]) for r in perft["rows"]} == set(rows)
    for r in perft["rows"]:
        want = rows[(r["preset"], r["players"], r["seed"])]
        assert r["counts"] == want[: perft["depth"]], r["preset"]
        start = replay_record(loads_record(json.dumps(r["record"]))).final
        assert start == seeded_start(PRESETS[r["preset"]].rules, r["players"], r["seed"])
        assert len(legal_actions(start)) == r["counts"][0]


def test_the_three_nines_with_the_comet_have_a_vector(regenerated: dict[str, bytes]) -> None:
    """R-THREE-NINES, RUL-COMET-QUARTET: where the ruling lets the Comet join the three natural 9s,
    some vector of that reading plays them together ('play 9C 9S 9S 9D as 9')."""
    prefix = "standard/comet_in_quartet=true/replay/"
    plays = [
        a
        for p, d in regenerated.items()
        if p.startswith(prefix)
        for a in json.loads(d)["record"]["actions"]
        if a.endswith(" as 9") and len(a.split()) == 7
    ]
    assert plays, "no vector shows the three natural 9s with the Comet"


# --------------------------------------------------------------------- stale files (issue 34)


def test_a_case_no_longer_produced_is_deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``comet vectors`` into an existing folder deletes the files of the presets it writes that it did not
    write this time (a removed reading's folder goes, emptied folders with it); other presets' folders and
    files outside the preset folders stay.  Planted: without the sweep the stale file survives."""
    import comet.vectors.write as write

    monkeypatch.setattr(write, "all_readings", lambda presets: [])
    monkeypatch.setattr(write, "all_game_readings", lambda presets: [])
    monkeypatch.setattr(write, "write_divergence_vectors", lambda out, presets: [])
    monkeypatch.setattr(write, "perft_json", lambda presets: "{}\n")
    stale = tmp_path / "standard" / "old-reading" / "replay" / "00.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    other = tmp_path / "opera" / "default" / "replay" / "00.json"
    other.parent.mkdir(parents=True)
    other.write_text("{}", encoding="utf-8")
    (tmp_path / "README.txt").write_text("kept", encoding="utf-8")
    write.write_vectors(tmp_path, ["standard"])
    assert not stale.exists() and not (tmp_path / "standard" / "old-reading").exists()
    assert other.exists() and (tmp_path / "README.txt").exists() and (tmp_path / "index.json").exists()

    stale.parent.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(write, "remove_stale", lambda out, presets, written: [])
    write.write_vectors(tmp_path, ["standard"])
    assert stale.exists()  # the planted bug: no sweep, the stale file stays


def test_remove_stale_keeps_what_was_written(tmp_path: Path) -> None:
    from comet.vectors.write import remove_stale

    kept = tmp_path / "standard" / "default" / "replay" / "00.json"
    gone = tmp_path / "standard" / "default" / "replay" / "01.json"
    kept.parent.mkdir(parents=True)
    kept.write_text("{}", encoding="utf-8")
    gone.write_text("{}", encoding="utf-8")
    removed = remove_stale(tmp_path, ["standard", "red_nines"], {"standard/default/replay/00.json"})
    assert removed == ["standard/default/replay/01.json"] and kept.exists() and not gone.exists()
