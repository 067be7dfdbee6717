"""The Opera in the fast kernel: could the dealer have gone out in one turn too (RUL-OPERA-DRAW)?"""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).
# ruff: noqa: SIM109

from __future__ import annotations

import numpy as np

from comet.fast.config import C_RESTART, KING, MAX_ACTS, PASS, QUARTET_WILD, WILD
from comet.fast.jit import I8, I64, jit
from comet.fast.moves import legal, put_back, remove
from comet.trace import rule


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
