"""The fast kernel of Commit as 000:86 describes it (``comet.games.commit_hoyle.rules``): chips, runs in
suit, the 9♦ instead of "without".

State of one deal: ``cnt[seat, card]``; in ``st`` (``comet.fast.cardsets.S_*``) the top rank of the run
(0: none), its suit, the branch card (the 10♦ the 9♦ opened, 0: none), whose move it is, whether they played
this turn, the last seat to play and the last card played (-1: none).  ``play_batch`` and the PIMC player
(``pimc_batch``, ``comet.fast.pimc``) run the same step functions.
"""

from __future__ import annotations

import numpy as np

from comet.fast.batch import Deck, Outcomes, Recording, note, prepare, put_outcome, recording, start
from comet.fast.cardsets import (
    CFG_SIZE,
    FLAG_CAPPED,
    KING,
    MAX_ACTS,
    ONE,
    PASS,
    S_BRANCH,
    S_FLAGS,
    S_LAST,
    S_LAST_CARD,
    S_PLAYED,
    S_STEPS,
    S_SUIT,
    S_TO_MOVE,
    S_TOP,
    S_WINNER,
    ST_SIZE,
    best_option,
    choose,
    hot,
    jit,
    need_of,
    one,
    pick,
    remove,
    start_state,
)
from comet.fast.config import H_MAX_STEPS, H_MUTANT, H_PLAYERS, H_SIZE
from comet.fast.jit import I8, I64
from comet.fast.pimc import deal_unseen, pimc_generator
from comet.fast.settle import each_pays
from comet.ruleset import Ruleset
from comet.trace import rule

FIELDS: tuple[str, ...] = (
    "deal_order",
    "commit_five",
    "commit_rest",
    "commit_nine_branch",
    "commit_king_payer",
    "commit_stake",
    "commit_nine_when",
    "commit_nine_lead",
    "commit_nine_lead_turn",
)
GAME_LEVEL: tuple[str, ...] = ()

H_REST_STOPS = H_SIZE  # RUL-COMMIT-H-REST stop_cards
H_BRANCH_NEXT = H_SIZE + 1  # RUL-COMMIT-H-NINE-RUN next_player
H_KINGS_OTHERS = H_SIZE + 2  # RUL-COMMIT-H-KINGS-HELD others
H_STAKE = H_SIZE + 3  # RUL-COMMIT-H-STAKE
H_NINE_WITHOUT_ONLY = H_SIZE + 4  # RUL-COMMIT-H-NINE-PASS without_only
H_NINE_LEAD_LAST = H_SIZE + 5  # RUL-COMMIT-H-NINE-LEAD last_resort
H_NINE_LEAD_GOES_ON = H_SIZE + 6  # RUL-COMMIT-H-NINE-LEAD-TURN goes_on
assert H_NINE_LEAD_GOES_ON < CFG_SIZE

NINE_D = 9 * 4 + 1
TEN_D = 10 * 4 + 1
SEVEN_D = 7 * 4 + 1
NINE_CHIPS = 2
KING_CHIPS = 1


def configure(rules: Ruleset, cfg: I64) -> None:
    cfg[H_REST_STOPS] = rules.commit_rest == "stop_cards"
    cfg[H_BRANCH_NEXT] = rules.commit_nine_branch == "next_player"
    cfg[H_KINGS_OTHERS] = rules.commit_king_payer == "others"
    if rules.commit_stake < 0:
        raise ValueError(f"commit_stake must not be negative, not {rules.commit_stake}")
    cfg[H_STAKE] = rules.commit_stake
    cfg[H_NINE_WITHOUT_ONLY] = rules.commit_nine_when == "without_only"
    cfg[H_NINE_LEAD_LAST] = rules.commit_nine_lead == "last_resort"
    cfg[H_NINE_LEAD_GOES_ON] = rules.commit_nine_lead_turn == "goes_on"


@hot
@rule("R-COMMIT-H-SUIT", "R-COMMIT-H-NINE")
def legal(
    cfg: I64,
    cnt: I8,
    size: I64,
    seat: int,
    top: int,
    suit: int,
    branch: int,
    played: int,
    last: int,
    last_card: int,
    acts: I64,
) -> int:
    """Any card leads (the 9♦ only as the last card under commit_nine_lead=last_resort); a run goes on
    with the next card of its suit or the branch card; without one, the 9♦ may end the turn instead
    of "without" (RUL-COMMIT-H-NINE-PASS), which leaves only a pass.  Canonical order."""
    if played and last == seat and last_card == NINE_D and (branch or not cfg[H_NINE_LEAD_GOES_ON]):
        # the 9D ends the turn (RUL-COMMIT-H-NINE-LEAD-TURN goes_on: not when it started the run)
        acts[0] = PASS
        return 1
    n = 0
    if top == 0 and branch == 0:
        for c in range(4, 56):
            if cnt[seat, c] > 0 and (c != NINE_D or not cfg[H_NINE_LEAD_LAST] or size[seat] == 1):
                acts[n] = one(c, 0)
                n += 1
        return n
    nxt = top * 4 + 4 + suit if (suit >= 0 and top < KING) else 0
    lo = nxt
    hi = branch
    if lo > hi:
        lo, hi = hi, lo
    if lo > 0 and cnt[seat, lo] > 0:
        acts[n] = one(lo, 0)
        n += 1
    if hi > 0 and hi != lo and cnt[seat, hi] > 0:
        acts[n] = one(hi, 0)
        n += 1
    if n == 0:
        acts[0] = PASS
        n = 1
        if cnt[seat, NINE_D] > 0 and (not cfg[H_NINE_WITHOUT_ONLY] or played):
            acts[1] = one(NINE_D, 0)
            n = 2
    return n


