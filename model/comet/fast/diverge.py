"""The fast engine as a backend of the divergence impact study (``comet.diverge.impact``).

``deal_results(rules, players, seeds, policy)`` plays the seeds in one kernel call and returns the
study's ``DealResult`` per seed, exactly as ``comet.diverge.impact.reference_deal`` would (same
deal, same policy choices: see ``comet.fast.kernel``); ``register()`` adds the single-seed form to
``comet.diverge.impact.BACKENDS`` as ``"fast"``, so ``check_backend("fast", ...)`` can compare the two.

``paired_tally(pair, players, seeds, policy)`` is the batch form the impact study uses for large N: one
kernel call per rule set for the whole seed chunk, reduced to the study's ``Tally`` with NumPy integer
sums (no floating point), so any chunking of the seeds gives the same merged tally.  ``register()``
adds it to ``comet.diverge.impact.BATCH_BACKENDS`` as ``"fast"`` too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from comet.diverge.impact import BACKENDS, BATCH_BACKENDS, DealResult, Side, Tally
from comet.diverge.measure import DEALT, OPTIONS, PAY, PLAY, SAME, DealArrays, Paired, reduce_deals
from comet.diverge.pairs import Pair
from comet.fast.api import FLAG_CAPPED, FLAG_DRAWN, GAME_LEVEL_FIELDS, POLICIES, PolicyName, play_deals
from comet.ruleset import Ruleset
from comet.variant import variant_of


def policy_named(name: str) -> PolicyName:
    """The fast engine's policy called ``name``; ValueError naming the choices otherwise."""
    for p in POLICIES:
        if p == name:
            return p
    raise ValueError(f"the fast engine has no policy {name!r}; choose one of: {', '.join(POLICIES)}")


def deal_results(rules: Ruleset, players: int, seeds: Sequence[int], policy: str) -> list[DealResult]:
    """The impact study's result of each seeded deal (dealer ``seed % players``), played by the fast engine."""
    out = play_deals(rules, players, list(seeds), policy_named(policy))
    chips_game = variant_of(rules).scoring == "chips"
    results = []
    for i in range(len(out)):
        o = out.outcome(i)
        order = [(o.dealer + 1 + k) % players for k in range(players)]
        scores = o.chips if chips_game else o.points
        drawn = bool(o.flags & FLAG_DRAWN)
        stuck = bool(o.flags & FLAG_CAPPED) or (o.winner < 0 and not drawn)
        pos = order.index(o.winner) if o.winner >= 0 else -1
        results.append(DealResult(pos, drawn, stuck, o.actions, tuple(scores[s] for s in order)))
    return results


def fast_deal(rules: Ruleset, players: int, seed: int, policy: str) -> DealResult:
    """One seeded deal (the ``Backend`` signature of ``comet.diverge.impact``)."""
    return deal_results(rules, players, [seed], policy)[0]


I64 = NDArray[np.int64]


def _by_position(rules: Ruleset, players: int, seeds: I64, policy: str) -> tuple[I64, I64, I64, I64, I64]:
    """One kernel call: per deal the winner's position (-1: none), drawn, stuck, length, and the chips
    (points in a points game) by position (first player first, dealer last), as ``reference_deal``."""
    out = play_deals(rules, players, seeds, policy_named(policy))
    scores = out.chips if variant_of(rules).scoring == "chips" else out.points
    idx = (out.dealers[:, None] + 1 + np.arange(players, dtype=np.int64)[None, :]) % players
    chips = np.take_along_axis(scores, idx, axis=1)
    pos = np.where(out.winner >= 0, (out.winner - out.dealers - 1) % players, -1)
    drawn = (out.flags & FLAG_DRAWN) != 0
    stuck = ((out.flags & FLAG_CAPPED) != 0) | ((out.winner < 0) & ~drawn)
    return pos, drawn.astype(np.int64), stuck.astype(np.int64), out.actions, chips


def _side(pos: I64, drawn: I64, stuck: I64, length: I64, chips: I64, players: int) -> Side:
    wins = np.bincount(pos[pos >= 0], minlength=players)
    return Side(
        tuple(int(x) for x in wins),
        int(drawn.sum()),
        int(stuck.sum()),
        int(length.sum()),
        int(chips[:, 0].sum()),
        int((chips[:, 0] * chips[:, 0]).sum()),
        int(chips[:, -1].sum()),
        tuple(int(x) for x in chips.sum(axis=0)),
    )


