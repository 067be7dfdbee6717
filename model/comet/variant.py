"""The variant hook record and its registry (below the engine and the game loop, which both read it).

A ``Variant`` is data plus optional hooks.  Every hook left ``None`` means "the
standard engine's behaviour": the engine then calls its own module-level
function, so the standard game runs exactly the code it always ran (and tests
can still monkeypatch ``comet.engine`` functions).  The registry maps the
``Ruleset.variant`` name to its ``Variant``; the module
the package ``comet.games.<name>`` is imported on first use and registers itself.
"""

from __future__ import annotations

import importlib
import pkgutil
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import comet.games
from comet.ruleset import Ruleset, VariantName, install_family_index

if TYPE_CHECKING:
    from comet.cards import Card, Pack
    from comet.errors import IllegalAction
    from comet.state import Action, DealState, GameState, Payment

Scoring = Literal["chips", "points"]


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option layered on a game family by hooks (the Opera is one): the engine calls the hooks of
    every option its variant admits, and each hook leaves the state alone when its ruleset switch is off.

    ``on_going_out(after, wild_bonus)`` the state after a play that emptied a hand (``wild_bonus``: the
    play was the wild card and the standard play payments applied); ``out_multiplier(state, base)`` the
    settlement multiplier for the winner's going out, given the standard one; ``caught_multiplier(state,
    caught, out)`` a caught loser's multiplier, given the two doublings; ``payment_rule`` the rule id a
    settlement payment carries when the option's doubling is the only one that raised it.
    """

    name: str
    on_going_out: Callable[[DealState, bool], DealState]
    out_multiplier: Callable[[DealState, int], int]
    caught_multiplier: Callable[[DealState, int, int], int]
    payment_rule: str
    #: The ``Ruleset`` fields the option reads in every family that admits it.
    rulings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Fixed:
    """A ruling's question that a family's own source answers (``Variant.fixed``): the field keeps ``value``
    in that family, and a command line or record that asks for another reading is refused citing
    ``source`` (the seed passage, as spec/rulings*.md quotes it)."""

    field: str
    value: object
    source: str


@dataclass(frozen=True, slots=True)
class Preset:
    """A named ruleset (``comet.PRESETS``), declared by the game family it plays (``Variant.presets``)."""

    name: str
    rules: Ruleset
    description: str
    sources: tuple[str, ...]

    @property
    def variant(self) -> Variant:
        """The game family's data and hooks (``comet.games.<name>``)."""
        return variant_of(self.rules)

    @property
    def scoring(self) -> Scoring:
        """``"chips"`` (zero-sum payments) or ``"points"`` (non-negative deal scores summed per game)."""
        return self.variant.scoring

    @property
    def invariants(self) -> tuple[str, ...]:
        """The invariant kinds that fit this preset, for fuzzing and ``comet prove``."""
        return self.variant.invariants

