"""The divergence report(s) under ``spec/divergence/``, read by their structure, not their figures.

``comet diverge --out DIR`` writes ``DIR/README.md`` (an index) and one page ``DIR/RUL-ID.md`` per ruling
(older reports: all in ``README.md``), each holding one ``## RUL-ID: `field` `` section per ruling
field, and under it one ``### preset: `field = a` (A) against `field = b` (B)`` section per reading pair,
holding the witness, then the impact: one or more paragraphs starting ``**Impact`` (one per player count
in the newer reports), each with its tables and plots (``![...](file.png)``).
Every such report found (the main one and the larger studies in sub-folders) is read; whatever they
hold at build time is what the site shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RULING = re.compile(r"^## (RUL-[A-Z0-9-]+): `([A-Za-z0-9_]+)`")
PAIR = re.compile(r"^### ([a-z0-9_]+): `([A-Za-z0-9_]+) = ([^`]+)` \(A\) against `[A-Za-z0-9_]+ = ([^`]+)` \(B\)")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+\.png)\)")


@dataclass(frozen=True, slots=True)
class Impact:
    """One reading pair's impact section of one report."""

    report: str  # the report's folder relative to spec/divergence ("" for the main one)
    heading: str  # the report's own description of its run (its first paragraph)
    ruling: str
    preset: str
    field: str
    a: str
    b: str
    markdown: tuple[str, ...]  # from the **Impact** paragraph to the end of the pair's section
    plots: tuple[tuple[str, Path], ...]  # (alt text, png file)


def _first_paragraph(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines[1:]:
        if line.startswith("## "):
            break
        if line.strip():
            out.append(line.strip())
        elif out and not out[-1].startswith("Generated"):
            break
    return " ".join(x for x in out if x.startswith("Generated") or x.startswith("Run on")) or " ".join(out[:1])


def read_report(path: Path, root: Path, heading: str = "") -> list[Impact]:
    """The impact sections of one page; ``heading``: the run's description, if the page does not hold it (a
    ruling's own page ``RUL-ID.md`` beside its index)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    folder = str(path.parent.relative_to(root)) if path.parent != root else ""
    heading = heading or _first_paragraph(lines)
    out: list[Impact] = []
    ruling = ""
    pair: tuple[str, str, str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if pair is None:
            return
        # "**Impact** over N paired deals …" or, per player count, "**Impact at 3 players** (…)"
        start = next((i for i, x in enumerate(body) if x.startswith("**Impact")), None)
        if start is None:
            return
        md = body[start:]
        plots = tuple((m.group(1), path.parent / m.group(2)) for x in md for m in IMAGE.finditer(x))
        md = [IMAGE.sub("", x) for x in md]
        out.append(Impact(folder, heading, ruling, pair[0], pair[1], pair[2], pair[3], tuple(md), plots))

    for line in lines + ["## "]:
        r = RULING.match(line)
        p = PAIR.match(line)
        if r or p or line.startswith("## "):
            close()
            pair = None
            body = []
            if r:
                ruling = r.group(1)
            if p:
                pair = (p.group(1), p.group(2), p.group(3), p.group(4))
            continue
        if pair is not None:
            body.append(line)
    return out


def read_reports(divergence: Path) -> list[Impact]:
    """Every impact section of every report under ``divergence`` (the main report first)."""
    if not divergence.is_dir():
        return []
    paths = sorted(divergence.rglob("README.md"), key=lambda p: (len(p.parts), str(p)))
    out: list[Impact] = []
    for p in paths:
        out.extend(read_report(p, divergence))
        # a report in pages (``comet.commands.diverge_pages``): its index, and one page per ruling
        heading = _first_paragraph(p.read_text(encoding="utf-8").splitlines())
        for page in sorted(p.parent.glob("RUL-*.md")):
            out.extend(read_report(page, divergence, heading))
    return out
