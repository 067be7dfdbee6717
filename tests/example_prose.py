"""Worked examples rendered from their records (issue 38): the prose of a ruling's **Example.** that says it is
"rendered from the record" must contain, word for word, the sentence ``render`` makes from the record's
replay under each reading (who went out and how, what each loser still holds, and each reading's chip
changes), so the prose can never describe a deal the record does not play.

Print the sentences to paste after editing a record:
    PYTHONPATH=model:tests .venv/bin/python tests/example_prose.py RUL-OPERA-STACK ...
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from comet.cards import card_text, rank_of
from comet.engine import returns
from comet.records.deal_record import loads_record, replay_record
from comet.state import DealState

EXAMPLES = Path(__file__).resolve().parent.parent / "spec" / "examples"
MARK = "(rendered from the record)"
NAMES = ("Anna", "Ben", "Carla", "Dan", "Emil", "Fay", "Gus", "Hana")
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
WILD_NAMES = {"old_comet": "the manille"}


def card_words(c: int) -> str:
    """A card as the prose writes it: 10♣, Q♠."""
    text = card_text(c)
    return text[:-1] + SUIT_SIGNS[text[-1]]


def final_under(record: dict[str, Any], field: str, value: object) -> DealState:
    """The record's final state with ``field = value`` (ValueError if it does not replay to the end)."""
    rec = dict(record, rulings=dict(record.get("rulings", {}), **{field: value}))
    verdict = replay_record(loads_record(json.dumps(rec)))
    if verdict.error is not None or not verdict.final.terminal:
        raise ValueError(f"the record does not play to the end under {field} = {value!r}")
    return verdict.final


def _hand_words(state: DealState, hand: tuple[int, ...], wild_name: str) -> str:
    wild = [c for c in hand if c in state.wild]
    natural = sorted((c for c in hand if c not in state.wild), key=lambda c: (rank_of(c), c))
    words = " ".join(card_words(c) for c in natural)
    return f"{words} and {wild_name}" if wild else words


def _play_words(action: str, state: DealState, wild_name: str) -> str:
    """The last play as the prose writes it: Q♣, or the Comet as a 9."""
    from comet.notation import parse_action

    act = parse_action(action)
    (c,) = act.cards
    if c in state.wild:
        return f"{wild_name} as a {action.split()[-1]}"
    return card_words(c)


def render(data: dict[str, Any]) -> str:
    """The sentence the record tells: the winner's plays, each loser's cards left, each reading's chips."""
    record, field = data["record"], data["field"]
    finals = [(r["value"], final_under(record, field, r["value"])) for r in data["readings"]]
    first = finals[0][1]
    wild_name = WILD_NAMES.get(record["variant"], "the Comet")
    winner = first.winner
    plays = [a for a in record["actions"] if a != "pass"]
    opening = (
        f"{NAMES[winner]} goes out in her first turn, playing all {len(plays)} of her cards"
        if len(plays) == len(record["hands"][winner]) and "pass" not in record["actions"]
        else f"{NAMES[winner]} goes out"
    )
    opening += f" (the last: {_play_words(record['actions'][-1], first, wild_name)})"
    losers = [seat for seat in range(first.players) if seat != winner]
    held = "; ".join(
        f"{NAMES[s]} still holds all {len(first.hands[s])} cards: {_hand_words(first, first.hands[s], wild_name)}"
        for s in losers
    )
    parts = []
    for value, final in finals:
        net = returns(final)
        paid = " and ".join(f"{NAMES[s]} loses {-net[s]}" for s in losers)
        parts.append(f"with `{field} = {json.dumps(value)}` {paid} chips")
    return f"{opening}. {held}. W" + "; ".join(parts)[1:] + "."


def example_text(body: Sequence[str]) -> str:
    """The **Example.** paragraph of a ruling section (its lines joined by spaces)."""
    out: list[str] = []
    inside = False
    for line in body:
        if line.startswith("**Example.**"):
            inside = True
        elif inside and (not line.strip() or line.startswith("**")):
            break
        if inside:
            out.append(line.strip())
    return " ".join(out)


def prose_problems(rid: str, body: Sequence[str], data: dict[str, Any]) -> list[str]:
    """The example's prose against its record: empty when the rendered sentence stands in it word for word."""
    text = example_text(body)
    if MARK not in text:
        return [f"{rid}: the Example does not say it is {MARK}"]
    try:
        want = render(data)
    except ValueError as e:
        return [f"{rid}: {e}"]
    if want not in text:
        return [f"{rid}: the Example's prose differs from its record; the record tells: {want}"]
    return []


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(render(json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))))
