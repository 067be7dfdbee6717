"""Game witnesses built deal by deal (a game record, replayed under each rule set by
``game_search.recorded_game``) at the floor ``game_search.game_floor`` states, where no seeded game comes
near it.

RUL-INSOLVENCY in Commit (000): the readings part only once a seat owes more than it holds, and a seat pays
at most ``most_paid_in_a_deal`` chips a deal (19 at four players: its stake, the 9♦ caught, four Kings
held).  The game built pays that most in every deal: seat 0, the first dealer, holds the four Kings and
the 9♦ and never plays, while the first player of each deal holds a run of one suit from its Ace and plays
it out in one turn (R-COMMIT-H-SUIT: the same player goes on while they hold the next card).  Seat 0 leads
only in the last deal of a round of four, after its balance has run out in the third.

RUL-COMMIT-C-RACE in 002's Commit: the readings part only once a total reaches 100 inside a deal, and a seat
scores at most ``most_points_in_a_deal`` points a deal (41 at three players, 32 at two: three deals at three
players is the floor).  The game built has seat 1 go out in each of three deals while the others play at
most one card (40, 39 and 39 points): it passes 100 when it goes out in the third deal, and the Comet caught
in another hand gives it one point more, which the race never scores.

RUL-COMMIT-C-TARGET (``commit_tie``) in 002's Commit: the readings part only after a deal that leaves two
seats tied for the lead at 100 or more, and the seat with fewer wins must take what its own deals lack
from the other's, each point costing the two of them about two (``game_search.partner_cost``,
``fewest_tie_deals``: 5 deals at 5 players is the floor, 6 asked).  The game built (``TIE_DEALS``, each
deal a script of plays, ``scripted_deal``) has seats 0 and 4 reach exactly 100 together in the fifth
deal: seat 4 wins two deals (46, 47) and takes 7 points in seat 0's three (the Comet each time, a King
once), and the other seats play cards in seat 0's deals until its three come to 100 as well.
"""

from __future__ import annotations

import json

from comet.cards import KING, parse_card, parse_rank, rank_of, suit_of
from comet.diverge.game_search import game_difference, game_floor
from comet.diverge.pairs import Pair
from comet.diverge.records import Witness
from comet.engine import apply, deal_sizes, explicit_deal, legal_actions, packs_in_rotation
from comet.errors import RecordError
from comet.games.commit_common import NINE_OF_DIAMONDS
from comet.records.contract import FORMAT
from comet.records.deal_record import JsonObject, JsonValue, record_from_state
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState

#: the seat that pays the most in every deal
LOSER = 0
#: the seat that scores (nearly) the most in every deal of 002's Commit
SCORER = 1


def built_game(pair: Pair) -> Witness | None:
    """The game built for ``pair`` at its floor, if one is built for it (see the module note), checked to
    differ (``game_difference``); None otherwise."""
    if pair.field == "insolvency" and pair.a.variant == "commit_hoyle" and pair.a.insolvency == "debt":
        deal_of, origin = _deal, f"seat {LOSER} paying the most it can in each deal"
    elif pair.field == "commit_race" and pair.a.variant == "commit_cats":
        deal_of, origin = _race_deal, f"seat {SCORER} going out in every deal while the others play one card"
    elif pair.field == "commit_tie" and pair.a.variant == "commit_cats":
        deal_of, origin = _tie_deal, f"seats {TIED[0]} and {TIED[1]} tied at 100 after the fifth deal"
    else:
        return None
    floor = game_floor(pair)
    if floor is None:
        return None
    deals, players = floor[0]
    entries: list[JsonValue] = []
    for i in range(deals):
        dealt = deal_of(pair, players, i)
        if dealt is None:
            return None
        start, actions = dealt
        entries.append({"record": record_from_state(start, pair.preset, actions).to_json()})
    record: JsonObject = {
        "format": FORMAT,
        "variant": pair.preset,
        "rulings": {},
        "players": players,
        "length": deals,
        "first_dealer": 0,
        "deals": entries,
    }
    text = json.dumps(record, sort_keys=True)
    diff = game_difference(pair, players, deals, 0, "", text)
    if diff is None:
        return None
    return Witness(
        "game",
        "game",
        diff[1],
        players,
        game_deals=deals,
        game_record=text,
        origin=f"built: {players} players, {deals} deals, {origin}",
    )


