"""The redealing helpers behind ``CometState.resample_deal`` (ISMCTS in ``comet.frameworks.openspiel``): the
table's events replayed on a candidate deal, the seat of each dealt position, a card swapped between places, and
the randomised search that deals the unseen cards avoiding the places the history rules out.  Framework-free:
every rule comes from ``comet.engine``."""

from __future__ import annotations

import dataclasses
import random

from comet import engine
from comet.frameworks.table import Table
from comet.frameworks.text import announcement, public_line
from comet.state import Action, DealState

#: How often ``resample_deal`` was asked for a deal, and how often it gave up and returned the true
#: state (for the bots' reports: bench/framework_bots.py).
RESAMPLE_CALLS = [0]
RESAMPLE_FALLBACKS = [0]


def replayed_events(state: DealState, moves: list[tuple[int, Action]]) -> list[str] | None:
    """The table's events when ``moves`` are played from ``state``; None if one is illegal there."""
    events: list[str] = []
    for seat, move in moves:
        if state.to_move != seat or move not in engine.legal_actions(state):
            return None
        note = announcement(state)
        after = engine.apply(state, move)
        if note:
            events.append("(" + note + ")")
        events.append(public_line(state, move, after))
        state = after
    events.append(announcement(state) or "")
    return events


def seats_of_positions(table: Table) -> list[int]:
    """The seat each dealt position goes to (R-DEAL-ORDER, found through ``engine.distribute``)."""
    marks = list(range(table.dealt))
    hands, _ = engine.distribute(table.rules, marks, table.players, table.dealer, table.hand_size)
    seat_of = [0] * table.dealt
    for seat, h in enumerate(hands):
        for i in h:
            seat_of[i] = seat
    return seat_of


def swapped(state: DealState, seat: int, out: int, card: int) -> DealState:
    """``state`` with ``card`` in ``seat``'s hand in place of ``out``, and ``out`` where ``card`` was."""
    hands = [list(h) for h in state.hands]
    dead = list(state.dead)
    holder = next((s for s, h in enumerate(hands) if card in h), None)
    if holder is None:
        dead.remove(card)
        dead.append(out)
    else:
        hands[holder].remove(card)
        hands[holder].append(out)
    hands[seat].remove(out)
    hands[seat].append(card)
    return dataclasses.replace(state, hands=tuple(tuple(sorted(h)) for h in hands), dead=tuple(sorted(dead)))


def deal_avoiding(
    unseen: list[int], free: dict[int, int], excluded: dict[int, frozenset[int]], rng: random.Random
) -> dict[int, list[int]] | None:
    """The unseen cards dealt at random into each seat's free places (the rest to the dead hand), each card
    to a place its exclusions allow, most constrained cards first; None at a dead end."""
    room = dict(free)
    dealt: dict[int, list[int]] = {seat: [] for seat in free}
    cards = sorted(unseen, key=lambda c: (-sum(c in ex for ex in excluded.values()), rng.random()))
    spare = len(unseen) - sum(free.values())  # the dead hand's places
    for c in cards:
        places = [seat for seat, n in room.items() if n and c not in excluded.get(seat, ())]
        weights = [room[seat] for seat in places]
        if spare:
            places.append(-1)
            weights.append(spare)
        if not places:
            return None
        seat = rng.choices(places, weights)[0]
        if seat == -1:
            spare -= 1
        else:
            room[seat] -= 1
            dealt[seat].append(c)
    return dealt
