"""The canonical action encoding the frameworks share: a stable integer id for every action of every preset
(``action_id`` / ``action_of``, ``NUM_ACTIONS`` ids in all; spec/frameworks.md, "Action ids"), free of any framework."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from comet import engine
from comet.cards import Card, cards_text, rank_of, suit_of
from comet.state import PASS, Action, DealState

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