def _dealt_out(
    rules: Ruleset, players: int, dealer: int, hands: list[list[int]], rest: list[int], size: int
) -> DealState | None:
    """The deal whose hands are ``hands``, each topped up to ``size`` cards from ``rest`` in its order (seat
    by seat), the cards left over the stock; None where a chosen hand is over full, the rest too short to fill one, or the engine refuses
    the deal (``explicit_deal``)."""
    full: list[tuple[int, ...]] = []
    for hand in hands:
        need = size - len(hand)
        if need < 0 or need > len(rest):
            return None
        full.append(tuple(sorted(hand + rest[:need])))
        rest = rest[need:]
    try:
        return explicit_deal(rules, players, dealer, tuple(full), tuple(sorted(rest)), None)
    except RecordError:
        return None


def _deal(pair: Pair, players: int, index: int) -> tuple[DealState, tuple[Action, ...]] | None:
    """The deal of index ``index`` (its dealer ``index % players``): its first player holds the run of clubs from the Ace (as many as a hand
    holds), seat ``LOSER`` (when it is not the first player) the four Kings and the 9♦, the rest of the
    pack dealt in order; the first player plays the run out."""
    rules = pair.a
    dealer = index % players
    pack = packs_in_rotation(rules, players)[0]
    size, _ = deal_sizes(rules, players, len(pack.cards))
    first = (dealer + 1) % players
    run = sorted((c for c in pack.cards if suit_of(c) == 0 and rank_of(c) < KING), key=rank_of)[:size]
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[first] = run
    if first != LOSER:
        hands[LOSER] = [c for c in pack.cards if rank_of(c) == KING] + [NINE_OF_DIAMONDS]
    s = _dealt_out(rules, players, dealer, hands, [c for c in pack.cards if all(c not in h for h in hands)], size)
    if s is None:
        return None
    start = s
    actions: list[Action] = []
    for c in run:
        a = Action((c,))
        if s.terminal or a not in legal_actions(s):
            return None
        actions.append(a)
        s = apply(s, a)
    return (start, tuple(actions)) if s.terminal and s.winner == first else None


def _race_deal(pair: Pair, players: int, index: int) -> tuple[DealState, tuple[Action, ...]] | None:
    """The deal of index ``index`` (its dealer ``index % players``) of 002's Commit for RUL-COMMIT-C-RACE: seat ``SCORER`` holds the clubs (the
    A♣ too when it leads) and the diamonds from the Ace up to a full hand; the first player, when another
    seat, holds the A♣ (its lowest card) and the rest of the pack is dealt low cards first, Aces last.  The
    first player leads the A♣, the scorer plays the clubs to the King (R-COMMIT-C-SUIT: the same player goes
    on while they hold the next card; a King ends the run, R-COMMIT-C-KING) and then leads its diamonds out,
    the others passing where they hold nothing to play.  The scorer goes out with the three other Kings and
    the Comet in the other hands: 1 for the K♣, then 1 + a point per card left and one more per King
    (R-COMMIT-C-OUT), then 1 for the Comet caught (R-COMMIT-C-CAUGHT)."""
    rules = pair.a
    dealer = index % players
    pack = packs_in_rotation(rules, players)[0]
    size, _ = deal_sizes(rules, players, len(pack.cards))
    first = (dealer + 1) % players
    clubs = sorted((c for c in pack.cards if suit_of(c) == 0), key=rank_of)
    diamonds = sorted((c for c in pack.cards if suit_of(c) == 1 and c != NINE_OF_DIAMONDS), key=rank_of)
    hands: list[list[int]] = [[] for _ in range(players)]
    mine = clubs if first == SCORER else clubs[1:]
    hands[SCORER] = mine + diamonds[: size - len(mine)]
    if first != SCORER:
        hands[first] = clubs[:1]
    rest = sorted(
        (c for c in pack.cards if all(c not in h for h in hands)), key=lambda c: (rank_of(c) == 1, rank_of(c))
    )
    s = _dealt_out(rules, players, dealer, hands, rest, size)
    if s is None or any(rank_of(c) == KING for c in s.hands[SCORER] if suit_of(c) != 0):
        return None
    start = s
    plays = ([] if first == SCORER else clubs[:1]) + sorted(start.hands[SCORER], key=lambda c: (suit_of(c), rank_of(c)))
    actions: list[Action] = []
    for c in plays:
        a = Action((c,))
        while not s.terminal and a not in legal_actions(s) and PASS in legal_actions(s):
            actions.append(PASS)
            s = apply(s, PASS)
        if s.terminal or a not in legal_actions(s):
            return None
        actions.append(a)
        s = apply(s, a)
    return (start, tuple(actions)) if s.terminal and s.winner == SCORER else None


