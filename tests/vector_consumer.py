"""An independent consumer of the conformance vectors (spec/vectors.md).

It does NOT import the ``comet`` package: it reads the vector files, checks
their internal consistency, and replays them through the ``comet`` command line
as a black box (one ``comet oracle`` session for everything, plus a few
``comet replay`` runs per preset to check exit codes and stderr).  It fails if
any file under the vectors directory was not read, or is missing from
``index.json``, or does not match its SHA-256 there.

Usage: ``python tests/vector_consumer.py VECTORS_DIR [COMET_EXECUTABLE]``.
Another implementation can copy this file and point COMET_EXECUTABLE at its own
oracle.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ORACLE_FIELDS_PER_STATE = ("hands", "finished", "drawn", "payments", "chips")


class VectorFailure(AssertionError):
    """A vector that the implementation under test disagrees with (or a malformed vectors directory)."""


@dataclass
class Report:
    read: set[str] = field(default_factory=set)
    checked: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def fail(self, path: str, message: str) -> None:
        self.failures.append(f"{path}: {message}")

    def count(self, kind: str) -> None:
        self.checked[kind] = self.checked.get(kind, 0) + 1


def _read(root: Path, rel: str, report: Report) -> bytes:
    report.read.add(rel)
    return (root / rel).read_bytes()


def _unbig(value: Any) -> Any:
    """ITF value -> plain JSON value (``{"#bigint": "3"}`` -> 3), recursively."""
    if isinstance(value, dict):
        if set(value) == {"#bigint"}:
            return int(value["#bigint"])
        return {k: _unbig(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unbig(v) for v in value]
    return value


class Oracle:
    """Batch requests to one ``comet oracle`` session."""

    def __init__(self, comet: list[str]) -> None:
        self.comet = comet
        self.lines: list[str] = []

    def ask(self, line: str) -> int:
        self.lines.append(line)
        return len(self.lines) - 1

    def run(self) -> list[dict[str, Any]]:
        text = "\n".join(self.lines) + "\n"
        proc = subprocess.run(
            [*self.comet, "oracle"], input=text, capture_output=True, text=True, timeout=600, check=False
        )
        if proc.returncode != 0:
            raise VectorFailure(f"comet oracle exited {proc.returncode}: {proc.stderr.strip()}")
        out = [json.loads(x) for x in proc.stdout.splitlines()]
        if len(out) != len(self.lines):
            raise VectorFailure(f"comet oracle answered {len(out)} of {len(self.lines)} requests")
        return out


def _request(rid: int, op: str, record_text: str) -> str:
    return '{"id":' + str(rid) + ',"op":"' + op + '","record":' + record_text + "}"


def consume(root: Path, comet: list[str], replay_samples: int = 1) -> Report:
    """Check every vector under ``root`` against ``comet``; the report lists failures (empty: all agree)."""
    report = Report()
    index = json.loads(_read(root, "index.json", report))
    listed = {entry["path"]: entry for entry in index["files"]}
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {"index.json"}
    for rel in sorted(on_disk - set(listed)):
        report.fail(rel, "file is not listed in index.json")
    for rel in sorted(set(listed) - on_disk):
        report.fail(rel, "listed in index.json but missing")

    oracle = Oracle(comet)
    checks: list[tuple[int, str, Any]] = []  # (request number, path, what to compare)
    cli_samples: dict[tuple[str, str], list[tuple[str, bytes, int, Any]]] = {}
    for rel in sorted(set(listed) & on_disk):
        entry = listed[rel]
        data = _read(root, rel, report)
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            report.fail(rel, "SHA-256 differs from index.json")
        kind = entry["kind"]
        report.count(kind)
        missing_meta = [k for k in ("preset", "reading", "rules", "description") if k not in entry]
        if missing_meta:
            report.fail(rel, f"index entry lacks {missing_meta}")
        preset = rel.split("/")[0]
        if kind in ("replay", "illegal", "game"):
            case = json.loads(data)
            record_text = json.dumps(case["record"])
            checks.append((oracle.ask(_request(len(checks), "replay", record_text)), rel, ("result", case["expected"])))
            cli_samples.setdefault((preset, kind), []).append(
                (rel, record_text.encode(), case["exit"], case["expected"])
            )
        elif kind == "malformed":
            case = json.loads(data)
            line = json.dumps({"id": len(checks), "op": "replay", "record_text": case["input"]})
            checks.append((oracle.ask(line), rel, ("error", case["expected"]["kind"])))
            cli_samples.setdefault((preset, kind), []).append((rel, case["input"].encode(), 2, case["expected"]))
        elif kind == "trace":
            trace = json.loads(data)
            record = trace["#meta"]["record"]
            states = trace["states"]
            if len(states) != len(record["actions"]) + 1:
                report.fail(rel, f"{len(states)} states for {len(record['actions'])} actions")
                continue
            for i, st in enumerate(states):
                if st["#meta"]["index"] != i:
                    report.fail(rel, f"state {i} has index {st['#meta']['index']}")
                missing = [v for v in trace["vars"] if v not in st]
                if missing:
                    report.fail(rel, f"state {i} lacks {missing}")
                if i and st["action"] != record["actions"][i - 1]:
                    report.fail(rel, f"state {i} action {st['action']!r} is not record action {i - 1}")
                prefix = dict(record, actions=record["actions"][:i])
                checks.append((oracle.ask(_request(len(checks), "replay", json.dumps(prefix))), rel, ("state", i, st)))
        elif kind == "golden":
            replay_rel = rel.replace("/golden/", "/replay/").replace(".txt", ".json")
            if replay_rel not in listed:
                report.fail(rel, f"no {replay_rel} to narrate")
                continue
            record = json.loads((root / replay_rel).read_bytes())["record"]
            lines = data.decode("utf-8").splitlines()
            checks.append((oracle.ask(_request(len(checks), "explain", json.dumps(record))), rel, ("golden", lines)))
        elif kind == "perft":
            table = json.loads(data)
            for row in table["rows"]:
                line = json.dumps(
                    {"id": len(checks), "op": "perft", "record": row["record"], "depth": len(row["counts"])}
                )
                checks.append((oracle.ask(line), rel, ("perft", row)))
        else:
            report.fail(rel, f"unknown kind {kind!r}")

    answers = oracle.run() if oracle.lines else []
    for n, rel, what in checks:
        ans = answers[n]
        if ans.get("id") != n:
            report.fail(rel, f"response id {ans.get('id')!r}, expected {n}")
        tag = what[0]
        if tag == "error":
            if ans.get("ok") is not False or ans["error"]["kind"] != what[1]:
                report.fail(rel, f"expected error kind {what[1]!r}, got {json.dumps(ans)[:200]}")
            continue
        if not ans.get("ok"):
            report.fail(rel, f"oracle error {ans.get('error')}")
            continue
        result = ans["result"]
        if tag == "result":
            if result != what[1]:
                report.fail(rel, f"expected {json.dumps(what[1])[:300]}\n  got {json.dumps(result)[:300]}")
        elif tag == "perft":
            row = what[1]
            if result.get("counts") != row["counts"]:
                report.fail(
                    rel, f"perft {row['preset']} {row['players']}p seed {row['seed']}: {result.get('counts')}"
                )
        elif tag == "golden":
            if result["lines"] != what[1]:
                report.fail(rel, "narration differs from the golden text")
        elif tag == "state":
            i, st = what[1], what[2]
            plain = _unbig(st)
            want_to_move = None if plain["to_move"] < 0 else plain["to_move"]
            want_winner = None if plain["winner"] < 0 else plain["winner"]
            if result.get("to_move") != want_to_move or result.get("winner") != want_winner:
                report.fail(rel, f"state {i}: to_move/winner differ: {result.get('to_move')}/{result.get('winner')}")
            for name in ORACLE_FIELDS_PER_STATE:
                if result.get(name) != plain[name]:
                    report.fail(rel, f"state {i}: {name} differs: trace {plain[name]} oracle {result.get(name)}")

    for (_preset, _kind), samples in sorted(cli_samples.items()):
        for rel, stdin, code, expected in samples[:replay_samples]:
            _check_replay_cli(comet, rel, stdin, code, expected, report)

    unread = sorted(on_disk - report.read)
    for rel in unread:
        report.fail(rel, "vector file was not read")
    return report


def _check_replay_cli(comet: list[str], rel: str, stdin: bytes, code: int, expected: Any, report: Report) -> None:
    proc = subprocess.run([*comet, "replay", "-"], input=stdin, capture_output=True, timeout=120, check=False)
    if proc.returncode != code:
        report.fail(rel, f"comet replay exited {proc.returncode}, expected {code}: {proc.stderr.decode()[:200]}")
        return
    if code == 2:
        err = proc.stderr.decode().strip()
        if "\n" in err or f"[{expected['kind']}]" not in err or "Traceback" in err or proc.stdout:
            report.fail(rel, f"comet replay stderr should be one line naming [{expected['kind']}]: {err[:200]}")
    elif json.loads(proc.stdout) != expected:
        report.fail(rel, "comet replay output differs from the expected output")


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: vector_consumer.py VECTORS_DIR [COMET_EXECUTABLE]", file=sys.stderr)
        return 2
    comet = [argv[2]] if len(argv) == 3 else [str(Path(sys.executable).with_name("comet"))]
    report = consume(Path(argv[1]), comet)
    for line in report.failures:
        print("FAIL", line)
    print(f"read {len(report.read)} files; checked {report.checked}; {len(report.failures)} failures")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
