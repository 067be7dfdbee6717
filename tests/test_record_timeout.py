"""A deal that never ends fails its test instead of hanging the suite: pytest-timeout is a dev
dependency and pyproject.toml sets a per-test timeout; a planted endless deal (R-END-OUT broken: the
engine never lets anyone go out) is cut off and reported as a timeout."""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENDLESS = '''
import comet.engine as engine
from comet.engine import shuffled_deal
from comet.game import play_deal
from comet.ruleset import Ruleset
from comet.state import PASS


def test_a_deal_that_never_ends(monkeypatch):
    # planted: every position offers only "pass", and passing changes nothing
    monkeypatch.setattr(engine, "legal_actions", lambda s: (PASS,))
    monkeypatch.setattr(engine, "apply", lambda s, a: s)
    import comet.game as game
    monkeypatch.setattr(game, "legal_actions", lambda s: (PASS,))
    monkeypatch.setattr(game, "apply", lambda s, a: s)
    play_deal(shuffled_deal(Ruleset(), 3, 2, 1))
'''


def test_pyproject_sets_a_per_test_timeout() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert 0 < int(data["tool"]["pytest"]["ini_options"]["timeout"]) <= 900
    assert any(d.startswith("pytest-timeout") for d in data["project"]["optional-dependencies"]["dev"])


def test_an_endless_deal_is_cut_off_as_a_timeout(tmp_path: Path) -> None:
    (tmp_path / "test_endless.py").write_text(ENDLESS, encoding="utf-8")
    began = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout=3", "test_endless.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PYTHONPATH": str(ROOT / "model"), "PATH": str(Path(sys.executable).parent)},
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Timeout" in proc.stdout + proc.stderr
    assert time.monotonic() - began < 100
