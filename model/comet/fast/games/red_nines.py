"""The fast kernel of Red Nines (002:46-89; ``comet.variants.red_nines``): penalty points, runs of any
suit from the Ace to the King, the red nines wild, several cards of one rank on the first play.

State of one deal: ``cnt[seat, card]``; in ``st`` (``comet.fast.cardsets.S_*``) the top rank of the run (0:
none; 13 a King left standing under RUL-RED9-KING suit_king), the suit of the run's first card, whose move it
is, whether they played this turn, the last seat to play, and whether any card has been played in the hand.
``play_batch`` and the PIMC player (``pimc_batch``, ``comet.fast.pimc``) run the same step functions.
"""

from __future__ import annotations

import numpy as np

from comet.fast.batch import Deck, Outcomes, Recording, note, prepare, put_outcome, recording, start
from comet.fast.cardsets import (
    CFG_SIZE,
    FLAG_CAPPED,
    KING,
    MAX_ACTS,
    PASS,
    S_BEGUN,
    S_FLAGS,
    S_LAST,
    S_PLAYED,
    S_STEPS,
    S_SUIT,
    S_TO_MOVE,
    S_TOP,
    S_WILD_AS,
    S_WINNER,
    ST_SIZE,
    add_wilds,
    as_rank,
    best_option,
    choose,
    first_card,
    group,
    hot,
    is_wild,
    jit,
    n_cards,
    need_of,
    one,
    pick,
    play_rank,
    remove,
    sort_actions,
    start_state,
)
from comet.fast.config import FLAG_OUT_ON_WILD, H_MAX_STEPS, H_MUTANT, H_PLAYERS, H_SIZE
from comet.fast.jit import I8, I64
from comet.fast.pimc import deal_unseen, pimc_generator
from comet.ruleset import Ruleset
from comet.trace import rule

FIELDS: tuple[str, ...] = (
    "deal_order",
    "red_nines_many",
    "red_nines_lead",
    "red_nines_first",
    "red_nines_out",
    "cats_new_run",
    "red_nines_continue",
    "red_nines_requires_missing",
    "red_nines_wild_stop",
    "red_nines_king",
    "red_nines_suits",
)
GAME_LEVEL: tuple[str, ...] = ()

R_CAP_FOUR = H_SIZE  # RUL-RED9-MANY cap_four
R_LEAD_LAST = H_SIZE + 1  # RUL-RED9-LEAD last_resort
R_FIRST_ALL = H_SIZE + 2  # RUL-RED9-FIRST-PLAY all
R_OUT_LIKE_COMET = H_SIZE + 3  # RUL-RED9-OUT like_comet
R_NEW_RUN_MAY = H_SIZE + 4  # RUL-CATS-NEW-RUN may
R_CONTINUE_MAY = H_SIZE + 5  # RUL-RED9-CONTINUE may
R_WILD_STOP = H_SIZE + 6  # RUL-RED9-NINE-STOP stop
R_SUIT_KING = H_SIZE + 7  # RUL-RED9-KING suit_king
R_REQUIRES_MISSING = H_SIZE + 8  # RUL-RED9-HOLDING red_nines_requires_missing
assert R_REQUIRES_MISSING < CFG_SIZE


def configure(rules: Ruleset, cfg: I64) -> None:
    cfg[R_CAP_FOUR] = rules.red_nines_many == "cap_four"
    cfg[R_LEAD_LAST] = rules.red_nines_lead == "last_resort"
    cfg[R_FIRST_ALL] = rules.red_nines_first == "all"
    cfg[R_OUT_LIKE_COMET] = rules.red_nines_out == "like_comet"
    cfg[R_NEW_RUN_MAY] = rules.cats_new_run == "may"
    cfg[R_CONTINUE_MAY] = rules.red_nines_continue == "may"
    cfg[R_WILD_STOP] = rules.red_nines_wild_stop == "stop"
    cfg[R_SUIT_KING] = rules.red_nines_king == "suit_king"
    cfg[R_REQUIRES_MISSING] = rules.red_nines_requires_missing


