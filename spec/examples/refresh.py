"""Recompute the stated outcomes of the ruling example records (spec/examples/RUL-*.json).

Run after editing a record or changing a reading on purpose:
    PYTHONPATH=model:tests .venv/bin/python spec/examples/refresh.py
tests/test_ruling_examples.py replays every file and fails while a stated outcome is stale.
"""

from __future__ import annotations

import json
from pathlib import Path

from test_ruling_examples import replay_outcome

for path in sorted(Path(__file__).parent.glob("RUL-*.json")):
    data = json.loads(path.read_text(encoding="utf-8"))
    for case in [data, *data.get("also", [])]:
        for reading in case["readings"]:
            reading["outcome"] = replay_outcome(case["record"], data["field"], reading["value"])
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(path.name)
