"""The table a deal is played at (``Table``: preset, players, dealer, the ``Ruleset``, pack, the Comet's value),
built from framework parameters with plain errors for bad ones, and the parameters described (spec/frameworks.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from comet import engine
from comet.cards import Pack
from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, Ruleset, coerce_field, field_readings
from comet.small import SMALL, small


@dataclass(frozen=True, slots=True)
class Table:
    """Everything fixed before the cards are shuffled: one deal of ``preset`` at this table."""

    preset: str
    players: int
    dealer: int
    rules: Ruleset
    pack: Pack
    comet_value: int
    hand_size: int
    dead_size: int
    #: the small Comet played (``comet.small``, a research configuration), or "" for the preset's own pack
    small: str = ""

    @property
    def dealt(self) -> int:
        """Cards dealt to the players (the chance outcomes of a deal); the rest is the dead hand."""
        return self.players * self.hand_size

    @property
    def points_game(self) -> bool:
        return PRESETS[self.preset].scoring == "points"


def ruling_default(name: str) -> bool | int | str:
    """The standard game's reading of ruling field ``name``, typed as a framework parameter."""
    value = getattr(Ruleset(), name)
    assert isinstance(value, bool | int | str)
    return value


def make_table(
    preset_name: str = "standard",
    players: int = 0,
    dealer: int = -1,
    pack: int = 0,
    comet_value: int = -1,
    rulings: Mapping[str, object] | None = None,
    small_name: str = "",
) -> Table:
    """The table of one deal; ``players`` 0 is the preset's usual count, ``dealer`` -1 the last seat
    (so seat 0 leads), ``pack`` the index into the packs in rotation (the deal number of a game),
    ``comet_value`` -1 the preset's starting value of the wild card; ``rulings`` maps ruling fields
    to readings (typed or as text) on top of the preset's; ``small_name`` a small Comet
    (``comet.small``: its preset, players and reduced pack; ``preset_name`` and ``players`` must then be
    left at their defaults or agree with it).  Bad values raise ``RecordError`` or ``ValueError`` with a
    plain message."""
    config = small(small_name) if small_name else None
    if config is not None:
        if preset_name not in ("standard", config.preset) or players not in (0, config.players):
            raise ValueError(
                f"small={small_name} is {config.preset} with {config.players} players; leave preset and players out"
            )
        preset_name, players = config.preset, config.players
    p = preset(preset_name)
    rules = p.rules
    if rulings:
        unknown = sorted(set(rulings) - set(RULING_FIELDS))
        if unknown:
            raise ValueError(f"unknown ruling {unknown[0]!r}; known: {', '.join(RULING_FIELDS)}")
        rules = rules.with_overrides(rulings)
    n = players or p.variant.default_players
    engine.check_players(n, rules)
    seat = n - 1 if dealer == -1 else dealer
    if not 0 <= seat < n:
        raise RecordError("dealer", f"dealer must be a seat from 0 to {n - 1} (or -1 for the last), not {dealer}")
    packs = engine.packs_in_rotation(rules, n) if config is None else (config.pack(),)
    if not 0 <= pack < len(packs):
        raise RecordError("field", f"pack must be 0..{len(packs) - 1} (the packs in rotation), not {pack}")
    value = p.variant.comet_value if comet_value == -1 else comet_value
    if value < 0:
        raise RecordError("field", f"comet_value must not be negative (or -1 for the preset's), not {comet_value}")
    if config is not None:
        size, dead = config.hand_size, config.dead_size
    else:
        size, dead = engine.deal_sizes(rules, n, len(packs[pack].cards))
    return Table(preset_name, n, seat, rules, packs[pack], value, size, dead, small_name)


def table_from_params(params: Mapping[str, object]) -> Table:
    """A table from framework parameters: ``preset``, ``players``, ``dealer``, ``pack``, ``comet_value``
    and one parameter per ruling field.  A ruling parameter equal to the standard game's reading keeps
    the preset's reading (OpenSpiel fills every parameter in with its default)."""
    changed = {name: params[name] for name in RULING_FIELDS if name in params and params[name] != ruling_default(name)}
    for name, value in changed.items():
        coerce_field(name, value)  # a plain error for a bad reading before anything else
    return make_table(
        str(params.get("preset", "standard")),
        _int(params, "players", 0),
        _int(params, "dealer", -1),
        _int(params, "pack", 0),
        _int(params, "comet_value", -1),
        changed,
        _str(params, "small", ""),
    )


def _str(params: Mapping[str, object], name: str, default: str) -> str:
    value = params.get(name, default)
    if not isinstance(value, str):
        raise ValueError(f"parameter {name!r} takes a name, not {value!r}")
    return value


def _int(params: Mapping[str, object], name: str, default: int) -> int:
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"parameter {name!r} takes a whole number, not {value!r}")
    return value


def parameter_defaults() -> dict[str, bool | int | str]:
    """Every framework parameter with its default (the ruling fields' are the standard game's)."""
    out: dict[str, bool | int | str] = {
        "preset": "standard",
        "players": 0,
        "dealer": -1,
        "pack": 0,
        "comet_value": -1,
        "small": "",
    }
    out.update({name: ruling_default(name) for name in RULING_FIELDS})
    return out


def ruling_choices(name: str) -> str:
    """The readings of ruling ``name`` as text, for documentation and errors."""
    readings = field_readings(name)
    if readings is None:
        return "a whole number"
    return ", ".join(str(r).lower() if isinstance(r, bool) else str(r) for r in readings)


def describe_parameters() -> list[tuple[str, str, str]]:
    """(parameter, default, meaning) for every framework parameter (spec/frameworks.md)."""
    rows = [
        ("preset", "standard", "one of " + ", ".join(PRESETS)),
        ("players", "0", "number of players; 0 is the preset's usual count"),
        ("dealer", "-1", "the dealer's seat; -1 is the last seat, so seat 0 moves first"),
        ("pack", "0", "which pack of the rotation (the deal's number in a game, modulo the packs)"),
        ("comet_value", "-1", "the wild card's value in this deal; -1 is the preset's starting value"),
        ("small", "", "a small Comet for research (not from the sources): " + ", ".join(SMALL)),
    ]
    for name in RULING_FIELDS:
        default = ruling_default(name)
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        rows.append((name, shown, ruling_choices(name)))
    return rows
