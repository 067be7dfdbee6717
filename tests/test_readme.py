"""The README's promises: its Python example runs, its test command is the one CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_python_example_runs(capsys: object) -> None:
    """R-LEAD-FIRST R-END-OUT: the five-line API example plays a deal to its end."""
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "README has no python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    state = namespace["state"]
    assert getattr(state, "terminal", False) is True


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_command() -> None:
    first_block = re.search(r"```sh\n(.*?)```", README, flags=re.S)
    assert first_block is not None
    lines = first_block.group(1).strip().splitlines()
    assert lines[0].endswith("comet verify  # main job")
    assert lines[1].endswith("# tests")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "# tests$" in ci and 'bash -c "$test_cmd"' in ci
