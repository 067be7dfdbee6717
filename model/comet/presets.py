"""Named presets: a variant is data (a ``Ruleset``) plus, where its rules differ, engine hooks."""

from __future__ import annotations

from dataclasses import dataclass

from comet.errors import RecordError
from comet.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    rules: Ruleset
    description: str
    sources: tuple[str, ...]


PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard",
        Ruleset(),
        "The two-pack game for 2-5 players, chips, our default reading of every ruling",
        ("000:19", "002:1-30", "003:19"),
    ),
}


def preset(name: str) -> Preset:
    """The preset called ``name``; RecordError naming the known presets otherwise."""
    p = PRESETS.get(name)
    if p is None:
        raise RecordError("variant", f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return p
