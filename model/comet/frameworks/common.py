"""What the OpenSpiel game and the PettingZoo environment share, free of either framework.

Both wrappers are thin: every rule comes from ``comet.engine`` (legal actions, the transition, the
deal's distribution, settlement).  This module holds only what a framework needs on top of the
engine, written once for both (spec/frameworks.md describes it for users):

- the canonical action encoding: a stable integer id for every action of every preset
  (``action_id`` / ``action_of``, ``NUM_ACTIONS`` ids in all);
- the table a deal is played at (``Table``: preset, players, dealer, the ``Ruleset``, pack, the
  Comet's value), built from framework parameters with plain errors for bad ones;
- the deal as a sequence of chance outcomes (the shuffled pack, one card at a time), handed to
  the engine's ``distribute`` and ``start_deal``;
- utilities: ``returns()`` in chip games; in points games (where every chip return is 0) the
  deal's points made zero-sum;
- what a seat may know: the observation and information-state texts and tensors.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from comet import engine
from comet.cards import KING, Card, Pack, card_text, cards_text, rank_of, rank_text, suit_of
from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.ruleset import RULING_FIELDS, Ruleset, coerce_field, field_readings
from comet.small import SMALL, small
from comet.state import PASS, Action, DealState
from comet.variant import variant_of

# --------------------------------------------------------------------- the canonical action encoding

#: Ids 1..NATURAL: cards of one rank played together without a declared rank, by (rank, copies per suit).
#: Ids WILD_BASE..: one wild card standing for a rank.  Ids DECLARED_BASE..: several cards of one rank
#: that include a wild card declared as that rank (the Comet going down with the three natural 9s).
SUIT_CODES = 3**4 - 1  # copies 0..2 of each of the four suits, not all zero
NATURAL = 13 * SUIT_CODES
WILD_BASE = 1 + NATURAL
DECLARED_BASE = WILD_BASE + 52 * 13
#: The suit codes of two cards or more (a declared single card is in the wild block).
MULTI_CODES = tuple(code for code in range(1, SUIT_CODES + 1) if sum(code // 3**s % 3 for s in range(4)) >= 2)
MULTI_INDEX = {code: i for i, code in enumerate(MULTI_CODES)}
NUM_ACTIONS = DECLARED_BASE + 13 * len(MULTI_CODES)
PASS_ID = 0


def _suit_code(cards: Sequence[Card]) -> int:
    copies = Counter(suit_of(c) for c in cards)
    if any(n > 2 for n in copies.values()):
        raise ValueError(f"no action id for {cards_text(cards)}: more than two copies of a card")
    return sum(copies[s] * 3**s for s in range(4))


def _cards_of(rank: int, code: int) -> tuple[Card, ...]:
    out: list[Card] = []
    for s in range(4):
        out.extend([rank * 4 + s] * (code // 3**s % 3))
    return tuple(sorted(out))


@functools.cache  # actions are immutable values, and a deal has few distinct ones
def action_id(action: Action) -> int:
    """The stable id of ``action`` (spec/frameworks.md, "Action ids"); ValueError if it has none."""
    if action.is_pass:
        return PASS_ID
    ranks = {rank_of(c) for c in action.cards}
    if len(ranks) != 1:
        raise ValueError(f"no action id for {action}: cards of several ranks")
    rank = ranks.pop()
    code = _suit_code(action.cards)
    if not action.as_rank:
        return 1 + (rank - 1) * SUIT_CODES + code - 1
    if len(action.cards) == 1:
        return WILD_BASE + (action.cards[0] - 4) * 13 + action.as_rank - 1
    if action.as_rank != rank:
        raise ValueError(f"no action id for {action}: several cards declared as another rank")
    return DECLARED_BASE + (rank - 1) * len(MULTI_CODES) + MULTI_INDEX[code]


@functools.cache
def action_of(ident: int) -> Action:
    """The action with id ``ident`` (the inverse of ``action_id``); ValueError for an id out of range."""
    if not 0 <= ident < NUM_ACTIONS:
        raise ValueError(f"action id {ident} is out of range 0..{NUM_ACTIONS - 1}")
    if ident == PASS_ID:
        return PASS
    if ident < WILD_BASE:
        rank, code = divmod(ident - 1, SUIT_CODES)
        return Action(_cards_of(rank + 1, code + 1))
    if ident < DECLARED_BASE:
        c, r = divmod(ident - WILD_BASE, 13)
        return Action((c + 4,), r + 1)
    rank, index = divmod(ident - DECLARED_BASE, len(MULTI_CODES))
    return Action(_cards_of(rank + 1, MULTI_CODES[index]), rank + 1)


#: ``action_id`` of each action met so far, by its fields (a tuple's hash is cheaper than the dataclass's).
_IDS: dict[tuple[tuple[Card, ...], int], int] = {}


def by_id(actions: Sequence[Action]) -> dict[int, Action]:
    """Each action of ``actions`` by its id (``action_id``), as the frameworks' legal actions are kept."""
    get = _IDS.get
    out: dict[int, Action] = {}
    for a in actions:
        ident = get((a.cards, a.as_rank))
        if ident is None:
            ident = _IDS[a.cards, a.as_rank] = action_id(a)
        out[ident] = a
    return out