def deal_level(rules: Ruleset) -> Ruleset:
    """``rules`` with the game-level rulings at their defaults: what the kernel actually plays."""
    defaults = Ruleset()
    return dataclasses.replace(rules, **{f: getattr(defaults, f) for f in GAME_LEVEL_FIELDS})


_PLAYED: dict[tuple[Ruleset, int, str, int], tuple[I64, I64, I64, I64, I64]] = {}
_KEEP = 64  # chunks kept: every pair of a preset shares its default side A, played once per chunk


def _played(rules: Ruleset, players: int, seeds: I64, policy: str) -> tuple[I64, I64, I64, I64, I64]:
    key = (deal_level(rules), players, policy, hash(seeds.tobytes()))
    got = _PLAYED.get(key)
    if got is None:
        got = _by_position(rules, players, seeds, policy)
        if len(_PLAYED) >= _KEEP:
            del _PLAYED[next(iter(_PLAYED))]
        _PLAYED[key] = got
    return got


def paired_tally(pair: Pair, players: int, seeds: Sequence[int], policy: str) -> Tally:
    """The paired tally of ``comet.diverge.impact.paired_deals`` over ``seeds``, played in batch."""
    arr = np.asarray(list(seeds), dtype=np.int64)
    if arr.size == 0:
        return Tally()
    ra = _played(pair.a, players, arr, policy)
    # a pair that differs only in game-level rulings plays the very same deals: play them once
    rb = ra if deal_level(pair.a) == deal_level(pair.b) else _by_position(pair.b, players, arr, policy)
    d = np.abs(ra[4] - rb[4]).sum(axis=1) // 2
    values, counts = np.unique(d, return_counts=True)
    return Tally(
        deals=int(arr.size),
        winner_changed=int((ra[0] != rb[0]).sum()),
        chips_changed=int((ra[4] != rb[4]).any(axis=1).sum()),
        diff=int(d.sum()),
        diff2=int((d * d).sum()),
        diff_max=int(d.max()),
        a=_side(*ra, players),
        b=_side(*rb, players),
        hist=tuple((int(v), int(c)) for v, c in zip(values, counts, strict=True)),
    )


def register() -> None:
    """Make the fast engine available to the impact study as backend ``"fast"`` (per seed and in batch)."""
    BACKENDS["fast"] = fast_deal
    BATCH_BACKENDS["fast"] = paired_tally


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
    from comet.fast import kernel as k
    from comet.fast.api import _dealer_array, _run, _setup

    setup = _setup(rules, players, policy_named(policy), 0, None, 0)
    dealers = _dealer_array(seeds, players, None)
    winner, chips, points, steps, flags, acts, legal, cards = _run(setup, seeds, dealers, record=True)
    scores = chips if variant_of(rules).scoring == "chips" else points
    idx = (dealers[:, None] + 1 + np.arange(players, dtype=np.int64)[None, :]) % players
    by_pos = np.take_along_axis(scores, idx, axis=1)
    pos = np.where(winner >= 0, (winner - dealers - 1) % players, -1)
    drawn = (flags & k.FLAG_DRAWN) != 0
    stuck = ((flags & k.FLAG_CAPPED) != 0) | ((winner < 0) & ~drawn)
    arrays = DealArrays(pos, by_pos, steps, drawn.astype(np.int64), stuck.astype(np.int64))
    flat = cards.reshape(seeds.size, -1).astype(np.int64)
    full = np.full(seeds.size, flat.shape[1], dtype=np.int64)
    return _Traced(arrays, steps, _hashes(acts, steps), _hashes(legal, steps), _hashes(flat, full))


_SIDES: dict[tuple[Ruleset, int, str, bytes], _Traced] = {}
_KEEP_SIDES = 512  # every pair of a preset shares its side A: kept per chunk (a few integers per deal)


def _side_of(rules: Ruleset, players: int, seeds: I64, policy: str) -> _Traced:
    key = (deal_level(rules), players, policy, seeds.tobytes())
    got = _SIDES.get(key)
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
