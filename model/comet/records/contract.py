"""The version of the observable contract, and the check that keeps ``spec/CHANGELOG.md`` honest.

Everything another implementation compares against (records, replay outputs, the oracle's answers,
the vectors) carries ``FORMAT``: records and replay outputs in a ``format`` field, ``vectors/index.json``
and ``vectors/perft.json`` in theirs, the oracle in ``hello``.  Each change to what an implementation
can observe (a field, a label, a fault kind, a default, the order of legal actions) raises ``FORMAT``
by one and gets an entry in ``spec/CHANGELOG.md``.

**Format pinning.**  A record's ``format`` says which contract it was written for, and it is replayed
under that format's rules: ``FORMAT_DEFAULTS[f]`` holds, per preset, the readings format ``f`` had by
default where today's default differs, and they are applied before the record's own ``rulings``
(``pinned_readings``).  So a record written today means the same after a default changes.  What to do
when the rules change (``spec/implementing.md``, "Pinning a version"):

- **a new ruling field whose default plays as before** (the usual case: a new reading made switchable):
  nothing here; older formats read it at its default, which is what they played;
- **a new ruling field whose default changes play**, or **an existing default changed**: raise
  ``FORMAT``, add an empty ``FORMAT_DEFAULTS[FORMAT]``, and add ``{preset: {field: old_reading}}`` to
  every earlier supported format (``"*"`` for every preset the ruling applies to);
- a format whose differences are not readings (fault kinds, labels, the order of legal actions) cannot be
  pinned: move it from ``SUPPORTED_FORMATS`` to ``OBSOLETE_FORMATS`` with the reason, and a record of it is
  refused (kind ``field``) with a message naming the supported formats.

``tests/test_format_pinning.py`` checks that every pinned reading is a reading of a preset's ruling and
that a pinned default changes a replay as it says.

The latest entry of the changelog records a digest of ``vectors/`` (``vectors_digest``); a test
(``tests/test_contract.py``) fails when the shipped vectors no longer match it, so vectors cannot
change without the changelog saying why (and, if the contract changed, under a new version).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from comet.trace import rule

#: The contract's version: raise it by one for every change an implementation can observe.
FORMAT = 3

#: A reading of a ruling, as a record states it.
Reading = str | int | bool

#: The formats a record may state; a record without ``format`` is read as ``FORMAT``.
SUPPORTED_FORMATS: tuple[int, ...] = (2, 3)

#: Formats that are refused, with why they cannot be pinned.
OBSOLETE_FORMATS: Mapping[int, str] = {
    1: "format 1 differs from format 2 in fault kinds, payment labels and the order of legal actions, "
    "which no reading restores (spec/CHANGELOG.md, 'Format 2')",
}

#: Per supported format, per preset (``"*"``: every preset the ruling applies to), the readings that
#: were that format's defaults where today's differ.  ``FORMAT_DEFAULTS[FORMAT]`` is empty by definition.
#: Format 2 -> 3 changed no default (format 3 added the limits of R-REC-LIMITS and refused format 1).
FORMAT_DEFAULTS: Mapping[int, Mapping[str, Mapping[str, Reading]]] = {
    2: {},
    3: {},
}


@rule("R-REC-FORMAT")
def pinned_readings(fmt: int | None, variant: str) -> dict[str, Reading]:
    """The readings a record of format ``fmt`` (None: the current one) of ``variant`` starts from, before
    its own ``rulings``: its format's defaults where they differ from today's."""
    if fmt is None or fmt == FORMAT:
        return {}
    table = FORMAT_DEFAULTS.get(fmt, {})
    return {**table.get("*", {}), **table.get(variant, {})}


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
    """Why a record's ``format`` cannot be read (None if it can): the supported formats are read, each
    under its own defaults (``pinned_readings``); obsolete, later and other numbers are refused."""
    supported = ", ".join(map(str, SUPPORTED_FORMATS))
    if value in SUPPORTED_FORMATS:
        return None
    if value in OBSOLETE_FORMATS:
        return f"format {value} is obsolete: {OBSOLETE_FORMATS[value]}; this comet reads formats {supported}"
    if value > FORMAT:
        return f"the record is written for contract format {value}; this comet reads formats {supported}"
    return f"'format' is a contract version ({supported}), not {value}"
