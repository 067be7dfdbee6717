"""The PIMC player (``comet.diverge.pimc``) on the fast engine: the same algorithm, compiled.

``comet.diverge.pimc.Pimc`` defines the player: at a choice of more than one option the seat to move seeds
``random.Random(seed * 1_000_003 + steps * 101 + seat)``; for each of ``samples`` samples it deals the cards
it has not seen (sorted, shuffled by that generator) back into the other hands (in seat order, at their
sizes) and the dead hand, plays every legal option in that world and lets every seat finish the deal with
``greedy`` (the priorities of deal ``seed + sample``), adding up its own result (chips, or points in a
points game, negated where the lowest total wins); it takes the option of the best total, ties by its coupled-play priority.  This module does
exactly that over the kernel's arrays: the generator is CPython's (``kernel.seed_lanes``,
``kernel.shuffle``), the transition is the kernel's one (``kernel.apply_action``, ``kernel.finish``), the
roll-out policy the kernel's ``greedy`` (``kernel.choose``), so for a seed it makes the reference player's
every choice (tests/test_fast_pimc.py plays both and compares the actions).

Here are the standard kernel's player (standard, Opera, two players, Old Comet) and the parts every kernel's
player shares (``pimc_seed``, ``pimc_generator``, ``deal_unseen``).  A game with a kernel of its own
(``comet.fast.games``) plays PIMC in that module: its ``pimc_batch`` (found by ``comet.fast.api.fast_game``, so
no module here names a game) runs the game's own step functions (``legal_now``, ``apply_action``, ``finish``)
in its worlds; ``play_pimc`` calls it, and a game without one is refused (``pimc_unsupported``).

``pimc_batch`` plays whole deals: the seats of ``pimc_seats[d]`` (-1: every seat) choose by PIMC, the others
by the policy of ``cfg`` (the opponents when its strength is measured); it records like
``kernel.play_batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from comet.fast import config as kc
from comet.fast import kernel as k
from comet.fast import policies as fast_policies
from comet.fast import rng as fast_rng
from comet.fast.batch import deal, naturals
from comet.fast.jit import I8, I64, jit
from comet.ruleset import Ruleset


@jit
def pimc_seed(seed: int, steps: int, seat: int) -> int:
    """The seed of the PIMC player's generator at one choice (``comet.diverge.pimc.Pimc``)."""
    return seed * 1_000_003 + steps * 101 + seat


@jit
def pimc_generator(base: I64, seed: int, steps: int, seat: int) -> tuple[I64, I64]:
    """The PIMC player's generator at one choice: CPython's ``random.Random(pimc_seed(...))`` as a Mersenne
    Twister state and its position (``comet.fast.rng``)."""
    mts = np.zeros((624, 1), np.int64)
    one = np.zeros(1, np.int64)
    one[0] = pimc_seed(seed, steps, seat)
    fast_rng.seed_lanes(mts, base, one)
    return mts[:, 0].copy(), np.zeros(2, np.int64)


@jit
def deal_unseen(
    cfg: I64, cnt: I8, size: I64, dead: I64, seat: int, mt: I64, pos: I64, cards: I64, wcnt: I8, wdead: I64
) -> None:
    """One sampled world for ``seat`` (``comet.diverge.pimc.determinize``): its own hand kept, the cards it
    has not seen (the other hands and the dead hand, sorted) shuffled by the generator ``mt`` and dealt
    back to the other seats in seat order at their sizes, the rest to the dead hand.  Writes ``wcnt`` and
    (unless it is empty) ``wdead``; reads no other seat's cards except to know which cards are unseen, as a
    set.  ``cards`` has room for them all."""
    players = cfg[kc.H_PLAYERS]
    m = 0
    for c in range(56):
        copies = dead[c]
        for s in range(players):
            if s != seat:
                copies += cnt[s, c]
        for _ in range(copies):
            cards[m] = c
            m += 1
    fast_rng.shuffle(cards[:m], mt, pos)
    at = 0
    for s in range(players):
        for c in range(56):
            wcnt[s, c] = cnt[s, c] if s == seat else 0
        if s == seat:
            continue
        for _ in range(size[s]):
            wcnt[s, cards[at]] += 1
            at += 1
    if wdead.shape[0] > 0:
        wdead[:] = 0
        for i in range(at, m):
            wdead[cards[i]] += 1


