"""The fast kernel of Commit as CatsAtCards (002:32-45) describes it (``comet.variants.commit_cats``):
points, the whole reduced deck dealt, a new run from the lowest card, the Comet replacing the card
the run needs.

State of one deal: ``cnt[seat, card]``; in ``st`` (``comet.fast.cardsets.S_*``) the top rank of the run
(0: none), its suit, the branch card (the card the Comet replaced, 0: none), whose move it is, whether they
played this turn, the last seat to play; the points scored in play so far.  ``play_batch`` and the PIMC
player (``pimc_batch``, ``comet.fast.pimc``) run the same step functions.
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
    S_BRANCH,
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
    best_option,
    choose,
    hot,
    is_wild,
    jit,
    need_of,
    one,
    pick,
    remove,
    sort_actions,
    start_state,
)
from comet.fast.config import FLAG_OUT_ON_WILD, H_MAX_STEPS, H_MUTANT, H_PLAYERS, H_SIZE
from comet.fast.jit import I8, I64
from comet.fast.pimc import deal_unseen, pimc_generator
from comet.ruleset import Ruleset
from comet.trace import rule

# RUL-DEAL-ORDER is fixed for this game by its source (002:42, ``Variant.fixed``): one card at a time.
FIELDS: tuple[str, ...] = (
    "commit_removed",
    "commit_lowest",
    "commit_comet",
    "commit_comet_king",
    "cats_new_run",
    "commit_comet_lead",
    "commit_comet_branch",
    "commit_comet_out",
    "commit_comet_card",
    "commit_stops",
    "cats_continue",
)
GAME_LEVEL: tuple[str, ...] = ("commit_tie",)

K_LOWEST_SUIT = H_SIZE  # RUL-COMMIT-C-LOWEST rank_then_suit
K_COMET_STOP = H_SIZE + 1  # RUL-COMMIT-C-COMET stop
K_COMET_AND_KING = H_SIZE + 2  # RUL-COMMIT-C-COMET-KING comet_and_king
K_NEW_RUN_MAY = H_SIZE + 3  # RUL-CATS-NEW-RUN may
K_COMET_LEADS_KING = H_SIZE + 4  # RUL-COMMIT-C-COMET-LEAD king
K_BRANCH_PLAYER_ONLY = H_SIZE + 5  # RUL-COMMIT-C-REPLACED player_only
K_OUT_DOUBLED = H_SIZE + 6  # RUL-COMMIT-C-COMET-OUT doubled
K_COMET_ANY_HIGHER = H_SIZE + 7  # RUL-COMMIT-C-COMET-CARD any_higher
K_MISSING_STOPS = H_SIZE + 8  # RUL-COMMIT-C-STOPS missing_successor
K_CONTINUE_MAY = H_SIZE + 9  # RUL-COMMIT-C-CONTINUE may
assert K_CONTINUE_MAY < CFG_SIZE


def configure(rules: Ruleset, cfg: I64) -> None:
    cfg[K_LOWEST_SUIT] = rules.commit_lowest == "rank_then_suit"
    cfg[K_COMET_STOP] = rules.commit_comet == "stop"
    cfg[K_COMET_AND_KING] = rules.commit_comet_king == "comet_and_king"
    cfg[K_NEW_RUN_MAY] = rules.cats_new_run == "may"
    cfg[K_COMET_LEADS_KING] = rules.commit_comet_lead == "king"
    cfg[K_BRANCH_PLAYER_ONLY] = rules.commit_comet_branch == "player_only"
    cfg[K_OUT_DOUBLED] = rules.commit_comet_out == "doubled"
    cfg[K_COMET_ANY_HIGHER] = rules.commit_comet_card == "any_higher"
    cfg[K_MISSING_STOPS] = rules.commit_stops == "missing_successor"
    cfg[K_CONTINUE_MAY] = rules.cats_continue == "may"


@hot
@rule("R-COMMIT-C-LEAD", "R-COMMIT-C-SUIT", "R-COMMIT-C-COMET")
def legal(cfg: I64, cnt: I8, seat: int, top: int, suit: int, branch: int, played: int, last: int, acts: I64) -> int:
    """A new run starts with the lowest natural card (any of the lowest rank, or the lowest of it by
    suit: RUL-COMMIT-C-LOWEST) or the Comet standing for the King (RUL-COMMIT-C-COMET-LEAD last_resort:
    only from a hand of nothing else, as a 9); it may be passed on under RUL-CATS-NEW-RUN may.  A run goes
    on with the next card of its suit or the branch card, or the Comet standing for the rank needed
    (RUL-COMMIT-C-COMET-CARD any_higher: or any above); a pass only without a natural card that goes, or
    (RUL-COMMIT-C-CONTINUE may) after a card played this turn.
    Canonical order."""
    n = 0
    if top == 0 and branch == 0:
        if cfg[K_NEW_RUN_MAY] and (played or seat == last):
            acts[0] = PASS
            n = 1
        low = -1
        for c in range(4, 56):
            if cnt[seat, c] > 0 and not is_wild(cfg, c):
                low = c
                break
        if low >= 0 and cfg[H_MUTANT] == 2:  # planted bug (tests only): any natural card may start a run
            for c in range(low, 56):
                if cnt[seat, c] > 0 and not is_wild(cfg, c):
                    acts[n] = one(c, 0)
                    n += 1
        elif low >= 0 and cfg[K_LOWEST_SUIT]:
            acts[n] = one(low, 0)
            n += 1
        elif low >= 0:
            for c in range(low, (low >> 2) * 4 + 4):
                if cnt[seat, c] > 0 and not is_wild(cfg, c):
                    acts[n] = one(c, 0)
                    n += 1
        if cfg[K_COMET_LEADS_KING]:
            n = add_wilds(cfg, cnt, seat, KING, acts, n)  # led, the Comet stands for the King
        elif low < 0:
            n = add_wilds(cfg, cnt, seat, 9, acts, n)  # last_resort: a hand of only the Comet, as a 9
        sort_actions(acts, n)
        return n
    nxt = top * 4 + 4 + suit if (suit >= 0 and top < KING) else 0
    lo = nxt
    hi = branch
    if lo > hi:
        lo, hi = hi, lo
    if lo > 0 and cnt[seat, lo] > 0 and not is_wild(cfg, lo):
        acts[n] = one(lo, 0)
        n += 1
    if hi > 0 and hi != lo and cnt[seat, hi] > 0 and not is_wild(cfg, hi):
        acts[n] = one(hi, 0)
        n += 1
    matching = n > 0
    if top:
        # the Comet stands for the next card of the suit (RUL-COMMIT-C-COMET-CARD any_higher: or any above)
        for r in range(top + 1, (KING if cfg[K_COMET_ANY_HIGHER] else top + 1) + 1):
            n = add_wilds(cfg, cnt, seat, r, acts, n)
    if not matching or (cfg[K_CONTINUE_MAY] and played):  # RUL-COMMIT-C-CONTINUE may: "Without" after a card
        acts[n] = PASS
        n += 1
    sort_actions(acts, n)
    return n


@jit
@rule("R-COMMIT-C-OUT", "R-COMMIT-C-CAUGHT")
def settle(cfg: I64, cnt: I8, winner: int, out_wild_as: int, scores: I64) -> None:
    """The first player out scores 1, plus 2 per natural King and 1 per other card left in the other
    hands (RUL-COMMIT-C-COMET-OUT doubled: x2 when they went out on the Comet, x4 as a 9); for each
    Comet a player is caught with, every other player scores 1."""
    players = cfg[H_PLAYERS]
    mult = 1
    if cfg[K_OUT_DOUBLED] and out_wild_as:
        mult = 4 if out_wild_as == 9 else 2
    for seat in range(players):
        if seat == winner:
            continue
        for c in range(4, 56):
            k = cnt[seat, c]
            if k == 0:
                continue
            if is_wild(cfg, c):
                scores[winner] += k * mult
                for other in range(players):
                    if other != seat:
                        scores[other] += k
            else:
                scores[winner] += k * mult * (2 if (c >> 2) == KING else 1)
    if cfg[H_MUTANT] != 1:  # planted bug (tests only): the winner's own point is lost
        scores[winner] += 1


@hot
def legal_now(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, acts: I64) -> int:
    """``legal`` at the position ``st`` (the arguments every game's ``legal_now`` takes: ``comet.fast.cardsets``)."""
    return legal(
        cfg, cnt, st[S_TO_MOVE], st[S_TOP], st[S_SUIT], st[S_BRANCH], st[S_PLAYED], st[S_LAST], acts
    )  # fmt: skip


@hot
@rule("R-COMMIT-C-SUIT", "R-COMMIT-C-KING", "R-COMMIT-C-COMET", "R-TURN-END", "R-END-OUT")
def apply_action(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, scores: I64, a: int) -> None:
    """Play action ``a`` at ``st`` (changed in place, with the hands and the points).  A natural card goes on
    the run (the branch card keeps the run where it is); the Comet scores 2 and stands for the card needed,
    which stays a second way on (RUL-COMMIT-C-COMET stop: it ends the run); a King scores 1 and ends the run
    (the Comet as a King: 2, or 3 under RUL-COMMIT-C-COMET-KING)."""
    players = cfg[H_PLAYERS]
    to_move = st[S_TO_MOVE]
    top = st[S_TOP]
    suit = st[S_SUIT]
    branch = st[S_BRANCH]
    st[S_STEPS] += 1
    if a == PASS:
        nxt = to_move + 1 if to_move + 1 < players else 0
        if nxt == st[S_LAST]:
            top = 0
        if top == 0:
            suit = -1
            branch = 0
        if cfg[K_BRANCH_PLAYER_ONLY]:
            branch = 0  # RUL-COMMIT-C-REPLACED player_only: closed once the Comet's turn is over
        st[S_TO_MOVE] = nxt
        st[S_TOP] = top
        st[S_SUIT] = suit
        st[S_BRANCH] = branch
        st[S_PLAYED] = 0
        return
    seat = to_move
    c = (a >> 4) & 255
    remove(cnt, seat, a)
    size[seat] -= 1
    wild = is_wild(cfg, c)
    rank = (a & 15) if wild else (c >> 2)
    if wild:
        scores[seat] += 2
        new_branch = rank * 4 + suit if (top and rank < KING) else 0
        top = rank if top else 0
        branch = new_branch
        if cfg[K_COMET_STOP]:
            top = 0
            branch = 0
    elif branch == c and top and rank == top:
        branch = 0
    else:
        top = rank
        suit = c & 3
        branch = 0
    if top and rank < KING and cfg[K_MISSING_STOPS] and packcnt[top * 4 + 4 + suit] == 0:
        top = 0  # RUL-COMMIT-C-STOPS missing_successor: the run's next card is not in the deck
        branch = 0
    if rank == KING:
        if not wild or cfg[K_COMET_AND_KING]:
            scores[seat] += 1
        top = 0
        branch = 0
    if top == 0:
        suit = -1
    st[S_TOP] = top
    st[S_SUIT] = suit
    st[S_BRANCH] = branch
    st[S_PLAYED] = 1
    st[S_LAST] = seat
    if size[seat] == 0:
        st[S_WINNER] = seat
        if wild:
            st[S_WILD_AS] = rank
            st[S_FLAGS] |= FLAG_OUT_ON_WILD


@hot
def finish(cfg: I64, cnt: I8, st: I64, scores: I64) -> None:
    """The scoring of a deal someone went out of."""
    if st[S_WINNER] >= 0:
        settle(cfg, cnt, st[S_WINNER], st[S_WILD_AS], scores)


@hot
def value(scores: I64, seat: int) -> int:
    """What the PIMC player adds up for ``seat`` (``comet.diverge.pimc.value``): its points."""
    return int(scores[seat])


@jit
def pimc_choice(
    cfg: I64, rcfg: I64, packcnt: I64, base: I64, cnt: I8, size: I64, dead: I64, st: I64, scores: I64, acts: I64,
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
    oscores = np.zeros(players, np.int64)
    racts = np.zeros(MAX_ACTS, np.int64)
    totals = np.zeros(n, np.int64)
    for i in range(samples):
        deal_unseen(cfg, cnt, size, dead, seat, mt, pos, cards, wcnt, wdead)
        for j in range(n):
            ocnt[:, :] = wcnt
            osize[:] = size
            ost[:] = st
            oscores[:] = scores
            a = acts[j]
            while True:
                apply_action(cfg, packcnt, wdead, ocnt, osize, ost, oscores, a)
                if ost[S_WINNER] >= 0 or ost[S_STEPS] >= cap:
                    break
                m = legal_now(rcfg, packcnt, wdead, ocnt, osize, ost, racts)
                a = pick(rcfg, ocnt, osize, ost[S_TO_MOVE], need_of(ost), racts, m, seed + i)
            finish(rcfg, ocnt, ost, oscores)
            totals[j] += value(oscores, seat)
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
    scores = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        scores[:] = 0
        start_state(st, players, dealers[d])
        who = pimc_seats[d] if samples > 0 else -2
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            to_move = st[S_TO_MOVE]
            if who == -1 or who == to_move:
                a = pimc_choice(cfg, rcfg, packcnt, base, cnt, size, dead, st, scores, acts, n, seeds[d], samples)
            else:
                a = pick(cfg, cnt, size, to_move, need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, scores, a)
        finish(cfg, cnt, st, scores)
        put_outcome(outcomes, d, st[S_WINNER], zeros, scores, st[S_STEPS], st[S_FLAGS])


@jit
def play_batch(
    cfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes, rec: Recording
) -> None:
    """One whole deal per seed, every seat the policy of ``cfg``: ``run_batch`` without its PIMC player, the
    policy inlined (``choose``, not ``pick``); through ``run_batch`` these deals took a fifth more time."""
    pack, _packnat, packcnt = deck
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    cnt, size, dead = bufs[4], bufs[5], bufs[6]
    scores = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        scores[:] = 0
        start_state(st, players, dealers[d])
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            a = choose(cfg, cnt, size, st[S_TO_MOVE], need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, scores, a)
        finish(cfg, cnt, st, scores)
        put_outcome(outcomes, d, st[S_WINNER], zeros, scores, st[S_STEPS], st[S_FLAGS])


@jit
def pimc_batch(
    cfg: I64, rcfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, outcomes: Outcomes, rec: Recording,
    pimc_seats: I64, samples: int,
) -> None:  # fmt: skip
    """One whole deal per seed dealt from its seed, the seat ``pimc_seats[d]`` (-1: every seat) played by
    PIMC with ``samples`` worlds per choice and roll-outs by ``rcfg``'s policy (``run_batch``)."""
    given = np.zeros((0, cfg[H_PLAYERS] + 1, 56), np.int8)
    run_batch(cfg, rcfg, deck, base, seeds, dealers, given, outcomes, rec, pimc_seats, samples)
