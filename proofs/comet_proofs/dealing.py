"""What the model deals, read for the encodings: the composition of a preset's packs (``pack_composition``),
the hand and dead sizes the model's deal rule gives (``dealt_sizes``), and which quantified rulings change
them (``deal_fields``, ``reading_combos``, ``model_deal_sizes``).  An encoding's initial states are built
from these, so the proofs start from what the model deals."""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Sequence
from typing import Protocol

from comet.cards import rank_of
from comet.engine import deal_sizes, packs_in_rotation
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset, field_readings

from comet_proofs.symbolic import Rulings


class Quantifying(Protocol):
    """What these functions read of an encoding: its preset's name and the rulings it quantifies."""

    @property
    def name(self) -> str: ...

    @property
    def rulings(self) -> Rulings: ...


@functools.cache
def pack_composition(preset: str, players: int, ranks: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """(natural cards per rank, wild cards) of ``preset``'s packs for ``players`` (every reading of
    RUL-PACKS); ValueError when the packs in rotation differ."""

    base = preset_named(preset).rules
    found: set[tuple[tuple[int, ...], int]] = set()
    rulesets = [base]
    for reading in field_readings("packs") or ():
        with contextlib.suppress(ValueError):  # RUL-PACKS does not apply to the variant: its own packs
            rulesets.append(base.with_overrides({"packs": reading}))
    for rules in rulesets:
        for pack in packs_in_rotation(rules, players):
            wild = set(pack.wild)
            naturals = tuple(sum(1 for c in pack.cards if c not in wild and rank_of(c) == r) for r in ranks)
            found.add((naturals, sum(1 for c in pack.cards if c in wild)))
    if len(found) != 1:
        raise ValueError(f"{preset}: the packs in rotation differ in composition for {players} players")
    return found.pop()

Combo = tuple[tuple[tuple[str, object], bool], ...]


def deal_fields(enc: Quantifying, players: int) -> tuple[str, ...]:
    """The quantified ruling fields of ``enc`` whose readings change what the model deals to ``players``
    (``engine.deal_sizes`` over the packs in rotation), each reading tried from the preset's rules."""

    base = preset_named(enc.name).rules
    out: list[str] = []
    for field in dict.fromkeys(f for f, _ in enc.rulings):
        seen = {dealt_sizes(base.with_overrides({field: r}), players) for r in field_readings(field) or ()}
        if len(seen) > 1:
            out.append(field)
    return tuple(out)


def dealt_sizes(rules: Ruleset, players: int) -> tuple[int, int]:
    """``engine.deal_sizes`` for the packs in rotation (ValueError if they differ between packs)."""

    found = {deal_sizes(rules, players, len(p.cards)) for p in packs_in_rotation(rules, players)}
    if len(found) != 1:
        raise ValueError(f"{rules.variant}: the packs in rotation are dealt differently: {sorted(found)}")
    return found.pop()


def reading_combos(enc: Quantifying, fields: Sequence[str]) -> list[tuple[Combo, Ruleset]]:
    """Every reading combination of ``fields`` (quantified by ``enc``) as (the values of their Booleans, the
    preset's rules with those readings)."""

    base = preset_named(enc.name).rules
    per_field: list[list[tuple[Combo, object]]] = []
    for field in fields:
        flags = [(f, v) for f, v in enc.rulings if f == field]
        options: list[tuple[Combo, object]] = []
        for reading in field_readings(field) or ():
            options.append((tuple(((f, v), v == reading) for f, v in flags), reading))
        per_field.append(options)
    out: list[tuple[Combo, Ruleset]] = []
    for choice in itertools.product(*per_field):
        combo = tuple(pair for flags, _ in choice for pair in flags)
        rules = base.with_overrides({f: reading for f, (_, reading) in zip(fields, choice, strict=True)})
        out.append((combo, rules))
    return out


def model_deal_sizes(enc: Quantifying, players: int) -> tuple[tuple[Combo, tuple[int, int]], ...]:
    """(reading combination of the deal's rulings, the model's (cards each, cards dead)) for every such
    combination; one entry with no combination when no quantified ruling changes the deal.  Not cached:
    a test that plants a change in the model's deal rule must see it."""
    return tuple((combo, dealt_sizes(rules, players)) for combo, rules in reading_combos(enc, deal_fields(enc, players)))
