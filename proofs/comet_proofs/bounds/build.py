"""Extremal deals built by hand from the shape of the extreme, then dealt and played by the model (spec/extremes.md).

The shape (standard family, a chips game): the winner is the first to move and holds only low cards of ranks
no loser holds, one 8 and the Comet; every run it starts gets stuck on a rank nobody else holds (so no loser is
ever made to play: R-PLAY-MUST binds only a player who holds the needed rank), and its last turn is a lead of
the 8 and the Comet standing for the 9 the run then needs (x4, R-SETTLE-COMET-LAST).  The losers keep the
highest cards of the pack.  ``Shape`` gives the ranks each seat is dealt (the dead hand gets the rest, the
Comet goes to the winner); ``built`` deals it through ``engine.explicit_deal`` (the preset's own deal sizes and
pack are checked there) and plays it with ``steered_play`` and with the beam search of ``search.beam_play``
(the model's legal actions only), keeping each quantity's best.  Whether it meets
the proved bound is read off the model's deal, as for every witness.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from comet import engine
from comet.cards import CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, SPADES, Card, card, rank_of, suit_of
from comet.presets import preset as preset_named
from comet.state import Action, DealState

from comet_proofs.bounds.quantities import ACTIONS, quantities
from comet_proofs.bounds.search import Aim, Played, beam_play
from comet_proofs.symbolic import NINE

TENS = ((10, 4), (11, 4), (12, 4), (13, 4))
# the two-player shape, for the standard game and for Arnold's two-player game (a points game: the deal's score)
TWO = (((2, 4), (3, 4), (4, 4), (5, 4), (8, 1)), (*TENS, (9, 2)))
TWO_WHY = (
    "the loser keeps the sixteen 10-point cards and two 9s (178 points); the winner plays 2-3-4-5 four "
    "times (each run stuck on the 6s, all in the dead hand), leads its 8 and goes out on the Comet as a 9"
)


@dataclass(frozen=True, slots=True)
class Shape:
    """A deal by ranks: ``hands[seat]`` is (rank, how many) pairs of natural cards; seat 0 is the winner and
    the first to move; ``wild_seat`` gets the Comet (the winner, to go out on it; a loser, to be caught with
    it); the dead hand gets every card left."""

    preset: str
    players: int
    hands: tuple[tuple[tuple[int, int], ...], ...]
    why: str
    wild_seat: int = 0
    # cards given by (rank, suit) (suited games), dealt before ``hands``; then every seat is filled up to the
    # deal size with the lowest cards left (``fill``: these seats, in turn)
    suited: tuple[tuple[tuple[int, int], ...], ...] = ()
    fill: tuple[int, ...] = ()
    fill_high: bool = False  # fill with the highest cards left instead of the lowest


SHAPES: tuple[Shape, ...] = (
    Shape("standard", 2, TWO, TWO_WHY),
    Shape("two_player", 2, TWO, TWO_WHY),
    Shape(
        "standard",
        3,
        (((2, 4), (3, 4), (4, 2), (8, 1)), ((10, 4), (11, 4), (12, 4)), ((13, 4), (9, 3), (8, 3), (7, 2))),
        "the losers keep the sixteen 10-point cards, the three natural 9s, three 8s and two 7s (225 points); "
        "the winner's runs of 2-3-4 stick on the 5s (all in the dead hand), then it leads its 8 and goes out "
        "on the Comet as a 9",
    ),
    Shape(
        "standard",
        4,
        (
            ((2, 4), (3, 4), (8, 1)),
            ((10, 4), (11, 4), (12, 2)),
            ((12, 2), (13, 4), (9, 3), (8, 1)),
            ((8, 2), (7, 4), (6, 4)),
        ),
        "the losers keep the sixteen 10-point cards, the three natural 9s, three 8s, the 7s and the 6s (263 "
        "points); the winner's runs of 2-3 stick on the 4s (all in the dead hand), then it leads its 8 and goes "
        "out on the Comet as a 9",
    ),
    Shape(
        "standard",
        5,
        (
            ((4, 1), (5, 4), (6, 1), (7, 1), (8, 1)),
            ((10, 4), (11, 4), (2, 1)),
            ((12, 4), (13, 4), (3, 1)),
            ((3, 3), (4, 3), (6, 3)),
            ((7, 3), (8, 3), (9, 3)),
        ),
        "the first player plays its whole hand in the first turn (a 4, the four 5s as a set, a 6, a 7, an 8 and "
        "the Comet as a 9), so no loser ever moves and the four losers keep every card but three 2s in the dead "
        "hand (276 points); short of the proved 1164 (the losers keeping 291 points), a gap not closed",
    ),
    Shape(
        "old_comet",
        2,
        (((1, 4), (2, 4), (3, 4), (4, 2), (5, 2), (6, 1), (7, 1)), (*TENS, (9, 1))),
        "the winner's runs stick on ranks the loser lacks (the loser holds only 9s and up); the loser is "
        "caught with the manille, a natural 9 and the sixteen 10-point cards (178 points, plus 10)",
        wild_seat=1,
    ),
    Shape(
        "old_comet",
        3,
        (((1, 4), (2, 4), (3, 4)), ((10, 4), (11, 4), (12, 3)), ((12, 1), (13, 4), (9, 3), (8, 4))),
        "the winner plays Ace-2-3 four times, each run stuck on the 4s (all in the dead hand); one loser is "
        "caught with the manille and eleven 10-point cards (119 points, plus 10 to each other player), the "
        "other keeps the last 10-point cards, the three natural 9s and the 8s (109 points)",
        wild_seat=1,
    ),
    Shape(
        "old_comet",
        4,
        (
            ((1, 4), (2, 3), (3, 3)),
            ((10, 4), (11, 4), (12, 1)),
            ((12, 3), (13, 4), (9, 3)),
            ((8, 4), (7, 4), (6, 2)),
        ),
        "the winner plays Ace-2-3 three times and an Ace, each run stuck on the 4s (all in the dead hand); one "
        "loser is caught with the manille and nine 10-point cards (99 points, plus 10 to each other player), "
        "the others keep the rest of the 10-point cards, the 9s, 8s, 7s and two 6s (169 points)",
        wild_seat=1,
    ),
    Shape(
        "old_comet",
        5,
        (
            ((1, 1), (2, 4), (3, 4)),
            ((10, 4), (11, 4)),
            ((12, 4), (13, 4), (5, 1)),
            ((9, 3), (5, 3), (6, 3)),
            ((6, 1), (7, 4), (8, 4)),
        ),
        "the first player goes out in its first turn (an Ace, then the four 2s and the four 3s as sets), so no "
        "loser moves: one is caught with the manille and eight 10-point cards (89 points, plus 10 to each other "
        "player), the others keep every card from 5 up (211 points)",
        wild_seat=1,
    ),
    # Old Comet's winner in the whole deal (``play_chips.win_in_play``): the winner keeps the manille for its
    # last card (10 from each, R-OLD-MANILLE-PLAY) and leads its other cards one at a time, the highest first,
    # each run stuck on a rank in the dead hand or played (a chip from each, R-OLD-LAST-CARD), while the losers
    # keep the highest cards of the pack
    Shape(
        "old_comet",
        3,
        (((5, 3), (3, 4), (1, 4)), ((10, 4), (11, 4), (12, 4)), ((13, 4), (9, 3), (8, 4), (7, 1))),
        "the winner leads the three 5s, the four 3s and the four Aces one at a time, each run stuck (the 6s, 4s "
        "and 2s all dead: a chip from each), and goes out on the manille (10 from each); the losers keep the "
        "sixteen 10-point cards, the three natural 9s, the 8s and a 7 (226 points)",
    ),
    Shape(
        "old_comet",
        4,
        (
            ((4, 1), (3, 4), (1, 4)),
            ((10, 4), (11, 4), (12, 2)),
            ((12, 2), (13, 4), (9, 3), (6, 1)),
            ((8, 4), (7, 4), (6, 2)),
        ),
        "the winner leads a 4, the four 3s (the other 4s dead) and the four Aces one at a time, each run stuck "
        "(a chip from each), and goes out on the manille (10 from each); the losers keep every card from the 6s "
        "up but one 6 (265 points)",
    ),
    Shape(
        "old_comet",
        5,
        (
            ((2, 4), (1, 4)),
            ((10, 4), (11, 4), (4, 1)),
            ((12, 4), (13, 4), (9, 1)),
            ((9, 2), (8, 4), (7, 3)),
            ((7, 1), (6, 4), (5, 4)),
        ),
        "the winner leads the four 2s (the 3s dead) and then the four Aces one at a time, each run stuck (a chip "
        "from each), and goes out on the manille (10 from each); the losers keep every card from the 5s up and a "
        "4 (295 points)",
    ),
    Shape(
        "opera",
        3,
        (((4, 1), (5, 4), (6, 4), (7, 1), (8, 1)), ((10, 4), (11, 4), (12, 4)), ((13, 4), (9, 3), (8, 3), (7, 2))),
        "an Opera: the first player plays its whole hand in the first turn, a 4, the four 5s and the four 6s "
        "as sets, a 7, an 8 and the Comet as a 9 (x8), while the losers keep the sixteen 10-point cards, the "
        "three natural 9s, three 8s and two 7s (225 points); the dealer could not have gone out",
    ),
)


def hoyle_shape(players: int, hand: int) -> Shape:
    """000's Commit: the first player goes out in its first turn, the diamonds from the Ace to the 7D (a stop),
    then the spades from the Ace as far as its hand goes, so no loser moves; seat 1 keeps the four Kings and
    the 9D."""
    spades = hand - 7
    return Shape(
        "commit_hoyle",
        players,
        (),
        "the first player goes out in its first turn, the diamonds from the Ace to the 7 (a stop) and the "
        f"spades from the Ace to the {spades}, so no loser moves: one keeps the four Kings and the 9D (the pool's "
        "stake, 2 to each other player for the 9D and 1 to each for every King held)",
        wild_seat=1,
        suited=(
            tuple((r, DIAMONDS) for r in range(1, 8)) + tuple((r, SPADES) for r in range(1, spades + 1)),
            tuple((KING, s) for s in range(4)),
        ),
        fill=tuple(range(1, players)),
    )


SHAPES += (hoyle_shape(3, 17), hoyle_shape(4, 12), hoyle_shape(5, 9))


def hoyle_winner_shape(players: int, hand: int) -> Shape:
    """000's Commit, the most won in a whole deal: the first player goes out in its first turn with the four
    Kings and the 9D in its hand, each paid in play (R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID) and none
    left to pay for at the settlement, so no loser moves: the diamonds up to the 7D (a stop), the spades up to
    the King (a stop) where the hand holds more, each other King alone (a stop), and the 9D led last
    (R-COMMIT-H-NINE, as its last card), which takes it out and wins the pool."""
    runs = hand - 5
    diamonds = tuple((r, DIAMONDS) for r in range(max(1, 8 - runs), 8))
    spades = tuple((r, SPADES) for r in range(KING - (runs - len(diamonds)), KING))
    return Shape(
        "commit_hoyle",
        players,
        (),
        f"the first player goes out in its first turn: the diamonds from the {diamonds[0][0]} to the 7 (a stop)"
        + (f", the spades from the {spades[0][0]} to the King" if spades else "")
        + ", the other Kings one by one (each a stop) and the 9D led as its last card, so it is paid for the four "
        "Kings (1 from each other player each) and the 9D (2 from each), and wins the pool; no loser moves",
        wild_seat=-1,
        suited=(diamonds + spades + tuple((KING, s) for s in range(4)) + ((9, DIAMONDS),),),
        fill=tuple(range(1, players)),
    )


SHAPES += (hoyle_winner_shape(3, 17), hoyle_winner_shape(4, 12), hoyle_winner_shape(5, 9))
SHAPES += (
    Shape(
        "red_nines",
        5,
        (((2, 3), *((r, 1) for r in range(3, 12))), ((1, 5), (13, 5), (12, 1))),
        "the first player's first play is three 2s, then the run from 3 to the Jack and a red nine as the Queen "
        "(its last card: every other score doubled), so no loser moves: one keeps the five Aces, the five Kings, "
        "a Queen and two red nines (195 points, x4 for two red nines, x2 for the winner's red nine)",
        wild_seat=-1,
        suited=(((9, HEARTS),), ((9, DIAMONDS), (9, HEARTS))),
        fill=(2, 3, 4),
    ),
    Shape(
        "red_nines",
        4,
        (((2, 3), *((r, 1) for r in range(3, 12))), ((1, 4), (13, 4), (12, 4))),
        "the first player's first play is three 2s, then the run from 3 to the Jack and a red nine as the Queen "
        "(its last card: every other score doubled), so no loser moves: one keeps the four Aces, Kings and "
        "Queens and the other red nine (189 points, x2 for the red nine, x2 for the winner's)",
        wild_seat=-1,
        suited=(((9, HEARTS),), ((9, DIAMONDS),)),
        fill=(2, 3),
    ),
    Shape(
        "opera",
        4,
        (((3, 1), (4, 4), (5, 1), (6, 1), (7, 1), (8, 1)), ((10, 4), (11, 4), (12, 2))),
        "an Opera: the first player plays a 3, the four 4s as a set, a 5, 6, 7, 8 and the Comet as a 9 in its "
        "first turn (x8) while one loser keeps ten 10-point cards",
        fill=(2, 3),
    ),
    Shape(
        "opera",
        5,
        (((4, 1), (5, 4), (6, 1), (7, 1), (8, 1)), ((10, 4), (11, 4), (12, 1))),
        "an Opera: the first player plays a 4, the four 5s as a set, a 6, 7, 8 and the Comet as a 9 in its "
        "first turn (x8) while one loser keeps nine 10-point cards",
        fill=(2, 3, 4),
    ),
    Shape(
        "opera",
        4,
        (((3, 1), (4, 4), (5, 1), (6, 1), (7, 1), (8, 1)),),
        "an Opera as above, the losers keeping the highest cards left",
        fill=(1, 2, 3),
        fill_high=True,
    ),
    Shape(
        "opera",
        5,
        (((4, 1), (5, 4), (6, 1), (7, 1), (8, 1)),),
        "an Opera as above, the losers keeping the highest cards left",
        fill=(1, 2, 3, 4),
        fill_high=True,
    ),
)


SHAPES += (
    Shape(
        "standard",
        5,
        (((2, 1), (3, 4), (4, 1), (5, 1), (6, 1)), (), (), (), ((7, 4), (8, 4), (4, 1))),
        "the first player leads a 2, puts the four 3s on it as a set and goes on with a 4, 5 and 6; the three "
        "seats after it hold no 7 and pass, the dealer must play a 7 and then an 8 (it holds all of them) and "
        "holds no 9, so the run comes back to the first player, which goes out on the Comet as the 9 (x4); the "
        "dead hand holds three 2s and the losers keep everything else (277 points)",
        fill=(1, 2, 3),
        fill_high=True,
    ),
)


def built(shape: Shape) -> DealState:
    """The model's deal of ``shape`` (seat 0 the winner and first to move, so the last seat deals)."""
    rules = preset_named(shape.preset).rules
    pack = engine.packs_in_rotation(rules, shape.players)[0]
    wild = pack.wild[0]
    rest: list[Card] = list(pack.cards)
    hands: list[list[Card]] = [[] for _ in range(shape.players)]
    for seat, pairs in enumerate(shape.suited):
        for rank, suit in pairs:
            rest.remove(card(rank, suit))
            hands[seat].append(card(rank, suit))
    for seat, ranks in enumerate(shape.hands):
        for rank, count in ranks:
            for _ in range(count):
                c = next(c for c in rest if rank_of(c) == rank and c not in pack.wild)
                rest.remove(c)
                hands[seat].append(c)
    if shape.wild_seat >= 0:  # else the wild cards are placed by ``suited``
        rest.remove(wild)
        hands[shape.wild_seat].append(wild)
    size, _ = engine.deal_sizes(rules, shape.players, len(pack.cards))
    for seat in shape.fill:
        while len(hands[seat]) < size:
            hands[seat].append(rest.pop(-1 if shape.fill_high else 0))
    return engine.explicit_deal(rules, shape.players, shape.players - 1, hands, rest)


