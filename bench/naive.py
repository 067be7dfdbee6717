"""A naive yardstick: the standard game of Comet, default readings, in plain standard-library Python.

This is the simplest correct implementation of one deal of the standard game we could write: hands are
``Counter``s of card codes, actions are the strings of ``spec/record.md``, the state is a mutable dict,
nothing is cached or precomputed.  It exists to be measured against (issue 21: the reference engine must
play random 4-player deals at least twice as fast as this, and ``replay_record`` must replay records at
least 0.6 times as fast as ``replay`` below), and it is checked against the reference engine action for
action by ``tests/test_naive_yardstick.py``, so the comparison is between two correct programs.

It knows only the defaults of ``spec/rulings.md`` (the ``standard`` preset) and one deal; it imports
nothing from ``comet``.  Rule ids name the rule each piece follows.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

RANK_VALUES = {"J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 11)}}
RANK_CODES = {v: k for k, v in RANK_VALUES.items()}
SUIT_ORDER = "CDHS"
KING = 13
# R-DEAL-SIZES: cards each, per number of players (the rest is the dead hand).
HAND_SIZE = {2: 18, 3: 12, 4: 10, 5: 9}


def rank(card: str) -> int:
    return RANK_VALUES[card[:-1]]


def card_key(card: str) -> tuple[int, int]:
    """R-REC-ACTION-ORDER: cards compare by rank, then suit (clubs < diamonds < hearts < spades)."""
    return rank(card), SUIT_ORDER.index(card[-1])


def pack(name: str) -> tuple[list[str], str]:
    """R-PACK-BLACK / R-PACK-RED: the 48 cards of a pack and its Comet."""
    suits, comet, swapped = ("CS", "9D", "9C") if name == "black" else ("DH", "9C", "9D")
    cards = [f"{r}{s}" for r in RANK_CODES.values() for s in suits for _ in range(2)]
    cards.remove(swapped)
    cards.append(comet)
    return cards, comet


def new_deal(players: int, dealer: int, hands: list[list[str]], dead: list[str], comet: str, value: int = 2) -> dict[str, Any]:
    """R-LEAD-FIRST: the dealer's left neighbour moves first, to start a run."""
    return {
        "players": players,
        "hands": [Counter(h) for h in hands],
        "dead": Counter(dead),
        "comet": comet,
        "value": value,
        "need": 0,  # the rank the run needs; 0 while a new run is to be started
        "to_move": (dealer + 1) % players,
        "played_in_turn": False,
        "last_player": -1,
        "winner": -1,
        "out_as": 0,  # the rank the Comet stood for, when it was the winner's last card
        "played": [],
        "payments": [],
        "applied": 0,
    }


def shuffled(players: int, dealer: int, rng: random.Random) -> dict[str, Any]:
    """R-DEAL-ORDER: shuffle the black pack and deal it one card at a time from the dealer's left."""
    cards, comet = pack("black")
    rng.shuffle(cards)
    size = HAND_SIZE[players]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * size):
        hands[(dealer + 1 + i) % players].append(cards[i])
    return new_deal(players, dealer, hands, cards[players * size :], comet)


def natural_count(deal: dict[str, Any], r: int) -> int:
    """How many natural cards of rank ``r`` the pack has (four, or three 9s): counted from every card."""
    every = Counter(deal["dead"])
    for hand in deal["hands"]:
        every.update(hand)
    every.update(deal["played"])
    return sum(k for c, k in every.items() if rank(c) == r and c != deal["comet"])


def action_text(cards: list[str], as_rank: int) -> str:
    if not cards:
        return "pass"
    text = "play " + " ".join(sorted(cards, key=card_key))
    return text + (" as " + RANK_CODES[as_rank] if as_rank else "")


def legal(deal: dict[str, Any]) -> list[str]:
    """R-LEAD-ANY, R-PLAY-CONTINUE, R-PLAY-MUST, R-COMET-WILD, R-FOUR-OF-A-KIND: the legal actions in order."""
    if deal["winner"] >= 0:
        return []  # R-END-OUT
    hand = deal["hands"][deal["to_move"]]
    comet = deal["comet"]
    options: list[tuple[list[str], int]] = []
    if deal["need"] == 0:
        options += [([c], 0) for c in hand if hand[c] and c != comet]
        if hand[comet]:
            options.append(([comet], KING))  # RUL-COMET-LEAD (default): a led Comet stands for the King
        if not options:
            options.append(([], 0))
    else:
        need = deal["need"]
        matching = [c for c in hand if hand[c] and c != comet and rank(c) == need]
        options += [([c], 0) for c in matching]
        held = sum(hand[c] for c in matching)
        if held >= 3 and held == natural_count(deal, need):
            options.append(([c for c in matching for _ in range(hand[c])], 0))
        if hand[comet]:
            options.append(([comet], need))
        if not matching:
            options.append(([], 0))  # R-COMET-OPTIONAL: the Comet never has to be played
    options.sort(key=lambda o: ([card_key(c) for c in sorted(o[0], key=card_key)], o[1]))
    return [action_text(cards, as_rank) for cards, as_rank in options]


