"""``comet rules``, ``comet rules show`` and ``comet rulings``: the rules, a rule set, and the rulings, listed.

``comet rules [--json]`` lists every rule id of ``spec/rules*.md`` with its title, the seed lines it cites
and the functions that implement it (``comet.trace.IMPLEMENTATIONS``).  ``comet rules show`` prints one
rule set (a preset with ``--ruling`` overrides) as TOML (a file ``comet diverge --rules`` reads) or JSON.
``comet rulings [--json]`` lists every ruling field: its ruling id and question, readings, the default in
each preset it applies to.
"""

from __future__ import annotations

import argparse
import json
import pkgutil
import re
from pathlib import Path
from typing import Any

from comet.checks.coverage import import_if_installed
from comet.commands.common import checkout_root
from comet.commands.reading_labels import RULING_FILES, reading_labels
from comet.presets import PRESETS
from comet.records.deal_record import JsonObject, JsonValue
from comet.records.rules_file import dumps_toml, resolve
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.variant import applies, families_reading

RULE_HEADING = re.compile(r"^### (R-[A-Z0-9-]+): (.+)$")
RULING_HEADING = re.compile(r"^### (RUL-[A-Z0-9-]+): (.+)$")
CITATION = re.compile(r'^\s*- (\d{3}:\d+(?:-\d+)?) "')
RULE_FILES = ("rules.md", "rules-variants.md")


def default_spec_dir() -> Path:
    """``spec/`` of the checkout the package runs from (``checkout_root``), else where a source tree would hold
    it (absent: the listings then say so, or show no questions)."""
    try:
        return checkout_root() / "spec"
    except ValueError:
        return Path(__file__).resolve().parents[3] / "spec"


def _spec_text(spec: Path, names: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    out = []
    for name in names:
        path = spec / name
        if path.exists():
            out.append((name, path.read_text(encoding="utf-8").splitlines()))
    if not out:
        raise ValueError(f"no {' or '.join(names)} under {spec} (use --spec DIR to point at the spec folder)")
    return out


def load_implementations() -> dict[str, list[str]]:
    """``IMPLEMENTATIONS`` after importing every module of the package that may register a rule."""
    import comet

    skip = ("comet.commands", "comet.diverge", "comet.cli", "comet.fast")
    for mod in pkgutil.walk_packages(comet.__path__, "comet."):
        if not mod.name.startswith(skip):
            import_if_installed(mod.name)
    from comet.trace import IMPLEMENTATIONS

    return IMPLEMENTATIONS


def rule_list(spec: Path) -> list[JsonObject]:
    """Every rule id in spec order: id, title, file, the seed lines cited, the implementing functions."""
    impls = load_implementations()
    out: list[JsonObject] = []
    for name, lines in _spec_text(spec, RULE_FILES):
        current: JsonObject | None = None
        for line in lines:
            m = RULE_HEADING.match(line)
            if m:
                cites: list[JsonValue] = []
                current = {
                    "id": m.group(1),
                    "title": m.group(2).strip(),
                    "file": f"spec/{name}",
                    "citations": cites,
                    "implemented_by": list(impls.get(m.group(1), [])),
                }
                out.append(current)
                continue
            if line.startswith("## ") or line.startswith("### "):
                current = None
            c = CITATION.match(line)
            if c and current is not None:
                cited = current["citations"]
                assert isinstance(cited, list)
                cited.append(c.group(1))
    return out


def ruling_titles(spec: Path) -> dict[str, tuple[str, str]]:
    """Ruling id -> (question, file) from ``spec/rulings*.md`` (empty if the spec folder is absent)."""
    out: dict[str, tuple[str, str]] = {}
    for name in RULING_FILES:
        path = spec / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            m = RULING_HEADING.match(line)
            if m:
                out[m.group(1)] = (m.group(2).strip(), f"spec/{name}")
    return out


def ruling_sources(spec: Path) -> dict[str, list[str]]:
    """Ruling id -> its citation lines (``NNN:L "quote"``) from ``spec/rulings*.md``."""
    out: dict[str, list[str]] = {}
    for name in RULING_FILES:
        path = spec / name
        if not path.exists():
            continue
        current: list[str] | None = None
        for line in path.read_text(encoding="utf-8").splitlines():
            m = RULING_HEADING.match(line)
            if m:
                current = out.setdefault(m.group(1), [])
            elif line.startswith("## ") or line.startswith("### "):
                current = None
            elif current is not None and CITATION.match(line):
                current.append(line.strip().removeprefix("- "))
    return out


def ruling_list(spec: Path) -> list[JsonObject]:
    """Every ruling field: its ruling id, question, readings (None: a whole number) with their plain labels,
    presets and defaults."""
    titles = ruling_titles(spec)
    plain = reading_labels(spec)
    out: list[JsonObject] = []
    for field in RULING_FIELDS:
        ruling = RULING_OF.get(field, "")
        presets = [n for n in sorted(PRESETS) if applies(field, PRESETS[n].rules.variant)] if ruling else []
        readings = field_readings(field)
        question, where = titles.get(ruling, ("", ""))
        defaults: dict[str, JsonValue] = {}
        for n in presets:
            v = getattr(PRESETS[n].rules, field)
            assert isinstance(v, bool | int | str)
            defaults[n] = v
        shown: JsonValue = None if readings is None else [r for r in readings if isinstance(r, bool | int | str)]
        out.append(
            {
                "field": field,
                "ruling": ruling,
                "question": question,
                "file": where,
                "readings": shown,
                # each reading in plain words, from the ruling's own **Readings.** list (where it has one)
                "labels": dict(plain.get(field, {})),
                "type": "integer" if readings is None else ("boolean" if False in readings else "choice"),
                "presets": list(presets),
                "defaults": defaults,
                "variants": list(families_reading(field)) if ruling else [],
            }
        )
    return out


def listing_options(p: argparse.ArgumentParser) -> None:
    """The options of the listings 'rules' and 'rulings': JSON output and the spec folder."""
    p.add_argument("--json", action="store_true", help="print JSON (a list of objects) instead of a table")
    p.add_argument(
        "--spec", type=Path, default=None, metavar="DIR", help="the spec folder (default: the checkout's spec/)"
    )


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "rules",
        help="list the rule ids (titles, citations, implementing functions); 'rules show' prints a rule set",
        description="List every rule id of spec/rules*.md with its title, the seed lines it cites and the "
        "functions implementing it; 'comet rules show' prints one rule set as TOML or JSON.",
    )
    listing_options(p)
    p.set_defaults(run=run_rules)
    rs = p.add_subparsers(dest="rules_action", metavar="ACTION")
    show = rs.add_parser(
        "show",
        help="print a rule set (a preset with --ruling overrides) as TOML or JSON",
        description="Print the reading of every ruling that applies to the preset, with overrides; "
        "--toml writes a file that 'comet diverge --rules FILE' reads.",
    )
    show.add_argument(
        "--preset", default="standard", metavar="P", help=f"the preset (one of: {', '.join(sorted(PRESETS))})"
    )
    show.add_argument(
        "--ruling", action="append", default=[], metavar="FIELD=VALUE", help="select a reading of a ruling (repeatable)"
    )
    fmt = show.add_mutually_exclusive_group()
    fmt.add_argument("--toml", action="store_true", help="TOML rule-set file (the default)")
    fmt.add_argument("--json", dest="show_json", action="store_true", help="JSON object")
    show.set_defaults(run=run_show)

    q: argparse.ArgumentParser = sub.add_parser(
        "rulings",
        help="list the ruling fields: readings, defaults per preset, the presets they apply to",
        description="List every ruling field of the Ruleset: its ruling id and question, its readings, "
        "the presets it applies to and the default reading in each.",
    )
    listing_options(q)
    q.set_defaults(run=run_rulings)


