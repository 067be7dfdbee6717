"""Which rule sets are compared: one ruling field's default against another of its readings, per preset.

Everything is derived from ``comet.ruleset.RULING_FIELDS``, ``field_readings`` and ``applies`` (each game family declares the fields it reads), so a
ruling field added to ``Ruleset`` is picked up here with no change.  Integer fields (chips, stakes) have
no finite set of readings: their default is compared with one other value (``other_int``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, RULING_OF, Ruleset, field_readings
from comet.variant import applies


@dataclass(frozen=True, slots=True)
class Pair:
    """Two rule sets of one game compared deal by deal.  ``field`` is empty for a house-rules pair."""

    preset: str
    field: str
    a: Ruleset
    b: Ruleset

    @property
    def value_a(self) -> object:
        return getattr(self.a, self.field) if self.field else None

    @property
    def value_b(self) -> object:
        return getattr(self.b, self.field) if self.field else None

    @property
    def key(self) -> str:
        """``preset/field=value`` (or ``preset/house`` for two arbitrary rule sets)."""
        if not self.field:
            return f"{self.preset}/house"
        return f"{self.preset}/{self.field}={value_text(self.value_b)}"

    @property
    def ruling(self) -> str:
        return RULING_OF.get(self.field, "")

    def label_a(self) -> str:
        return f"{self.field} = {value_text(self.value_a)}" if self.field else "A"

    def label_b(self) -> str:
        return f"{self.field} = {value_text(self.value_b)}" if self.field else "B"


def value_text(value: object) -> str:
    """A reading as ``--ruling`` spells it (``true``, ``any_rank``, ``100``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def other_int(default: int) -> int:
    """The second value compared for an integer field: double the default (1 if the default is 0)."""
    return default * 2 if default else 1


def readings_of(field: str, default: object) -> tuple[object, ...]:
    """Every reading of ``field`` compared: the finite readings, or the default and ``other_int``."""
    values = field_readings(field)
    if values is not None:
        return values
    assert isinstance(default, int)
    return (default, other_int(default))


def presets_for(field: str, presets: Sequence[str] | None = None) -> tuple[str, ...]:
    """The presets (of ``presets``, default all) whose game the ruling behind ``field`` applies to."""
    names = sorted(PRESETS) if presets is None else list(presets)
    return tuple(n for n in names if field in RULING_OF and applies(field, preset(n).rules.variant))


def pairs_for(field: str, presets: Sequence[str] | None = None) -> tuple[Pair, ...]:
    """The preset default of ``field`` against each of its other readings, in every preset it applies to."""
    if field not in RULING_FIELDS:
        raise ValueError(f"unknown ruling {field!r}; known: {', '.join(RULING_FIELDS)}")
    out = []
    for name in presets_for(field, presets):
        base = preset(name).rules
        default = getattr(base, field)
        for value in readings_of(field, default):
            if value != default:
                out.append(Pair(name, field, base, base.with_overrides({field: value})))
    return tuple(out)


def all_pairs(presets: Sequence[str] | None = None, fields: Sequence[str] | None = None) -> tuple[Pair, ...]:
    """Every reading pair of every field (``fields``, default all) in every preset it applies to."""
    chosen = RULING_FIELDS if fields is None else fields
    return tuple(p for f in chosen for p in pairs_for(f, presets))