@hot
@rule("R-RED9-WILD")
def holds_natural(cfg: I64, cnt: I8, seat: int, r: int) -> bool:
    """Does ``seat`` hold a natural (not wild) card of rank ``r``?  (A loop: Numba compiles no generator.)"""
    held = 0
    for c in range(r * 4, r * 4 + 4):
        if cnt[seat, c] > 0 and not is_wild(cfg, c):
            held += 1
    return held > 0


@hot
@rule("R-RED9-FIRST-PLAY")
def opening_groups(cfg: I64, cnt: I8, seat: int, acts: I64, n: int) -> int:
    """Append the groups the first play of the hand may be: two or more natural cards of one rank,
    every such choice (RUL-RED9-FIRST-PLAY any_number) or all of them (all)."""
    for r in range(1, KING + 1):
        k0 = 0 if is_wild(cfg, r * 4) else int(cnt[seat, r * 4])
        k1 = 0 if is_wild(cfg, r * 4 + 1) else int(cnt[seat, r * 4 + 1])
        k2 = 0 if is_wild(cfg, r * 4 + 2) else int(cnt[seat, r * 4 + 2])
        k3 = 0 if is_wild(cfg, r * 4 + 3) else int(cnt[seat, r * 4 + 3])
        if k0 + k1 + k2 + k3 < 2:
            continue
        if cfg[R_FIRST_ALL]:
            acts[n] = group(k0 | (k1 << 2) | (k2 << 4) | (k3 << 6), r)
            n += 1
            continue
        for j0 in range(k0 + 1):
            for j1 in range(k1 + 1):
                for j2 in range(k2 + 1):
                    for j3 in range(k3 + 1):
                        if j0 + j1 + j2 + j3 >= 2:
                            acts[n] = group(j0 | (j1 << 2) | (j2 << 4) | (j3 << 6), r)
                            n += 1
    return n


@hot
@rule("R-RED9-RUN", "R-RED9-WILD")
def legal(cfg: I64, cnt: I8, seat: int, top: int, begun: int, played: int, last: int, acts: I64) -> int:
    """Any natural card leads (the first lead of the hand also a group of one rank), a red nine as
    any rank (RUL-RED9-LEAD last_resort: only from a hand without natural cards); the new run may be
    passed on under RUL-CATS-NEW-RUN may.  A run goes on with the next rank in any suit, which a
    player holding it must play (RUL-RED9-CONTINUE may: or pass), or a red nine standing for it
    (RUL-RED9-HOLDING requires_missing: a red nine stands only for a rank its player holds no natural card
    of); nothing follows a King left standing.  Canonical order."""
    n = 0
    if top == 0:
        for c in range(4, 56):
            if cnt[seat, c] > 0 and not is_wild(cfg, c):
                acts[n] = one(c, 0)
                n += 1
        singles = n
        if not begun:
            n = opening_groups(cfg, cnt, seat, acts, n)
        if not cfg[R_LEAD_LAST] or singles == 0:
            for r in range(1, KING + 1):
                if not cfg[R_REQUIRES_MISSING] or not holds_natural(cfg, cnt, seat, r):  # RUL-RED9-HOLDING
                    n = add_wilds(cfg, cnt, seat, r, acts, n)
        if n == 0 or (cfg[R_NEW_RUN_MAY] and (played or seat == last)):
            acts[n] = PASS
            n += 1
    else:
        need = top + 1
        if need <= KING:
            for c in range(need * 4, need * 4 + 4):
                if cnt[seat, c] > 0 and not is_wild(cfg, c):
                    acts[n] = one(c, 0)
                    n += 1
        matching = n > 0
        if need <= KING and not (cfg[R_REQUIRES_MISSING] and matching):  # RUL-RED9-HOLDING
            n = add_wilds(cfg, cnt, seat, need, acts, n)
        if not matching or cfg[R_CONTINUE_MAY]:
            acts[n] = PASS
            n += 1
    sort_actions(acts, n)
    return n


