"""CPython's Mersenne Twister and ``random.Random.shuffle`` in compiled code, so a seed deals the same cards
as ``comet.engine.shuffled_deal`` (MT19937 seeded by ``init_by_array``, ``_randbelow`` by rejection; seeds set
up side by side in lanes)."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).

from __future__ import annotations

import numpy as np

from comet.fast.jit import I64, hot, jit

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