@jit
def determinize(
    cfg: I64,
    cnt: I8,
    nat: I8,
    size: I64,
    dead: I64,
    seat: int,
    mt: I64,
    pos: I64,
    cards: I64,
    wcnt: I8,
    wnat: I8,
) -> None:
    """``deal_unseen`` for the standard kernel, which also keeps the natural cards per rank (``wnat``; the
    world's dead hand it never reads)."""
    deal_unseen(cfg, cnt, size, dead, seat, mt, pos, cards, wcnt, cards[:0])
    naturals(cfg, wcnt, wnat)


@jit
def rollout_value(
    rcfg: I64,
    packnat: I64,
    packcnt: I64,
    cnt: I8,
    nat: I8,
    size: I64,
    st: I64,
    chips: I64,
    points: I64,
    seat: int,
    seed: int,
    points_game: bool,
    acts: I64,
) -> int:
    """Finish the deal in these arrays (changed in place) with the roll-out policy of ``rcfg`` (``greedy``,
    the priorities of ``seed``) and return ``seat``'s result: its chips, or its points in a points game."""
    cap = rcfg[kc.H_MAX_STEPS]
    while st[k.S_WINNER] < 0 and st[k.S_DRAWN] == 0 and st[k.S_STEPS] < cap:
        to_move = st[k.S_TO_MOVE]
        run_top = st[k.S_RUN_TOP]
        n = k.legal_now(rcfg, packnat, packcnt, cnt, nat, st, acts)
        a = fast_policies.choose(rcfg, packcnt, nat, size, cnt, to_move, run_top, acts, n, seed)
        k.apply_action(rcfg, packnat, packcnt, cnt, nat, size, st, chips, a)
    k.finish(rcfg, cnt, nat, size, st, chips, points)
    return int(points[seat]) if points_game else int(chips[seat])


@jit
def pimc_choice(
    cfg: I64,
    rcfg: I64,
    packnat: I64,
    packcnt: I64,
    base: I64,
    cnt: I8,
    nat: I8,
    size: I64,
    dead: I64,
    st: I64,
    chips: I64,
    acts: I64,
    n: int,
    seed: int,
    samples: int,
    points_game: bool,
) -> int:
    """The PIMC player's action among ``acts[:n]`` for the seat to move (see the module note)."""
    if n == 1:
        return int(acts[0])
    players = cfg[kc.H_PLAYERS]
    seat = st[k.S_TO_MOVE]
    mts = np.zeros((624, 1), np.int64)
    one = np.zeros(1, np.int64)
    one[0] = pimc_seed(seed, st[k.S_STEPS], seat)
    fast_rng.seed_lanes(mts, base, one)
    mt = mts[:, 0].copy()
    pos = np.zeros(2, np.int64)
    cards = np.zeros(cfg[kc.C_PACK], np.int64)
    wcnt = np.zeros((players, 56), np.int8)
    wnat = np.zeros((players, 14), np.int8)
    ocnt = np.zeros((players, 56), np.int8)
    onat = np.zeros((players, 14), np.int8)
    osize = np.zeros(players, np.int64)
    ost = np.zeros(k.ST_SIZE, np.int64)
    ochips = np.zeros(players, np.int64)
    opoints = np.zeros(players, np.int64)
    racts = np.zeros(kc.MAX_ACTS, np.int64)
    totals = np.zeros(n, np.int64)
    for i in range(samples):
        determinize(cfg, cnt, nat, size, dead, seat, mt, pos, cards, wcnt, wnat)
        for j in range(n):
            ocnt[:, :] = wcnt
            onat[:, :] = wnat
            osize[:] = size
            ost[:] = st
            ochips[:] = chips
            opoints[:] = 0
            k.apply_action(cfg, packnat, packcnt, ocnt, onat, osize, ost, ochips, acts[j])
            totals[j] += rollout_value(
                rcfg, packnat, packcnt, ocnt, onat, osize, ost, ochips, opoints, seat, seed + i, points_game, racts
            )
    best = 0
    best_key = fast_policies.rank_key(cfg, packcnt, seed, seat, acts[0])
    for j in range(1, n):
        rk = fast_policies.rank_key(cfg, packcnt, seed, seat, acts[j])
        if totals[j] > totals[best] or (totals[j] == totals[best] and rk > best_key):
            best = j
            best_key = rk
    return int(acts[best])