def run_rules(args: argparse.Namespace) -> int:
    rows = rule_list(args.spec or default_spec_dir())
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="comet rules")
    for col in ("rule", "title", "cites", "implemented by"):
        table.add_column(col)
    for r in rows:
        cites, impl = r["citations"], r["implemented_by"]
        assert isinstance(cites, list) and isinstance(impl, list)
        table.add_row(str(r["id"]), str(r["title"]), ", ".join(map(str, cites)), ", ".join(map(str, impl)))
    Console().print(table)
    return 0


def run_show(args: argparse.Namespace) -> int:
    named = resolve(args.preset, args.ruling)
    if args.show_json:
        values: dict[str, JsonValue] = {}
        for name in RULING_FIELDS:
            if name in RULING_OF and applies(name, named.rules.variant):
                v = getattr(named.rules, name)
                assert isinstance(v, bool | int | str)
                values[name] = v
        print(json.dumps({"preset": named.preset, "rulings": values}, indent=1))
    else:
        print(dumps_toml(named.preset, named.rules), end="")
    return 0


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_rulings(args: argparse.Namespace) -> int:
    rows = ruling_list(args.spec or default_spec_dir())
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="comet rulings")
    for col in ("field", "ruling", "readings", "defaults", "question"):
        table.add_column(col)
    for r in rows:
        readings = r["readings"]
        shown = (
            "whole number" if readings is None else ", ".join(map(str, readings)) if isinstance(readings, list) else ""
        )
        defaults = r["defaults"]
        assert isinstance(defaults, dict)
        dflt = ", ".join(f"{k}: {_text(v)}" for k, v in defaults.items())
        table.add_row(str(r["field"]), str(r["ruling"]), shown, dflt, str(r["question"]))
    Console().print(table)
    return 0
