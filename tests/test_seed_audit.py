"""Every seed line that states a rule is cited by a rule or a ruling; the rest are listed in
``spec/seed-audit.md`` with the reason they state none (issue 38 item 5: the catalogue points D-39, D-49
and D-56, which nothing identifies, replaced by an audit of every line).  Rules exercised through their
new citations: R-COMMIT-C-DEAL, R-RED9-SCORE, R-PLAY-CONTINUE, R-SETTLE-POINTS, R-SETTLE-CAUGHT,
R-DEAD-HAND, R-PACK-BLACK, R-PACK-RED, R-STOP-KING."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from spec_checks import Section, load_seeds, parse_files, spec_files

AUDIT = Path(__file__).resolve().parent.parent / "spec" / "seed-audit.md"
ROW = re.compile(r"^\| (\d{3}):(\d+) \| ([a-z]+) \| (.+) \|$")
#: What a line that states no rule may be.
KINDS = frozenset({"heading", "provenance", "history", "markup", "copyright"})


def listed(text: str) -> dict[tuple[str, int], tuple[str, str]]:
    """(seed, line) -> (kind, what it is), from the audit's table."""
    out: dict[tuple[str, int], tuple[str, str]] = {}
    for t in text.splitlines():
        m = ROW.match(t)
        if m:
            out[m.group(1), int(m.group(2))] = (m.group(3), m.group(4))
    return out


def audit_problems(
    seeds: Mapping[str, Sequence[str]], sections: Sequence[Section], rows: Mapping[tuple[str, int], tuple[str, str]]
) -> list[str]:
    """A non-blank seed line neither cited nor listed; a listed line that is blank, cited, outside its seed
    or of an unknown kind."""
    cited: dict[tuple[str, int], list[str]] = {}
    for s in sections:
        for c in s.citations:
            for n in range(c.first, c.last + 1):
                cited.setdefault((c.seed, n), []).append(s.id)
    problems: list[str] = []
    for seed, lines in sorted(seeds.items()):
        for n, text in enumerate(lines, start=1):
            if text.strip() and (seed, n) not in cited and (seed, n) not in rows:
                problems.append(
                    f"{seed}:{n} is cited by no rule or ruling and not listed in spec/seed-audit.md: {text[:80]!r}"
                )
    for (seed, n), (kind, _) in sorted(rows.items()):
        lines = seeds.get(seed, [])
        if not 1 <= n <= len(lines) or not lines[n - 1].strip():
            problems.append(f"{seed}:{n} is listed in spec/seed-audit.md but is no line of text")
        elif (seed, n) in cited:
            problems.append(f"{seed}:{n} is listed as stating no rule but cited by {', '.join(cited[seed, n])}")
        if kind not in KINDS:
            problems.append(f"{seed}:{n}: unknown kind {kind!r} (known: {', '.join(sorted(KINDS))})")
    return problems


SEEDS = load_seeds()
SECTIONS = parse_files(spec_files()).sections


def test_every_seed_line_is_cited_or_listed_with_a_reason() -> None:
    rows = listed(AUDIT.read_text(encoding="utf-8"))
    problems = audit_problems(SEEDS, SECTIONS, rows)
    assert not problems, "\n".join(problems)
    assert len(rows) >= 40  # the headings, markup and provenance of three seeds


def test_an_uncited_rule_line_and_a_stale_entry_are_reported() -> None:
    """Planted: R-COMMIT-C-DEAL's citation of the six-player row dropped (that row is then neither cited nor
    listed); a cited line listed as a heading; an unknown kind."""
    rows = listed(AUDIT.read_text(encoding="utf-8"))
    dropped = [
        s
        if s.id != "R-COMMIT-C-DEAL"
        else type(s)(
            s.file, s.line, s.kind, s.id, s.title, s.body, tuple(c for c in s.citations if c.first != 39), s.readings
        )
        for s in SECTIONS
    ]
    assert audit_problems(SEEDS, dropped, rows) == [
        "002:39 is cited by no rule or ruling and not listed in spec/seed-audit.md: '| 6 | 8 | Two Sevens and One Eight |'"
    ]
    stale = {**rows, ("000", 45): ("heading", "not really"), ("000", 1): ("title", "x")}
    problems = audit_problems(SEEDS, SECTIONS, stale)
    assert any(
        p.startswith("000:45 is listed as stating no rule but cited by") and "R-STOP-KING" in p for p in problems
    )
    assert "000:1: unknown kind 'title' (known: copyright, heading, history, markup, provenance)" in problems