GameEnd = Literal["deals", "target"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One game family: its data and the hooks where its rules differ from the standard game.

    Data
      ``player_counts`` allowed numbers of players; ``default_players`` for the CLI;
      ``scoring`` ``"chips"`` (payments between players, zero-sum) or ``"points"``
      (each deal gives every seat a non-negative score, ``points_of_deal``);
      ``lower_wins`` for penalty-point games (the lowest total wins);
      ``lowest_rank`` 2, or 1 when the Ace is low; ``comet_value`` the wild card's
      value in a first deal, ``comet_escalates`` whether it rises while in the dead
      hand; ``wild_name`` what the sources call the wild card; ``title`` what messages call the game
      (default: "the <name> game");
      ``game_end`` ``"deals"`` (a fixed number of deals, ``default_deals(players)``)
      or ``"target"`` (first to ``target`` points, ``max_deals`` a safety bound);
      ``game_over(game)`` replaces the target test (a deal cap always applies);
      ``race_end(game, state)`` the standings if the game ends at this moment of a deal (a race won
      inside a deal, RUL-COMMIT-C-RACE), else None; called by ``comet.game.deal_over`` after every action.

    Hooks (``None``: the standard engine function of the same role)
      ``packs(rules, players)`` the packs in rotation;
      ``deal_sizes(rules, players, pack_size)`` (cards each, cards in the dead hand);
      ``legal_actions(state)``, ``why_illegal(state, action)``, ``play(state, action)``,
      ``end_turn(state)`` replace the transition system wholesale (suit-following
      games need this); finer hooks used by the standard ``play``/``end_turn``:
      ``play_payments(state, seat, action, out)`` chips paid at once for a play,
      ``pass_payments(before, after)`` chips paid when a pass ends a run;
      ``settlement(state)`` chips paid when the deal ends;
      ``points_of_deal(state)`` points per seat for a finished deal (points games);
      ``card_points(card)`` a card's value left in hand; ``step_bound(state)``;
      ``escalates(rules)`` whether the wild card's value rises while in the dead hand, when a ruling
      decides it (``None``: ``comet_escalates``);
      ``partial_sets(rules)`` whether two or more natural cards of the needed rank, short of all of them,
      may go down together (a set rule a family's ruling widens, RUL-2P-SETS; ``None``: never).

    Options
      ``options`` the rule options (``Option``) this family admits, e.g. the Opera; the engine runs their
      hooks and names none of them.

    Declarations
      ``rulings`` the ``Ruleset`` fields whose readings change this family's play or scoring (with its
      options' ``rulings``: ``reads``); ``with_overrides`` rejects the others away from their defaults;
      ``presets`` the named rulesets that play this family, in the order ``comet.PRESETS`` lists them.
    """

    name: VariantName
    title: str = ""
    player_counts: tuple[int, ...] = (2, 3, 4, 5)
    default_players: int = 3
    scoring: Scoring = "chips"
    lower_wins: bool = False
    lowest_rank: int = 2
    comet_value: int = 2
    comet_escalates: bool = True
    wild_name: str = "Comet"
    game_end: GameEnd = "deals"
    target: int = 0
    max_deals: int = 10_000
    default_deals: Callable[[int], int] | None = None
    game_over: Callable[[GameState], bool] | None = None
    race_end: Callable[[GameState, DealState], tuple[int, ...] | None] | None = None
    packs: Callable[[Ruleset, int | None], tuple[Pack, ...]] | None = None
    deal_sizes: Callable[[Ruleset, int, int], tuple[int, int]] | None = None
    legal_actions: Callable[[DealState], tuple[Action, ...]] | None = None
    why_illegal: Callable[[DealState, Action], IllegalAction] | None = None
    play: Callable[[DealState, Action], DealState] | None = None
    end_turn: Callable[[DealState], DealState] | None = None
    play_payments: Callable[[DealState, int, Action, bool], tuple[Payment, ...]] | None = None
    pass_payments: Callable[[DealState, DealState], tuple[Payment, ...]] | None = None
    settlement: Callable[[DealState], tuple[Payment, ...]] | None = None
    points_of_deal: Callable[[DealState], tuple[int, ...]] | None = None
    card_points: Callable[[Card], int] | None = None
    step_bound: Callable[[DealState], int] | None = None
    escalates: Callable[[Ruleset], bool] | None = None
    partial_sets: Callable[[Ruleset], bool] | None = None
    #: why a ruling field's readings cannot part in any deal of a player count (None: they may); read by the
    #: impact study (``comet.diverge.study.absent_reason``) to leave such counts unmeasured
    ruling_absent: Callable[[str, Ruleset, int], str | None] | None = None
    options: tuple[Option, ...] = ()
    rulings: tuple[str, ...] = ()
    presets: tuple[Preset, ...] = ()
    #: Rulings whose question this family's source answers: not read as rulings here (not in ``rulings``), and
    #: refused with the citation when set away from the source's reading (``Ruleset.with_overrides``).
    fixed: tuple[Fixed, ...] = ()

    @property
    def reads(self) -> tuple[str, ...]:
        """Every ``Ruleset`` field this family reads: its own ``rulings`` and its options'."""
        return self.rulings + tuple(f for o in self.options for f in o.rulings)

    @property
    def display(self) -> str:
        """What messages call the game: its ``title`` ("Comet"), else "the <name> game"."""
        return self.title or f"the {self.name} game"

    def escalates_under(self, rules: Ruleset) -> bool:
        """Does the wild card's value rise while it lies in the dead hand, under ``rules``?"""
        return self.comet_escalates if self.escalates is None else self.escalates(rules)

    @property
    def invariants(self) -> tuple[str, ...]:
        """The invariant kinds that fit this variant (for fuzzing and ``comet prove``)."""
        common = ("card_conservation", "termination", "legal_action_exists")
        if self.scoring == "chips":
            return (*common, "chips_zero_sum")
        return (*common, "points_non_negative", "game_total_is_sum_of_deals")


class Registry(dict[str, "Variant"]):
    """The families by name: a dictionary that tells its listeners when it changes.

    The engine resolves a ruleset's hooks once (``comet.plan``) instead of on every action; a family
    registered again, or swapped for a test (``monkeypatch.setitem``), clears what was resolved, so the
    next action sees the new hooks.  Every way of changing the dictionary goes through ``__setitem__``
    or ``__delitem__``, or is refused."""

    def __init__(self) -> None:
        super().__init__()
        self.listeners: list[Callable[[], None]] = []

    def changed(self) -> None:
        for listener in self.listeners:
            listener()

    def __setitem__(self, name: str, v: Variant) -> None:
        super().__setitem__(name, v)
        self.changed()

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self.changed()

    def pop(self, name: str, *default: Variant | None) -> Variant | None:  # type: ignore[override]
        if name in self:
            v = self[name]
            del self[name]
            return v
        if default:
            return default[0]
        raise KeyError(name)

    def _refuse(self, *args: object, **kwargs: object) -> typing.NoReturn:
        raise TypeError("change the registry one family at a time (REGISTRY[name] = v, del REGISTRY[name])")

    update = popitem = clear = setdefault = __ior__ = _refuse


REGISTRY = Registry()


def register(v: Variant) -> Variant:
    """Add ``v`` to the registry (called at import time by each ``comet.games.<name>.rules`` module)."""
    for p in v.presets:
        if p.rules.variant != v.name:
            raise ValueError(f"preset {p.name!r} plays {p.rules.variant!r}, not the {v.name} family declaring it")
    REGISTRY[v.name] = v
    return v


def families() -> tuple[Variant, ...]:
    """Every game family: each folder on ``comet.games``' path is imported (a folder that registers no
    family, such as an option's, is skipped); the families of ``VariantName`` come first, in its order."""
    for folder in pkgutil.iter_modules(comet.games.__path__):
        if folder.ispkg:
            importlib.import_module(f"comet.games.{folder.name}")
    known: tuple[str, ...] = typing.get_args(VariantName)
    return tuple(sorted(REGISTRY.values(), key=lambda v: (known.index(v.name) if v.name in known else len(known), v.name)))


def all_presets() -> dict[str, Preset]:
    """Every family's presets by name, in ``families()`` order."""
    return {p.name: p for v in families() for p in v.presets}


def variant_named(name: str) -> Variant:
    """The variant called ``name``, importing ``comet.games.<name>`` on first use."""
    v = REGISTRY.get(name)
    if v is None:
        try:
            importlib.import_module(f"comet.games.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"comet.games.{name}":
                raise
            raise ValueError(f"variant {name!r} is not implemented yet") from None
        v = REGISTRY.get(name)
        if v is None:
            raise ValueError(f"package comet.games.{name} did not register a variant")
    return v


def variant_of(rules: Ruleset) -> Variant:
    """The variant that ``rules`` plays (``rules.variant``); the engine asks this several times per action."""
    try:
        return REGISTRY[rules.variant]
    except KeyError:  # not imported yet
        return variant_named(rules.variant)


def families_reading(name: str) -> tuple[VariantName, ...]:
    """The game families whose play or scoring field ``name`` changes (each declares it in its folder)."""
    return tuple(v.name for v in families() if name in v.reads)


def applies(name: str, variant: str) -> bool:
    """Does the ruling behind field ``name`` apply to ``variant`` (its family declares the field)?"""
    return name in variant_named(variant).reads


class _Index:
    """The registry as ``comet.ruleset`` asks it (``FamilyIndex``), so ``Ruleset.with_overrides`` can refuse a
    reading for a family that does not read the field without importing this module."""

    def reads(self, variant: str) -> tuple[str, ...]:
        return variant_named(variant).reads

    def presets_reading(self, name: str) -> tuple[str, ...]:
        return tuple(p.name for v in families() if name in v.reads for p in v.presets)

    def fixed_by_source(self, variant: str, name: str) -> tuple[object, str] | None:
        return next(((f.value, f.source) for f in variant_named(variant).fixed if f.field == name), None)


install_family_index(_Index())
