"""The site's inputs, read from the checkout: the seed texts and the ``### ID: title`` sections of ``spec/``.

Nothing here holds a rule: every rule, ruling and quote is read from ``spec/rules*.md``,
``spec/rulings*.md`` and ``seeds/`` at build time (the formats of DESIGN.md, "Conventions checked by
tests"), so the site cannot drift from the spec.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SECTION = re.compile(r"^### ((?:RUL|R)-[A-Z0-9]+(?:-[A-Z0-9]+)*): (\S.*)$")
CITATION = re.compile(r'^\s*- (\d{3}):(\d+)(?:-(\d+))? "([^"]+)"(.*)$')
READING = re.compile(r"^\s*- `([A-Za-z_][A-Za-z0-9_]*) = ([^`]+)`( \(default\))?: (\S.*)$")
RULE_FILES = ("rules.md", "rules-variants.md")
RULING_FILES = ("rulings.md", "rulings-variants.md")
SEED_NAMES = {
    "000": "English rules page (000)",
    "003": "German rendering of 000 (003)",
    "002": "CatsAtCards article (002)",
}


@dataclass(frozen=True, slots=True)
class Citation:
    seed: str
    first: int
    last: int
    quote: str
    note: str  # what follows the quote on the line (a back-translation of a German quote)


@dataclass(frozen=True, slots=True)
class Section:
    """One rule (``R-…``) or ruling (``RUL-…``) of a spec file, with its Markdown body."""

    id: str
    title: str
    file: str  # e.g. "rules.md"
    chapter: str  # the ``## `` heading it sits under
    body: tuple[str, ...]

    @property
    def kind(self) -> str:
        return "ruling" if self.id.startswith("RUL-") else "rule"

    @property
    def citations(self) -> tuple[Citation, ...]:
        out = []
        for line in self.body:
            m = CITATION.match(line)
            if m:
                first = int(m.group(2))
                out.append(Citation(m.group(1), first, int(m.group(3) or first), m.group(4), m.group(5).strip()))
        return tuple(out)

    @property
    def fields(self) -> tuple[str, ...]:
        """The ``Ruleset`` fields its reading lines name, in order of first mention."""
        seen: list[str] = []
        for line in self.body:
            m = READING.match(line)
            if m and m.group(1) not in seen:
                seen.append(m.group(1))
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class SpecFile:
    name: str
    title: str
    intro: tuple[str, ...]  # the Markdown before the first ``## `` heading (without the title)
    sections: tuple[Section, ...]
    chapters: tuple[
        tuple[str, tuple[str, ...]], ...
    ] = ()  # each ``## `` heading with the text before its first section


def read_spec_file(path: Path) -> SpecFile:
    lines = path.read_text(encoding="utf-8").splitlines()
    title = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("# ") else path.stem
    intro: list[str] = []
    sections: list[Section] = []
    chapter = ""
    cur: tuple[str, str, str] | None = None
    chapters: dict[str, list[str]] = {}
    body: list[str] = []
    started = False
    for line in lines[1:] + ["## "]:
        m = SECTION.match(line)
        if m or line.startswith("## "):
            if cur is not None:
                sections.append(Section(cur[0], cur[1], path.name, cur[2], tuple(body)))
            body = []
            cur = None
            started = True
            if m:
                cur = (m.group(1), m.group(2).strip(), chapter)
            else:
                chapter = line[3:].strip()
                chapters.setdefault(chapter, [])
            continue
        if not started:
            intro.append(line)
        elif cur is not None:
            body.append(line)
        else:
            chapters[chapter].append(line)
    chapters.pop("", None)
    return SpecFile(
        path.name, title, tuple(intro), tuple(sections), tuple((c, tuple(x)) for c, x in chapters.items() if c)
    )


def read_spec(spec: Path, names: tuple[str, ...]) -> list[SpecFile]:
    out = [read_spec_file(spec / n) for n in names if (spec / n).exists()]
    if not out:
        raise ValueError(f"no {' or '.join(names)} under {spec} (run from a checkout, or pass --spec DIR)")
    return out


def read_seeds(seeds: Path) -> dict[str, list[str]]:
    """Seed id -> its lines (1-based line L is ``lines[L - 1]``)."""
    out: dict[str, list[str]] = {}
    for path in sorted(seeds.glob("[0-9][0-9][0-9]_*.txt")):
        out[path.name[:3]] = path.read_text(encoding="utf-8").split("\n")
    if not out:
        raise ValueError(f"no seed texts (NNN_*.txt) under {seeds}")
    return out


def normalise(text: str) -> str:
    return " ".join(text.split())