def steered_play(start: DealState, winner: int = 0, sets: bool = False) -> tuple[Action, ...]:
    """The winner plays a natural card whenever it may (the first legal one; with ``sets``, the legal play of
    the most cards, four of a kind before one of them) and the Comet only as its last card, as a 9; every other
    seat passes whenever it may (the model's legal actions only)."""
    state, actions = start, []
    while not state.terminal:
        legal = engine.legal_actions(state)
        if state.to_move == winner:
            hand = state.hands[winner]
            if len(hand) == 1 and hand[0] in state.wild:
                action = next((a for a in legal if a.as_rank == NINE), legal[0])
            else:
                tame = [a for a in legal if not a.is_pass and not any(c in state.wild for c in a.cards)]
                if sets:
                    tame.sort(key=lambda a: -len(a.cards))  # stable: the first legal play of the most cards
                action = tame[0] if tame else next((a for a in legal if a.is_pass), legal[0])
        else:
            action = next((a for a in legal if a.is_pass), legal[0])
        actions.append(action)
        state = engine.apply(state, action)
    return tuple(actions)


def singles_play(start: DealState, winner: int = 0) -> tuple[Action, ...]:
    """The winner plays one natural card at a time, the highest it may, passes where it may not, and plays the
    Comet only when nothing else is left; every other seat passes whenever it may (the model's legal actions
    only)."""
    state, actions = start, []
    while not state.terminal:
        legal = engine.legal_actions(state)
        passes = [a for a in legal if a.is_pass]
        if state.to_move == winner:
            singles = [a for a in legal if len(a.cards) == 1 and a.cards[0] not in state.wild]
            action = max(singles, key=lambda a: rank_of(a.cards[0])) if singles else passes[0] if passes else legal[0]
        else:
            action = passes[0] if passes else legal[0]
        actions.append(action)
        state = engine.apply(state, action)
    return tuple(actions)


