"""Issue 35: the rules running in the page (``comet.site.webbridge``, loaded by Pyodide in play.html and
check.html), tested here in CPython; tests/test_site_browser.py plays the same pages in Chromium.

R-PLAY-HELD, R-PLAY-MUST: an illegal move is refused with the rule the engine names.  The record
checker gives ``comet replay``'s verdict (R-REC-FAULTS for malformed input, R-REC-ILLEGAL-PRECEDENCE for
illegal actions).  The page's core must load with the standard library alone (Pyodide has nothing else).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from comet import cli
from comet.presets import PRESETS
from comet.site import webbridge
from comet.site.pages_play import core_files, write_core_zip

ROOT = Path(__file__).resolve().parents[1]
Verdict = dict[str, object]


def replay_cli(text: str, tmp: Path) -> Verdict:
    """What ``comet replay FILE`` prints and exits with."""
    f = tmp / "record.json"
    f.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["replay", str(f)])
    return {"exit": code, "stdout": out.getvalue().strip(), "stderr": err.getvalue().strip()}


def sample_vectors(n_each: int = 5) -> list[tuple[str, str]]:
    """(name, record text) of legal, illegal, malformed and game vectors of the standard preset."""
    out: list[tuple[str, str]] = []
    base = ROOT / "vectors" / "standard" / "default"
    for kind in ("replay", "illegal", "malformed", "game"):
        for path in sorted((base / kind).glob("*.json"))[:n_each]:
            v = json.loads(path.read_text(encoding="utf-8"))
            text = v["input"] if "input" in v else json.dumps(v["record"])
            out.append((f"{kind}/{path.name}", text))
    return out


def verdict_mismatches(check: Callable[[str], str], tmp: Path) -> list[str]:
    """Every vector on which ``check`` (the page's) and ``comet replay`` disagree, in words."""
    problems = []
    for name, text in sample_vectors():
        page, cli_says = json.loads(check(text)), replay_cli(text, tmp)
        if page["exit"] != cli_says["exit"] or page["stdout"] != cli_says["stdout"]:
            problems.append(f"{name}: the page says exit {page['exit']}, comet replay says exit {cli_says['exit']}")
        elif page["stderr"] != cli_says["stderr"]:
            problems.append(f"{name}: the page says {page['stderr']!r}, comet replay says {cli_says['stderr']!r}")
    return problems


def test_the_record_checker_gives_comet_replays_verdict(tmp_path: Path) -> None:
    assert len(sample_vectors()) == 20  # legal, illegal, malformed, game: 5 of each
    assert verdict_mismatches(webbridge.check, tmp_path) == []


def test_a_checker_that_calls_everything_legal_is_caught(tmp_path: Path) -> None:
    """Planted slip: a checker that answers 'legal' to every record disagrees on the illegal and malformed ones."""

    def lenient(text: str) -> str:
        return json.dumps({"exit": 0, "stdout": "", "stderr": ""})

    problems = verdict_mismatches(lenient, tmp_path)
    assert any("illegal/" in p and "comet replay says exit 1" in p for p in problems), problems
    assert any("malformed/" in p and "comet replay says exit 2" in p for p in problems), problems


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_whole_deal_played_in_the_page_replays_to_the_same_chips(name: str, tmp_path: Path) -> None:
    v = json.loads(webbridge.new_deal(json.dumps({"preset": name, "seed": 3})))
    assert "error" not in v, v
    moves = 0
    while not v["over"]:
        assert v["legal"], "the page offers no legal move although the deal goes on"
        v = json.loads(webbridge.move(v["legal"][-1]))
        assert v["refused"] is None, v["refused"]
        moves += 1
        assert moves < 500
    verdict = replay_cli(json.dumps(v["record"]), tmp_path)
    assert verdict["exit"] == 0, verdict
    assert json.loads(str(verdict["stdout"]))["chips"] == v["totals"]


def test_an_illegal_move_is_refused_with_its_rule() -> None:
    v = json.loads(webbridge.new_deal(json.dumps({"preset": "standard", "players": 3, "seed": 1})))
    held = set(v["hand"])
    other = next(c for c in ("2C", "2D", "2H", "2S", "3C", "3D") if c not in held)
    r = json.loads(webbridge.move(f"play {other}"))
    assert r["refused"]["rule"] == "R-PLAY-HELD" and other in r["refused"]["message"]
    assert r["hand"] == v["hand"]  # nothing happened
    # Saying "without" at the start of a run, where a run must be started: refused by the rule of play.
    if "pass" not in v["legal"]:
        r = json.loads(webbridge.move("pass"))
        assert r["refused"]["rule"].startswith("R-"), r["refused"]
    r = json.loads(webbridge.move("jump"))
    assert r["refused"]["rule"] == "[action-syntax]"


def test_a_reading_of_a_ruling_is_played_and_a_wrong_one_refused() -> None:
    v = json.loads(
        webbridge.new_deal(json.dumps({"preset": "standard", "players": 3, "seed": 2, "rulings": {"new_run": "may"}}))
    )
    assert "error" not in v
    bad = json.loads(webbridge.new_deal(json.dumps({"preset": "standard", "rulings": {"new_run": "sometimes"}})))
    assert "new_run" in bad["error"]


def test_the_pages_core_loads_with_the_standard_library_alone(tmp_path: Path) -> None:
    """The zip the page loads, unpacked, imports in an interpreter without site-packages (as in Pyodide)."""
    z = tmp_path / "core.zip"
    write_core_zip(z)
    with zipfile.ZipFile(z) as f:
        names = f.namelist()
        f.extractall(tmp_path / "core")
    assert "comet/site/webbridge.py" in names and "comet/engine.py" in names
    assert not any(n.startswith(("comet/site/build", "comet/commands/", "comet/cli")) for n in names)
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "from comet.site import webbridge as w;"
        "v = json.loads(w.new_deal(json.dumps({'preset': 'red_nines'})));"
        "assert 'hand' in v, v;"
        "bad = sorted(m.split('.')[0] for m in sys.modules if m.split('.')[0] not in sys.stdlib_module_names"
        " and m.split('.')[0] not in ('comet', '__main__'));"
        "print(json.dumps(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(tmp_path / "core")], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [], f"the page's core loaded modules outside the standard library: {out.stdout}"
    assert len(core_files()) == len(names)
