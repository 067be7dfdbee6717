"""The traceability gate: parse ``spec/rules*.md`` and ``spec/rulings*.md`` and check them.

Every check is a plain function that returns a list of problems (one readable
line each, naming file and line), so the tests can assert an empty list and
can also feed the checks deliberately broken input to show that they catch it.
The formats are the ones fixed in DESIGN.md ("Conventions checked by tests").
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "spec"
SEED_DIR = ROOT / "seeds"
TEST_DIR = ROOT / "tests"

RULE_HEADING = re.compile(r"^### (R-[A-Z0-9]+(?:-[A-Z0-9]+)*): (\S.*)$")
RULING_HEADING = re.compile(r"^### (RUL-[A-Z0-9]+(?:-[A-Z0-9]+)*): (\S.*\?)$")
CITATION = re.compile(r'^\s*- (\d{3}):(\d+)(?:-(\d+))? "([^"]+)"(.*)$')
CITATION_LIKE = re.compile(r"^\s*- \d{3}:")
READING = re.compile(r"^\s*- `([A-Za-z_][A-Za-z0-9_]*) = ([^`]+)`( \(default\))?: (\S.*)$")
READING_LIKE = re.compile(r"^\s*- `[^`]* = ")
APPLIES_TO = re.compile(r"^\*\*Applies to\.\*\* (.+)$")
IMPLEMENTED_BY = re.compile(r"^\*\*Implemented by\.\*\* (.+)$")
DOTTED = re.compile(r"`(comet(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
RULE_ID_IN_TEXT = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
RULING_PARTS = ("**Question.**", "**Sources.**", "**Readings.**", "**Default and why.**", "**Example.**")
NOT_SWITCHABLE = ("**Not switchable.**", "**Not yet switchable.**")


@dataclass(frozen=True, slots=True)
class Citation:
    file: str
    line: int
    seed: str
    first: int
    last: int
    quote: str


@dataclass(frozen=True, slots=True)
class Reading:
    file: str
    line: int
    field: str
    raw: str
    default: bool


@dataclass(frozen=True, slots=True)
class Section:
    """One ``### ID: title`` section of a spec file (kind ``rule`` or ``ruling``)."""

    file: str
    line: int
    kind: str
    id: str
    title: str
    body: tuple[str, ...]
    citations: tuple[Citation, ...]
    readings: tuple[Reading, ...]


@dataclass(frozen=True, slots=True)
class Parsed:
    sections: tuple[Section, ...]
    problems: tuple[str, ...]


def normalise(text: str) -> str:
    """Whitespace runs (line breaks included) count as one space."""
    return " ".join(text.split())


def load_seeds(seed_dir: Path = SEED_DIR) -> dict[str, list[str]]:
    """Seed id -> its lines (1-based line L is ``lines[L - 1]``); the last line need not end in a newline."""
    seeds: dict[str, list[str]] = {}
    for path in sorted(seed_dir.glob("[0-9][0-9][0-9]_*.txt")):
        seeds[path.name[:3]] = path.read_text(encoding="utf-8").split("\n")
    return seeds


def spec_files(spec_dir: Path = SPEC_DIR) -> tuple[Path, ...]:
    return tuple(sorted(spec_dir.glob("rules*.md")) + sorted(spec_dir.glob("rulings*.md")))


def parse_spec(name: str, text: str) -> Parsed:
    """Split a spec file into sections; report malformed headings, citations and reading lines."""
    kind = "ruling" if Path(name).name.startswith("rulings") else "rule"
    pattern = RULING_HEADING if kind == "ruling" else RULE_HEADING
    problems: list[str] = []
    sections: list[Section] = []
    current: tuple[int, str, str] | None = None
    body: list[tuple[int, str]] = []

    def close() -> None:
        if current is None:
            return
        line, sid, title = current
        cites: list[Citation] = []
        reads: list[Reading] = []
        for n, t in body:
            m = CITATION.match(t)
            if m:
                first = int(m.group(2))
                last = int(m.group(3)) if m.group(3) else first
                cites.append(Citation(name, n, m.group(1), first, last, m.group(4)))
            elif CITATION_LIKE.match(t):
                problems.append(
                    f'{name}:{n}: malformed citation (want - NNN:L "quote" or - NNN:L-M "quote"): {t.strip()}'
                )
            r = READING.match(t)
            if r:
                reads.append(Reading(name, n, r.group(1), r.group(2).strip(), bool(r.group(3))))
            elif READING_LIKE.match(t):
                problems.append(f"{name}:{n}: malformed reading (want - `field = VALUE` (default): text): {t.strip()}")
        sections.append(Section(name, line, kind, sid, title, tuple(t for _, t in body), tuple(cites), tuple(reads)))

    for n, t in enumerate(text.split("\n"), start=1):
        if t.startswith("### "):
            close()
            body = []
            m = pattern.match(t)
            if m is None:
                want = "### RUL-ID: Question?" if kind == "ruling" else "### R-ID: Title"
                problems.append(f"{name}:{n}: malformed heading (want {want}): {t}")
                current = None
            else:
                current = (n, m.group(1), m.group(2))
            continue
        if t.startswith(("# ", "## ")):
            close()
            body = []
            current = None
            continue
        body.append((n, t))
    close()
    return Parsed(tuple(sections), tuple(problems))