def first_turn_out(start: DealState, quantity: str, limit: int = 20_000) -> tuple[Action, ...] | None:
    """The first player's best way (for ``quantity``) to play its whole hand in the first turn (an Opera), by
    a depth-first search over the model's legal actions that never passes; None if it cannot (within
    ``limit`` states)."""
    best: tuple[int, tuple[Action, ...]] | None = None
    seen = 0

    def walk(state: DealState, route: tuple[Action, ...]) -> None:
        nonlocal best, seen
        seen += 1
        if seen > limit:
            return
        if state.terminal:
            got = quantities(state, len(route))[quantity]
            if best is None or got > best[0]:
                best = (got, route)
            return
        for action in engine.legal_actions(state):
            if not action.is_pass:
                walk(engine.apply(state, action), (*route, action))

    walk(start, ())
    return None if best is None else best[1]


def built_deals(preset: str, players: int) -> list[tuple[Shape, dict[str, Played]]]:
    """Each shape of ``preset`` at ``players``, dealt and played by the model, with every quantity's value."""
    out: list[tuple[Shape, dict[str, Played]]] = []
    for shape in SHAPES:
        if (shape.preset, shape.players) != (preset, players):
            continue
        start = built(shape)
        best: dict[str, Played] = {}
        plays = [steered_play(start), steered_play(start, sets=True), singles_play(start)]
        for quantity in quantities(engine.replay(start, plays[0]), len(plays[0])):
            opera = first_turn_out(start, quantity)
            if opera is not None:
                plays.append(opera)
        for aim in (Aim("gain", 0), Aim("loss", 1)):
            found = beam_play(start, ACTIONS, 16, random.Random(0), aim)
            if found is not None:
                plays.append(found.actions)
        for actions in plays:
            final = engine.replay(start, actions)
            for q, v in quantities(final, len(actions)).items():
                if q not in best or v > best[q].value:
                    best[q] = Played(v, start, actions)
        out.append((shape, best))
    if preset in LADDERS:
        start = ladder(preset, players)
        actions = ladder_play(start)
        final = engine.replay(start, actions)
        if final.terminal:
            out.append((Shape(preset, players, (), LADDER_WHY), {ACTIONS: Played(len(actions), start, actions)}))
    if preset in COMMIT_LADDERS:
        start, plan = commit_ladder(preset, players)
        actions = planned_play(start, plan)
        if engine.replay(start, actions).terminal:
            out.append((Shape(preset, players, (), COMMIT_LADDER_WHY), {ACTIONS: Played(len(actions), start, actions)}))
    if preset in COMMIT_LADDERS and players in COMMIT_KEEPER_COUNTS:
        start, plan = commit_keepers(preset, players)
        actions = planned_play(start, plan)
        if engine.replay(start, actions).terminal:
            out.append(
                (Shape(preset, players, (), COMMIT_KEEPERS_WHY), {ACTIONS: Played(len(actions), start, actions)})
            )
    if (preset, players) in CATS_LONGS:
        start, plan = cats_long(preset, players)
        actions = planned_play(start, plan)
        if engine.replay(start, actions).terminal:
            out.append((Shape(preset, players, (), CATS_LONG_WHY), {ACTIONS: Played(len(actions), start, actions)}))
    if (preset, players) in KEEPERS:
        start = keeper(preset, players)
        actions = ladder_play(start, kings_last=True)
        final = engine.replay(start, actions)
        if final.terminal:
            played = {q: Played(v, start, actions) for q, v in quantities(final, len(actions)).items()}
            out.append((Shape(preset, players, (), KEEPER_WHY), played))
    return out


