"""The shipped conformance vectors replayed by the model, one preset a unit (``comet verify``'s vectors table).

Every deal record (``replay`` and ``illegal`` cases) and game record (``game``) of the preset goes through
the oracle's ``replay`` op as its JSON text (``comet.records.answers``, which ``comet conform`` shares), as
another implementation's harness sends it (``tests/vector_consumer.py``
does the same over a pipe), and must give the verdict and exit code the vector states; every malformed
input must be refused with the error kind it names.  The preset's folder must hold exactly the files
``index.json`` lists, each with its SHA-256 there.  ITF traces, golden narrations and the perft table are
replayed by the test suite (``tests/test_vector_consumer.py``), not here."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from comet.oracle.protocol import handle
from comet.records.answers import VECTOR_AND_MODEL, first_difference, vector_request

#: The kinds of case replayed here.
DEAL_KINDS = ("replay", "illegal")
GAME_KIND = "game"
MALFORMED_KIND = "malformed"


@dataclass(frozen=True, slots=True)
class VectorsResult:
    """One preset's vectors: deal records, game records and malformed inputs replayed, every
    disagreement in words; ``missing`` says why nothing was replayed (no vectors directory)."""

    preset: str
    deals: int
    games: int
    malformed: int
    failures: tuple[str, ...]
    seconds: float
    missing: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures


def default_root() -> Path:
    """The checkout's ``vectors/`` (beside ``model/``)."""
    return Path(__file__).resolve().parents[3] / "vectors"


def replay_preset(preset: str, root: str) -> VectorsResult:
    """Every case of ``preset`` under ``root`` (a vectors directory with its ``index.json``)."""
    started = time.perf_counter()
    base = Path(root)
    index_file = base / "index.json"
    if not index_file.is_file():
        return VectorsResult(preset, 0, 0, 0, (), 0.0, f"no vectors directory at {base} (give --vectors DIR)")
    entries = [
        e for e in json.loads(index_file.read_text(encoding="utf-8"))["files"] if e["path"].startswith(f"{preset}/")
    ]
    failures = listing_problems(base, preset, {e["path"] for e in entries})
    if not entries:
        failures.append(f"{preset}: index.json lists no vectors for it (vectors/ out of date: run comet vectors)")
    counts = {"deal": 0, "game": 0, "malformed": 0}
    for entry in entries:
        path = base / entry["path"]
        if not path.is_file():
            continue  # reported by listing_problems
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            failures.append(f"{entry['path']}: its SHA-256 differs from index.json's")
        kind = entry["kind"]
        if kind in (*DEAL_KINDS, GAME_KIND, MALFORMED_KIND):
            counts["deal" if kind in DEAL_KINDS else kind] += 1
            try:
                problem = case_problem(kind, json.loads(data))
            except (KeyError, TypeError, ValueError) as err:
                problem = (
                    f"not a vector case ({err})" if isinstance(err, ValueError) else f"not a vector case (no {err})"
                )
            if problem is not None:
                failures.append(f"{entry['path']}: {problem}")
    seconds = time.perf_counter() - started
    return VectorsResult(preset, counts["deal"], counts["game"], counts["malformed"], tuple(failures), seconds)


def listing_problems(base: Path, preset: str, listed: set[str]) -> list[str]:
    """Files of the preset's folder that ``index.json`` does not list, and listed files that are missing."""
    folder = base / preset
    on_disk = {p.relative_to(base).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()
    out = [f"{rel}: not listed in index.json" for rel in sorted(on_disk - listed)]
    return out + [f"{rel}: listed in index.json but missing" for rel in sorted(listed - on_disk)]


def case_problem(kind: str, case: dict[str, object]) -> str | None:
    """How the model's answer to one case differs from what the case states (None: it agrees)."""
    answer = handle({"id": 0, **vector_request(case)})
    if kind == MALFORMED_KIND:
        expected = case["expected"]
        want = expected.get("kind") if isinstance(expected, dict) else None
        if answer.get("ok") is not False:
            return f"malformed input accepted; expected an error of kind {want!r}"
        error = answer.get("error")
        got = error.get("kind") if isinstance(error, dict) else None
        return None if got == want else f"refused with kind {got!r}, expected {want!r}"
    record = case["record"]
    players = record.get("players") if isinstance(record, dict) else None
    who = f"{players} players: " if isinstance(players, int) else ""
    if not answer.get("ok"):
        error = answer.get("error")
        said = f"[{error.get('kind')}] {error.get('message')}" if isinstance(error, dict) else str(error)
        return f"{who}the model refuses the record: {said}"
    result = answer.get("result")
    code = 0 if isinstance(result, dict) and result.get("legal") else 1
    if code != case["exit"]:
        return f"{who}exit code {code}, the vector says {case['exit']}"
    difference = first_difference(case["expected"], result, VECTOR_AND_MODEL)
    return None if difference is None else f"{who}{difference}"
