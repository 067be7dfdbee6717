"""What a seat gets from a deal: ``utilities`` (``returns()`` in chip games; in points games, where every chip
return is 0, the deal's points made zero-sum) and the bounds of a seat's utility, proved or exact
(``utility_bounds``, spec/frameworks.md "Utilities")."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from comet import engine
from comet.cards import Card
from comet.frameworks.chance import seeded_deal
from comet.frameworks.table import Table
from comet.presets import PRESETS
from comet.state import DealState
from comet.variant import variant_of


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
    "old_comet": {2: (205, 205), 3: (161, 268), 4: (155, 322), 5: (159, 367)},
    "commit_hoyle": {3: (13, 14), 4: (19, 21), 5: (25, 28)},
}
PROVED_POINTS: dict[str, dict[int, int]] = {"red_nines": {4: 756, 5: 1560}, "commit_cats": {3: 41}}


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