# The presets whose longest deal is built as a ladder (``ladder``): the standard game's play under default
# readings; 000's Commit's runs go up in suit, so its ladder is built by suit (``commit_ladder``); 002's Commit
# leads each run with the player's lowest card (RUL-COMMIT-C-LOWEST), so neither shape applies: its longest
# deal at three players is planned run by run (``cats_long``)
LADDERS = ("standard", "opera", "two_player", "old_comet", "red_nines")
COMMIT_LADDERS = ("commit_hoyle",)
LADDER_WHY = (
    "every card played alone and every run stuck after it (n passes a play), the cards played from the highest "
    "rank down, the turn handed to the right neighbour n-1 times, each loser keeping one card it is never made "
    "to play; the Kings in the dead hand as far as it holds them (a King is a stop: no pass follows it)"
)


def play_order(players: int) -> tuple[int, ...]:
    """The seats in the order a ladder deal has them play (the last seat deals, so seat 0 moves first): the
    first player, then each seat's right neighbour, so each hand-over is one pass short of a stuck run."""
    return tuple((-k) % players for k in range(players))


def ladder(preset: str, players: int) -> DealState:
    """The longest deal's shape (spec/extremes.md): every card played alone and every run stuck after it
    (n passes a play), the turn handed on to the right neighbour only n-1 times, every loser keeping one card
    it is never made to play (a wild card, else one of the lowest rank).

    The Kings (stops: no pass follows one) go to the dead hand as far as it holds them, any others are led
    first; the other cards are played from the highest rank down, so no card played has its next rank still
    held: seat after seat in ``play_order`` plays its share, each share's last card one rank below a card the
    next seat holds (which that seat plays on it, then is stuck) and the only one of its rank in the share."""
    rules = preset_named(preset).rules
    pack = engine.packs_in_rotation(rules, players)[0]
    size, dead_size = engine.deal_sizes(rules, players, len(pack.cards))
    wild = [c for c in pack.cards if c in pack.wild]
    naturals = sorted((c for c in pack.cards if c not in pack.wild), key=rank_of)
    kings = [c for c in naturals if rank_of(c) == KING]
    rest = [c for c in naturals if rank_of(c) != KING]
    kept: list[Card] = []
    while len(kept) < players - 1:  # the losers' last cards: wild cards first (never compulsory), then the lowest
        kept.append(wild.pop() if wild else rest.pop(0))
    dead: list[Card] = []
    for pool in (kings, wild, rest):  # the dead hand: Kings, the wild cards left, then the lowest cards
        while pool and len(dead) < dead_size:
            dead.append(pool.pop(0))
    played = kings + wild + sorted(rest, key=rank_of, reverse=True)
    order = play_order(players)
    shares: list[list[Card]] = []
    for i, _ in enumerate(order):
        take = size if i == len(order) - 1 else size - 1
        shares.append(played[:take])
        played = played[take:]
    for k in range(len(shares) - 1):  # the hand-over: this share ends one rank below a card of the next
        this, nxt = shares[k], shares[k + 1]
        last = rank_of(this[-1])
        below = next((j for j, c in enumerate(nxt) if rank_of(c) == last - 1), None)
        if below is not None and rank_of(nxt[0]) >= last - 1:
            this[-1], nxt[below] = nxt[below], this[-1]
            nxt.sort(key=rank_of, reverse=True)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for seat, share in zip(order, shares, strict=True):
        hands[seat] = list(share)
    for seat, card_kept in zip(order[:-1], kept, strict=True):
        hands[seat].append(card_kept)
    return engine.explicit_deal(rules, players, players - 1, hands, dead)


