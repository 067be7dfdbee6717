"""Cards, ranks, suits and the packs the games are played with.

A card is a small integer ``rank * 4 + suit`` so that states stay flat and
integer-valued (the Z3 encoding in ``comet_proofs`` relies on this).  Ranks run
from 1 (Ace) to 13 (King); suits are ordered clubs, diamonds, hearts, spades.
Packs may hold two copies of the same card (the two-pack game does), so hands
are sorted tuples, i.e. multisets.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from comet.trace import rule

Card = int

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SPOKEN_RANKS = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return rank * 4 + suit


def rank_of(c: Card) -> int:
    return c >> 2


def suit_of(c: Card) -> int:
    return c & 3


def of_rank(hand: Sequence[Card], rank: int) -> Sequence[Card]:
    """The cards of ``rank`` in a sorted hand: they sit side by side there (a card is ``rank * 4 + suit``),
    so two binary searches find them without looking at the rest of the hand."""
    return hand[bisect_left(hand, rank * 4) : bisect_left(hand, rank * 4 + 4)]


def rank_text(rank: int) -> str:
    """Rank as written in card codes: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``."""
    return RANK_NAMES.get(rank, str(rank))


def spoken_rank(rank: int) -> str:
    """Rank as a player says it aloud in the sources' narration ("Jack", "9")."""
    return SPOKEN_RANKS.get(rank, str(rank))


def card_text(c: Card) -> str:
    """The card code, e.g. ``10H``, ``9D``, ``AS``."""
    return rank_text(rank_of(c)) + SUITS[suit_of(c)]


_RANK_CODES = {"A": 1, "J": 11, "Q": 12, "K": 13} | {str(r): r for r in range(2, 11)}


def parse_rank(text: str) -> int:
    """Parse a rank code (``A``, ``2``..``10``, ``J``, ``Q``, ``K``); ValueError otherwise."""
    r = _RANK_CODES.get(text.strip().upper())
    if r is None:
        raise ValueError(f"unknown rank {text!r}: expected A, 2..10, J, Q or K")
    return r


def parse_card(text: str) -> Card:
    """Parse a card code such as ``5H`` or ``10C``; ValueError with a plain message otherwise."""
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS:
        raise ValueError(f"unknown card {text!r}: expected a rank then one of C, D, H, S (e.g. 5H)")
    return card(parse_rank(t[:-1]), SUITS.index(t[-1]))


#: Every card code in its exact form (``5H``, ``10C``, ``AS``): reading a record is one lookup per card.
CARD_CODES: dict[str, Card] = {card_text(card(r, s)): card(r, s) for r in range(ACE, KING + 1) for s in range(4)}


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Pack:
    """A named pack: the multiset of its cards (sorted) and which of them are wild."""

    name: str
    cards: tuple[Card, ...]
    wild: tuple[Card, ...]

    def counts(self) -> Counter[Card]:
        return Counter(self.cards)


@rule("R-PACK-BLACK")
@functools.cache  # a Pack is immutable: one value serves every deal
def black_pack() -> Pack:
    """Clubs and spades of two decks without Aces, one 9C swapped for a 9D (the Comet)."""
    cards = [card(r, s) for r in range(2, 14) for s in (CLUBS, SPADES) for _ in range(2)]
    cards.remove(card(9, CLUBS))
    cards.append(card(9, DIAMONDS))
    return Pack("black", tuple(sorted(cards)), (card(9, DIAMONDS),))


@rule("R-PACK-RED")
@functools.cache
def red_pack() -> Pack:
    """Hearts and diamonds of two decks without Aces, one 9D swapped for a 9C (the Comet)."""
    cards = [card(r, s) for r in range(2, 14) for s in (DIAMONDS, HEARTS) for _ in range(2)]
    cards.remove(card(9, DIAMONDS))
    cards.append(card(9, CLUBS))
    return Pack("red", tuple(sorted(cards)), (card(9, CLUBS),))


def full_deck(name: str = "deck52", wild: Sequence[Card] = ()) -> Pack:
    """One standard 52-card deck (Aces included)."""
    return Pack(name, tuple(card(r, s) for r in range(1, 14) for s in range(4)), tuple(wild))


