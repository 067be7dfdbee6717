"""The readings the vectors cover: every preset, and each with one deal-level ruling changed (a
``Reading``), and the seeded deals of each reading's cases."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from comet.engine import packs_in_rotation, player_counts, shuffled_deal
from comet.errors import RecordError
from comet.game import play_deal
from comet.policy import random_policy, simple_policy
from comet.presets import PRESETS, preset
from comet.records.contract import FORMAT
from comet.ruleset import GAME_LEVEL_FIELDS, RULING_FIELDS, RULING_OF, Ruleset, field_readings
from comet.state import Action, DealState
from comet.variant import applies

FORMAT_VERSION = FORMAT  # comet.records.contract: the contract's version (spec/CHANGELOG.md)
REPLAY_CASES = 4
TRACE_CASES = 1
ILLEGAL_CASES = 8
GOLDEN_CASES = 1
MAX_PLAYERS_PROBED = 8


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of the rules: a preset with at most one ruling changed from its default."""

    preset: str
    name: str
    rules: Ruleset


def reading_value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def undocumented_rulings() -> list[str]:
    """Deal-level ruling fields missing from ``comet.ruleset.RULING_OF``: they get no vectors."""
    return [
        f for f in RULING_FIELDS if f not in RULING_OF and f not in GAME_LEVEL_FIELDS and field_readings(f) is not None
    ]


def readings(preset_name: str) -> tuple[Reading, ...]:
    """``default`` then every other reading of every deal-level ruling that applies to the preset."""
    base = preset(preset_name).rules
    out = [Reading(preset_name, "default", base)]
    for field in RULING_FIELDS:
        if field in GAME_LEVEL_FIELDS or field not in RULING_OF:
            continue
        if not applies(field, base.variant):
            continue  # the ruling does not apply to this preset's game (its family does not read the field)
        values = field_readings(field)
        if values is None:
            continue
        for value in values:
            if value == getattr(base, field):
                continue
            out.append(
                Reading(preset_name, f"{field}={reading_value_text(value)}", base.with_overrides({field: value}))
            )
    return tuple(out)


def case_deal(reading: Reading, index: int) -> tuple[DealState, tuple[Action, ...]]:
    """The ``index``-th deal of a reading: seeded shuffle, player count, pack and policy all from ``index``."""
    counts = player_counts(reading.rules)
    if not counts:
        raise RecordError("players", f"preset {reading.preset!r} deals to no player count from 1 to 8")
    players = counts[index % len(counts)]
    packs = packs_in_rotation(reading.rules, players)
    pack = packs[(index // len(counts)) % len(packs)]
    seed = 1000 + index
    start = shuffled_deal(reading.rules, players, index % players, seed, pack)
    if index % 3 == 2 and start.comet_value > 0:
        # an escalated Comet (as after a deal with the Comet in the dead hand)
        start = shuffled_deal(reading.rules, players, index % players, seed, pack, start.comet_value + 2)
    rng = random.Random(seed)
    policy = simple_policy if index % 2 == 0 else random_policy(rng)
    _, actions = play_deal(start, policy)
    return start, actions


def all_readings(presets: Sequence[str] | None = None) -> list[Reading]:
    names = sorted(PRESETS) if presets is None else list(presets)
    return [r for name in names for r in readings(name)]