#: the two seats of 002's Commit that stand tied at 100 after the fifth deal (RUL-COMMIT-C-TARGET)
TIED = (0, 4)
_TIE_ONE = "1:AC 4:2C 4:3C 4:4C 4:5C 4:6C 4:9D=7 4:8C 4:9C 4:10C 4:JC"
#: the tie game's deals at 5 players, the dealer of deal i being seat i % 5: each step "seat:card" (or
#: "seat:9D=rank", the Comet standing for a rank), every other seat passing until that seat is to move
TIE_DEALS = (
    _TIE_ONE,
    "2:AS 2:2S 2:3S 2:4S 3:5S 3:6S 3:7S 3:8S 4:9D=9 0:9S 0:10S 0:JS 0:QS 4:KS 4:AD 0:2D 0:3D 0:4D 0:5D 0:6D 0:7D",
    "3:AH 3:2H 3:3H 3:4H 3:5H 3:6H 3:7H 3:8H 4:9D=9 0:9H 0:10H 1:JH 1:QH 1:KH 1:AS 1:2S 1:3S "
    "2:4S 2:5S 2:6S 2:7S 2:8S 2:9S 0:10S 0:JS 0:QS 0:KS 0:2D 0:3D 0:4D 0:5D",
    "4:4C 4:5C 4:6C 4:9D=7 4:8C 4:9C 4:10C 4:JC 4:QC 4:KC",
    "0:3C 0:4C 0:5C 0:6C 4:9D=7 0:8C 0:9C 0:10C 0:JC 0:QC 0:KC",
    _TIE_ONE,
)


def _tie_deal(pair: Pair, players: int, index: int) -> tuple[DealState, tuple[Action, ...]] | None:
    """The deal of index ``index`` of the RUL-COMMIT-C-TARGET game (``TIE_DEALS``, 5 players only): each
    seat holds the cards it plays there, the rest of the pack dealt in order, the steps played with the
    others passing in between (R-COMMIT-C-SUIT: a seat without the card the run needs passes; R-COMMIT-C-COMET:
    the Comet stands for the card needed).  Seat 4 scores 46 and 47 in the deals it wins (the first and
    fourth, playing the Comet; no other seat plays a card but the A♣ led in the first) and 3, 2, 2 in seat
    0's (the Comet standing for a card seat 0 lacks, and the K♠ once, after which it must lead: the A♦);
    seat 0 scores 33, 23 and 44 in its three, the other seats playing 8 and 20 cards in the second and
    third: 100 each after the fifth deal, no one at 100 before.  The sixth deal is the first again."""
    if players != 5 or index >= len(TIE_DEALS):
        return None
    return scripted_deal(pair.a, players, index % players, TIE_DEALS[index])


def scripted_deal(
    rules: Ruleset, players: int, dealer: int, script: str
) -> tuple[DealState, tuple[Action, ...]] | None:
    """The deal ``script`` describes, as its start and actions, or None where it does not play so: its
    steps "seat:card" (or "seat:9D=rank", the Comet standing for a rank), every other seat passing until
    that seat is to move (a seat that cannot pass there makes it None), the last step emptying its
    player's hand.  Each seat holds the cards it plays; the rest of the pack is dealt in order."""
    steps: list[tuple[int, Action]] = []
    for token in script.split():
        who, _, played = token.partition(":")
        text, _, rank = played.partition("=")
        steps.append((int(who), Action((parse_card(text),), parse_rank(rank) if rank else 0)))
    pack = packs_in_rotation(rules, players)[0]
    size, _ = deal_sizes(rules, players, len(pack.cards))
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, a in steps:
        hands[seat] += a.cards
    s = _dealt_out(rules, players, dealer, hands, [c for c in pack.cards if all(c not in h for h in hands)], size)
    if s is None:
        return None
    start = s
    actions: list[Action] = []
    for seat, a in steps:
        while not s.terminal and s.to_move != seat and PASS in legal_actions(s):
            actions.append(PASS)
            s = apply(s, PASS)
        if s.terminal or s.to_move != seat or a not in legal_actions(s):
            return None
        actions.append(a)
        s = apply(s, a)
    return (start, tuple(actions)) if s.terminal and s.winner == steps[-1][0] else None
