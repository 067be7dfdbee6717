"""A naive yardstick: the standard game of Comet, default readings, in plain standard-library Python.

The plainest correct implementation of one deal of the standard game we could write, with nothing done
to make it fast and nothing done to make it slow: hands are ``Counter``s of card codes, actions are the
strings of ``spec/record.md``, the state is a mutable dict changed in place, nothing is cached or
precomputed.  It exists to be measured against (issue 21, issue 32 item 6: the reference engine's
``legal_actions`` + ``apply`` must take at least twice as many actions per second as ``legal`` +
``apply`` here, in the same loop; ``replay_record`` must replay records at least 0.6 times as fast as
``replay`` below).  It is checked against the reference engine action for action by
``tests/test_naive_yardstick.py``, and deal by deal on the very deals it is timed on by
``bench/yardstick.py``, so the comparison is between two correct programs.

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
    """R-PACK-BLACK / R-PACK-RED: the 48 cards of a pack in order (rank, then suit) and its Comet."""
    suits, comet, swapped = ("CS", "9D", "9C") if name == "black" else ("DH", "9C", "9D")
    cards = [f"{r}{s}" for r in RANK_CODES.values() for s in suits for _ in range(2)]
    cards.remove(swapped)
    cards.append(comet)
    return sorted(cards, key=card_key), comet


def new_deal(
    players: int, dealer: int, hands: list[list[str]], dead: list[str], comet: str, value: int = 2
) -> dict[str, Any]:
    """R-LEAD-FIRST: the dealer's left neighbour moves first, to start a run."""
    return {
        "players": players,
        "hands": [Counter(h) for h in hands],
        "dead": Counter(dead),
        "comet": comet,
        "value": value,
        "need": 0,  # the rank the run needs; 0 while a new run is to be started
        "to_move": (dealer + 1) % players,
        "last_player": -1,
        "winner": -1,
        "out_as": 0,  # the rank the Comet stood for, when it was the winner's last card
        "played": [],
        "payments": [],
    }


def shuffled(players: int, dealer: int, seed: int, name: str = "black") -> dict[str, Any]:
    """R-DEAL-ORDER: shuffle the pack (in its order) with ``seed``, deal one card at a time from the
    dealer's left; the rest is the dead hand."""
    cards, comet = pack(name)
    random.Random(seed).shuffle(cards)
    size = HAND_SIZE[players]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * size):
        hands[(dealer + 1 + i) % players].append(cards[i])
    return new_deal(players, dealer, hands, cards[players * size :], comet)


def shuffled_for(players: int, seed: int) -> dict[str, Any]:
    """Deal ``seed`` of the black pack (the dealer is seat ``seed % players``)."""
    return shuffled(players, seed % players, seed)


def natural_count(deal: dict[str, Any], r: int) -> int:
    """How many natural cards of rank ``r`` the pack has (four, or three 9s): counted from every card."""
    every = Counter(deal["dead"])
    for hand in deal["hands"]:
        every.update(hand)
    every.update(deal["played"])
    return sum(k for c, k in every.items() if rank(c) == r and c != deal["comet"])


def legal(deal: dict[str, Any]) -> list[str]:
    """R-LEAD-ANY, R-PLAY-CONTINUE, R-PLAY-MUST, R-COMET-WILD, R-FOUR-OF-A-KIND: the legal actions, in the
    order of R-REC-ACTION-ORDER (a pass first, then by the cards played, then by the Comet's rank)."""
    if deal["winner"] >= 0:
        return []  # R-END-OUT
    hand = deal["hands"][deal["to_move"]]
    comet = deal["comet"]
    need = deal["need"]
    plays: list[tuple[list[tuple[int, int]], int, str]] = []  # (cards' keys, rank the Comet stands for, text)
    matching = [c for c in hand if c != comet and (need == 0 or rank(c) == need)]
    for c in matching:
        plays.append(([card_key(c)], 0, "play " + c))
    if need and len(matching) >= 1:
        held = sum(hand[c] for c in matching)
        if held >= 3 and held == natural_count(deal, need):
            every = sorted([c for c in matching for _ in range(hand[c])], key=card_key)
            plays.append(([card_key(c) for c in every], 0, "play " + " ".join(every)))
    if comet in hand:
        as_rank = need or KING  # RUL-COMET-LEAD (default): a led Comet stands for the King
        plays.append(([card_key(comet)], as_rank, f"play {comet} as {RANK_CODES[as_rank]}"))
    plays.sort()
    actions = [text for _, _, text in plays]
    if not (plays if need == 0 else matching):  # R-COMET-OPTIONAL: the Comet never has to be played
        actions.insert(0, "pass")
    return actions


def apply(deal: dict[str, Any], text: str, legal_now: list[str] | None = None) -> None:
    """Apply one action in place; ValueError if it is not legal.  ``legal_now``: ``legal(deal)`` when the
    caller has just computed it (the reference engine's ``apply`` takes the same shortcut)."""
    if text not in (legal(deal) if legal_now is None else legal_now):
        raise ValueError(f"illegal action {text!r}")
    seat = deal["to_move"]
    if text == "pass":  # R-TURN-END, R-STOP-STUCK
        nxt = (seat + 1) % deal["players"]
        if nxt == deal["last_player"]:
            deal["need"] = 0
        deal["to_move"] = nxt
        return
    words = text.split(" ")
    as_rank = RANK_VALUES[words[-1]] if words[-2] == "as" else 0
    cards = words[1:-2] if as_rank else words[1:]
    hand = deal["hands"][seat]
    hand.subtract(cards)
    for c in cards:
        if hand[c] == 0:
            del hand[c]
    deal["played"].extend(cards)
    out = not hand
    if as_rank:  # R-COMET-BONUS, doubled (x4 as a 9) when it is the last card
        amount = deal["value"] * ((4 if as_rank == 9 else 2) if out else 1)
        for payer in range(deal["players"]):
            if payer != seat and amount:
                deal["payments"].append((payer, seat, amount, "R-COMET-BONUS"))
    played_rank = as_rank or rank(cards[0])
    stop = played_rank == KING or bool(as_rank)  # R-STOP-KING, R-COMET-STOP
    deal["need"] = 0 if stop else played_rank + 1
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


def play_random(deal: dict[str, Any], seed: int) -> tuple[list[int], int]:
    """Play ``deal`` to the end with uniformly random legal actions (chosen by ``Random(seed)``), settle:
    the chips per seat, and the number of actions taken."""
    choose = random.Random(seed).random
    actions = 0
    while deal["winner"] < 0:
        options = legal(deal)
        apply(deal, options[int(choose() * len(options))], options)
        actions += 1
    return chips(deal), actions


def random_deal(players: int, seed: int) -> tuple[list[int], int]:
    """Deal ``seed`` (shuffled, dealt), played at random to the end and settled (``play_random``)."""
    return play_random(shuffled_for(players, seed), seed)


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
