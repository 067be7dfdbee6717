"""The fast kernel's policies, the reference ones reproduced exactly (``comet.diverge.policies``,
``comet.policy.simple_policy``), so a seed plays the same deal in both engines."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).
# ruff: noqa: SIM109

from __future__ import annotations

from comet.diverge import choices
from comet.fast.config import (
    H_POLICY,
    H_WILD1,
    KING,
    PASS,
    POLICY_HOARDER,
    POLICY_RANDOM,
    POLICY_SIMPLE,
    QUARTET,
    QUARTET_WILD,
    SINGLE,
    WILD,
    code,
)
from comet.fast.jit import I8, I64, hot
from comet.fast.moves import cards_in, first_card, order_key

#
# The policies are the reference ones, reproduced exactly so that a seed gives the same deal in
# both engines: ``random``, ``greedy`` and ``hoarder`` are ``comet.diverge.policies.make_policy(name,
# seed)`` (coupled play: a choice by chance is the option of highest priority, a hash of the seed, the
# seat and the option; see that module), ``simple`` is ``comet.policy.simple_policy``.

M32 = 0xFFFFFFFF


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


# the reference's hash itself, compiled (int64 products wrap; the low 32 bits it keeps are the same)
mix32 = hot(choices.mix32)


@hot
def rank_key(cfg: I64, packcnt: I64, seed: int, seat: int, a: int) -> int:
    """``comet.diverge.choices.rank_key``: the option's priority for ``seat`` in the deal of ``seed``
    (coupled play), then the option itself (``order_key`` is the reference's ``option_key``)."""
    return priority(seed, seat, order_key(cfg, packcnt, a))


@hot
def priority(seed: int, seat: int, key: int) -> int:
    """``comet.diverge.choices.rank_key`` given the option's ``key``: a hash of the seed, the seat and the
    key above the key itself (the kernels of every game rank their options with it)."""
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
    policy = cfg[H_POLICY]
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
    wild = cfg[H_WILD1]
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
