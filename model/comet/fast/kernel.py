"""The compiled kernel of the fast engine: whole deals over small integer arrays, under Numba.

This is a second implementation of the standard play of ``comet.engine`` (and of the
Opera, two-player and Old Comet hooks), written for speed, never a replacement: every
deal it plays can be replayed through the reference (``comet.fast.check``).

State of one deal (all small ints): ``cnt[seat, card]`` copies of each card id
(``rank * 4 + suit``, as ``comet.cards``) in each hand; ``nat[seat, rank]`` natural
(non-wild) cards of each rank in each hand; ``size[seat]``; the top rank of the run
(0: a new run is to be started); whose move it is, whether they have played this turn,
the last seat to play, the number of passes (``turn``), the winner, the rank the wild card
stood for if it went out last, drawn, and the free restart after the Comet.

An action is one int: ``kind << 12 | card << 4 | rank`` with the kinds below.  The rulings
and the game family come in ``cfg`` (indices ``C_*``), so one compiled kernel serves every
reading.  The shuffle is CPython's ``random.Random(seed).shuffle`` (MT19937 seeded by
``init_by_array``, ``_randbelow`` by rejection), so a seed deals the same cards as
``comet.engine.shuffled_deal``.
"""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).
# ruff: noqa: SIM109, SIM110

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from comet.trace import rule

F = TypeVar("F", bound=Callable[..., object])

I64 = NDArray[np.int64]
I8 = NDArray[np.int8]


def jit(fn: F) -> F:
    """Compile ``fn`` with Numba in nopython mode, cached on disk (typed for mypy as ``fn`` itself)."""
    return cast(F, njit(cache=True, nogil=True)(fn))


def hot(fn: F) -> F:
    """``jit``, and inlined into its callers (a call with array arguments costs reference counting)."""
    return cast(F, njit(cache=True, nogil=True, inline="always")(fn))


# --------------------------------------------------------------------- configuration

C_PLAYERS = 0
C_HAND = 1  # cards per hand
C_PACK = 2  # cards in the pack
C_LOWEST = 3  # lowest rank (2; Old Comet: 1)
C_STOP_EARLY = 4  # RUL-MUST-CONTINUE may_stop_early
C_NEW_RUN_MAY = 5  # RUL-NEW-RUN may
C_QUARTET_LEAD = 6  # RUL-QUARTET-LEAD
C_COMET_LEAD = 7  # RUL-COMET-LEAD: LEAD_*
C_COMET_ANY = 8  # RUL-COMET-RANK any_rank
C_REQ_MISSING = 9  # RUL-COMET-HOLDING
C_BONUS_MULT = 10  # RUL-COMET-BONUS-LAST multiplied
C_COMET_QUARTET = 11  # RUL-COMET-QUARTET
C_RESTART = 12  # RUL-COMET-AFTER optional_restart
C_OPERA = 13  # RUL-OPERA
C_OPERA_DRAW = 14  # RUL-OPERA-DRAW dealer_could
C_OPERA_MULTIPLY = 15  # RUL-OPERA-STACK multiply
C_GAME = 16  # GAME_*
C_BLOCKS = 17  # RUL-DEAL-ORDER blocks
C_OLD_NINE_ONLY = 18  # RUL-OLD-CAUGHT nine_only
C_OLD_LAST_MULT = 19  # RUL-OLD-MANILLE-LAST multiplied
C_OLD_OPERA_DOUBLED = 20  # RUL-OLD-OPERA-CAUGHT doubled
C_OLD_KING = 21  # RUL-OLD-MANILLE-KING manille_and_king
C_COMET_VALUE = 22
C_POLICY = 23  # POLICY_*
C_MUTANT = 24  # tests only: a deliberately broken rule (0: none)
C_MAX_STEPS = 25  # a safety bound on actions per deal (the reference's step_bound)
C_WILD = 26  # the wild card's id
C_STUCK_MAY = 27  # RUL-STUCK-RESTART may
C_OPERA_CAUGHT_HIGHEST = 28  # RUL-OPERA-CAUGHT highest
C_OPERA_BONUS_DOUBLED = 29  # RUL-OPERA-COMET-BONUS doubled
C_OLD_COURT_RANK = 30  # RUL-OLD-COURT-POINTS rank
C_OLD_CAUGHT_DOUBLE = 31  # RUL-OLD-CAUGHT-DOUBLE doubled
C_OLD_CAUGHT_NINE = 32  # RUL-OLD-CAUGHT-NINE extra
C_OLD_BONUS_LAST = 33  # RUL-OLD-BONUS-LAST multiplied
C_OLD_KING_PER_PLAY = 34  # RUL-OLD-KING-QUARTET per_play
CFG_SIZE = 35

LEAD_FORBIDDEN, LEAD_ANY_RANK, LEAD_KING = 0, 1, 2

GAME_STANDARD, GAME_TWO_PLAYER, GAME_OLD_COMET = 0, 1, 2
POLICY_RANDOM, POLICY_GREEDY, POLICY_HOARDER, POLICY_SIMPLE = 0, 1, 2, 3

# Action kinds.
PASS = 0
SINGLE = 1  # one natural card
QUARTET = 2  # every natural card of a rank (four, or the three natural 9s)
QUARTET_WILD = 3  # the three natural 9s and the wild card, as four 9s
WILD = 4  # the wild card standing for a rank

# Outcome flags.
FLAG_OPERA = 1  # the first player went out in the very first turn (and the deal was not drawn)
FLAG_DRAWN = 2  # an Opera deal drawn because the dealer could have gone out too
FLAG_OUT_ON_WILD = 4  # the winner's last card was the wild card
FLAG_CAPPED = 8  # stopped at the step bound (never expected: a bug if seen)

MAX_ACTS = 64
KING = 13


