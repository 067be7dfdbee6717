"""The readings a Z3 search is asked under, and the states it may pick: a model's readings as a ``Ruleset``
(``rules_of``), readings fixed for a question (``pin_readings``), a behaviour class's reading combinations, and
the constraints that keep an abstract state one a real deal can have (``realism``).  Shared by the refinement
check (``refine``), the witness-deal search (``traces``) and the smallest-witness search (``unrolling``)."""

from __future__ import annotations

import z3
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset, field_readings
from comet.variant import variant_of

from comet_proofs.catalogue import BehaviourClass, Overrides
from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import Readings, SymState


def rules_of(enc: Encoding, base: Ruleset, rd: Readings, model: z3.ModelRef) -> Ruleset:
    """The concrete rules a Z3 model picked: each quantified ruling's reading, the rest from ``base``.  A field
    may have several Booleans (one per reading it names): the reading whose Boolean is true, or, with none
    true, ``base``'s reading if it is not one of them, else the first reading none of them names."""
    named: dict[str, list[object]] = {}
    chosen: dict[str, list[object]] = {}
    for (field, value), flag in zip(rd.fields, rd.flags, strict=True):
        named.setdefault(field, []).append(value)
        if z3.is_true(model.eval(flag, model_completion=True)):
            chosen.setdefault(field, []).append(value)
    changes: dict[str, object] = {}
    for field, values in named.items():
        if field in chosen:
            changes[field] = chosen[field][0]
        elif getattr(base, field) not in values:
            changes[field] = getattr(base, field)
        else:
            rest = [r for r in field_readings(field) or () if r not in values]
            if not rest:
                raise ValueError(f"ruling {field!r}: every reading has a Boolean and none is true")
            changes[field] = rest[0]
    return base.with_overrides(changes)


def pin_readings(enc: Encoding, rd: Readings, base: Ruleset, overrides: Overrides, free: bool) -> list[z3.BoolRef]:
    """Fix the readings named in ``overrides``; unless ``free``, fix the others to ``base``'s."""
    named = dict(overrides)
    out: list[z3.BoolRef] = []
    for (field, value), flag in zip(rd.fields, rd.flags, strict=True):
        if field in named:
            out.append(flag == z3.BoolVal(named[field] == value))
        elif not free:
            out.append(flag == z3.BoolVal(getattr(base, field) == value))
    return out


def reading_combinations(enc: Encoding, cls: BehaviourClass) -> list[Overrides]:
    """The class's reading combinations, each limited to the rulings ``enc`` quantifies (a reading the
    preset does not have, e.g. a ruling another game's encoding quantifies, falls away), without repeats."""
    out: list[Overrides] = []
    for overrides in cls.readings:
        for field, _ in overrides:
            field_readings(field)  # an unknown field is a catalogue error (ValueError)
        kept = tuple((f, v) for f, v in overrides if enc.has_ruling(f))
        if kept not in out:
            out.append(kept)
    return out


def sweep_combinations(enc: Encoding) -> list[Overrides]:
    """Each reading of each ruling the encoding quantifies, one at a time."""
    out: list[Overrides] = []
    for field in dict.fromkeys(f for f, _ in enc.rulings):
        for reading in field_readings(field) or ():
            if ((field, reading),) not in out:
                out.append(((field, reading),))
    return out


def realism(enc: Encoding, preset: str, s: SymState, escalated: bool) -> list[z3.BoolRef]:
    """Constraints that pick states a real deal can have (the encoding allows more): the Comet at its
    starting value (or above it, for an escalated class), and the encoding's own (``Encoding.realism``:
    small stakes, the facts the concrete state must agree with that the encoding leaves free)."""
    start = variant_of(preset_named(preset).rules).comet_value
    out = [s.comet_value > start, s.comet_value <= start + 10] if escalated else [s.comet_value == start]
    return out + enc.realism(s)