def ladder_play(start: DealState, kings_last: bool = False) -> tuple[Action, ...]:
    """Play a ladder deal long: pass whenever allowed; on a lead, the highest natural card alone (with
    ``kings_last``, a King only when no other card is left: a keeper deal's last card earns its chip only as
    a King, R-OLD-KING); on a run, one natural card (the model's legal actions only)."""

    def order(a: Action) -> tuple[bool, int]:
        rank = rank_of(a.cards[0])
        return (not kings_last or rank != KING, rank)

    state, actions = start, []
    while not state.terminal:
        legal = engine.legal_actions(state)
        passes = [a for a in legal if a.is_pass]
        singles = [a for a in legal if len(a.cards) == 1 and a.cards[0] not in state.wild]
        action = passes[0] if passes else max(singles, key=order) if singles else legal[0]
        actions.append(action)
        state = engine.apply(state, action)
    return tuple(actions)


# Old Comet's loser in the whole deal: the ranks seat 0 keeps with the manille (the settlement's most: caught
# with it, R-OLD-MANILLE-CAUGHT), per player count
KEEPERS: dict[tuple[str, int], tuple[int, ...]] = {
    ("old_comet", 2): (10,) * 4 + (11,) * 4 + (12,) * 4 + (KING,) * 4 + (NINE,),
    ("old_comet", 3): (11,) * 4 + (12,) * 4 + (KING,) * 3,
    ("old_comet", 4): (11,) * 4 + (12,) * 4 + (KING,),
    ("old_comet", 5): (11,) * 4 + (12,) * 4,
}
KEEPER_WHY = (
    "seat 0 keeps the manille and the highest cards to the end (caught with it) and never plays: no other "
    "seat's card is one rank below a card it holds (the rest are dead); the other seats play a ladder (every "
    "card alone, every run stuck after it, so each play's player collects a chip from everyone, R-OLD-LAST-CARD), "
    "the winner's last card a King where one is left (R-OLD-KING)"
)