def legal_ids(state: DealState) -> list[int]:
    """The ids of ``engine.legal_actions(state)``, ascending (the frameworks' order)."""
    return sorted(by_id(engine.legal_actions(state)))


# --------------------------------------------------------------------- the table


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


# --------------------------------------------------------------------- the deal as chance outcomes


def card_outcome(c: Card) -> int:
    """A card as a chance outcome: 0..51, ``(rank - 1) * 4 + suit``."""
    return c - 4


def outcome_card(o: int) -> Card:
    return o + 4


def chance_outcomes(table: Table, order: Sequence[Card]) -> list[tuple[int, float]]:
    """The next card off the shuffled pack: each card left, with its share of the cards left."""
    left = Counter(table.pack.cards)
    left.subtract(order)
    total = len(table.pack.cards) - len(order)
    return [(card_outcome(c), n / total) for c, n in sorted(left.items()) if n > 0]


def hands_so_far(table: Table, order: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Whose the cards dealt so far are (R-DEAL-ORDER, by ``engine.distribute``)."""
    hands, _ = engine.distribute(table.rules, list(order), table.players, table.dealer, table.hand_size)
    return hands


def deal_of(table: Table, order: Sequence[Card]) -> DealState:
    """The deal once ``table.dealt`` cards are off the pack: the rest of the pack is the dead hand."""
    rest = Counter(table.pack.cards)
    rest.subtract(order)
    full = list(order) + sorted(rest.elements())
    hands, dead = engine.distribute(table.rules, full, table.players, table.dealer, table.hand_size)
    return engine.start_deal(table.rules, table.pack, table.players, table.dealer, hands, dead, table.comet_value)


def seeded_deal(table: Table, seed: int) -> DealState:
    """The engine's shuffled deal at this table (what the PettingZoo environment plays): the pack
    shuffled as ``engine.shuffled_deal`` shuffles it, dealt at the table's hand size (the same deal as
    ``shuffled_deal``'s for a preset's own pack; a small Comet's hand size is its own)."""
    order = list(table.pack.cards)
    random.Random(seed).shuffle(order)
    hands, dead = engine.distribute(table.rules, order, table.players, table.dealer, table.hand_size)
    return engine.start_deal(table.rules, table.pack, table.players, table.dealer, hands, dead, table.comet_value)


def seeded_order(table: Table, seed: int) -> list[Card]:
    """The chance outcomes of ``seeded_deal(table, seed)``: the same shuffle, so the same deal."""
    order = list(table.pack.cards)
    random.Random(seed).shuffle(order)
    return order[: table.dealt]


# --------------------------------------------------------------------- utilities


def utilities(state: DealState) -> tuple[float, ...]:
    """What each seat gets from a finished deal (zeros while it goes on).  Chip games:
    ``engine.returns`` (net chips).  Points games, where those are all 0: the deal's points
    (``engine.deal_points``; negated where the lowest total wins) less their mean, so that every
    preset is zero-sum."""
    if not state.terminal:
        return (0.0,) * state.players
    variant = variant_of(state.rules)
    if variant.scoring == "chips":
        return tuple(float(c) for c in engine.returns(state))
    sign = -1.0 if variant.lower_wins else 1.0
    points = [sign * p for p in engine.deal_points(state)]
    mean = sum(points) / len(points)
    return tuple(p - mean for p in points)


@dataclass(frozen=True, slots=True)
class UtilityBounds:
    """The least and the most one seat's utility can be in a deal at a table, and where that comes from."""

    low: float
    high: float
    source: str

    @property
    def scale(self) -> float:
        """The largest magnitude: what the observations divide chips by (so they lie in [-1, 1])."""
        return max(-self.low, self.high, 1.0)


#: The doubling factor of the proved deal bound (spec/proofs.md, obligation 11): x2 caught or x4 after the
#: Comet as a 9, never both; x8 with the Opera.
DEAL_BOUND_FACTOR = 4
OPERA_DEAL_BOUND_FACTOR = 8


#: The proved per-deal bounds of the other presets (spec/proofs.md, "Bounds": ``comet_proofs.bounds.proved_bounds``,
#: Z3's optimum over the encoding with the lemmas, plus the in-play potential where more than the Comet pays in
#: play), each at the preset's own readings and player count with the Comet at its starting value.  Chip games:
#: (players) -> (the most chips one seat loses in a deal, the most it wins).  Points games: (players) -> the most
#: points one seat scores in a deal (with obligation 13, deal scores non-negative, for every reading).
#: tests/test_frameworks.py checks each figure against the proofs (when Z3 is installed) and every simulated deal.
PROVED_CHIPS: dict[str, dict[int, tuple[int, int]]] = {
    "old_comet": {2: (206, 206), 3: (162, 1102), 4: (157, 1718), 5: (162, 2470)},
    "commit_hoyle": {3: (115, 212), 4: (115, 297), 5: (115, 370)},
}
PROVED_POINTS: dict[str, dict[int, int]] = {"red_nines": {4: 756, 5: 1560}, "commit_cats": {3: 159}}


def proved_table_bound(table: Table) -> UtilityBounds | None:
    """The utility bounds of ``table`` from ``PROVED_CHIPS`` / ``PROVED_POINTS``, if it is a table they were
    proved for: the preset's own readings, a player count in the table, the Comet at its starting value."""
    if table.small or table.rules != PRESETS[table.preset].rules:
        return None
    if table.comet_value != PRESETS[table.preset].variant.comet_value:
        return None
    n = table.players
    chips = PROVED_CHIPS.get(table.preset, {}).get(n)
    cite = f'spec/proofs.md "Bounds" ({table.preset}, {n} players, the preset\'s readings, Comet at its start)'
    if chips is not None:
        return UtilityBounds(-float(chips[0]), float(chips[1]), "proved: " + cite)
    most = PROVED_POINTS.get(table.preset, {}).get(n)
    if most is not None:
        # Points in [0, M] each (obligation 13 and the bound): a seat's points less the mean lie within
        # (n-1)M/n either way; negated where the lowest total wins, the same.
        half = (n - 1) * most / n
        return UtilityBounds(-half, half, "proved: " + cite + " and obligation 13 (deal scores non-negative)")
    return None


@functools.cache
def utility_bounds(table: Table) -> UtilityBounds:
    """The bounds of a seat's utility for OpenSpiel's MinUtility/MaxUtility and the observation spaces.

    - A small Comet: exact, every deal and every line of play walked through the engine.
    - The standard family's chip games (standard, opera): the proved **deal bound** (spec/proofs.md,
      obligation 11): one seat's chips in a finished deal are at least ``-(F x P + 4v)`` and at most
      ``(n-1)(F x P + 4v)``, P the pack's points, v the Comet's value, F = 4 (8 with the Opera).
    - Two-player Comet: its score is the standard settlement's (obligation 10), so at most ``F x P``,
      and the utility, the score less the mean of the two, is within half of it either way.
    - Old Comet, Commit and Red Nines at a table the proofs' "Bounds" cover (the preset's own readings, the
      Comet at its starting value, a player count proved): those bounds (``proved_table_bound``).
    - Any other table of theirs (another reading, Comet value or player count): no per-deal bound is proved,
      so a stated safe envelope: every card of the pack at 20 points, times 64 for the doublings, per other seat.
    The tests check that no simulated deal leaves these bounds."""
    if table.small:
        low, high = exact_utility_range(table)
        return UtilityBounds(low, high, f"exact: every deal and line of play of the small Comet {table.small}")
    variant = variant_of(table.rules)
    factor = OPERA_DEAL_BOUND_FACTOR if table.rules.opera else DEAL_BOUND_FACTOR
    pack_points = engine.points_in_hand(seeded_deal(table, 0), table.pack.cards)
    if variant.name == "standard":
        b = float(factor * pack_points + 4 * table.comet_value)
        return UtilityBounds(-b, (table.players - 1) * b, "proved: spec/proofs.md obligation 11 (deal bound)")
    if variant.name == "two_player":
        half = factor * pack_points / 2
        return UtilityBounds(-half, half, "proved: spec/proofs.md obligations 10-11 (the standard settlement)")
    proved = proved_table_bound(table)
    if proved is not None:
        return proved
    envelope = float(20 * len(table.pack.cards) * 64 * (table.players - 1) + 1000 * table.comet_value)
    return UtilityBounds(-envelope, envelope, "not proved: a safe envelope (20 points a card, x64, per other seat)")


#: ``utility_bounds(table).scale`` by the table's identity (the cache above hashes the table's 80 rulings
#: through Python: too slow for every observation).
_SCALES: dict[int, tuple[Table, float]] = {}


def chip_scale(table: Table) -> float:
    """``utility_bounds(table).scale``, looked up by the table's identity."""
    got = _SCALES.get(id(table))
    if got is None or got[0] is not table:
        got = _SCALES[id(table)] = (table, utility_bounds(table).scale)
    return got[1]


def utility_bound(table: Table) -> float:
    """The largest magnitude of a seat's utility (``utility_bounds(table).scale``)."""
    return utility_bounds(table).scale


def _splits(
    cards: tuple[Card, ...], players: int, size: int
) -> Iterator[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
    """Every way to deal ``cards`` (sorted) into ``players`` hands of ``size``, the rest dead, each once."""
    if players == 0:
        yield (), cards
        return
    for hand in dict.fromkeys(itertools.combinations(cards, size)):
        rest = list(cards)
        for c in hand:
            rest.remove(c)
        for hands, dead in _splits(tuple(rest), players - 1, size):
            yield (hand, *hands), dead


def exact_utility_range(table: Table) -> tuple[float, float]:
    """(least, most) utility of any seat over every deal of a small table and every line of play: the
    distinct deals (the pack's orders, as hands) each played out along every legal action."""
    low, high = 0.0, 0.0
    for hands, dead in _splits(table.pack.cards, table.players, table.hand_size):
        stack = [
            engine.start_deal(table.rules, table.pack, table.players, table.dealer, hands, dead, table.comet_value)
        ]
        while stack:
            state = stack.pop()
            if state.terminal:
                u = utilities(state)
                low, high = min(low, *u), max(high, *u)
                continue
            legal = engine.legal_actions(state)
            stack.extend(engine.apply(state, a, legal=legal) for a in legal)
    return low, high


def max_steps(table: Table) -> int:
    """The engine's step bound for a deal at this table (R-END-OUT, ``engine.step_bound``)."""
    return engine.step_bound(seeded_deal(table, 0))


# --------------------------------------------------------------------- what a seat may know


def run_text(state: DealState) -> str:
    if not state.run:
        return "new run"
    text = " ".join(rank_text(r) for r in state.run)
    if state.run_suit >= 0:
        text += " in " + "CDHS"[state.run_suit]
    if state.branch:
        text += " or " + card_text(state.branch)
    return text


def public_line(before: DealState, action: Action, after: DealState) -> str:
    """One action as every seat sees it: who did what, and what followed in public (the run, the next
    seat to move, payments made at once, the end of the deal)."""
    parts = [f"{before.to_move}: {action}", f"run {run_text(after)}"]
    paid = after.payments[len(before.payments) :]
    if paid:
        parts.append("paid " + ", ".join(f"{p.payer}>{p.payee} {p.amount}" for p in paid))
    if after.scores and after.scores != before.scores:
        parts.append("scores " + " ".join(str(s) for s in after.scores))
    if after.terminal:
        parts.append("drawn" if after.drawn else f"seat {after.winner} is out")
    else:
        parts.append(f"next {after.to_move}")
    return "; ".join(parts)


def announcement(state: DealState) -> str | None:
    """A fact the table learns at a decision whose legal actions depend on another seat's cards:
    under RUL-STUCK-RESTART = may, whether the left neighbour can start the run the player would
    pass on (``engine.may_pass_stuck_restart``), which that neighbour would say aloud."""
    if state.terminal or state.rules.stuck_restart != "may":
        return None
    if state.turn_played or state.last_player != state.to_move:
        return None
    can = engine.may_pass_stuck_restart(state)
    return f"{(state.to_move + 1) % state.players} {'can' if can else 'cannot'} start the run"


def end_text(state: DealState) -> str:
    """At the end of a deal the hands are shown to settle it, and the dead hand with them."""
    hands = " | ".join(cards_text(h) or "-" for h in state.hands)
    utils = " ".join(f"{u:g}" for u in utilities(state))
    return f"hands {hands}; dead {cards_text(state.dead) or '-'}; utilities {utils}"


def table_text(table: Table, state: DealState, seats: Sequence[int], *, reveal: bool = False) -> str:
    """The table as text for a render: the hands of ``seats`` by card name (every hand and the dead hand with
    ``reveal``, or once the deal is over), the other hands as their sizes, then the public state."""
    lines = []
    for s, h in enumerate(state.hands):
        if reveal or s in seats or state.terminal:
            lines.append(f"seat {s}: {cards_text(h) or '-'}")
        else:
            lines.append(f"seat {s}: {len(h)} cards")
    if reveal:
        lines.append(f"dead: {cards_text(state.dead) or '-'}")
    lines.append(observation_text(table, state, state.to_move, private=False))
    return "\n".join(lines)


def observation_text(table: Table, state: DealState, seat: int, *, private: bool = True, public: bool = True) -> str:
    """What ``seat`` sees now (no memory): its hand, and the table's public state."""
    parts: list[str] = []
    if private:
        parts.append(f"seat {seat}; hand {cards_text(state.hands[seat]) or '-'}")
    if public:
        parts.append(f"to move {state.to_move}" if not state.terminal else "deal over")
        parts.append(f"run {run_text(state)}")
        parts.append("played " + (cards_text(sorted(state.played)) or "-"))
        parts.append("held " + " ".join(str(len(h)) for h in state.hands))
        parts.append("chips " + " ".join(str(c) for c in state.chips()))
        if state.scores:
            parts.append("scores " + " ".join(str(s) for s in state.scores))
        parts.append(f"{table.pack.name} pack, wild worth {state.comet_value}")
        if state.terminal:
            parts.append(end_text(state))
    return "; ".join(parts)


def copies(table: Table) -> int:
    """The most copies of one card in the pack (1, or 2 in the two-pack games)."""
    return max(Counter(table.pack.cards).values())


# Tensor pieces: (name, shape) for an observation of ``table``; cards as one plane of 52 per copy
# a pack holds (a first copy, a second copy), seats one-hot.
def tensor_pieces(table: Table, *, private: bool, public: bool, recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    n = table.players
    k = copies(table)
    pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
    if private:
        pieces.append(("hand", (k, 52)))
        if recall:
            pieces.append(("dealt", (k, 52)))
    if public:
        pieces += [
            ("to_move", (n,)),
            ("need", (KING + 1,)),
            ("run_suit", (5,)),
            ("played", (k, 52)),
            ("held", (n, table.hand_size + 1)),
            ("chips", (n,)),
            ("terminal", (1,)),
        ]
        if recall:
            pieces.append(("played_by", (n, k, 52)))
    return pieces


def cards_into(out: npt.NDArray[np.float32], cards: Sequence[Card]) -> None:
    """Mark ``cards`` in the card planes ``out`` (a second copy of a card in the second plane)."""
    if not cards:
        return
    places = [c - 4 for c in cards]
    if len(set(places)) == len(places):  # the usual case: one copy of each, one numpy assignment
        out[0, places] = 1.0
        return
    seen: set[Card] = set()
    for c in cards:
        out[1 if c in seen else 0, c - 4] = 1.0
        seen.add(c)


def fill_tensor(
    views: Mapping[str, npt.NDArray[np.float32]],
    table: Table,
    state: DealState,
    seat: int,
    dealt: Sequence[Card],
    log: Sequence[tuple[int, Action]],
) -> None:
    """Write what ``seat`` may know into the named views (all zeroed by the caller)."""
    views["player"][seat] = 1.0
    if "hand" in views:
        cards_into(views["hand"], state.hands[seat])
    if "dealt" in views:
        cards_into(views["dealt"], dealt)
    if "to_move" in views:
        if not state.terminal:
            views["to_move"][state.to_move] = 1.0
        views["need"][state.need if state.need <= KING else 0] = 1.0
        views["run_suit"][state.run_suit + 1] = 1.0
        cards_into(views["played"], state.played)
        for s, h in enumerate(state.hands):
            views["held"][s, min(len(h), table.hand_size)] = 1.0
        views["chips"][:] = np.asarray(state.chips(), np.float32) / np.float32(chip_scale(table))
        views["terminal"][0] = 1.0 if state.terminal else 0.0
    if "played_by" in views:
        by: dict[int, list[Card]] = {}
        for s, a in log:
            by.setdefault(s, []).extend(a.cards)
        for s, cards in by.items():
            cards_into(views["played_by"][s], cards)


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
