"""Rule-set files (TOML) and the ``--rules A`` specification of ``comet diverge``.

A rule-set file names a preset and the reading of every ruling that applies to it::

    # comet rule set, written by `comet rules show --toml`
    preset = "standard"

    [rulings]
    comet_lead = "forbidden"   # RUL-COMET-LEAD
    starting_chips = 100       # RUL-STARTING-CHIPS

Fields left out keep the preset's reading.  Every error is one plain line naming the file
(``ValueError``, which the command line prints and exits 2 on).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, Ruleset, ruling_of
from comet.variant import applies

TOP_KEYS = ("preset", "rulings")


@dataclass(frozen=True, slots=True)
class NamedRules:
    """A rule set with the preset it starts from and how a person wrote it."""

    label: str
    preset: str
    rules: Ruleset


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps_toml(preset_name: str, rules: Ruleset) -> str:
    """The rule-set file for ``rules`` (every field whose ruling applies to the preset's game)."""
    lines = [
        "# comet rule set, written by `comet rules show --toml`; read by `comet diverge --rules FILE`",
        f"preset = {toml_value(preset_name)}",
        "",
        "[rulings]",
    ]
    for name in RULING_FIELDS:
        if applies(name, rules.variant):
            lines.append(f"{name} = {toml_value(getattr(rules, name))}  # {ruling_of(name)}")
    return "\n".join(lines) + "\n"


def loads_toml(text: str, where: str = "rule-set file") -> NamedRules:
    """Read a rule-set file's text; ValueError with one line naming ``where`` for anything wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{where}: not TOML: {e}") from None
    unknown = sorted(k for k in data if k not in TOP_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}; a rule-set file holds 'preset' and [rulings]")
    name = data.get("preset")
    if not isinstance(name, str):
        raise ValueError(f"{where}: 'preset' must name a preset (one of: {', '.join(sorted(PRESETS))})")
    if name not in PRESETS:
        raise ValueError(f"{where}: unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    rulings = data.get("rulings", {})
    if not isinstance(rulings, dict):
        raise ValueError(f"{where}: [rulings] must be a table of FIELD = VALUE")
    try:
        rules = preset(name).rules.with_overrides(rulings)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    return NamedRules(where, name, rules)


def load_rules_file(path: Path) -> NamedRules:
    """Read a rule-set file; ValueError with one line for a missing file or bad content."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read rule-set file {str(path)!r}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    return loads_toml(text, str(path))


def parse_overrides(items: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--ruling takes FIELD=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out


def resolve(spec: str, overrides: Sequence[str] = ()) -> NamedRules:
    """A preset name or a rule-set file, then ``FIELD=VALUE`` overrides; ValueError if neither fits."""
    if spec in PRESETS:
        named = NamedRules(spec, spec, preset(spec).rules)
    elif spec.endswith(".toml") or Path(spec).is_file():
        named = load_rules_file(Path(spec))
    else:
        raise ValueError(f"{spec!r} is neither a preset ({', '.join(sorted(PRESETS))}) nor a rule-set file")
    if not overrides:
        return named
    try:
        rules = named.rules.with_overrides(parse_overrides(overrides))
    except (ValueError, RecordError) as e:
        raise ValueError(str(e)) from None
    return NamedRules(f"{named.label} with {', '.join(overrides)}", named.preset, rules)