@hot
@rule("R-COMMIT-H-STOPS")
def is_stop(cfg: I64, dead: I64, c: int) -> bool:
    """Kings and the 7♦ end a run (RUL-COMMIT-H-REST stop_cards: also a card whose successor lies in the rest)."""
    if (c >> 2) == KING or c == SEVEN_D:
        return True
    return bool(cfg[H_REST_STOPS] == 1 and dead[c + 4] > 0)


@jit
@rule("R-COMMIT-H-POOL", "R-COMMIT-H-CAUGHT", "R-COMMIT-H-KINGS-HELD")
def settle(cfg: I64, cnt: I8, winner: int, chips: I64) -> None:
    """The pool to the first player out; 2 to each other player from whoever holds the 9♦; each King
    left costs its holder 1 per other player (RUL-COMMIT-H-KINGS-HELD others: earns it)."""
    players = cfg[H_PLAYERS]
    stake = cfg[H_STAKE]
    for seat in range(players):
        if seat != winner and stake:
            chips[seat] -= stake
            chips[winner] += stake
    for seat in range(players):
        caught = cnt[seat, NINE_D] * NINE_CHIPS
        kings = 0
        for s in range(4):
            kings += cnt[seat, KING * 4 + s]
        if cfg[H_MUTANT] == 1:  # planted bug (tests only): Kings left in hand cost nothing
            kings = 0
        for other in range(players):
            if other == seat:
                continue
            chips[seat] -= caught
            chips[other] += caught
            amount = kings * KING_CHIPS
            if cfg[H_KINGS_OTHERS]:
                amount = -amount
            chips[seat] -= amount
            chips[other] += amount


@hot
def legal_now(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, acts: I64) -> int:
    """``legal`` at the position ``st`` (the arguments every game's ``legal_now`` takes: ``comet.fast.cardsets``)."""
    return legal(
        cfg, cnt, size, st[S_TO_MOVE], st[S_TOP], st[S_SUIT], st[S_BRANCH], st[S_PLAYED], st[S_LAST],
        st[S_LAST_CARD], acts,
    )  # fmt: skip


@hot
@rule("R-COMMIT-H-SUIT", "R-COMMIT-H-NINE", "R-COMMIT-H-KING-PAID", "R-COMMIT-H-NINE-PAID", "R-TURN-END", "R-END-OUT")
def apply_action(cfg: I64, packcnt: I64, dead: I64, cnt: I8, size: I64, st: I64, chips: I64, a: int) -> None:
    """Play action ``a`` at ``st`` (changed in place, with the hands and the chips).  The 9♦ played on a run
    opens the branch to the 10♦ and ends the turn; played as a lead it starts the diamonds; the 10♦ played
    on the branch makes the run 9♦ 10♦; a stop ends the run."""
    players = cfg[H_PLAYERS]
    to_move = st[S_TO_MOVE]
    top = st[S_TOP]
    suit = st[S_SUIT]
    branch = st[S_BRANCH]
    last = st[S_LAST]
    last_card = st[S_LAST_CARD]
    st[S_STEPS] += 1
    if a == PASS:
        nxt = to_move + 1 if to_move + 1 < players else 0
        if nxt == last:
            top = 0
        if top == 0:
            suit = -1
            branch = 0
        if cfg[H_BRANCH_NEXT] and branch and last_card == NINE_D and to_move == (last + 1) % players:
            branch = 0  # RUL-COMMIT-H-NINE-RUN next_player: the branch lapses
        st[S_TO_MOVE] = nxt
        st[S_TOP] = top
        st[S_SUIT] = suit
        st[S_BRANCH] = branch
        st[S_PLAYED] = 0
        return
    assert a >> 20 == ONE
    seat = to_move
    c = (a >> 4) & 255
    remove(cnt, seat, a)
    size[seat] -= 1
    if c == NINE_D:
        if top:
            branch = TEN_D
        else:
            top = 9
            suit = 1
            branch = 0
        each_pays(chips, players, seat, NINE_CHIPS)
    else:
        nxt_card = top * 4 + 4 + suit if (top and suit >= 0 and top < KING) else 0
        if branch == c and c != nxt_card:
            top = 10
            suit = 1
        else:
            top = c >> 2
            suit = c & 3
        branch = 0
        if is_stop(cfg, dead, c):
            top = 0
            suit = -1
        if (c >> 2) == KING:
            each_pays(chips, players, seat, KING_CHIPS)
    st[S_TOP] = top
    st[S_SUIT] = suit
    st[S_BRANCH] = branch
    st[S_PLAYED] = 1
    st[S_LAST] = seat
    st[S_LAST_CARD] = c
    if size[seat] == 0:
        st[S_WINNER] = seat


