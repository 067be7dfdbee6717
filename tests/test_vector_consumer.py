"""The independent consumer (tests/vector_consumer.py) passes on the shipped vectors and catches a
wrong implementation, a tampered vector and an unread file (R-SETTLE-POINTS, R-PLAY-MUST via the cases)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from vector_consumer import consume

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "vectors"
COMET = [str(Path(sys.executable).with_name("comet"))]


def test_consumer_does_not_import_comet() -> None:
    text = (Path(__file__).parent / "vector_consumer.py").read_text(encoding="utf-8")
    assert "import comet" not in text and "from comet" not in text


def test_shipped_vectors_all_pass_and_all_are_read() -> None:
    report = consume(SHIPPED, COMET)
    assert report.failures == []
    on_disk = {p.relative_to(SHIPPED).as_posix() for p in SHIPPED.rglob("*") if p.is_file()}
    assert report.read == on_disk
    assert {"replay", "trace", "illegal", "malformed", "golden"} <= set(report.checked)


@pytest.fixture
def small_copy(tmp_path: Path) -> Path:
    """A copy of the standard preset's default reading only (fast), with its own index."""
    out = tmp_path / "v"
    index = json.loads((SHIPPED / "index.json").read_text(encoding="utf-8"))
    keep = [e for e in index["files"] if e["path"].startswith("standard/default/")]
    for e in keep:
        (out / e["path"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SHIPPED / e["path"], out / e["path"])
    (out / "index.json").write_text(json.dumps({**index, "files": keep}), encoding="utf-8")
    return out


def test_planted_bug_in_the_implementation_is_caught(small_copy: Path, tmp_path: Path) -> None:
    """A 'comet' whose settlement counts Kings 13 (not 10) fails replay and trace cases, readably."""
    wrapper = tmp_path / "buggy_comet.py"
    wrapper.write_text(
        "import sys\nimport comet.engine as e\nreal = e.card_points\n"
        "e.card_points = lambda c: 13 if c >> 2 == 13 else real(c)\n"
        "from comet.cli import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    report = consume(small_copy, [sys.executable, str(wrapper)])
    assert report.failures, "the consumer must notice a wrong settlement"
    assert any("/replay/" in f and "expected" in f for f in report.failures)


def test_tampered_vector_and_unread_file_are_caught(small_copy: Path) -> None:
    case = small_copy / "standard/default/illegal/00.json"
    data = json.loads(case.read_text(encoding="utf-8"))
    data["expected"]["error"]["rule"] = "R-NOT-A-RULE"
    case.write_text(json.dumps(data), encoding="utf-8")
    (small_copy / "standard/default/stray.json").write_text("{}", encoding="utf-8")
    report = consume(small_copy, COMET)
    text = "\n".join(report.failures)
    assert "SHA-256 differs" in text and "R-NOT-A-RULE" in text
    assert "stray.json: file is not listed in index.json" in text
    assert "stray.json: vector file was not read" in text
