"""The compiled kernel of the fast engine: whole deals over small integer arrays, under Numba.

This is a second implementation of the standard play of ``comet.engine`` (and of the
Opera, two-player and Old Comet hooks), written for speed, never a replacement: every
deal it plays can be replayed through the reference (``comet.fast.check``).  This module
deals the cards and runs the play loop; the pieces it calls are modules of one concern each:
``jit`` (Numba compilation), ``config`` (the ``cfg`` indices ``C_*``, action kinds and codes,
outcome flags), ``rng`` (CPython's shuffle), ``moves`` (legal actions, hand counts), ``opera``
(could the dealer go out too), ``policies`` and ``settle``.

State of one deal (all small ints): ``cnt[seat, card]`` copies of each card id
(``rank * 4 + suit``, as ``comet.cards``) in each hand; ``nat[seat, rank]`` natural
(non-wild) cards of each rank in each hand; ``size[seat]``; the top rank of the run
(0: a new run is to be started); whose move it is, whether they have played this turn,
the last seat to play, the number of passes (``turn``), the winner, the rank the wild card
stood for if it went out last, drawn, and the free restart after the Comet.

An action is one int: ``kind << 12 | card << 4 | rank`` with the kinds of ``comet.fast.config``.
The rulings and the game family come in ``cfg``, so one compiled kernel serves every
reading.  The shuffle is CPython's ``random.Random(seed).shuffle`` (``comet.fast.rng``), so a
seed deals the same cards as ``comet.engine.shuffled_deal``.
"""


# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).
# ruff: noqa: SIM109

from __future__ import annotations

import numpy as np

from comet.fast.config import (
    C_BLOCKS,
    C_BONUS_MULT,
    C_COMET_VALUE,
    C_GAME,
    C_HAND,
    C_MAX_STEPS,
    C_OLD_BONUS_LAST,
    C_OLD_KING,
    C_OLD_KING_PER_PLAY,
    C_OPERA,
    C_OPERA_BONUS_DOUBLED,
    C_OPERA_DRAW,
    C_OPERA_MULTIPLY,
    C_PLAYERS,
    C_RESTART,
    C_WILD,
    FLAG_CAPPED,
    FLAG_DRAWN,
    FLAG_OPERA,
    FLAG_OUT_ON_WILD,
    GAME_OLD_COMET,
    GAME_STANDARD,
    KING,
    MAX_ACTS,
    PASS,
    QUARTET_WILD,
    WILD,
)
from comet.fast.jit import I8, I64, hot, jit
from comet.fast.moves import cards_in, legal, remove
from comet.fast.opera import dealer_could_go_out
from comet.fast.policies import choose
from comet.fast.rng import LANES, seed_lanes, shuffle
from comet.fast.settle import each_pays, going_out_multiplier, settle
from comet.trace import rule


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