@hot
def finish(cfg: I64, cnt: I8, st: I64, chips: I64) -> None:
    """The settlement of a deal someone went out of."""
    if st[S_WINNER] >= 0:
        settle(cfg, cnt, st[S_WINNER], chips)


@hot
def value(chips: I64, seat: int) -> int:
    """What the PIMC player adds up for ``seat`` (``comet.diverge.pimc.value``): its chips."""
    return int(chips[seat])


@jit
def pimc_choice(
    cfg: I64, rcfg: I64, packcnt: I64, base: I64, cnt: I8, size: I64, dead: I64, st: I64, chips: I64, acts: I64,
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
    ochips = np.zeros(players, np.int64)
    racts = np.zeros(MAX_ACTS, np.int64)
    totals = np.zeros(n, np.int64)
    for i in range(samples):
        deal_unseen(cfg, cnt, size, dead, seat, mt, pos, cards, wcnt, wdead)
        for j in range(n):
            ocnt[:, :] = wcnt
            osize[:] = size
            ost[:] = st
            ochips[:] = chips
            a = acts[j]
            while True:
                apply_action(cfg, packcnt, wdead, ocnt, osize, ost, ochips, a)
                if ost[S_WINNER] >= 0 or ost[S_STEPS] >= cap:
                    break
                m = legal_now(rcfg, packcnt, wdead, ocnt, osize, ost, racts)
                a = pick(rcfg, ocnt, osize, ost[S_TO_MOVE], need_of(ost), racts, m, seed + i)
            finish(rcfg, ocnt, ost, ochips)
            totals[j] += value(ochips, seat)
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
    chips = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        chips[:] = 0
        start_state(st, players, dealers[d])
        who = pimc_seats[d] if samples > 0 else -2
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            to_move = st[S_TO_MOVE]
            if who == -1 or who == to_move:
                a = pimc_choice(cfg, rcfg, packcnt, base, cnt, size, dead, st, chips, acts, n, seeds[d], samples)
            else:
                a = pick(cfg, cnt, size, to_move, need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, chips, a)
        finish(cfg, cnt, st, chips)
        put_outcome(outcomes, d, st[S_WINNER], chips, zeros, st[S_STEPS], st[S_FLAGS])


@jit
def play_batch(
    cfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes, rec: Recording
) -> None:
    """One whole deal per seed, every seat the policy of ``cfg``: ``run_batch`` without its PIMC player, the
    policy inlined (``choose``, not ``pick``); through ``run_batch`` these deals took a fifth more time."""
    pack, _packnat, packcnt = deck
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    cnt, size, dead = bufs[4], bufs[5], bufs[6]
    chips = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    record = recording(rec)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        chips[:] = 0
        start_state(st, players, dealers[d])
        while st[S_WINNER] < 0:
            if st[S_STEPS] >= cap:
                st[S_FLAGS] |= FLAG_CAPPED
                break
            n = legal_now(cfg, packcnt, dead, cnt, size, st, acts)
            a = choose(cfg, cnt, size, st[S_TO_MOVE], need_of(st), acts, n, seeds[d])
            if record:
                note(rec, d, st[S_STEPS], a, n)
            apply_action(cfg, packcnt, dead, cnt, size, st, chips, a)
        finish(cfg, cnt, st, chips)
        put_outcome(outcomes, d, st[S_WINNER], chips, zeros, st[S_STEPS], st[S_FLAGS])


@jit
def pimc_batch(
    cfg: I64, rcfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, outcomes: Outcomes, rec: Recording,
    pimc_seats: I64, samples: int,
) -> None:  # fmt: skip
    """One whole deal per seed dealt from its seed, the seat ``pimc_seats[d]`` (-1: every seat) played by
    PIMC with ``samples`` worlds per choice and roll-outs by ``rcfg``'s policy (``run_batch``)."""
    given = np.zeros((0, cfg[H_PLAYERS] + 1, 56), np.int8)
    run_batch(cfg, rcfg, deck, base, seeds, dealers, given, outcomes, rec, pimc_seats, samples)
