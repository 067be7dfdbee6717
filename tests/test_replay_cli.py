"""`comet replay`: exit codes 0/1/2, JSON on stdout validated against the schema, one stderr line
(R-PLAY-MUST, R-COMET-BONUS, R-SETTLE-POINTS exercised through the hand-written record)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from comet.cli import main
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from test_record import ACTIONS, HAND_RECORD

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "spec" / "schemas"


def validator(name: str) -> Draft202012Validator:
    resources = []
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def run_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> tuple[int, str, str]:
    f = tmp_path / "record.json"
    f.write_text(text, encoding="utf-8")
    code = main(["replay", str(f), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_record_exit_0_and_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_replay(tmp_path, capsys, json.dumps(HAND_RECORD))
    assert code == 0 and err == ""
    result = json.loads(out)
    validator("replay-output.json").validate(result)
    validator("record.json").validate(HAND_RECORD)
    assert result["winner"] == 0 and result["finished"] is True


def test_illegal_action_exit_1_with_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-PLAY-MUST: passing while holding the next rank."""
    code, out, _ = run_replay(tmp_path, capsys, json.dumps({**HAND_RECORD, "actions": ["play 2S", "pass"]}))
    assert code == 1
    result = json.loads(out)
    validator("replay-output.json").validate(result)
    assert result["error"]["rule"] == "R-PLAY-MUST" and result["error"]["index"] == 1


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("not json", "json"),
        (json.dumps({**HAND_RECORD, "dealer": 7}), "dealer"),
        (json.dumps({**HAND_RECORD, "actions": ["fold"]}), "action-syntax"),
        (json.dumps({**HAND_RECORD, "dead": ["3C", "7S"]}), "pack"),
    ],
)
def test_malformed_exit_2_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, kind: str) -> None:
    code, out, err = run_replay(tmp_path, capsys, text)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"[{kind}]" in err and err.startswith("comet replay: error:")


def test_missing_file_is_clean_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(tmp_path / "nope.json")])
    _, err = capsys.readouterr()
    assert code == 2 and "[io]" in err


def test_explain_narrates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_replay(tmp_path, capsys, json.dumps(HAND_RECORD), "--explain")
    assert code == 0
    assert "Comet as 6 (collects 8)" in out and "Anna" in out
    code, out, _ = run_replay(
        tmp_path, capsys, json.dumps({**HAND_RECORD, "actions": [*ACTIONS[:1], "pass"]}), "--explain"
    )
    assert code == 1 and "R-PLAY-MUST" in out


def test_stdin_through_the_console_script() -> None:
    """The installed entry point reads '-' from stdin (black box, as another implementation would call it)."""
    comet = Path(sys.executable).with_name("comet")
    proc = subprocess.run(
        [str(comet), "replay", "-"], input=json.dumps(HAND_RECORD), capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["chips"][0] > 0
    bad = subprocess.run([str(comet), "replay", "-"], input="{", capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "[json]" in bad.stderr