@jit
@rule("R-RED9-SCORE", "R-RED9-DOUBLE")
def settle(cfg: I64, cnt: I8, winner: int, out_wild_as: int, points: I64) -> None:
    """0 for the first player out; the others score their cards (Ace 20, others their rank) times 2
    for each red nine held (RUL-RED9-MANY cap_four: at most 4), times 2 more if the winner went out on
    a red nine (RUL-RED9-OUT like_comet: 4 if it stood for a 9)."""
    players = cfg[H_PLAYERS]
    for seat in range(players):
        if seat == winner:
            continue
        pts = 0
        held = 0
        for c in range(4, 56):
            k = cnt[seat, c]
            if k == 0:
                continue
            r = c >> 2
            pts += k * (20 if r == 1 else r)
            if is_wild(cfg, c):
                held += k
        if cfg[H_MUTANT] == 1:  # planted bug (tests only): a red nine held doubles nothing
            held = 0
        mult = 1 << held
        if cfg[R_CAP_FOUR] and held > 2:
            mult = 4
        if out_wild_as:
            mult *= 4 if (cfg[R_OUT_LIKE_COMET] and out_wild_as == 9) else 2
        points[seat] = pts * mult


@hot
def legal_now(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, acts: I64) -> int:
    """``legal`` at the position ``st`` (the arguments every game's ``legal_now`` takes: ``comet.fast.cardsets``)."""
    return legal(cfg, cnt, st[S_TO_MOVE], st[S_TOP], st[S_BEGUN], st[S_PLAYED], st[S_LAST], acts)


@hot
@rule("R-RED9-RUN", "R-RED9-WILD", "R-TURN-END", "R-END-OUT")
def apply_action(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, points: I64, a: int) -> None:
    """Play action ``a`` at ``st`` (changed in place, with the hands).  The cards go on the run with their
    rank (a red nine with the rank it stands for); a King ends the run (under RUL-RED9-KING suit_king only
    the King of the suit of the run's first card, or a red nine standing for it); a red nine ends it under
    RUL-RED9-NINE-STOP stop."""
    players = cfg[H_PLAYERS]
    to_move = st[S_TO_MOVE]
    st[S_STEPS] += 1
    if a == PASS:
        nxt = to_move + 1 if to_move + 1 < players else 0
        if nxt == st[S_LAST]:
            st[S_TOP] = 0
        st[S_TO_MOVE] = nxt
        st[S_PLAYED] = 0
        return
    seat = to_move
    remove(cnt, seat, a)
    size[seat] -= n_cards(a)
    rank = play_rank(a)
    wild_as = as_rank(a)
    first = first_card(a)
    if cfg[R_SUIT_KING] and st[S_TOP] == 0:
        st[S_SUIT] = first & 3  # the run's suit: that of its first card
    king_ends = not cfg[R_SUIT_KING] or wild_as > 0 or (first & 3) == st[S_SUIT]
    stop = (rank == KING and king_ends) or (wild_as > 0 and cfg[R_WILD_STOP] == 1)
    st[S_TOP] = 0 if stop else rank
    st[S_BEGUN] = 1
    st[S_PLAYED] = 1
    st[S_LAST] = seat
    if size[seat] == 0:
        st[S_WINNER] = seat
        st[S_WILD_AS] = wild_as
        if wild_as:
            st[S_FLAGS] |= FLAG_OUT_ON_WILD


@hot
def finish(cfg: I64, cnt: I8, st: I64, points: I64) -> None:
    """The scoring of a deal someone went out of."""
    if st[S_WINNER] >= 0:
        settle(cfg, cnt, st[S_WINNER], st[S_WILD_AS], points)


@hot
def value(points: I64, seat: int) -> int:
    """What the PIMC player adds up for ``seat`` (``comet.diverge.pimc.value``): its penalty points, negated
    (the lowest total wins)."""
    return -int(points[seat])


