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
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from comet.checks.coverage import import_if_installed
from comet.commands.common import reading_root
from comet.commands.reading_labels import RULING_FILES, reading_labels
from comet.presets import PRESETS
from comet.records.deal_record import JsonObject, JsonValue
from comet.records.rules_file import dumps_toml, resolve
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.variant import applies, families_reading

if TYPE_CHECKING:
    from rich.console import Console

RULE_HEADING = re.compile(r"^### (R-[A-Z0-9-]+): (.+)$")
RULING_HEADING = re.compile(r"^### (RUL-[A-Z0-9-]+): (.+)$")
CITATION = re.compile(r'^\s*- (\d{3}:\d+(?:-\d+)?) "')
RULE_FILES = ("rules.md", "rules-variants.md")


def default_spec_dir() -> Path:
    """``spec/`` of the checkout the package runs from, or of the copy an installed wheel ships
    (``reading_root``), else where a source tree would hold it (absent: the listings then say so, or show no
    questions)."""
    try:
        return reading_root() / "spec"
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
    print_listing("comet rules", ("rule",), "title", ("cites", "implemented by"), rule_rows(rows), "implemented by")
    return 0


def rule_rows(rows: list[JsonObject]) -> list[Row]:
    """``rule_list``'s rows as listing rows: the id, the title, the citations and the implementing functions."""
    out: list[Row] = []
    for r in rows:
        cites, impl = r["citations"], r["implemented_by"]
        assert isinstance(cites, list) and isinstance(impl, list)
        out.append(
            Row(
                (str(r["id"]),),
                str(r["title"]),
                (("cites", ", ".join(map(str, cites))), ("implemented by", ", ".join(map(str, impl)))),
                whole=tuple(map(str, impl)),
            )
        )
    return out


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
    """A reading as the rule-set files spell it: booleans in lower case (``false``), the rest as is."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_rulings(args: argparse.Namespace) -> int:
    rows = ruling_list(args.spec or default_spec_dir())
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    print_listing("comet rulings", ("field", "ruling"), "question", ("readings", "defaults"), ruling_rows(rows))
    return 0


def ruling_rows(rows: list[JsonObject]) -> list[Row]:
    """``ruling_list``'s rows as listing rows: field and ruling id, the question, the readings (each with its
    plain label, booleans spelt as the defaults are) and the default in each preset."""
    out: list[Row] = []
    for r in rows:
        readings, defaults, labels = r["readings"], r["defaults"], r["labels"]
        assert isinstance(defaults, dict) and isinstance(labels, dict)
        if isinstance(readings, list):
            shown = ", ".join(f"{_text(x)} ({labels[_text(x)]})" if _text(x) in labels else _text(x) for x in readings)
        else:
            shown = "a whole number"
        dflt = ", ".join(f"{k}: {_text(v)}" for k, v in defaults.items()) or "(applies to no preset)"
        out.append(
            Row((str(r["field"]), str(r["ruling"])), str(r["question"]), (("readings", shown), ("defaults", dflt)))
        )
    return out


@dataclass(frozen=True)
class Row:
    """One line of a listing: its names (never cut), its text, its other cells (label, text)."""

    names: tuple[str, ...]
    text: str
    cells: tuple[tuple[str, str], ...]
    # words in the cell ``print_listing``'s ``whole_col`` names that must not be cut either (dotted names)
    whole: tuple[str, ...] = ()


def print_listing(
    title: str,
    name_cols: tuple[str, ...],
    text_col: str,
    cell_cols: tuple[str, ...],
    rows: list[Row],
    whole_col: str | None = None,
    console: Console | None = None,
) -> None:
    """Print ``rows`` whole: a table on a terminal wide enough that no name is cut, else (a narrow terminal, a
    pipe, a file) one block per row, the names first, each cell on a line of its own."""
    if console is None:
        from rich.console import Console

        console = Console()
    widths = _column_widths(console.width, name_cols, cell_cols, rows, whole_col)
    if console.is_terminal and widths is not None:
        from rich.table import Table

        table = Table(title=title)
        cols = (*name_cols, text_col, *cell_cols)
        for col, width in zip(cols, widths, strict=True):
            table.add_column(col, width=width, no_wrap=col in name_cols, overflow="fold")
        for r in rows:
            table.add_row(*r.names, r.text, *(text for _, text in r.cells))
        console.print(table)
        return
    console.file.write(format_blocks(rows, console.width if console.is_terminal else None))


def _column_widths(
    width: int, name_cols: tuple[str, ...], cell_cols: tuple[str, ...], rows: list[Row], whole_col: str | None
) -> list[int] | None:
    """Each column's width in a table ``width`` columns wide (names first, then the text, then the cells):
    every name and every whole word uncut, the rest shared out, at least 16 columns each; None when that does
    not fit (3 columns of border and padding per column, and one more)."""
    names = [max(len(r.names[i]) for r in rows) for i in range(len(name_cols))]
    whole = max((len(w) for r in rows for w in r.whole), default=0)
    shared = 1 + len(cell_cols)
    room = width - sum(names) - 3 * (len(names) + shared) - 1
    if whole_col is not None:
        room -= whole
        shared -= 1
    if shared and room // shared < 16:
        return None
    share = room // shared if shared else 0
    return [*names, share, *(whole if c == whole_col else share for c in cell_cols)]


def format_blocks(rows: list[Row], width: int | None = None) -> str:
    """The plain layout: per row, its names and text, then each cell indented, nothing cut; on a terminal
    ``width`` columns wide the lines wrap between words (a name longer than the line stays whole)."""
    out: list[str] = []

    def put(line: str, indent: str) -> None:
        if width is None:
            out.append(line)
        else:
            out.extend(
                textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
            )

    for r in rows:
        put("  ".join(r.names) + (f": {r.text}" if r.text else ""), "    ")
        for label, text in r.cells:
            if text:
                put(f"    {label}: {text}", "        ")
        out.append("")
    return "\n".join(out) + "\n"
