"""The fast engine in the divergence impact study (``comet.diverge.measure``, ``comet.diverge.study``).

``paired_measure(pair, players, seeds, policy)`` plays the seeds under both rule sets in recording kernel
calls (chunks of ``TRACE_CHUNK`` seeds) and returns the study's ``Paired`` sums, equal to
``comet.diverge.measure.reference_paired`` on the same seeds (same deals, same coupled-play choices: see
``comet.fast.kernel``).  The sequences of actions, of legal-option counts and the cards dealt are compared
through two 64-bit hashes each; one reading's side of a chunk is kept (``_SIDES``), so the default side,
shared by every pair of a preset, is played once per chunk.  Integer sums only, so any chunking gives the
same result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from comet.diverge.measure import DEALT, OPTIONS, PAY, PLAY, SAME, DealArrays, Paired, reduce_deals
from comet.diverge.pairs import Pair
from comet.fast.api import GAME_LEVEL_FIELDS, POLICIES, PolicyName
from comet.ruleset import Ruleset
from comet.variant import variant_of

I64 = NDArray[np.int64]


def policy_named(name: str) -> PolicyName:
    """The fast engine's policy called ``name``; ValueError naming the choices otherwise."""
    for p in POLICIES:
        if p == name:
            return p
    raise ValueError(f"the fast engine has no policy {name!r}; choose one of: {', '.join(POLICIES)}")


def deal_level(rules: Ruleset) -> Ruleset:
    """``rules`` with the game-level rulings at their defaults: what the kernel actually plays."""
    defaults = Ruleset()
    return dataclasses.replace(rules, **{f: getattr(defaults, f) for f in GAME_LEVEL_FIELDS})


# --------------------------------------------------------------------- paired measurement (issue 17)

#: seeds per kernel call when every action is recorded (the records take (seeds x step bound) integers)
TRACE_CHUNK = 4000
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _powers(width: int, m: np.uint64) -> NDArray[np.uint64]:
    out = np.empty(width, dtype=np.uint64)
    x = np.uint64(1)
    with np.errstate(over="ignore"):
        for i in range(width):
            x = x * m
            out[i] = x
    return out


def _hashes(x: I64, steps: I64) -> NDArray[np.uint64]:
    """Two 64-bit polynomial hashes per row of ``x[:, :steps]`` (the rows' sequences; beyond ``steps``
    nothing counts), one of the values and one of their squares, with different multipliers."""
    width = x.shape[1]
    valid = np.arange(width)[None, :] < steps[:, None]
    v = np.where(valid, x + 1, 0).astype(np.uint64)
    with np.errstate(over="ignore"):
        h1 = (v * _powers(width, _M1)[None, :]).sum(axis=1, dtype=np.uint64)
        h2 = ((v * v + v) * _powers(width, _M2)[None, :]).sum(axis=1, dtype=np.uint64)
    return np.stack([h1, h2], axis=1)


@dataclasses.dataclass(frozen=True)
class _Traced:
    """One reading's deals of a seed chunk, as much as the paired classes need: the per-deal results, and
    hashes of the actions, of the legal-option counts and of the cards dealt."""

    arrays: DealArrays
    steps: I64
    acts: NDArray[np.uint64]
    counts: NDArray[np.uint64]
    cards: NDArray[np.uint64]


def _traced(rules: Ruleset, players: int, seeds: I64, policy: str) -> _Traced:
    """One recording kernel call, reduced to ``_Traced``."""
    from comet.fast import config as kc
    from comet.fast.api import _dealer_array, _run, _setup

    dealers = _dealer_array(seeds, players, None)
    if policy == "pimc":  # every seat played by the PIMC player (comet.fast.pimc)
        from comet.diverge.pimc import samples_for
        from comet.fast.pimc import play_pimc

        out = play_pimc(rules, players, seeds, samples=samples_for(rules), record=True)
        winner, chips, points, steps, flags = out.winner, out.chips, out.points, out.steps, out.flags
        acts, legal, cards = out.actions, out.legal, out.cards
    else:
        setup = _setup(rules, players, policy_named(policy), 0, None, 0)
        winner, chips, points, steps, flags, acts, legal, cards = _run(setup, seeds, dealers, record=True)
    scores = chips if variant_of(rules).scoring == "chips" else points
    idx = (dealers[:, None] + 1 + np.arange(players, dtype=np.int64)[None, :]) % players
    by_pos = np.take_along_axis(scores, idx, axis=1)
    pos = np.where(winner >= 0, (winner - dealers - 1) % players, -1)
    drawn = (flags & kc.FLAG_DRAWN) != 0
    stuck = ((flags & kc.FLAG_CAPPED) != 0) | ((winner < 0) & ~drawn)
    arrays = DealArrays(pos, by_pos, steps, drawn.astype(np.int64), stuck.astype(np.int64))
    # the records are as wide as the step bound; nothing beyond the longest deal of the chunk counts
    width = int(steps.max()) if steps.size else 0
    # a deal's cards as 64-bit words (8 card counts each: a row is (players + 1) * 56 bytes, a multiple of 8)
    flat = np.ascontiguousarray(cards.reshape(seeds.size, -1)).view(np.uint64).astype(np.int64)
    full = np.full(seeds.size, flat.shape[1], dtype=np.int64)
    return _Traced(
        arrays, steps, _hashes(acts[:, :width], steps), _hashes(legal[:, :width], steps), _hashes(flat, full)
    )


_SIDES: dict[tuple[Ruleset, int, str, bytes], _Traced] = {}
_KEEP_SIDES = 256  # every pair of a preset shares its side A: kept per chunk (about 0.5 MB per 4,000 deals)


def _side_of(rules: Ruleset, players: int, seeds: I64, policy: str) -> _Traced:
    key = (deal_level(rules), players, policy, seeds.tobytes())
    got = _SIDES.pop(key, None)  # least recently used first out: side A, shared by a preset's pairs, stays
    if got is None:
        got = _traced(rules, players, seeds, policy)
        if len(_SIDES) >= _KEEP_SIDES:
            del _SIDES[next(iter(_SIDES))]
    _SIDES[key] = got
    return got


def paired_measure(pair: Pair, players: int, seeds: Sequence[int] | I64, policy: str) -> Paired:
    """``comet.diverge.measure.reference_paired`` over ``seeds``, played by the fast engine in batch (the
    sequences of actions, of legal-option counts and the cards dealt compared by two 64-bit hashes each)."""
    arr = np.asarray(seeds, dtype=np.int64)
    total = Paired()
    for lo in range(0, arr.size, TRACE_CHUNK):
        chunk = arr[lo : lo + TRACE_CHUNK]
        a = _side_of(pair.a, players, chunk, policy)
        b = _side_of(pair.b, players, chunk, policy)
        dealt = (a.cards != b.cards).any(axis=1)
        play = (a.acts != b.acts).any(axis=1) | (a.steps != b.steps)
        options = (a.counts != b.counts).any(axis=1)
        pay = (a.arrays.chips != b.arrays.chips).any(axis=1) | (a.arrays.winner != b.arrays.winner)
        classes = np.select([dealt, play, options, pay], [DEALT, PLAY, OPTIONS, PAY], SAME).astype(np.int64)
        total = total.merge(reduce_deals(a.arrays, b.arrays, classes))
    return total