@jit
def pimc_choice(
    cfg: I64, rcfg: I64, packcnt: I64, base: I64, cnt: I8, size: I64, dead: I64, st: I64, points: I64, acts: I64,
    n: int, seed: int, samples: int,
) -> int:  # fmt: skip
    """The PIMC player's action among ``acts[:n]`` for the seat to move (``comet.fast.pimc``): in each of
    ``samples`` worlds (``deal_unseen``) every option, then every seat ``greedy`` (``rcfg``, the priorities of
    deal ``seed + sample``) to the end; the best total of ``value``, ties by priority."""
    if n == 1:
        return int(acts[0])
    players = cfg[H_PLAYERS]
    seat = st[S_TO_MOVE]
    cap = cfg[H_MAX_STEPS]
    mt, pos = pimc_generator(base, seed, st[S_STEPS], seat)
    cards = np.zeros(int(packcnt.sum()), np.int64)
    wcnt = np.zeros((players, 56), np.int8)
    wdead = np.zeros(dead.shape[0], np.int64)
    ocnt = np.zeros((players, 56), np.int8)
    osize = np.zeros(players, np.int64)
    ost = np.zeros(ST_SIZE, np.int64)
    opoints = np.zeros(players, np.int64)
    racts = np.zeros(MAX_ACTS, np.int64)
    totals = np.zeros(n, np.int64)
    for i in range(samples):
        deal_unseen(cfg, cnt, size, dead, seat, mt, pos, cards, wcnt, wdead)
        for j in range(n):
            ocnt[:, :] = wcnt
            osize[:] = size
            ost[:] = st
            opoints[:] = points
            a = acts[j]
            while True:
                apply_action(cfg, packcnt, wdead, ocnt, osize, ost, opoints, a)
                if ost[S_WINNER] >= 0 or ost[S_STEPS] >= cap:
                    break
                m = legal_now(rcfg, packcnt, wdead, ocnt, osize, ost, racts)
                a = pick(rcfg, ocnt, osize, ost[S_TO_MOVE], need_of(ost), racts, m, seed + i)
            finish(rcfg, ocnt, ost, opoints)
            totals[j] += value(opoints, seat)
    return best_option(acts, n, totals, seed, seat)


@jit
def run_batch(
    cfg: I64, rcfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes,
    rec: Recording, pimc_seats: I64, samples: int,
) -> None:  # fmt: skip
    """One whole deal per seed (the arguments: ``comet.fast.batch``); with ``samples`` > 0 the seat
    ``pimc_seats[d]`` (-1: every seat) of deal ``d`` is played by PIMC (``pimc_choice``), the others by the
    policy of ``cfg``."""
    pack, _packnat, packcnt = deck
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    cnt, size, dead = bufs[4], bufs[5], bufs[6]
    points = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        points[:] = 0
        start_state(st, players, dealers[d])
        who = pimc_seats[d] if samples > 0 else -2
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            to_move = st[S_TO_MOVE]
            if who == -1 or who == to_move:
                a = pimc_choice(cfg, rcfg, packcnt, base, cnt, size, dead, st, points, acts, n, seeds[d], samples)
            else:
                a = pick(cfg, cnt, size, to_move, need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, points, a)
        finish(cfg, cnt, st, points)
        put_outcome(outcomes, d, st[S_WINNER], zeros, points, st[S_STEPS], st[S_FLAGS])


@jit
def play_batch(
    cfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes, rec: Recording
) -> None:
    """One whole deal per seed, every seat the policy of ``cfg``: ``run_batch`` without its PIMC player, the
    policy inlined (``choose``, not ``pick``); through ``run_batch`` these deals took a fifth more time."""
    pack, _packnat, packcnt = deck
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    cnt, size, dead = bufs[4], bufs[5], bufs[6]
    points = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        points[:] = 0
        start_state(st, players, dealers[d])
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            a = choose(cfg, cnt, size, st[S_TO_MOVE], need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, points, a)
        finish(cfg, cnt, st, points)
        put_outcome(outcomes, d, st[S_WINNER], zeros, points, st[S_STEPS], st[S_FLAGS])


@jit
def pimc_batch(
    cfg: I64, rcfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, outcomes: Outcomes, rec: Recording,
    pimc_seats: I64, samples: int,
) -> None:  # fmt: skip
    """One whole deal per seed dealt from its seed, the seat ``pimc_seats[d]`` (-1: every seat) played by
    PIMC with ``samples`` worlds per choice and roll-outs by ``rcfg``'s policy (``run_batch``)."""
    given = np.zeros((0, cfg[H_PLAYERS] + 1, 56), np.int8)
    run_batch(cfg, rcfg, deck, base, seeds, dealers, given, outcomes, rec, pimc_seats, samples)
