"""Plain words for players: a rule's statement without its implementation notes, the readings' labels.

Nothing here states a rule: the statements are the spec's own sentences (``spec/rules*.md``), with the
sentences that speak of code (backticks, the model, records) left out; the reading labels are the
descriptions on the spec's reading lines (``- `field = VALUE` (default): …``).
"""

from __future__ import annotations

import json
import re

from comet.site.sources import CITATION, READING, Section, SpecFile

DEV_WORDS = re.compile(r"`|\bmodel\b|\brecord|Ruleset|RecordError|\bseat \d|\bseed\b", re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
PAREN_CODE = re.compile(r"\s*\([^()]*`[^()]*\)")
CLAUSE_CODE = re.compile(r",[^,.;(]*`[^.;]*(?=[.;])")


def statement(sec: Section) -> str:
    """The rule's first paragraph in plain words (Markdown; rule ids are kept, the site links them)."""
    para: list[str] = []
    for line in sec.body:
        if CITATION.match(line) or line.startswith("**"):
            break
        if not line.strip():
            if para:
                break
            continue
        para.append(line.strip())
    text = CLAUSE_CODE.sub("", PAREN_CODE.sub("", " ".join(para)))
    kept = [s for s in SENTENCE.split(text) if s and not DEV_WORDS.search(s)]
    return " ".join(kept)


def is_contract(sec: Section) -> bool:
    """A rule of the record contract (for implementers, not players)."""
    return sec.id.startswith("R-REC-") or "record contract" in sec.chapter.lower()


def reading_labels(files: list[SpecFile]) -> dict[tuple[str, str], str]:
    """(field, JSON text of the value) -> the reading's description, cut at its first clause."""
    out: dict[tuple[str, str], str] = {}
    for f in files:
        for sec in f.sections:
            for line in sec.body:
                m = READING.match(line)
                if m:
                    out.setdefault((m.group(1), canonical(m.group(2))), short(m.group(4)))
    return out


def canonical(value: str) -> str:
    """A reading's value as JSON text, whether written ``"must"``, ``must``, ``false`` or ``2``."""
    try:
        return json.dumps(json.loads(value))
    except ValueError:
        return json.dumps(value.strip().strip('"'))


def short(description: str) -> str:
    """The first clause of a description, without Markdown marks, at most about 90 characters."""
    text = re.sub(r"[`*]", "", description).strip()
    first = re.split(r"(?<=[.;:])\s|\s\(", text, maxsplit=1)[0].rstrip(".;:")
    if len(first) > 90:
        first = first[:88].rsplit(" ", 1)[0] + "…"
    return first


def label(labels: dict[tuple[str, str], str], field: str, value: object) -> str:
    """A reading in words: its description, or ``field = value`` when the spec gives none."""
    key = (field, json.dumps(value))
    if key in labels:
        return labels[key]
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return f"{field.replace('_', ' ')}: {shown}"