@hot
def code(kind: int, card: int, rank: int) -> int:
    return (kind << 12) | (card << 4) | rank


# --------------------------------------------------------------------- CPython's Mersenne Twister

MASK32 = 0xFFFFFFFF


@jit
def _init_genrand(mt: I64, s: int) -> None:
    mt[0] = s & MASK32
    for i in range(1, 624):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32


LANES = 32  # seeds set up side by side: the seeding loop is serial within a seed, so vectorise across seeds


@jit
def seed_lanes(mts: I64, base: I64, seeds: I64) -> None:
    """``mts[:, l]`` as CPython's ``random.Random(seeds[l])`` leaves its state (``init_by_array`` on the
    seed's 32-bit words; ``base`` is ``init_genrand(19650218)``).  The lanes run side by side so the
    compiler can vectorise the two long serial loops across seeds."""
    lanes = mts.shape[1]
    even = np.empty(lanes, np.int64)
    odd = np.empty(lanes, np.int64)
    for lane in range(lanes):
        s = seeds[lane]
        even[lane] = s & MASK32
        hi = (s >> 32) & MASK32
        # a one-word key adds key[0] + 0 every step; a two-word key alternates key[0] + 0, key[1] + 1
        odd[lane] = hi + 1 if hi != 0 else even[lane]
    for i in range(624):
        for lane in range(lanes):
            mts[i, lane] = base[i]
    i = 1
    for step in range(624):
        add = odd if step & 1 else even
        for lane in range(lanes):
            p = mts[i - 1, lane]
            mts[i, lane] = ((mts[i, lane] ^ ((p ^ (p >> 30)) * 1664525)) + add[lane]) & MASK32
        i += 1
        if i >= 624:
            for lane in range(lanes):
                mts[0, lane] = mts[623, lane]
            i = 1
    for _ in range(623):
        for lane in range(lanes):
            p = mts[i - 1, lane]
            mts[i, lane] = ((mts[i, lane] ^ ((p ^ (p >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= 624:
            for lane in range(lanes):
                mts[0, lane] = mts[623, lane]
            i = 1
    for lane in range(lanes):
        mts[0, lane] = 0x80000000


@jit
def _twist(mt: I64) -> None:
    for kk in range(624):
        y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
        v = mt[(kk + 397) % 624] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        mt[kk] = v


@hot
def _temper(y: int) -> int:
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@hot
def _draw(mt: I64, pos: I64) -> int:
    """The next 32-bit output (``pos``: outputs drawn, blocks twisted).  The first 227 outputs of a
    freshly seeded state are computed lazily from words the full twist would not yet have changed;
    past them the whole block is twisted as CPython does."""
    i = pos[0]
    pos[0] = i + 1
    if pos[1] == 0 and i < 227:
        y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
        v = mt[i + 397] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        return _temper(v)
    while pos[1] <= i // 624:
        _twist(mt)
        pos[1] += 1
    return _temper(mt[i % 624])


@hot
def _bit_length(n: int) -> int:
    k = 0
    while n:
        k += 1
        n >>= 1
    return k


@jit
def shuffle(order: I64, mt: I64, pos: I64) -> None:
    """``random.Random.shuffle``: Fisher-Yates from the top, ``_randbelow`` by rejection."""
    for i in range(order.shape[0] - 1, 0, -1):
        n = i + 1
        shift = 32 - _bit_length(n)
        r = _draw(mt, pos) >> shift
        while r >= n:
            r = _draw(mt, pos) >> shift
        t = order[i]
        order[i] = order[r]
        order[r] = t


# --------------------------------------------------------------------- legal actions


@hot
@rule("R-STOP-STUCK")
def stuck_may_pass(cfg: I64, nat: I8, seat: int, turn_played: int, last: int) -> bool:
    """RUL-STUCK-RESTART may: a stuck run came back to its last player, who may pass the new run
    left if the left neighbour can start it (a natural card, or the Comet when it may lead)."""
    if not cfg[C_STUCK_MAY] or turn_played or last != seat:
        return False
    if cfg[C_COMET_LEAD] != LEAD_FORBIDDEN:
        return True
    left = (seat + 1) % cfg[C_PLAYERS]
    for r in range(1, 14):
        if nat[left, r] > 0:
            return True
    return False


@hot
@rule("R-LEAD-ANY", "R-PLAY-CONTINUE", "R-PLAY-MUST", "R-NEW-RUN", "R-COMET-WILD", "R-FOUR-OF-A-KIND", "R-OLD-ACE-LOW")
def legal(
    cfg: I64,
    packnat: I64,
    packcnt: I64,
    cnt: I8,
    nat: I8,
    seat: int,
    run_top: int,
    turn_played: int,
    free_lead: int,
    last: int,
    acts: I64,
) -> int:
    """Write the legal actions of ``seat`` into ``acts`` in the reference's canonical order (pass
    first, then by sorted cards, then by the rank the wild card stands for); return how many."""
    wild = cfg[C_WILD]
    lowest = cfg[C_LOWEST]
    wild_held = cnt[seat, wild] > 0
    lead = run_top == 0
    need = 0 if lead else run_top + 1
    wild_lo = 1
    wild_hi = 0  # the ranks the wild card may stand for (none when lo > hi)
    quartet_wild = False
    if lead:
        singles_all = True
        quartets_all = cfg[C_QUARTET_LEAD] == 1
        if wild_held and cfg[C_COMET_LEAD] == LEAD_ANY_RANK:
            wild_lo, wild_hi = lowest, KING
        elif wild_held and cfg[C_COMET_LEAD] == LEAD_KING:
            wild_lo, wild_hi = KING, KING
        naturals = False
        for r in range(1, 14):
            if nat[seat, r] > 0:
                naturals = True
                break
        may_pass = (
            not (naturals or wild_lo <= wild_hi)
            or (cfg[C_NEW_RUN_MAY] == 1 and turn_played == 1)
            or stuck_may_pass(cfg, nat, seat, turn_played, last)
        )
    else:
        matching = nat[seat, need] > 0
        # RUL-COMET-AFTER optional_restart: after the Comet a new run may start instead, with any
        # card (or a quartet where a lead may be one)
        singles_all = free_lead == 1
        quartets_all = free_lead == 1 and cfg[C_QUARTET_LEAD] == 1
        if wild_held and not (cfg[C_REQ_MISSING] and matching):
            if cfg[C_COMET_ANY]:
                wild_lo, wild_hi = lowest, KING
            else:
                wild_lo, wild_hi = need, need
        quartet_wild = cfg[C_COMET_QUARTET] == 1 and wild_held and nat[seat, need] == 3 and packnat[need] == 3
        may_pass = not matching or (cfg[C_STOP_EARLY] == 1 and turn_played == 1)
        if cfg[C_MUTANT] == 2:  # planted bug (tests only): pass is always allowed
            may_pass = True
    n = 0
    if may_pass:
        acts[0] = code(PASS, 0, 0)
        n = 1
    scan_all = singles_all or quartets_all
    wild_rank = wild >> 2
    for r in range(1, 14):
        if not (scan_all or r == need or r == wild_rank):
            continue
        held = nat[seat, r]
        quartet = held >= 3 and held == packnat[r] and (quartets_all or r == need)
        with_wild = quartet_wild and r == need
        single = singles_all or r == need
        first_natural = True
        for c in range(r * 4, r * 4 + 4):
            if c == wild:
                for x in range(wild_lo, wild_hi + 1):
                    acts[n] = code(WILD, wild, x)
                    n += 1
                if with_wild and first_natural:  # the wild card is the lowest card of the four 9s
                    acts[n] = code(QUARTET_WILD, wild, r)
                    n += 1
                    with_wild = False
                continue
            if single and cnt[seat, c] > 0:
                acts[n] = code(SINGLE, c, r)
                n += 1
            if first_natural and packcnt[c] > 0:
                first_natural = False
                if quartet and with_wild:
                    q = code(QUARTET, 0, r)
                    qw = code(QUARTET_WILD, wild, r)
                    if order_key(cfg, packcnt, q) > order_key(cfg, packcnt, qw):
                        q, qw = qw, q
                    acts[n] = q
                    acts[n + 1] = qw
                    n += 2
                elif quartet:
                    acts[n] = code(QUARTET, 0, r)
                    n += 1
    return n


@hot
def remove(cfg: I64, packcnt: I64, cnt: I8, nat: I8, seat: int, a: int) -> int:
    """Take the action's cards out of ``seat``'s hand; return how many Kings went down naturally."""
    kind = a >> 12
    wild = cfg[C_WILD]
    if kind == SINGLE:
        c = (a >> 4) & 255
        cnt[seat, c] -= 1
        nat[seat, c >> 2] -= 1
        return 1 if (c >> 2) == KING else 0
    r = a & 15
    if kind == QUARTET or kind == QUARTET_WILD:
        for s in range(4):
            c = r * 4 + s
            if c != wild:
                cnt[seat, c] = 0
        nat[seat, r] = 0
    if kind == QUARTET_WILD or kind == WILD:
        cnt[seat, wild] -= 1
        return 0
    return packcnt_kings(packcnt, r)


@hot
def packcnt_kings(packcnt: I64, r: int) -> int:
    if r != KING:
        return 0
    k = 0
    for s in range(4):
        k += packcnt[KING * 4 + s]
    return k


@jit
def put_back(cfg: I64, packcnt: I64, cnt: I8, nat: I8, seat: int, a: int) -> None:
    """Undo ``remove`` (for the dealer's search; the hand held every natural card of a quartet)."""
    kind = a >> 12
    wild = cfg[C_WILD]
    if kind == SINGLE:
        c = (a >> 4) & 255
        cnt[seat, c] += 1
        nat[seat, c >> 2] += 1
        return
    r = a & 15
    if kind == QUARTET or kind == QUARTET_WILD:
        k = 0
        for s in range(4):
            c = r * 4 + s
            if c != wild:
                cnt[seat, c] = packcnt[c]
                k += packcnt[c]
        nat[seat, r] = k
    if kind == QUARTET_WILD or kind == WILD:
        cnt[seat, wild] += 1


@hot
def cards_in(a: int, cfg: I64, packcnt: I64) -> int:
    kind = a >> 12
    if kind == SINGLE:
        return 1
    if kind == WILD:
        return 1
    r = a & 15
    k = 0
    for s in range(4):
        c = r * 4 + s
        if c != cfg[C_WILD]:
            k += packcnt[c]
    return k + (1 if kind == QUARTET_WILD else 0)


# --------------------------------------------------------------------- Opera: could the dealer go out too?


@jit
@rule("R-OPERA-DRAW")
def dealer_could_go_out(cfg: I64, packnat: I64, packcnt: I64, cnt: I8, nat: I8, dealer: int) -> bool:
    """Could ``dealer``, leading a new run, lay down the whole hand in one turn (plays only)?

    Depth-first over plays with undo; positions already known to fail are remembered in a
    dense table indexed by (remaining hand in mixed radix over the dealt hand, run top,
    turn played, free restart)."""
    size = 0
    for c in range(56):
        size += cnt[dealer, c]
    if size == 0:
        return False
    radix = np.zeros(56, np.int64)
    span = 1
    key = 0
    for c in range(56):
        radix[c] = span
        key += cnt[dealer, c] * span
        span *= cnt[dealer, c] + 1
    failed = np.zeros(span * 56, np.bool_)
    depth_max = size + 1
    acts = np.zeros((depth_max, MAX_ACTS), np.int64)
    nacts = np.zeros(depth_max, np.int64)
    nxt = np.zeros(depth_max, np.int64)
    tops = np.zeros(depth_max, np.int64)
    played = np.zeros(depth_max, np.int64)
    frees = np.zeros(depth_max, np.int64)
    keys = np.zeros(depth_max, np.int64)
    left = np.zeros(depth_max, np.int64)
    d = 0
    keys[0] = key
    left[0] = size
    nacts[0] = legal(cfg, packnat, packcnt, cnt, nat, dealer, 0, 0, 0, -1, acts[0])
    while True:
        if nxt[d] >= nacts[d]:
            failed[(keys[d] * 14 + tops[d]) * 4 + played[d] * 2 + frees[d]] = True
            if d == 0:
                return False
            d -= 1
            put_back(cfg, packcnt, cnt, nat, dealer, acts[d, nxt[d] - 1])
            continue
        a = acts[d, nxt[d]]
        nxt[d] += 1
        kind = a >> 12
        if kind == PASS:
            continue
        before = cnt[dealer].copy()
        remove(cfg, packcnt, cnt, nat, dealer, a)
        k2 = keys[d]
        gone = 0
        for c in range(56):
            diff = before[c] - cnt[dealer, c]
            k2 -= diff * radix[c]
            gone += diff
        if left[d] - gone == 0:
            put_back(cfg, packcnt, cnt, nat, dealer, a)
            for k in range(d - 1, -1, -1):
                put_back(cfg, packcnt, cnt, nat, dealer, acts[k, nxt[k] - 1])
            return True
        rank = a & 15
        is_wild = kind == QUARTET_WILD or kind == WILD
        go_on = is_wild and cfg[C_RESTART] == 1 and rank != KING
        stop = rank == KING or (is_wild and not go_on)
        top = 0 if stop else rank
        fl = 1 if go_on else 0
        if failed[(k2 * 14 + top) * 4 + 2 + fl]:
            put_back(cfg, packcnt, cnt, nat, dealer, a)
            continue
        d += 1
        keys[d] = k2
        left[d] = left[d - 1] - gone
        tops[d] = top
        played[d] = 1
        frees[d] = fl
        nxt[d] = 0
        nacts[d] = legal(cfg, packnat, packcnt, cnt, nat, dealer, top, 1, fl, dealer, acts[d])


# --------------------------------------------------------------------- policies
#
# The policies are the reference ones, reproduced exactly so that a seed gives the same deal in
# both engines: ``random``, ``greedy`` and ``hoarder`` are ``comet.diverge.policies.make_policy(name,
# seed)`` (coupled play: a choice by chance is the option of highest priority, a hash of the seed, the
# seat and the option; see that module), ``simple`` is ``comet.policy.simple_policy``.

M32 = 0xFFFFFFFF


@hot
def first_card(cfg: I64, packcnt: I64, a: int) -> int:
    """The lowest card of the action (the first of its sorted cards; -1 for a pass)."""
    kind = a >> 12
    if kind == PASS:
        return -1
    if kind == SINGLE or kind == WILD:
        return (a >> 4) & 255
    r = a & 15
    low = 99
    for s in range(4):
        c = r * 4 + s
        if c != cfg[C_WILD] and packcnt[c] > 0:
            low = c
            break
    if kind == QUARTET_WILD and cfg[C_WILD] < low:
        return int(cfg[C_WILD])
    return low


@hot
def order_key(cfg: I64, packcnt: I64, a: int) -> int:
    """A number that orders actions as ``comet.state.Action`` does: by their sorted cards
    (a tuple; a prefix first), then the rank the wild card stands for."""
    kind = a >> 12
    if kind == PASS:
        return 0
    r = a & 15
    if kind == SINGLE:
        return (((a >> 4) & 255) + 1) << 28  # (card + 1) * 64**4 * 16
    if kind == WILD:
        return ((((a >> 4) & 255) + 1) << 28) + r
    wild = cfg[C_WILD]
    key = 0
    digits = 0
    if True:
        placed = kind != QUARTET_WILD
        for s in range(4):
            c = r * 4 + s
            if not placed and wild < c:
                key = key * 64 + wild + 1
                digits += 1
                placed = True
            if c != wild:
                for _ in range(packcnt[c]):
                    key = key * 64 + c + 1
                    digits += 1
        if not placed:
            key = key * 64 + wild + 1
            digits += 1
    while digits < 5:
        key *= 64
        digits += 1
    return key * 16 + (r if (kind == WILD or kind == QUARTET_WILD) else 0)


@hot
def chain_length(nat: I8, seat: int, rank: int) -> int:
    """How many consecutive ranks from ``rank`` upward the hand holds naturally."""
    k = 0
    r = rank
    while r <= KING and nat[seat, r] > 0:
        k += 1
        r += 1
    return k


@hot
def simple_choice(cfg: I64, packcnt: I64, run_top: int, acts: I64, n: int, skip_wild: bool) -> int:
    """``comet.policy.simple_policy`` over ``acts[:n]`` (without the wild plays if ``skip_wild``):
    the most cards, then the lowest first card; else the wild card standing for the rank needed
    (a 9 on a lead), else the first wild play; else pass."""
    best = -1
    best_score = -1
    for i in range(n):
        a = acts[i]
        kind = a >> 12
        if kind == SINGLE or kind == QUARTET:
            score = cards_in(a, cfg, packcnt) * 64 + (63 - first_card(cfg, packcnt, a))
            if score > best_score:
                best_score = score
                best = a
    if best >= 0:
        return best
    if not skip_wild:
        need = run_top + 1 if run_top else 0
        first = -1
        for i in range(n):
            a = acts[i]
            kind = a >> 12
            if kind == WILD or kind == QUARTET_WILD:
                r = a & 15
                if r == need or (need == 0 and r == 9):
                    return int(a)
                if first < 0:
                    first = a
        if first >= 0:
            return first
    return code(PASS, 0, 0)


@hot
def mix32(x: int) -> int:
    """``comet.diverge.policies.mix32`` (int64 products wrap; the low 32 bits are the same)."""
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


@hot
def rank_key(cfg: I64, packcnt: I64, seed: int, seat: int, a: int) -> int:
    """``comet.diverge.policies.rank_key``: the option's priority for ``seat`` in the deal of ``seed``
    (coupled play), then the option itself (``order_key`` is the reference's ``option_key``)."""
    key = order_key(cfg, packcnt, a)
    h = mix32(seed & M32)
    h = mix32(h ^ ((seed >> 32) & M32))
    h = mix32(h ^ seat)
    h = mix32(h ^ (key & M32))
    h = mix32(h ^ (key >> 32))
    return ((h >> 4) << 34) | key


@hot
def choose(
    cfg: I64, packcnt: I64, nat: I8, size: I64, cnt: I8, seat: int, run_top: int, acts: I64, n: int, seed: int
) -> int:
    """The policy's action among ``acts[:n]`` (in canonical order; see the section comment)."""
    policy = cfg[C_POLICY]
    if policy == POLICY_RANDOM:
        best = acts[0]
        best_key = -1
        for i in range(n):
            rk = rank_key(cfg, packcnt, seed, seat, acts[i])
            if rk > best_key:
                best_key = rk
                best = acts[i]
        return int(best)
    if policy == POLICY_SIMPLE:
        return simple_choice(cfg, packcnt, run_top, acts, n, False)
    wild = cfg[C_WILD]
    if policy == POLICY_HOARDER:
        first_wild = -1
        first_nine = -1
        others = 0
        for i in range(n):
            a = acts[i]
            kind = a >> 12
            if kind == WILD or kind == QUARTET_WILD:
                if first_wild < 0:
                    first_wild = a
                if first_nine < 0 and (a & 15) == 9:
                    first_nine = a
            else:
                others += 1
        only_wild = size[seat] == cnt[seat, wild]
        if first_wild >= 0 and (only_wild or others == 0):
            return first_nine if first_nine >= 0 else first_wild
        # the natural play of most cards, ties by priority; else pass
        best = code(PASS, 0, 0)
        best_cards = -1
        best_key = -1
        for i in range(n):
            a = acts[i]
            kind = a >> 12
            if kind == SINGLE or kind == QUARTET:
                c = cards_in(a, cfg, packcnt)
                rk = rank_key(cfg, packcnt, seed, seat, a)
                if c > best_cards or (c == best_cards and rk > best_key):
                    best_cards = c
                    best_key = rk
                    best = a
        return int(best)
    # greedy: the most cards; then the longest run held from the play's rank, the higher rank, the
    # priority -- among the plays without the wild card if there are any
    naturals = 0
    for i in range(n):
        kind = acts[i] >> 12
        if kind == SINGLE or kind == QUARTET:
            naturals += 1
    best = acts[0]
    best_score = -1
    best_key = -1
    for i in range(n):
        a = acts[i]
        kind = a >> 12
        if kind == PASS or (naturals and (kind == WILD or kind == QUARTET_WILD)):
            continue
        r = a & 15
        score = (cards_in(a, cfg, packcnt) * 16 + chain_length(nat, seat, r)) * 16 + r
        rk = rank_key(cfg, packcnt, seed, seat, a)
        if score > best_score or (score == best_score and rk > best_key):
            best_score = score
            best_key = rk
            best = a
    return int(best)


# --------------------------------------------------------------------- one deal


@hot
def each_pays(chips: I64, players: int, seat: int, amount: int) -> None:
    if amount:
        for p in range(players):
            if p != seat:
                chips[p] -= amount
                chips[seat] += amount


@hot
def going_out_multiplier(wild_as: int) -> int:
    return 4 if wild_as == 9 else 2


@jit
@rule(
    "R-SETTLE-POINTS",
    "R-SETTLE-CAUGHT",
    "R-SETTLE-COMET-LAST",
    "R-OPERA-DOUBLE",
    "R-2P-POINTS",
    "R-2P-DOUBLING",
    "R-OLD-POINTS",
    "R-OLD-SETTLE",
    "R-OLD-MANILLE-CAUGHT",
)
def settle(
    cfg: I64, cnt: I8, nat: I8, size: I64, winner: int, wild_as: int, opera: bool, chips: I64, points: I64
) -> None:
    """End-of-deal payments (standard, Opera), two-player points, Old Comet's settlement."""
    players = cfg[C_PLAYERS]
    game = cfg[C_GAME]
    wild = cfg[C_WILD]
    if game == GAME_OLD_COMET:
        mult = 1
        caught = 10
        if wild_as and cfg[C_OLD_LAST_MULT]:
            mult = going_out_multiplier(wild_as)
        if opera:
            mult = mult * 2 if cfg[C_OPERA_MULTIPLY] else max(mult, 2)
            if cfg[C_OLD_OPERA_DOUBLED]:
                caught *= 2
    else:
        mult = going_out_multiplier(wild_as) if wild_as else 1
        if cfg[C_MUTANT] == 1 and wild_as:  # planted bug: going out on the Comet doubles nothing
            mult = 1
        if opera:
            mult = mult * 2 if cfg[C_OPERA_MULTIPLY] else max(mult, 2)
        caught = 0
    court_rank = game == GAME_OLD_COMET and cfg[C_OLD_COURT_RANK] == 1
    for seat in range(players):
        if seat == winner or size[seat] == 0:
            continue
        holds = cnt[seat, wild] > 0
        pts = cnt[seat, wild] * 9  # the wild card is a 9 in every supported pack
        for r in range(1, 14):
            pts += nat[seat, r] * (r if court_rank else min(r, 10))
        if game == GAME_OLD_COMET:
            amount = pts * mult * (2 if holds and cfg[C_OLD_CAUGHT_DOUBLE] else 1)
            if amount:
                chips[seat] -= amount
                chips[winner] += amount
            if holds and cfg[C_OLD_CAUGHT_NINE]:  # RUL-OLD-CAUGHT-NINE extra: 9 chips on top
                chips[seat] -= 9
                chips[winner] += 9
            if holds:
                for other in range(players):
                    if other == seat or (other == winner and cfg[C_OLD_NINE_ONLY]):
                        continue
                    chips[seat] -= caught
                    chips[other] += caught
            continue
        if holds and opera and cfg[C_OPERA_CAUGHT_HIGHEST]:  # RUL-OPERA-CAUGHT highest
            amount = pts * max(2, mult)
        else:
            amount = pts * (2 if holds else 1) * mult
        if game == GAME_TWO_PLAYER:
            points[winner] += amount
        elif amount:
            chips[seat] -= amount
            chips[winner] += amount


@jit
def deal_hands(cfg: I64, pack: I64, order: I64, mt: I64, pos: I64, dealer: int, cnt: I8, nat: I8, dead: I64) -> None:
    """Shuffle the pack with the seeded generator ``mt`` (as the reference) and deal it
    (RUL-DEAL-ORDER); ``dead`` gets the undealt cards."""
    players = cfg[C_PLAYERS]
    hand = cfg[C_HAND]
    order[:] = pack
    pos[0] = 0
    pos[1] = 0
    shuffle(order, mt, pos)
    cnt[:, :] = 0
    nat[:, :] = 0
    dealt = players * hand
    wild = cfg[C_WILD]
    blocks = cfg[C_BLOCKS]
    seat = dealer + 1 if dealer + 1 < players else 0
    k = 0  # cards given to this seat so far in its block
    for i in range(dealt):
        c = order[i]
        cnt[seat, c] += 1
        if c != wild:
            nat[seat, c >> 2] += 1
        # next seat: round robin one card at a time, or after a whole block (no divisions)
        k += 1
        if not blocks or k == hand:
            k = 0
            seat = seat + 1 if seat + 1 < players else 0
    dead[:] = 0
    for i in range(dealt, order.shape[0]):
        dead[order[i]] += 1


# --------------------------------------------------------------------- the transition

# the scalars of a deal in play, in one small array (``st``) so a deal can be copied and resumed (the PIMC
# player's roll-outs, ``comet.fast.pimc``)
S_TO_MOVE = 0
S_RUN_TOP = 1  # the top rank of the run (0: a new run is to be started)
S_TURN_PLAYED = 2
S_LAST = 3  # the last seat to play (-1: none yet)
S_TURN = 4  # passes so far
S_STEPS = 5  # actions so far
S_WINNER = 6
S_WILD_AS = 7  # the rank the wild card stood for if it went out last
S_DRAWN = 8
S_FREE_LEAD = 9  # RUL-COMET-AFTER optional_restart: a new run may be started
S_DEALER = 10
ST_SIZE = 11


@hot
def start_deal(st: I64, players: int, dealer: int) -> None:
    """The scalars of a deal before its first action (the dealer's left leads)."""
    st[S_TO_MOVE] = dealer + 1 if dealer + 1 < players else 0
    st[S_RUN_TOP] = 0
    st[S_TURN_PLAYED] = 0
    st[S_LAST] = -1
    st[S_TURN] = 0
    st[S_STEPS] = 0
    st[S_WINNER] = -1
    st[S_WILD_AS] = 0
    st[S_DRAWN] = 0
    st[S_FREE_LEAD] = 0
    st[S_DEALER] = dealer


@hot
@rule(
    "R-TURN-END",
    "R-STOP-STUCK",
    "R-STOP-KING",
    "R-COMET-STOP",
    "R-END-OUT",
    "R-COMET-BONUS",
    "R-OPERA-FIRST-TURN",
    "R-2P-COMET-UNPAID",
    "R-OLD-KING",
    "R-OLD-MANILLE-PLAY",
    "R-OLD-LAST-CARD",
)
def step(
    cfg: I64,
    packnat: I64,
    packcnt: I64,
    cnt: I8,
    nat: I8,
    size: I64,
    chips: I64,
    a: int,
    to_move: int,
    run_top: int,
    turn_played: int,
    last: int,
    turn: int,
    steps: int,
    winner: int,
    wild_as: int,
    drawn: int,
    free_lead: int,
    dealer: int,
) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """The seat to move takes action ``a`` (one of ``legal``): the transition of a deal as a function, for
    the PIMC player (``comet.fast.pimc``), which copies a deal in play and resumes it.  ``play_batch``
    keeps its own copy of these lines in its loop (called from there, this function cost it a fifth of its
    speed); tests/test_fast_pimc.py plays every preset and random readings both ways and compares every
    deal.  Changes the arrays in place and returns the new ``to_move, run_top, turn_played, last, turn,
    steps, winner, wild_as, drawn, free_lead``."""
    players = cfg[C_PLAYERS]
    game = cfg[C_GAME]
    steps += 1
    kind = a >> 12
    if kind == PASS:
        nxt = to_move + 1 if to_move + 1 < players else 0
        if nxt == last:
            if game == GAME_OLD_COMET and run_top != 0:  # R-OLD-LAST-CARD
                each_pays(chips, players, last, 1)
            run_top = 0
        return nxt, run_top, 0, last, turn + 1, steps, winner, wild_as, drawn, 0
    seat = to_move
    kings = remove(cfg, packcnt, cnt, nat, seat, a)
    taken = cards_in(a, cfg, packcnt)
    size[seat] -= taken
    out = size[seat] == 0
    rank = a & 15
    is_wild = kind == QUARTET_WILD or kind == WILD
    if game == GAME_STANDARD:
        if is_wild:
            amount = cfg[C_COMET_VALUE]
            if out and cfg[C_BONUS_MULT]:
                amount *= going_out_multiplier(rank)
            each_pays(chips, players, seat, amount)
    elif game == GAME_OLD_COMET:
        if is_wild:
            bonus = cfg[C_COMET_VALUE]
            if out and cfg[C_OLD_BONUS_LAST]:
                bonus *= going_out_multiplier(rank)
            each_pays(chips, players, seat, bonus)
            if rank == KING and cfg[C_OLD_KING]:
                each_pays(chips, players, seat, 1)
        else:
            each_pays(chips, players, seat, min(kings, 1) if cfg[C_OLD_KING_PER_PLAY] else kings)
    go_on = is_wild and cfg[C_RESTART] == 1 and rank != KING
    stop = rank == KING or (is_wild and not go_on)
    run_top = 0 if stop else rank
    free_lead = 1 if (go_on and not out) else 0
    if out:
        winner = seat
        wild_as = rank if is_wild else 0
        first = dealer + 1 if dealer + 1 < players else 0
        if (
            cfg[C_OPERA]
            and turn == 0
            and seat == first
            and cfg[C_OPERA_DRAW]
            and dealer_could_go_out(cfg, packnat, packcnt, cnt, nat, dealer)
        ):
            winner = -1
            drawn = 1
        if (
            game == GAME_STANDARD
            and is_wild
            and cfg[C_OPERA]
            and cfg[C_OPERA_BONUS_DOUBLED]
            and drawn == 0
            and turn == 0
            and seat == first
        ):
            # RUL-OPERA-COMET-BONUS doubled: the Comet's bonus stacked with the Opera's x2
            factor = going_out_multiplier(rank) if cfg[C_BONUS_MULT] else 1
            stacked = factor * 2 if cfg[C_OPERA_MULTIPLY] else max(factor, 2)
            each_pays(chips, players, seat, cfg[C_COMET_VALUE] * (stacked - factor))
    return to_move, run_top, 1, seat, turn, steps, winner, wild_as, drawn, free_lead


@hot
def apply_action(
    cfg: I64, packnat: I64, packcnt: I64, cnt: I8, nat: I8, size: I64, st: I64, chips: I64, a: int
) -> None:
    """``step`` on a deal whose scalars are kept in the array ``st`` (``S_*``), so it can be copied."""
    (
        st[S_TO_MOVE],
        st[S_RUN_TOP],
        st[S_TURN_PLAYED],
        st[S_LAST],
        st[S_TURN],
        st[S_STEPS],
        st[S_WINNER],
        st[S_WILD_AS],
        st[S_DRAWN],
        st[S_FREE_LEAD],
    ) = step(
        cfg,
        packnat,
        packcnt,
        cnt,
        nat,
        size,
        chips,
        a,
        st[S_TO_MOVE],
        st[S_RUN_TOP],
        st[S_TURN_PLAYED],
        st[S_LAST],
        st[S_TURN],
        st[S_STEPS],
        st[S_WINNER],
        st[S_WILD_AS],
        st[S_DRAWN],
        st[S_FREE_LEAD],
        st[S_DEALER],
    )


@hot
def end_flags(
    cfg: I64, cnt: I8, nat: I8, size: I64, chips: I64, points: I64, winner: int, wild_as: int, drawn: int, turn: int,
    dealer: int,
) -> int:  # fmt: skip
    """The end of a deal: the settlement (with the Opera's doubling) if someone went out; its ``FLAG_*``."""
    players = cfg[C_PLAYERS]
    first = dealer + 1 if dealer + 1 < players else 0
    opera = cfg[C_OPERA] == 1 and drawn == 0 and winner == first and turn == 0
    flags = 0
    if winner >= 0:
        settle(cfg, cnt, nat, size, winner, wild_as, opera, chips, points)
        if opera:
            flags |= FLAG_OPERA
        if wild_as:
            flags |= FLAG_OUT_ON_WILD
    if drawn:
        flags |= FLAG_DRAWN
    return flags


@hot
def finish(cfg: I64, cnt: I8, nat: I8, size: I64, st: I64, chips: I64, points: I64) -> int:
    """``end_flags`` on a deal whose scalars are kept in ``st``."""
    return end_flags(
        cfg, cnt, nat, size, chips, points, st[S_WINNER], st[S_WILD_AS], st[S_DRAWN], st[S_TURN], st[S_DEALER]
    )


@jit
@rule(
    "R-TURN-END",
    "R-STOP-STUCK",
    "R-STOP-KING",
    "R-COMET-STOP",
    "R-END-OUT",
    "R-COMET-BONUS",
    "R-OPERA-FIRST-TURN",
    "R-2P-COMET-UNPAID",
    "R-OLD-KING",
    "R-OLD-MANILLE-PLAY",
    "R-OLD-LAST-CARD",
)
def play_batch(
    cfg: I64,
    pack: I64,
    packnat: I64,
    packcnt: I64,
    base: I64,
    seeds: I64,
    dealers: I64,
    winner_out: I64,
    chips_out: I64,
    points_out: I64,
    steps_out: I64,
    flags_out: I64,
    rec_actions: I64,
    rec_legal: I64,
    rec_cards: I8,
    given: I8,
) -> None:
    """Play one whole deal per seed with the policy of ``cfg``.  With non-empty ``rec_*``
    arrays also record every action, the number of legal actions before it, and the deal
    (``rec_cards[d, seat, card]``; seat ``players`` is the dead hand).  A non-empty ``given``
    (same shape as ``rec_cards``) holds explicit deals: then the seed only drives the policy."""
    players = cfg[C_PLAYERS]
    game = cfg[C_GAME]
    record = rec_actions.shape[0] > 0
    cap = cfg[C_MAX_STEPS]
    mts = np.zeros((624, LANES), np.int64)
    lane_seeds = np.zeros(LANES, np.int64)
    order = np.zeros(pack.shape[0], np.int64)
    pos = np.zeros(2, np.int64)
    cnt = np.zeros((players, 56), np.int8)
    nat = np.zeros((players, 14), np.int8)
    size = np.zeros(players, np.int64)
    dead = np.zeros(56, np.int64)
    acts = np.zeros(MAX_ACTS, np.int64)
    chips = np.zeros(players, np.int64)
    points = np.zeros(players, np.int64)
    for d in range(seeds.shape[0]):
        dealer = dealers[d]
        lane = d % LANES
        if lane == 0:
            for j in range(LANES):
                lane_seeds[j] = seeds[d + j] if d + j < seeds.shape[0] else 0
            seed_lanes(mts, base, lane_seeds)
        column = mts[:, lane]
        if given.shape[0] > 0:
            for p in range(players):
                size[p] = 0
                for r in range(14):
                    nat[p, r] = 0
                for c in range(56):
                    cnt[p, c] = given[d, p, c]
                    size[p] += cnt[p, c]
                    if c != cfg[C_WILD]:
                        nat[p, c >> 2] += cnt[p, c]
            for c in range(56):
                dead[c] = given[d, players, c]
        else:
            deal_hands(cfg, pack, order, column, pos, dealer, cnt, nat, dead)
            for p in range(players):
                size[p] = cfg[C_HAND]
        if record:
            for p in range(players):
                for c in range(56):
                    rec_cards[d, p, c] = cnt[p, c]
            for c in range(56):
                rec_cards[d, players, c] = dead[c]
        chips[:] = 0
        points[:] = 0
        to_move = (dealer + 1) % players
        run_top = 0
        turn_played = 0
        last = -1
        turn = 0
        steps = 0
        winner = -1
        wild_as = 0
        drawn = False
        free_lead = 0
        flags = 0
        while winner < 0 and not drawn:
            if steps >= cap:
                flags |= FLAG_CAPPED
                break
            n = legal(cfg, packnat, packcnt, cnt, nat, to_move, run_top, turn_played, free_lead, last, acts)
            a = choose(cfg, packcnt, nat, size, cnt, to_move, run_top, acts, n, seeds[d])
            if record:
                rec_actions[d, steps] = a
                rec_legal[d, steps] = n
            steps += 1
            kind = a >> 12
            if kind == PASS:
                nxt = to_move + 1 if to_move + 1 < players else 0
                if nxt == last:
                    if game == GAME_OLD_COMET and run_top != 0:  # R-OLD-LAST-CARD
                        each_pays(chips, players, last, 1)
                    run_top = 0
                to_move = nxt
                turn_played = 0
                turn += 1
                free_lead = 0
                continue
            seat = to_move
            kings = remove(cfg, packcnt, cnt, nat, seat, a)
            taken = cards_in(a, cfg, packcnt)
            size[seat] -= taken
            out = size[seat] == 0
            rank = a & 15
            is_wild = kind == QUARTET_WILD or kind == WILD
            if game == GAME_STANDARD:
                if is_wild:
                    amount = cfg[C_COMET_VALUE]
                    if out and cfg[C_BONUS_MULT]:
                        amount *= going_out_multiplier(rank)
                    each_pays(chips, players, seat, amount)
            elif game == GAME_OLD_COMET:
                if is_wild:
                    bonus = cfg[C_COMET_VALUE]
                    if out and cfg[C_OLD_BONUS_LAST]:
                        bonus *= going_out_multiplier(rank)
                    each_pays(chips, players, seat, bonus)
                    if rank == KING and cfg[C_OLD_KING]:
                        each_pays(chips, players, seat, 1)
                else:
                    each_pays(chips, players, seat, min(kings, 1) if cfg[C_OLD_KING_PER_PLAY] else kings)
            go_on = is_wild and cfg[C_RESTART] == 1 and rank != KING
            stop = rank == KING or (is_wild and not go_on)
            run_top = 0 if stop else rank
            turn_played = 1
            last = seat
            free_lead = 1 if (go_on and not out) else 0
            if out:
                winner = seat
                wild_as = rank if is_wild else 0
                if (
                    cfg[C_OPERA]
                    and turn == 0
                    and seat == (dealer + 1) % players
                    and cfg[C_OPERA_DRAW]
                    and dealer_could_go_out(cfg, packnat, packcnt, cnt, nat, dealer)
                ):
                    winner = -1
                    drawn = True
                if (
                    game == GAME_STANDARD
                    and is_wild
                    and cfg[C_OPERA]
                    and cfg[C_OPERA_BONUS_DOUBLED]
                    and not drawn
                    and turn == 0
                    and seat == (dealer + 1) % players
                ):
                    # RUL-OPERA-COMET-BONUS doubled: the Comet's bonus stacked with the Opera's x2
                    factor = going_out_multiplier(rank) if cfg[C_BONUS_MULT] else 1
                    stacked = factor * 2 if cfg[C_OPERA_MULTIPLY] else max(factor, 2)
                    each_pays(chips, players, seat, cfg[C_COMET_VALUE] * (stacked - factor))
        opera = cfg[C_OPERA] == 1 and not drawn and winner == (dealer + 1) % players and turn == 0
        if winner >= 0:
            settle(cfg, cnt, nat, size, winner, wild_as, opera, chips, points)
            if opera:
                flags |= FLAG_OPERA
            if wild_as:
                flags |= FLAG_OUT_ON_WILD
        if drawn:
            flags |= FLAG_DRAWN
        winner_out[d] = winner
        for p in range(players):
            chips_out[d, p] = chips[p]
            points_out[d, p] = points[p]
        steps_out[d] = steps
        flags_out[d] = flags
