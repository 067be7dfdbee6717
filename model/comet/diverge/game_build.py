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
"""

from __future__ import annotations

import json

from comet.cards import KING, rank_of, suit_of
from comet.contract import FORMAT
from comet.diverge.game_search import game_difference, game_floor
from comet.diverge.pairs import Pair
from comet.diverge.records import Witness
from comet.engine import apply, deal_sizes, explicit_deal, legal_actions, packs_in_rotation
from comet.errors import RecordError
from comet.games.commit_common import NINE_OF_DIAMONDS
from comet.record import JsonObject, JsonValue, record_from_state
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
    else:
        return None
    floor = game_floor(pair)
    if floor is None:
        return None
    deals, players = floor[0]
    entries: list[JsonValue] = []
    for i in range(deals):
        dealt = deal_of(pair, players, i % players)
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


def _deal(pair: Pair, players: int, dealer: int) -> tuple[DealState, tuple[Action, ...]] | None:
    """Deal ``dealer``'s deal: its first player holds the run of clubs from the Ace (as many as a hand
    holds), seat ``LOSER`` (when it is not the first player) the four Kings and the 9♦, the rest of the
    pack dealt in order; the first player plays the run out."""
    rules = pair.a
    pack = packs_in_rotation(rules, players)[0]
    size, _ = deal_sizes(rules, players, len(pack.cards))
    first = (dealer + 1) % players
    run = sorted((c for c in pack.cards if suit_of(c) == 0 and rank_of(c) < KING), key=rank_of)[:size]
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[first] = run
    if first != LOSER:
        hands[LOSER] = [c for c in pack.cards if rank_of(c) == KING] + [NINE_OF_DIAMONDS]
    rest = [c for c in pack.cards if all(c not in h for h in hands)]
    for seat in range(players):
        need = size - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    try:
        s = explicit_deal(rules, players, dealer, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(rest)), None)
    except RecordError:
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


def _race_deal(pair: Pair, players: int, dealer: int) -> tuple[DealState, tuple[Action, ...]] | None:
    """Deal ``dealer``'s deal of 002's Commit for RUL-COMMIT-C-RACE: seat ``SCORER`` holds the clubs (the
    A♣ too when it leads) and the diamonds from the Ace up to a full hand; the first player, when another
    seat, holds the A♣ (its lowest card) and the rest of the pack is dealt low cards first, Aces last.  The
    first player leads the A♣, the scorer plays the clubs to the King (R-COMMIT-C-SUIT: the same player goes
    on while they hold the next card; a King ends the run, R-COMMIT-C-KING) and then leads its diamonds out,
    the others passing where they hold nothing to play.  The scorer goes out with the three other Kings and
    the Comet in the other hands: 1 for the K♣, then 1 + a point per card left and one more per King
    (R-COMMIT-C-OUT), then 1 for the Comet caught (R-COMMIT-C-CAUGHT)."""
    rules = pair.a
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
    for seat in range(players):
        need = size - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    if len(hands[SCORER]) != size or any(rank_of(c) == KING for c in hands[SCORER] if suit_of(c) != 0):
        return None
    try:
        s = explicit_deal(rules, players, dealer, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(rest)), None)
    except RecordError:
        return None
    start = s
    plays = ([] if first == SCORER else clubs[:1]) + sorted(hands[SCORER], key=lambda c: (suit_of(c), rank_of(c)))
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