def parse_action(text: str) -> tuple[list[str], int]:
    words = text.split(" ")
    if words == ["pass"]:
        return [], 0
    if len(words) >= 4 and words[-2] == "as":
        return words[1:-2], RANK_VALUES[words[-1]]
    return words[1:], 0


def apply(deal: dict[str, Any], text: str) -> None:
    """Apply one action in place; ValueError if it is not legal."""
    cards, as_rank = parse_action(text)
    canonical = action_text(cards, as_rank)
    if canonical not in legal(deal):
        raise ValueError(f"illegal action {text!r}")
    seat = deal["to_move"]
    deal["applied"] += 1
    if not cards:  # R-TURN-END, R-STOP-STUCK
        nxt = (seat + 1) % deal["players"]
        if nxt == deal["last_player"]:
            deal["need"] = 0
        deal["to_move"] = nxt
        deal["played_in_turn"] = False
        return
    hand = deal["hands"][seat]
    hand.subtract(cards)
    deal["played"].extend(cards)
    out = sum(hand.values()) == 0
    played_rank = as_rank or rank(cards[0])
    if as_rank:  # R-COMET-BONUS, doubled (x4 as a 9) when it is the last card
        amount = deal["value"] * ((4 if as_rank == 9 else 2) if out else 1)
        for payer in range(deal["players"]):
            if payer != seat and amount:
                deal["payments"].append((payer, seat, amount, "R-COMET-BONUS"))
    stop = played_rank == KING or bool(as_rank)  # R-STOP-KING, R-COMET-STOP
    deal["need"] = 0 if stop else played_rank + 1
    deal["played_in_turn"] = True
    deal["last_player"] = seat
    if out:  # R-END-OUT
        deal["winner"] = seat
        deal["out_as"] = as_rank


def settle(deal: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    """R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST: what each loser pays the winner."""
    winner = deal["winner"]
    if winner < 0:
        return []
    out_as = deal["out_as"]
    out_mult = (4 if out_as == 9 else 2) if out_as else 1
    pays = []
    for seat, hand in enumerate(deal["hands"]):
        if seat == winner:
            continue
        points = sum(min(rank(c), 10) * k for c, k in hand.items())
        caught = 2 if hand[deal["comet"]] else 1
        amount = points * caught * out_mult
        rule = "R-SETTLE-COMET-LAST" if out_as else ("R-SETTLE-CAUGHT" if caught > 1 else "R-SETTLE-POINTS")
        if amount:
            pays.append((seat, winner, amount, rule))
    return pays


def chips(deal: dict[str, Any]) -> list[int]:
    """Net chips per seat: payments during play plus the settlement."""
    net = [0] * deal["players"]
    for payer, payee, amount, _ in deal["payments"] + settle(deal):
        net[payer] -= amount
        net[payee] += amount
    return net


def random_deal(players: int, rng: random.Random) -> list[int]:
    """Shuffle, deal, play uniformly random legal actions to the end, settle."""
    deal = shuffled(players, rng.randrange(players), rng)
    while deal["winner"] < 0:
        options = legal(deal)
        apply(deal, options[rng.randrange(len(options))])
    return chips(deal)


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a decoded standard-game deal record (``spec/record.md``): the verdict, as ``comet replay`` gives it."""
    hands, dead = record["hands"], record["dead"]
    # The red pack has no spades: the cards tell which pack, and so which card is the Comet.
    comet = "9D" if any(c.endswith("S") for c in dead + [c for h in hands for c in h]) else "9C"
    deal = new_deal(record["players"], record["dealer"], hands, dead, comet, record.get("comet_value", 2))
    for index, text in enumerate(record["actions"]):
        try:
            apply(deal, text)
        except ValueError:
            return {"legal": False, "index": index}
    return {"legal": True, "winner": deal["winner"], "chips": chips(deal), "finished": deal["winner"] >= 0}