@jit
def pimc_batch(
    cfg: I64,
    rcfg: I64,
    pack: I64,
    packnat: I64,
    packcnt: I64,
    base: I64,
    seeds: I64,
    dealers: I64,
    pimc_seats: I64,
    samples: int,
    points_game: bool,
    winner_out: I64,
    chips_out: I64,
    points_out: I64,
    steps_out: I64,
    flags_out: I64,
    rec_actions: I64,
    rec_legal: I64,
    rec_cards: I8,
) -> None:
    """One whole deal per seed, the seats ``pimc_seats[d]`` (-1: all) played by PIMC, the others by the
    policy of ``cfg``; outputs and records as ``kernel.play_batch``."""
    players = cfg[kc.H_PLAYERS]
    record = rec_actions.shape[0] > 0
    cap = cfg[kc.H_MAX_STEPS]
    mts = np.zeros((624, 1), np.int64)
    one = np.zeros(1, np.int64)
    order = np.zeros(pack.shape[0], np.int64)
    pos = np.zeros(2, np.int64)
    cnt = np.zeros((players, 56), np.int8)
    nat = np.zeros((players, 14), np.int8)
    size = np.zeros(players, np.int64)
    dead = np.zeros(56, np.int64)
    acts = np.zeros(kc.MAX_ACTS, np.int64)
    chips = np.zeros(players, np.int64)
    points = np.zeros(players, np.int64)
    st = np.zeros(k.ST_SIZE, np.int64)
    for d in range(seeds.shape[0]):
        dealer = dealers[d]
        one[0] = seeds[d]
        fast_rng.seed_lanes(mts, base, one)
        column = mts[:, 0].copy()
        deal(cfg, pack, order, column, pos, dealer, cnt, dead)
        naturals(cfg, cnt, nat)
        for p in range(players):
            size[p] = cfg[kc.H_HAND]
        if record:
            for p in range(players):
                for c in range(56):
                    rec_cards[d, p, c] = cnt[p, c]
            for c in range(56):
                rec_cards[d, players, c] = dead[c]
        chips[:] = 0
        points[:] = 0
        k.start_deal(st, players, dealer)
        flags = 0
        who = pimc_seats[d]
        while st[k.S_WINNER] < 0 and st[k.S_DRAWN] == 0:
            steps = st[k.S_STEPS]
            if steps >= cap:
                flags |= kc.FLAG_CAPPED
                break
            to_move = st[k.S_TO_MOVE]
            run_top = st[k.S_RUN_TOP]
            n = k.legal_now(cfg, packnat, packcnt, cnt, nat, st, acts)
            if who < 0 or who == to_move:
                a = pimc_choice(
                    cfg,
                    rcfg,
                    packnat,
                    packcnt,
                    base,
                    cnt,
                    nat,
                    size,
                    dead,
                    st,
                    chips,
                    acts,
                    n,
                    seeds[d],
                    samples,
                    points_game,
                )
            else:
                a = fast_policies.choose(cfg, packcnt, nat, size, cnt, to_move, run_top, acts, n, seeds[d])
            if record:
                rec_actions[d, steps] = a
                rec_legal[d, steps] = n
            k.apply_action(cfg, packnat, packcnt, cnt, nat, size, st, chips, a)
        flags |= k.finish(cfg, cnt, nat, size, st, chips, points)
        winner_out[d] = st[k.S_WINNER]
        for p in range(players):
            chips_out[d, p] = chips[p]
            points_out[d, p] = points[p]
        steps_out[d] = st[k.S_STEPS]
        flags_out[d] = flags