def keeper(preset: str, players: int) -> DealState:
    """Old Comet's loser in the whole deal: ``KEEPERS``' cards and the manille for seat 0; the other seats'
    shares as in ``ladder`` (seat 1 first, then each seat to its right), from the cards no keeper's rank
    follows, each loser among them keeping an Ace (never needed); the last card a King where one is left."""
    rules = preset_named(preset).rules
    pack = engine.packs_in_rotation(rules, players)[0]
    size, _ = engine.deal_sizes(rules, players, len(pack.cards))
    rest = [c for c in pack.cards if c not in pack.wild]
    keep = [pack.wild[0]]
    for r in KEEPERS[(preset, players)]:
        c = next(c for c in rest if rank_of(c) == r)
        rest.remove(c)
        keep.append(c)
    ranks = {rank_of(c) for c in keep[1:]}
    free = [c for c in rest if rank_of(c) + 1 not in ranks or rank_of(c) == KING]
    kings = [c for c in free if rank_of(c) == KING]
    low = sorted((c for c in free if rank_of(c) != KING), key=rank_of, reverse=True)
    order = [1, *range(players - 1, 1, -1)]
    aces = [c for c in low if rank_of(c) == 1][: players - 2]
    for c in aces:
        low.remove(c)
    shares: list[list[Card]] = []
    for i, _ in enumerate(order):
        take = size if i == len(order) - 1 else size - 1
        shares.append(low[:take])
        low = low[take:]
    if kings:  # the winner's last card a King, and more Kings (stops, a chip each) where the low cards run out
        short = max(1, size - len(shares[-1]))
        shares[-1] = shares[-1][: size - short] + kings[:short]
    for k in range(len(shares) - 1):  # the hand-over, as in ``ladder``
        this, nxt = shares[k], shares[k + 1]
        last = rank_of(this[-1])
        below = next((j for j, c in enumerate(nxt) if rank_of(c) == last - 1), None)
        if below is not None and rank_of(nxt[0]) >= last - 1:
            this[-1], nxt[below] = nxt[below], this[-1]
            nxt.sort(key=rank_of, reverse=True)
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[0] = keep
    for seat, share in zip(order, shares, strict=True):
        hands[seat] = list(share)
    for seat, ace in zip(order[:-1], aces, strict=True):
        hands[seat].append(ace)
    dead = list(pack.cards)
    for h in hands:
        for c in h:
            dead.remove(c)
    return engine.explicit_deal(rules, players, 0, hands, dead)


# 000's Commit's longest deal: stops (Kings, the 7D: no pass follows one) go to the dead hand as far as it holds
# them, then the 9D (R-COMMIT-H-NINE), then the lowest cards
COMMIT_LADDER_WHY = (
    "every card led alone and every run stuck after it (its next card already played or face down, n passes a "
    "play), each suit played from the top down, the turn handed to the right neighbour n-1 times (a seat's last "
    "card one below the next seat's first), each loser keeping an Ace (never needed: runs go up); the Kings and "
    "the 7D (stops) face down as far as the rest holds them"
)


def handed_over(
    line: list[Card], takes: Sequence[int], may_take_over: Callable[[Card, Card], bool]
) -> list[list[Card]]:
    """``line`` (the cards in the order they are played) cut into the shares of the seats in ``play_order``,
    ``takes[i]`` cards each, the cards taken off ``line``.  Every share but the last ends on a hand-over: the card
    one below the first card of the next share, which that seat (the right neighbour, the last asked) plays on it
    (R-PLAY-MUST's Commit form).  The next share starts with the first card of ``line`` whose card one below is
    still in it and that ``may_take_over(card, the card below)`` allows, which is moved to the front."""
    shares: list[list[Card]] = []
    for i, take in enumerate(takes):
        if i == len(takes) - 1:
            shares.append(line[:take])
            del line[:take]
            break
        share = line[: take - 1]
        del line[: take - 1]
        x = next(
            c
            for c in line
            if rank_of(c) > 1
            and card(rank_of(c) - 1, suit_of(c)) in line
            and may_take_over(c, card(rank_of(c) - 1, suit_of(c)))
        )
        below = card(rank_of(x) - 1, suit_of(x))
        line.remove(below)
        line.insert(0, line.pop(line.index(x)))
        share.append(below)
        shares.append(share)
    return shares


