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

from comet.fast.batch import Deck, Outcomes, Recording, naturals, note, prepare, put_outcome, recording, start
from comet.fast.config import (
    C_BONUS_MULT,
    C_COMET_VALUE,
    C_GAME,
    C_OLD_BONUS_LAST,
    C_OLD_EVERY_RUN_END,
    C_OLD_KING,
    C_OLD_KING_PER_PLAY,
    C_OPERA,
    C_OPERA_BONUS_DOUBLED,
    C_OPERA_DRAW,
    C_OPERA_MULTIPLY,
    C_RESTART,
    FLAG_CAPPED,
    FLAG_DRAWN,
    FLAG_OPERA,
    FLAG_OUT_ON_WILD,
    GAME_OLD_COMET,
    GAME_STANDARD,
    H_MUTANT,
    H_PLAYERS,
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
from comet.fast.settle import each_pays, going_out_multiplier, settle
from comet.trace import rule

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
@rule("R-OLD-LAST-CARD")
def run_end_pays(cfg: I64, chips: I64, players: int, seat: int, stop: bool, out: bool) -> None:
    """RUL-OLD-LAST-CARD every_run_end: the play that ends a run (a King, the manille as a stop, the
    player's last card) earns 1 chip from each other player (planted bug 3: going out does not count)."""
    if cfg[C_OLD_EVERY_RUN_END] and (stop or (out and cfg[H_MUTANT] != 3)):
        each_pays(chips, players, seat, 1)


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
    players = cfg[H_PLAYERS]
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
    if game == GAME_OLD_COMET:
        run_end_pays(cfg, chips, players, seat, stop, out)
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
def legal_now(cfg: I64, packnat: I64, packcnt: I64, cnt: I8, nat: I8, st: I64, acts: I64) -> int:
    """``legal`` for the seat to move in a deal whose scalars are kept in the array ``st`` (``S_*``): its
    legal actions written into ``acts``, how many returned."""
    return legal(
        cfg,
        packnat,
        packcnt,
        cnt,
        nat,
        st[S_TO_MOVE],
        st[S_RUN_TOP],
        st[S_TURN_PLAYED],
        st[S_FREE_LEAD],
        st[S_LAST],
        acts,
    )


@hot
def end_flags(
    cfg: I64, cnt: I8, nat: I8, size: I64, chips: I64, points: I64, winner: int, wild_as: int, drawn: int, turn: int,
    dealer: int,
) -> int:  # fmt: skip
    """The end of a deal: the settlement (with the Opera's doubling) if someone went out; its ``FLAG_*``."""
    players = cfg[H_PLAYERS]
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
    cfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes, rec: Recording
) -> None:
    """Play one whole deal per seed with the policy of ``cfg`` (the arguments: ``comet.fast.batch``)."""
    pack, packnat, packcnt = deck
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    game = cfg[C_GAME]
    cnt, size = bufs[4], bufs[5]
    nat = np.zeros((players, 14), np.int8)
    chips = np.zeros(players, np.int64)
    points = np.zeros(players, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        dealer = dealers[d]
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        naturals(cfg, cnt, nat)
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
                note(rec, d, steps, a, n)
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
            if game == GAME_OLD_COMET:
                run_end_pays(cfg, chips, players, seat, stop, out)
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
        put_outcome(outcomes, d, winner, chips, points, steps, flags)
