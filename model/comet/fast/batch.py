"""What every fast kernel's batch shares: the arguments (grouped), the buffers, the deal of one seed (or of
given cards) with its recording, and the outcome written back.

A kernel's ``play_batch(cfg, deck, base, seeds, dealers, given, outcomes, rec)`` plays one whole deal per seed:
``deck`` is ``(pack, packnat, packcnt)`` (the cards in pack order, natural cards per rank, copies per card);
``base`` the generator's seeded state (``comet.fast.rng``); ``given`` explicit deals (empty: deal from the
seeds); ``outcomes`` ``(winner, chips, points, steps, flags)`` per deal; ``rec`` ``(actions, legal, cards)``, empty
when not recording, else every action, the number of legal actions before it and the deal
(``cards[d, seat, card]``; seat ``players`` is the dead hand).

Why each kernel keeps its own ``play_batch`` rather than one driver taking the game's step functions: Numba
compiles a function that takes compiled functions as arguments (or closes over them) once per process, never
from its disk cache (the cache key holds the functions' identities), so every ``comet`` command would compile
every kernel again (several seconds each on this machine); the loops share everything else from here.
"""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose.

from __future__ import annotations

import numpy as np

from comet.fast.config import H_BLOCKS, H_HAND, H_MAX_STEPS, H_PLAYERS, H_WILD1
from comet.fast.jit import I8, I64, hot, jit
from comet.fast.rng import LANES, seed_lanes, shuffle
from comet.trace import rule

Deck = tuple[I64, I64, I64]
Outcomes = tuple[I64, I64, I64, I64, I64]
Recording = tuple[I64, I64, I8]
Buffers = tuple[I64, I64, I64, I64, I8, I64, I64]


@jit
def buffers(players: int, pack_size: int) -> Buffers:
    """The arrays a batch reuses deal after deal: the generator lanes and their seeds, the shuffled order, the
    generator's position, the hands' card counts, the hand sizes, the dead hand (``dead[card]``)."""
    return (
        np.zeros((624, LANES), np.int64),
        np.zeros(LANES, np.int64),
        np.zeros(pack_size, np.int64),
        np.zeros(2, np.int64),
        np.zeros((players, 56), np.int8),
        np.zeros(players, np.int64),
        np.zeros(60, np.int64),  # 4 spare entries: a look one rank up from a King needs no bounds test
    )


@jit
def prepare(cfg: I64, pack_size: int, max_acts: int) -> tuple[int, int, Buffers, I64]:
    """A batch's players, its step bound, its buffers (``buffers``) and room for ``max_acts`` legal actions."""
    players = cfg[H_PLAYERS]
    return players, cfg[H_MAX_STEPS], buffers(players, pack_size), np.zeros(max_acts, np.int64)


@hot
def recording(rec: Recording) -> bool:
    """Whether the batch records (``rec``'s arrays are empty when it does not)."""
    return bool(rec[0].shape[0] > 0)


@hot
def note(rec: Recording, d: int, step: int, a: int, n: int) -> None:
    """Record action ``a`` (and the ``n`` legal actions it was chosen from) as step ``step`` of deal ``d``.
    Called only when ``recording(rec)``, tested once per batch: the same helper called on every step of the
    play loop with the test inside, recording or not, cost the standard kernel a sixth of its deals per second
    (measured against the loop's own two lines; why Numba's inlined call costs that much was not pinned down)."""
    rec[0][d, step] = a
    rec[1][d, step] = n


@jit
@rule("R-DEAL-ORDER")
def deal(cfg: I64, pack: I64, order: I64, mt: I64, pos: I64, dealer: int, cnt: I8, dead: I64) -> None:
    """Shuffle the pack as ``random.Random(seed).shuffle`` and deal it from the dealer's left, one
    card at a time or in blocks (RUL-DEAL-ORDER); ``dead`` gets the undealt cards."""
    players = cfg[H_PLAYERS]
    hand = cfg[H_HAND]
    order[:] = pack
    pos[0] = 0
    pos[1] = 0
    shuffle(order, mt, pos)
    cnt[:, :] = 0
    dealt = players * hand
    seat = dealer + 1 if dealer + 1 < players else 0
    k = 0
    for i in range(dealt):
        cnt[seat, order[i]] += 1
        k += 1
        if not cfg[H_BLOCKS] or k == hand:
            k = 0
            seat = seat + 1 if seat + 1 < players else 0
    dead[:] = 0
    for i in range(dealt, order.shape[0]):
        dead[order[i]] += 1


@jit
def start(
    d: int, cfg: I64, pack: I64, base: I64, seeds: I64, dealers: I64, bufs: Buffers, given: I8, rec_cards: I8
) -> None:
    """Deal deal ``d`` (from its seed, or the explicit cards of ``given``) and record the cards if
    recording."""
    mts, lane_seeds, order, pos, cnt, size, dead = bufs
    players = cfg[H_PLAYERS]
    lane = d % LANES
    if lane == 0:
        for j in range(LANES):
            lane_seeds[j] = seeds[d + j] if d + j < seeds.shape[0] else 0
        seed_lanes(mts, base, lane_seeds)
    column = mts[:, lane]
    if given.shape[0] > 0:
        for p in range(players):
            size[p] = 0
            for c in range(56):
                cnt[p, c] = given[d, p, c]
                size[p] += cnt[p, c]
        for c in range(56):
            dead[c] = given[d, players, c]
    else:
        deal(cfg, pack, order, column, pos, dealers[d], cnt, dead)
        for p in range(players):
            size[p] = cfg[H_HAND]
    if rec_cards.shape[0] > 0:
        for p in range(players):
            for c in range(56):
                rec_cards[d, p, c] = cnt[p, c]
        for c in range(56):
            rec_cards[d, players, c] = dead[c]


@hot
def naturals(cfg: I64, cnt: I8, nat: I8) -> None:
    """``nat[seat, rank]``: the natural (non-wild) cards of each rank in each hand of ``cnt``."""
    wild = cfg[H_WILD1]
    for p in range(cnt.shape[0]):
        for r in range(14):
            nat[p, r] = 0
        for c in range(56):
            if c != wild:
                nat[p, c >> 2] += cnt[p, c]


@hot
def put_outcome(out: Outcomes, d: int, winner: int, chips: I64, points: I64, steps: int, flags: int) -> None:
    """Write deal ``d``'s outcome: the winner (-1: none), each seat's chips and points, the steps, the flags."""
    winner_out, chips_out, points_out, steps_out, flags_out = out
    winner_out[d] = winner
    for p in range(chips.shape[0]):
        chips_out[d, p] = chips[p]
        points_out[d, p] = points[p]
    steps_out[d] = steps
    flags_out[d] = flags
