"""The coupled choices of the playing policies (``comet.diverge.policies`` names them; not rules; any legal
choice is fair).

**Coupled play (common random numbers).**  Every choice a policy makes by chance is made by a
*priority*: a number drawn once per deal seed for each (seat, option), the same under both readings of
a pair (``priority``; a pure function of the seed, the seat and the option, so no stream of draws is
consumed).  Wherever the two sides of a pair face the same options they therefore make the same choice,
and a reading that only adds or removes an option changes play only where that option is chosen, not
every later choice of the deal (as a shared random stream would: an extra option shifts every draw).
A policy playing a whole game uses its seed for every deal of the game.

``random`` plays the option of highest priority; ``greedy`` plays the most cards, prefers continuing
long runs and dumps high cards first, ties broken by priority; ``hoarder`` keeps the wild card (the
Comet) until it is the last card or nothing else goes, otherwise the most cards, ties broken by priority.
Every policy only chooses among ``legal_actions``, so it works for every variant.  The fast engine
(``comet.fast.kernel``) computes the very same priorities, so a seed plays the same deal in both.
"""

from __future__ import annotations

from collections.abc import Sequence

from comet.cards import rank_of
from comet.state import Action, DealState

M32 = 0xFFFFFFFF
#: cards an option key spells out (a quartet with the wild card is five)
KEY_DIGITS = 5


def mix32(x: int) -> int:
    """A 32-bit integer hash (the "lowbias32" finaliser): every input bit moves about half the output bits."""
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


def option_key(action: Action) -> int:
    """A whole number naming the option, ordered as ``Action`` orders itself: its sorted cards as base-64
    digits (card + 1, padded to five), then the rank the wild card stands for.  A pass is 0."""
    key = 0
    for c in action.cards:
        key = key * 64 + c + 1
    key *= 64 ** max(0, KEY_DIGITS - len(action.cards))
    return int(key * 16 + action.as_rank)


def priority(seed: int, seat: int, key: int) -> int:
    """The priority of option ``key`` for ``seat`` in the deal of ``seed`` (28 bits)."""
    h = mix32(seed & M32)
    h = mix32(h ^ ((seed >> 32) & M32))
    h = mix32(h ^ seat)
    h = mix32(h ^ (key & M32))
    h = mix32(h ^ (key >> 32))
    return h >> 4


def rank_key(seed: int, seat: int, action: Action) -> int:
    """The priority, then the option itself (so no two options tie): the order a policy picks by."""
    key = option_key(action)
    return (priority(seed, seat, key) << 34) | key


def random_choice(seed: int, state: DealState, legal: Sequence[Action]) -> Action:
    """The option of highest priority."""
    return max(legal, key=lambda a: rank_key(seed, state.to_move, a))


def greedy_choice(seed: int, state: DealState, legal: Sequence[Action]) -> Action:
    """Most cards first; then the card that starts the longest run in hand, then the highest rank; then
    the priority.  The wild card only if no natural play goes; a pass only if nothing goes."""
    plays = [a for a in legal if not a.is_pass]
    if not plays:
        return legal[0]
    wild = state.wild
    hand = [c for c in state.hands[state.to_move] if c not in wild]
    natural = [a for a in plays if not any(c in wild for c in a.cards)] or plays
    if len(natural) == 1:
        return natural[0]
    ranks = {rank_of(c) for c in hand}

    def score(a: Action) -> tuple[int, int, int]:
        r = a.rank
        n = 0
        while r + n in ranks:
            n += 1
        return (len(a.cards), n, r)

    scored = [(score(a), a) for a in natural]
    top = max(sc for sc, _ in scored)
    tied = [a for sc, a in scored if sc == top]
    if len(tied) == 1:
        return tied[0]
    seat = state.to_move
    return max(tied, key=lambda a: rank_key(seed, seat, a))


def hoarder_choice(seed: int, state: DealState, legal: Sequence[Action]) -> Action:
    """The wild card is kept back until it is the last card in hand (or nothing else goes); then it
    stands for a 9 where it may.  Otherwise the natural play of most cards (ties by priority), else pass."""
    hand = state.hands[state.to_move]
    wild_plays = [a for a in legal if any(c in state.wild for c in a.cards)]
    others = [a for a in legal if a not in wild_plays]
    holds_only_wild = all(c in state.wild for c in hand)
    if wild_plays and (holds_only_wild or not others):
        nines = [a for a in wild_plays if a.rank == 9]
        return (nines or wild_plays)[0]
    natural = [a for a in others if not a.is_pass]
    if natural:
        seat = state.to_move
        return max(natural, key=lambda a: (len(a.cards), rank_key(seed, seat, a)))
    return next(a for a in others if a.is_pass)


def greedy_policy(state: DealState, legal: Sequence[Action]) -> Action:
    """``greedy`` with the priorities of seed 0."""
    return greedy_choice(0, state, legal)


def hoarder_policy(state: DealState, legal: Sequence[Action]) -> Action:
    """``hoarder`` with the priorities of seed 0."""
    return hoarder_choice(0, state, legal)
