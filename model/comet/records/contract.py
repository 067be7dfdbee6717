"""The version of the observable contract, and the check that keeps ``spec/CHANGELOG.md`` honest.

Everything another implementation compares against (records, replay outputs, the oracle's answers,
the vectors) carries ``FORMAT``: records and replay outputs in a ``format`` field, ``vectors/index.json``
and ``vectors/perft.json`` in theirs, the oracle in ``hello``.  Each change to what an implementation
can observe (a field, a label, a fault kind, a default, the order of legal actions) raises ``FORMAT``
by one and gets an entry in ``spec/CHANGELOG.md``.

The latest entry of the changelog records a digest of ``vectors/`` (``vectors_digest``); a test
(``tests/test_contract.py``) fails when the shipped vectors no longer match it, so vectors cannot
change without the changelog saying why (and, if the contract changed, under a new version).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

#: The contract's version: raise it by one for every change an implementation can observe.
FORMAT = 2

#: ``## Format N`` headings; the digest line of an entry.
HEADING_RE = re.compile(r"^## Format (\d+)\b", re.MULTILINE)
DIGEST_RE = re.compile(r"^Vectors digest: `([0-9a-f]{64})`", re.MULTILINE)


def vectors_digest(root: Path) -> str:
    """SHA-256 over every file under ``root``: its path (relative, ``/``-separated) and its bytes' SHA-256,
    in path order.  Equal trees give equal digests; any added, removed, renamed or edited file changes it."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        h.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(path.read_bytes()).hexdigest().encode("ascii") + b"\n")
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    """The latest changelog entry: its version and the vectors digest it records (None if it has none)."""

    version: int
    digest: str | None


def latest_entry(changelog: str) -> Entry | None:
    """The first ``## Format N`` section of the changelog (entries are newest first)."""
    headings = list(HEADING_RE.finditer(changelog))
    if not headings:
        return None
    first = headings[0]
    end = headings[1].start() if len(headings) > 1 else len(changelog)
    digest = DIGEST_RE.search(changelog, first.end(), end)
    return Entry(int(first.group(1)), digest.group(1) if digest else None)


def changelog_problems(changelog: str, digest: str, version: int = FORMAT) -> list[str]:
    """Why the changelog does not account for the vectors (empty when it does)."""
    entry = latest_entry(changelog)
    if entry is None:
        return ["spec/CHANGELOG.md has no '## Format N' entry"]
    problems = []
    if entry.version != version:
        problems.append(
            f"the latest entry of spec/CHANGELOG.md is format {entry.version} but comet.records.contract.FORMAT is {version}"
        )
    if entry.digest != digest:
        problems.append(
            f"vectors/ changed (digest {digest}) but the latest entry of spec/CHANGELOG.md records "
            f"{entry.digest}: if the contract changed, raise comet.records.contract.FORMAT and add an entry saying what "
            "changed; if it did not, say in the latest entry what the vectors gained and put the new digest in "
            "its 'Vectors digest:' line (`comet vectors --digest vectors/` prints it)"
        )
    return problems


def check_format(value: int) -> str | None:
    """Why a record's ``format`` cannot be read (None if it can): versions 1..FORMAT are known."""
    if 1 <= value <= FORMAT:
        return None
    if value > FORMAT:
        return f"the record is written for contract format {value}; this comet implements formats up to {FORMAT}"
    return f"'format' is a contract version from 1 to {FORMAT}, not {value}"
