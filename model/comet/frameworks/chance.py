"""The deal as a sequence of chance outcomes (the shuffled pack, one card at a time), handed to the engine's
``distribute`` and ``start_deal``; and the engine's seeded deal at a table."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from comet import engine
from comet.cards import Card
from comet.frameworks.table import Table
from comet.state import DealState


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
