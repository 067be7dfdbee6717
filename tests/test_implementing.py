"""spec/implementing.md's differential driver, run as written: against ``comet oracle`` itself it finds
no difference; against a planted bug (R-SETTLE-POINTS broken: every card counts a point more) it reports the first
difference; a planted wrong rule id for an illegal pass (R-PLAY-MUST reported as R-TURN-END) is caught
by its probe (R-REC-ILLEGAL-PRECEDENCE)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMET = str(Path(sys.executable).with_name("comet"))


def driver(tmp_path: Path) -> Path:
    text = (ROOT / "spec" / "implementing.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1 and 25 <= len(blocks[0].splitlines()) <= 60
    path = tmp_path / "driver.py"
    path.write_text(blocks[0], encoding="utf-8")
    return path


def run(tmp_path: Path, candidate: str, deals: int = 4) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(driver(tmp_path)), f"{shlex.quote(COMET)} oracle", candidate, str(deals)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def planted(tmp_path: Path, patch: str) -> str:
    wrapper = tmp_path / "buggy.py"
    wrapper.write_text(f"import sys\nimport comet.engine as e\n{patch}\nfrom comet.cli import main\nsys.exit(main())\n")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(wrapper))} oracle"


def test_driver_finds_no_difference_against_the_oracle_itself(tmp_path: Path) -> None:
    proc = run(tmp_path, f"{shlex.quote(COMET)} oracle")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("4 deals, 0 differences")


def test_driver_reports_a_settlement_bug(tmp_path: Path) -> None:
    bug = planted(tmp_path, "real = e.card_points\ne.card_points = lambda c: real(c) + 1")
    proc = run(tmp_path, bug, deals=3)
    assert proc.returncode == 1 and "want" in proc.stdout and "got" in proc.stdout, proc.stdout + proc.stderr


def test_driver_reports_a_wrong_rule_id(tmp_path: Path) -> None:
    patch = (
        "real = e.why_illegal\n"
        "def wrong(s, a):\n"
        "    err = real(s, a)\n"
        "    return e.IllegalAction('R-TURN-END', err.message) if err.rule == 'R-PLAY-MUST' else err\n"
        "e.why_illegal = wrong"
    )
    proc = run(tmp_path, planted(tmp_path, patch), deals=2)
    assert proc.returncode == 1 and "R-TURN-END" in proc.stdout, proc.stdout + proc.stderr