def commit_ladder(preset: str, players: int) -> tuple[DealState, tuple[tuple[Card, ...], ...]]:
    """000's Commit's ladder (``ladder``'s shape in a game of runs in suit): the deal, and each seat's cards in
    the order it plays them.  A card led is stuck when the next card of its suit (R-COMMIT-H-SUIT) is already
    played or face down, so each suit is played from the top down; a seat's share ends with the card one
    below the first card of the next seat's share (the right neighbour, the last asked), which that seat plays
    on it (R-PLAY-MUST's Commit form: a player holding the card the run needs plays it), then is stuck."""
    rules = preset_named(preset).rules
    pack = engine.packs_in_rotation(rules, players)[0]
    size, dead_size = engine.deal_sizes(rules, players, len(pack.cards))
    nine = pack.wild[0]
    stops = [c for c in pack.cards if rank_of(c) == KING] + [card(7, DIAMONDS)]
    aces = [c for c in pack.cards if rank_of(c) == 1]
    kept = aces[: players - 1]
    rest = sorted((c for c in pack.cards if c not in kept), key=lambda c: (-rank_of(c), c))
    dead: list[Card] = []
    for c in [*stops, nine, *reversed(rest)]:
        if len(dead) < dead_size and c not in dead:
            dead.append(c)
    line = [c for c in rest if c not in dead]
    order = play_order(players)
    takes = [size - 1] * (players - 1) + [size]

    def may_take_over(c: Card, below: Card) -> bool:
        return c != nine and rank_of(c) > 2 and below not in (nine, card(7, DIAMONDS))

    shares = handed_over(line, takes, may_take_over)
    hands: list[list[Card]] = [[] for _ in range(players)]
    plays: list[tuple[Card, ...]] = [() for _ in range(players)]
    for seat, share in zip(order, shares, strict=True):
        hands[seat] = list(share)
        plays[seat] = tuple(share)
    for seat, ace in zip(order[:-1], kept, strict=True):
        hands[seat].append(ace)
    return engine.explicit_deal(rules, players, players - 1, hands, dead), tuple(plays)


def planned_play(start: DealState, plays: tuple[tuple[Card, ...], ...]) -> tuple[Action, ...]:
    """Play ``start`` as planned: the seat to move plays the next card of its plan where that is legal (a lead,
    or the card the run needs; the 9D only as a lead), else passes where it may, else its first legal action
    (the model's legal actions only)."""
    state, actions = start, []
    queues = [list(p) for p in plays]
    while not state.terminal:
        legal = engine.legal_actions(state)
        queue = queues[state.to_move]
        may_pass = any(a.is_pass for a in legal)  # the 9D only leads (not instead of a pass: no pass follows it)
        planned = next(
            (a for a in legal if queue and a.cards == (queue[0],) and not (may_pass and queue[0] in state.wild)), None
        )
        if planned is not None:
            queue.pop(0)
            action = planned
        else:
            action = next((a for a in legal if a.is_pass), legal[0])
        actions.append(action)
        state = engine.apply(state, action)
    return tuple(actions)


# 000's Commit's longest deal at three and four players, where the dead hand cannot take the five stops: the diamonds
# the King of diamonds needs are kept instead (a run reaches the 10D only from the 9D, so they bottom out there)
COMMIT_KEEPER_COUNTS = (3, 4)
COMMIT_KEEPERS_WHY = (
    "the ladder by suit, but the losers keep the diamonds from the 10D up (the 10D's keeper leads the 9D, so its "
    "run comes back to it and is dropped before the 10D is asked for; each kept card's next lower one is kept or "
    "never led) and the King of diamonds is the winner's last card, so it is no stop: led with its Queen kept (four "
    "players, the dead hand holding the other Kings: one stop led, the 7D), or played on the Queen that the last "
    "loser leads as its last card, the turn coming round to the first player (three players: four stops led, one "
    "more hand-over)"
)


