"""Cutting a disagreeing record down: the fewest actions (a prefix), rulings and deals that still make
the implementation disagree with the model."""

from __future__ import annotations

import copy
from collections.abc import Callable

from comet.records.deal_record import JsonObject

#: At most this many requests are spent shrinking one record.
MAX_TRIES = 400


def shrink_record(record: JsonObject, disagrees: Callable[[JsonObject], bool]) -> JsonObject:
    """The smallest record found that still disagrees: for a game, trailing deals dropped (and its
    ``end``), then ``after``s, then its last deal's actions cut to the shortest prefix; for a deal, the
    shortest prefix of its actions; then each ruling dropped in turn."""
    tries = [0]

    def still(candidate: JsonObject) -> bool:
        if tries[0] >= MAX_TRIES:
            return False
        tries[0] += 1
        return disagrees(candidate)

    best = copy.deepcopy(record)
    game = isinstance(best.get("deals"), list)
    best = _shrink_game(best, still) if game else _shrink_actions(best, still)
    rulings = best.get("rulings")
    if isinstance(rulings, dict):
        for name in sorted(rulings):
            fewer = {k: v for k, v in rulings.items() if k != name}
            candidate = {**best, "rulings": fewer}
            if still(candidate):
                best, rulings = candidate, fewer
    return best


def _shrink_actions(record: JsonObject, still: Callable[[JsonObject], bool]) -> JsonObject:
    actions = record.get("actions")
    if not isinstance(actions, list):
        return record
    for k in range(len(actions)):  # the shortest prefix first: the disagreement is at its last action
        candidate = {**record, "actions": actions[:k]}
        if still(candidate):
            return candidate
    return record


def _shrink_game(record: JsonObject, still: Callable[[JsonObject], bool]) -> JsonObject:
    best = record
    deals = best["deals"]
    assert isinstance(deals, list)
    for k in range(len(deals)):  # the fewest deals first
        candidate = {k2: v for k2, v in best.items() if k2 != "end"}
        candidate["deals"] = deals[: k + 1]
        if still(candidate):
            best = candidate
            break
    no_after = copy.deepcopy(best)
    kept = no_after["deals"]
    assert isinstance(kept, list)
    for d in kept:
        if isinstance(d, dict):
            d.pop("after", None)
    if still(no_after):
        best = no_after
    return _shrink_last_deal(best, still)


def _shrink_last_deal(record: JsonObject, still: Callable[[JsonObject], bool]) -> JsonObject:
    """The game with its last deal's actions cut to the shortest prefix that still disagrees (its
    ``after`` and the game's ``end`` dropped, since the deal is then unfinished)."""
    deals = record["deals"]
    assert isinstance(deals, list)
    last = deals[-1] if deals else None
    if not isinstance(last, dict) or not isinstance(last.get("record"), dict):
        return record
    deal = last["record"]
    assert isinstance(deal, dict)
    actions = deal.get("actions")
    if not isinstance(actions, list):
        return record
    head = {k: v for k, v in record.items() if k != "end"}
    for k in range(len(actions)):
        cut: JsonObject = {**deal, "actions": actions[:k]}
        entry: JsonObject = {"record": cut}
        candidate: JsonObject = {**head, "deals": [*deals[:-1], entry]}
        if still(candidate):
            return candidate
    return record