def parse_files(paths: Iterable[Path]) -> Parsed:
    sections: list[Section] = []
    problems: list[str] = []
    for p in paths:
        parsed = parse_spec(f"spec/{p.name}", p.read_text(encoding="utf-8"))
        sections.extend(parsed.sections)
        problems.extend(parsed.problems)
    return Parsed(tuple(sections), tuple(problems))


# --------------------------------------------------------------------------- citations and structure


def check_citation(c: Citation, seeds: Mapping[str, Sequence[str]]) -> list[str]:
    where = f"{c.file}:{c.line}"
    lines = seeds.get(c.seed)
    if lines is None:
        return [f"{where}: no seed {c.seed} in seeds/ (known: {', '.join(sorted(seeds))})"]
    if not 1 <= c.first <= c.last <= len(lines):
        return [f"{where}: {c.seed}:{c.first}-{c.last} is outside seed {c.seed}, which has lines 1-{len(lines)}"]
    text = normalise(" ".join(lines[c.first - 1 : c.last]))
    if normalise(c.quote) not in text:
        span = f"{c.first}" if c.first == c.last else f"{c.first}-{c.last}"
        return [f'{where}: quote "{c.quote}" does not occur in {c.seed}:{span}']
    return []


def citations_in_text(name: str, text: str) -> tuple[tuple[Citation, ...], tuple[str, ...]]:
    """Every citation line anywhere in a markdown file (inside sections or not), and malformed ones."""
    cites: list[Citation] = []
    problems: list[str] = []
    for n, t in enumerate(text.split("\n"), start=1):
        m = CITATION.match(t)
        if m:
            first = int(m.group(2))
            last = int(m.group(3)) if m.group(3) else first
            cites.append(Citation(name, n, m.group(1), first, last, m.group(4)))
        elif CITATION_LIKE.match(t):
            problems.append(f'{name}:{n}: malformed citation (want - NNN:L "quote" or - NNN:L-M "quote"): {t.strip()}')
    return tuple(cites), tuple(problems)


def check_citations(sections: Sequence[Section], seeds: Mapping[str, Sequence[str]]) -> list[str]:
    problems: list[str] = []
    for s in sections:
        for c in s.citations:
            problems.extend(check_citation(c, seeds))
    return problems


