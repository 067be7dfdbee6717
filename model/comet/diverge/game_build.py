"""Game witnesses built deal by deal (a game record, replayed under each rule set by
``game_search.recorded_game``) at the floor ``game_search.game_floor`` states, where no seeded game comes
near it.

RUL-INSOLVENCY in Commit (000): the readings part only once a seat owes more than it holds, and a seat pays
at most ``most_paid_in_a_deal`` chips a deal (19 at four players: its stake, the 9♦ caught, four Kings
held).  The game built pays that most in every deal: seat 0, the first dealer, holds the four Kings and
the 9♦ and never plays, while the first player of each deal holds a run of one suit from its Ace and plays
it out in one turn (R-COMMIT-H-SUIT: the same player goes on while they hold the next card).  Seat 0 leads
only in the last deal of a round of four, after its balance has run out in the third.
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
from comet.state import Action, DealState

#: the seat that pays the most in every deal
LOSER = 0


def built_game(pair: Pair) -> Witness | None:
    """The game built for ``pair`` at its floor, if one is built for it (see the module note), checked to
    differ (``game_difference``); None otherwise."""
    if pair.field != "insolvency" or pair.a.variant != "commit_hoyle" or pair.a.insolvency != "debt":
        return None
    floor = game_floor(pair)
    if floor is None:
        return None
    deals, players = floor[0]
    entries: list[JsonValue] = []
    for i in range(deals):
        dealt = _deal(pair, players, i % players)
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
        origin=f"built: {players} players, {deals} deals, seat {LOSER} paying the most it can in each deal",
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
