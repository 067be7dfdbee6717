"""The versioned contract (spec/CHANGELOG.md, comet.records.contract): the shipped vectors have the digest the
changelog's latest entry records, that entry is the current format, and every place that states the
format says the same number (records, replay outputs, the oracle's hello, the vectors' index, the schemas).
R-REC-FAULTS: a record written for a later format is refused with kind ``field``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from comet.errors import RecordError
from comet.oracle.protocol import hello
from comet.records.contract import FORMAT, changelog_problems, check_format, latest_entry, vectors_digest
from comet.records.deal_record import loads_record, replay_record

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "spec" / "CHANGELOG.md").read_text(encoding="utf-8")
VECTORS = ROOT / "vectors"
RECORD = json.loads((VECTORS / "standard" / "default" / "replay" / "00.json").read_text(encoding="utf-8"))["record"]


def test_the_changelog_accounts_for_the_shipped_vectors() -> None:
    assert changelog_problems(CHANGELOG, vectors_digest(VECTORS)) == []


def test_a_changed_vector_without_a_changelog_entry_fails(tmp_path: Path) -> None:
    """Planted: one byte of one vector changed, or a file added, and the changelog left alone."""
    copy = tmp_path / "v"
    shutil.copytree(VECTORS / "standard" / "default" / "replay", copy / "standard" / "default" / "replay")
    (copy / "index.json").write_text("{}", encoding="utf-8")
    before = vectors_digest(copy)
    changed = copy / "standard" / "default" / "replay" / "00.json"
    changed.write_bytes(changed.read_bytes().replace(b'"legal":true', b'"legal":false', 1))
    after = vectors_digest(copy)
    assert after != before
    (copy / "extra.json").write_text("{}", encoding="utf-8")
    assert vectors_digest(copy) not in (before, after)
    text = CHANGELOG.replace(vectors_digest(VECTORS), before)
    problems = changelog_problems(text, after)
    assert len(problems) == 1 and "vectors/ changed" in problems[0] and after in problems[0]
    assert changelog_problems(text, before) == []


def test_a_version_raised_without_an_entry_fails() -> None:
    problems = changelog_problems(CHANGELOG, vectors_digest(VECTORS), FORMAT + 1)
    assert problems and f"is format {FORMAT}" in problems[0]
    assert changelog_problems("# nothing here\n", "0" * 64) == ["spec/CHANGELOG.md has no '## Format N' entry"]


def test_entries_are_newest_first_and_count_down_to_one() -> None:
    entry = latest_entry(CHANGELOG)
    assert entry is not None and entry.version == FORMAT
    versions = [int(line.split()[2]) for line in CHANGELOG.splitlines() if line.startswith("## Format ")]
    assert versions == list(range(FORMAT, 0, -1))


def test_every_place_states_the_same_format() -> None:
    rec = loads_record(json.dumps(RECORD))
    assert rec.to_json()["format"] == FORMAT and next(iter(rec.to_json())) == "format"
    assert replay_record(rec).to_json()["format"] == FORMAT
    illegal = loads_record(json.dumps({**RECORD, "actions": ["play 2S", "play 2S"]}))
    assert replay_record(illegal).to_json()["format"] == FORMAT
    assert hello()["format"] == FORMAT
    index = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    assert index["format"] == FORMAT
    assert json.loads((VECTORS / "perft.json").read_text(encoding="utf-8"))["format"] == FORMAT
    schemas = ROOT / "spec" / "schemas"
    assert json.loads((schemas / "record.json").read_text())["properties"]["format"]["maximum"] == FORMAT
    assert json.loads((schemas / "replay-output.json").read_text())["$defs"]["format"]["const"] == FORMAT
    assert json.loads((schemas / "game-record.json").read_text())["properties"]["format"]["maximum"] == FORMAT
    assert json.loads((schemas / "game-output.json").read_text())["properties"]["format"]["const"] == FORMAT
    for name in ("vector-index.json", "vector-perft.json"):
        assert json.loads((schemas / name).read_text())["properties"]["format"]["const"] == FORMAT


@pytest.mark.parametrize("version", [2, FORMAT])
def test_a_record_of_a_known_format_is_read(version: int) -> None:
    assert check_format(version) is None
    loads_record(json.dumps({**RECORD, "format": version}))


@pytest.mark.parametrize("version", [FORMAT + 1, 0, -1, 1])
def test_a_record_of_an_unknown_format_is_a_field_fault(version: int) -> None:
    """R-REC-FAULTS: kind ``field``, naming the version."""
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps({**RECORD, "format": version}))
    assert e.value.kind == "field" and str(version) in e.value.message


def test_format_must_be_a_whole_number() -> None:
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps({**RECORD, "format": "2"}))
    assert e.value.kind == "field"