def check_structure(sections: Sequence[Section]) -> list[str]:
    """Ids unique; every section cites a seed; rules name their code; rulings have all their parts."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for s in sections:
        where = f"{s.file}:{s.line}"
        if s.id in seen:
            problems.append(f"{where}: id {s.id} is used twice (first at {seen[s.id]})")
        else:
            seen[s.id] = where
        if not s.citations:
            problems.append(f"{where}: {s.id} cites no seed passage")
        if s.kind == "rule":
            if not implemented_by(s):
                problems.append(f"{where}: {s.id} has no '**Implemented by.** `comet.module.function`' line")
        else:
            for part in RULING_PARTS:
                if not any(t.startswith(part) for t in s.body):
                    problems.append(f"{where}: {s.id} lacks the part {part}")
            if not s.readings and not any(t.startswith(NOT_SWITCHABLE) for t in s.body):
                problems.append(
                    f"{where}: {s.id} names no `field = VALUE` reading and is not marked **Not switchable.**"
                )
    return problems


def implemented_by(s: Section) -> tuple[str, ...]:
    for t in s.body:
        m = IMPLEMENTED_BY.match(t)
        if m:
            return tuple(DOTTED.findall(m.group(1)))
    return ()


# --------------------------------------------------------------------------- traceability


def import_all_comet_modules() -> None:
    """Import every module of the ``comet`` package so that every ``@rule`` has registered."""
    import comet

    for mod in pkgutil.walk_packages(comet.__path__, "comet."):
        try:
            importlib.import_module(mod.name)
        except (
            ModuleNotFoundError
        ) as e:  # comet.frameworks.openspiel / comet.frameworks.pettingzoo without their extras
            if e.name not in OPTIONAL_DEPENDENCIES:
                raise


#: Third-party packages of the optional extras (pyproject.toml); modules needing them name no rule ids.
OPTIONAL_DEPENDENCIES = frozenset({"pyspiel", "open_spiel", "pettingzoo", "gymnasium"})


def check_implemented(sections: Sequence[Section], implementations: Mapping[str, Sequence[str]]) -> list[str]:
    """Every rule id has an ``@rule`` in the model, its named functions are among them; and vice versa."""
    problems: list[str] = []
    rule_ids = {s.id for s in sections if s.kind == "rule"}
    for s in sections:
        if s.kind != "rule":
            continue
        impls = implementations.get(s.id)
        if not impls:
            problems.append(f"{s.file}:{s.line}: {s.id} is implemented by no @rule({s.id!r}) function in model/")
            continue
        for name in implemented_by(s):
            if name not in impls:
                problems.append(
                    f"{s.file}:{s.line}: {s.id} names {name}, which is not marked @rule({s.id!r}); marked: {', '.join(impls)}"
                )
    for rid in sorted(set(implementations) - rule_ids):
        problems.append(
            f"@rule({rid!r}) on {', '.join(implementations[rid])} has no '### {rid}: …' section in spec/rules*.md"
        )
    return problems


def check_tested(sections: Sequence[Section], test_texts: Mapping[str, str]) -> list[str]:
    """Every rule id is cited by at least one test file."""
    cited: set[str] = set()
    for text in test_texts.values():
        cited.update(RULE_ID_IN_TEXT.findall(text))
    return [
        f"{s.file}:{s.line}: {s.id} is cited by no test in tests/ (name it in a test name, docstring or comment)"
        for s in sections
        if s.kind == "rule" and s.id not in cited
    ]


def gate_test_texts(test_dir: Path = TEST_DIR) -> dict[str, str]:
    """The test files that count as exercising rules: all but the gate itself."""
    skip = {"test_traceability.py", "test_spec_citations.py", "spec_checks.py"}
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(test_dir.glob("*.py")) if p.name not in skip}


#: One preset of an ``**Applies to.**`` line: its name, and where the preset is itself one of the ruling's
#: readings (the ``opera`` preset of RUL-OPERA), that reading: ``opera (`opera = true`)``.
APPLIES_ITEM = re.compile(r"^([a-z0-9_]+)(?: \(`([a-z0-9_]+) = ([^`]+)`\))?$")


def _applies_items(s: Section) -> list[tuple[str, str | None, str | None]]:
    for t in s.body:
        m = APPLIES_TO.match(t)
        if m:
            out: list[tuple[str, str | None, str | None]] = []
            for x in (x.strip() for x in m.group(1).split(",")):
                if not x:
                    continue
                item = APPLIES_ITEM.match(x.strip("`") if "(" not in x else x)
                out.append((item.group(1), item.group(2), item.group(3)) if item else (x, None, None))
            return out
    return [("standard", None, None)]


def applies_to(s: Section) -> tuple[str, ...]:
    return tuple(name for name, _, _ in _applies_items(s))


def preset_readings(s: Section) -> dict[str, tuple[str, str]]:
    """The presets the ``**Applies to.**`` line says are themselves a reading: preset -> (field, raw value)."""
    return {name: (field, raw) for name, field, raw in _applies_items(s) if field is not None and raw is not None}


def check_readings(sections: Sequence[Section]) -> list[str]:
    """Readings name real fields and readings; exactly one default, equal to each applicable preset."""
    from comet.presets import PRESETS
    from comet.ruleset import RULING_FIELDS, coerce_field

    problems: list[str] = []
    for s in sections:
        if s.kind != "ruling" or not s.readings:
            continue
        where = f"{s.file}:{s.line}"
        for r in s.readings:
            if r.field not in RULING_FIELDS:
                problems.append(f"{r.file}:{r.line}: {s.id} names Ruleset field {r.field!r}, which does not exist")
                continue
            try:
                value = json.loads(r.raw)
            except json.JSONDecodeError:
                problems.append(f"{r.file}:{r.line}: {s.id}: reading value {r.raw} is not a JSON literal")
                continue
            try:
                coerce_field(r.field, value)
            except ValueError as e:
                problems.append(f"{r.file}:{r.line}: {s.id}: {e}")
        defaults = [r for r in s.readings if r.default]
        if len(defaults) != 1:
            problems.append(f"{where}: {s.id} marks {len(defaults)} readings (default); exactly one is required")
            continue
        d = defaults[0]
        try:
            dvalue = json.loads(d.raw)
        except json.JSONDecodeError:
            continue
        own = preset_readings(s)
        for name in applies_to(s):
            p = PRESETS.get(name)
            if p is None:
                problems.append(f"{where}: {s.id} applies to unknown preset {name!r}")
                continue
            actual = getattr(p.rules, d.field, None)
            if name in own:  # the preset is one of the readings, named on the line: it must have that one
                field, raw = own[name]
                named = [r for r in s.readings if r.field == field and r.raw == raw]
                if not named:
                    problems.append(f"{where}: {s.id}: Applies to names {field} = {raw} for {name!r}, not a reading")
                elif getattr(p.rules, field, None) != json.loads(raw):
                    problems.append(
                        f"{where}: {s.id}: Applies to says {name!r} has {field} = {raw}, "
                        f"but it has {json.dumps(getattr(p.rules, field, None))}"
                    )
                continue
            if actual != dvalue or type(actual) is not type(dvalue):
                problems.append(
                    f"{d.file}:{d.line}: {s.id}: default {d.field} = {d.raw}, but preset {name!r} has {json.dumps(actual)}"
                )
    return problems


def check_fields_covered(sections: Sequence[Section], fields: Iterable[str]) -> list[str]:
    """Every Ruleset field (but ``variant``) is selected by some ruling."""
    named = {r.field for s in sections if s.kind == "ruling" for r in s.readings}
    return [f"Ruleset field {f!r} is selected by no ruling in spec/rulings*.md" for f in fields if f not in named]