def commit_keepers(preset: str, players: int) -> tuple[DealState, tuple[tuple[Card, ...], ...]]:
    """000's Commit at three and four players (R-COMMIT-H-SUIT, R-COMMIT-H-STOPS, R-COMMIT-H-NINE): the deal, and
    each seat's cards in the order it plays them.  ``commit_ladder``'s shape, but the King of diamonds is the
    winner's last card (a stop that ends the deal is followed by no pass anyway): the losers keep the diamonds
    from the 10D up (one each: the 10D, the JD, and at four players the QD), so none is ever asked for (the 10D
    is wanted only after the 9D, which its own keeper leads: the run comes back to it and is dropped, R-STOP-STUCK;
    each card above is wanted only after the one below, which is kept); the dead hand takes the other Kings as far
    as it holds them.  At four players the winner, last in ``play_order``, leads the KD with the QD kept; at three
    the last loser leads the QD as its last card and the turn comes round to seat 0, the winner, which plays the KD
    on it (one hand-over more, one stop fewer)."""
    assert players in COMMIT_KEEPER_COUNTS
    rules = preset_named(preset).rules
    pack = engine.packs_in_rotation(rules, players)[0]
    size, dead_size = engine.deal_sizes(rules, players, len(pack.cards))
    nine = pack.wild[0]
    ten, jack, queen, king = (card(r, DIAMONDS) for r in (10, JACK, QUEEN, KING))
    order = play_order(players)
    kept = [ten, jack, queen][: players - 1]
    round_again = queen not in kept  # the QD ends the last loser's share; the first seat goes out on the KD
    winner = order[0] if round_again else order[-1]
    losers = [s for s in order if s != winner]
    dead = [c for c in pack.cards if rank_of(c) == KING and c != king][:dead_size]
    assert len(dead) == dead_size
    special = {*dead, *kept, nine, king, queen}
    line = sorted((c for c in pack.cards if c not in special), key=lambda c: (-rank_of(c), c))
    extra: dict[int, list[Card]] = {s: [] for s in order}  # cards outside the line, by seat, in playing order
    extra[losers[0]].append(nine)
    if round_again:
        extra[order[-1]].append(queen)
    extra[winner].append(king)
    takes = [size - (1 if s in losers else 0) - len(extra[s]) for s in order]
    shares = handed_over(line, takes, lambda c, below: below != card(7, DIAMONDS))
    assert not line
    hands: list[list[Card]] = [[] for _ in range(players)]
    plays: list[tuple[Card, ...]] = [() for _ in range(players)]
    for seat, share in zip(order, shares, strict=True):
        plan = list(share)
        if nine in extra[seat]:  # led after the share's first card (a hand-over's, where it has one)
            plan.insert(1, nine)
        plan += [c for c in extra[seat] if c != nine]
        plays[seat] = tuple(plan)
        hands[seat] = list(plan)
    for seat, c in zip(losers, kept, strict=True):
        hands[seat].append(c)
    return engine.explicit_deal(rules, players, players - 1, hands, dead), tuple(plays)


# 002's Commit's longest deal at three players (``cats_long``).  A run is led with its player's lowest card
# (RUL-COMMIT-C-LOWEST), so each player's leads go up in rank, while a run stops on a card (with n passes) only
# when the card after it in its suit is already played (R-COMMIT-C-SUIT: a player holding it must play it), so
# each suit's runs are played from the top down: a card led alone and stuck needs the cards above it gone, and
# the ladder's shape (every card alone) is out of reach.  The plan: the runs in the order played, as (suit,
# lowest rank, highest rank), and the seat that plays each of their cards, in order (a seat holds exactly the
# cards it plays; seat 0, the first to move, goes out).  Each card of a run is played, where the seats' counts
# and the leads allow, by the right neighbour of the last card's player (two passes between them); a run ends
# on a King (no pass follows it: its player leads again), on the 7D (no 8D in the deck), on a card whose next
# card is already played, or on the winner's last card.
CATS_LONGS = (("commit_cats", 3),)
CATS_LONG_RUNS: tuple[tuple[int, int, int], ...] = (
    (CLUBS, 2, KING),
    (SPADES, 1, KING),
    (HEARTS, 4, KING),
    (DIAMONDS, 2, 7),
    (HEARTS, 2, 3),
    (CLUBS, 1, 1),
    (HEARTS, 1, 1),
    (DIAMONDS, 1, 1),
    (DIAMONDS, 11, KING),
)
CATS_LONG_SEATS = "0210210210211021021021021102102101002101002222210"
CATS_LONG_WHY = (
    "each run led with its player's lowest card, so each suit's runs go from the top down while each player's "
    "leads go up: seat 0, holding no Ace, leads the 2C and runs climb to the Kings of clubs, of spades (from "
    "the Ace) and of hearts (from the 4), then the diamonds from the 2 to the 7D; the 2H-3H and the Aces of "
    "clubs, hearts and diamonds are led alone, each stuck, and the winner goes out on the KD after the JD and "
    "QD; each card of a run played by the right neighbour of the last card's player where the seats' counts "
    "allow (two passes); the losers keep the Comet (never compulsory) and the 10D (no run needs it: its 9 is "
    "the Comet), the 10D with the seat whose leads are all below it"
)


def cats_long(preset: str, players: int) -> tuple[DealState, tuple[tuple[Card, ...], ...]]:
    """002's Commit's longest deal at three players as planned (``CATS_LONG_RUNS``, ``CATS_LONG_SEATS``): the
    deal, and each seat's cards in the order it plays them.  Seat 1 keeps the 10D (its leads are a 4 and an
    Ace, below it: RUL-COMMIT-C-LOWEST), seat 2 the Comet (R-COMMIT-C-COMET: never compulsory)."""
    rules = preset_named(preset).rules
    pack = engine.packs_in_rotation(rules, players)[0]
    cards = [card(rank, suit) for suit, low, high in CATS_LONG_RUNS for rank in range(low, high + 1)]
    plays: list[list[Card]] = [[] for _ in range(players)]
    for c, seat in zip(cards, CATS_LONG_SEATS, strict=True):
        plays[int(seat)].append(c)
    hands = [list(p) for p in plays]
    hands[1].append(card(10, DIAMONDS))
    hands[2].append(pack.wild[0])
    return engine.explicit_deal(rules, players, players - 1, hands, []), tuple(tuple(p) for p in plays)