# --------------------------------------------------------------------- Python side


def pimc_unsupported(rules: Ruleset) -> str | None:
    """Why the fast PIMC player cannot play ``rules`` (None: it can): the standard kernel's games, and a game
    of ``comet.fast.games`` whose module has a ``pimc_batch``."""
    from comet.fast.api import _GAMES, fast_game, unsupported_reason

    reason = unsupported_reason(rules)
    if reason is not None:
        return reason
    game = fast_game(rules.variant)
    if rules.variant not in _GAMES and (game is None or game.pimc_batch is None):
        return f"the fast engine has no PIMC player for the {rules.variant} game"
    return None


@dataclass(frozen=True)
class PimcDeals:
    """Deals played with the PIMC player (``play_pimc``): per deal the winner (seat, -1: none), chips and
    points per seat, actions, flags, and with ``record`` the actions, the legal-option counts before each
    and the cards dealt (as ``comet.fast.api._run`` returns them)."""

    winner: I64
    chips: I64
    points: I64
    steps: I64
    flags: I64
    actions: I64
    legal: I64
    cards: NDArray[np.int8]


def play_pimc(
    rules: Ruleset,
    players: int,
    seeds: Sequence[int] | I64,
    *,
    samples: int,
    pimc_seats: Sequence[int] | I64 | None = None,
    opponent: str = "greedy",
    record: bool = False,
) -> PimcDeals:
    """Play deal ``seed`` (dealer ``seed % players``) for each seed, the seat ``pimc_seats[d]`` by PIMC
    (default: every seat) and the others by ``opponent``.  ValueError for a game it does not play."""
    from comet.fast.api import _base_state, _seed_array, _setup
    from comet.variant import variant_of

    reason = pimc_unsupported(rules)
    if reason is not None:
        raise ValueError(reason)
    if samples < 1:
        raise ValueError("the PIMC player needs at least one sample")
    setup = _setup(rules, players, opponent, 0, None, 0)
    rcfg = setup.cfg.copy()
    rcfg[kc.H_POLICY] = kc.POLICY_GREEDY
    seed_arr = _seed_array(seeds)
    n = seed_arr.shape[0]
    who = np.full(n, -1, np.int64) if pimc_seats is None else np.asarray(pimc_seats, dtype=np.int64)
    if who.shape != seed_arr.shape:
        raise ValueError("give one PIMC seat per seed")
    width = setup.max_steps if record else 0
    rows = n if record else 0
    out = PimcDeals(
        np.zeros(n, np.int64),
        np.zeros((n, players), np.int64),
        np.zeros((n, players), np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros((rows, width), np.int64),
        np.zeros((rows, width), np.int64),
        np.zeros((rows, players + 1, 56), np.int8),
    )
    if setup.game is not None and setup.game.pimc_batch is not None:
        setup.game.pimc_batch(
            setup.cfg,
            rcfg,
            (setup.pack_cards, setup.packnat, setup.packcnt),
            _base_state(),
            seed_arr,
            seed_arr % players,
            (out.winner, out.chips, out.points, out.steps, out.flags),
            (out.actions, out.legal, out.cards),
            who,
            samples,
        )
        return out
    pimc_batch(
        setup.cfg,
        rcfg,
        setup.pack_cards,
        setup.packnat,
        setup.packcnt,
        _base_state(),
        seed_arr,
        seed_arr % players,
        who,
        samples,
        variant_of(rules).scoring == "points",
        out.winner,
        out.chips,
        out.points,
        out.steps,
        out.flags,
        out.actions,
        out.legal,
        out.cards,
    )
    return out
