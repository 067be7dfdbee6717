"""The fast kernel of Commit as 000:86 describes it (``comet.games.commit_hoyle.rules``): chips, runs in
suit, the 9♦ instead of "without".

State of one deal: ``cnt[seat, card]``; the top rank of the run (0: none), its suit, the branch card
(the 10♦ the 9♦ opened, 0: none), whose move it is, whether they played this turn, the last seat to
play and the last card played (-1: none).
"""

from __future__ import annotations

import numpy as np

from comet.fast.batch import Deck, Outcomes, Recording, noted, prepare, put_outcome, start
from comet.fast.cardsets import (
    CFG_SIZE,
    FLAG_CAPPED,
    KING,
    MAX_ACTS,
    ONE,
    PASS,
    choose,
    hot,
    jit,
    one,
    remove,
)
from comet.fast.config import H_MUTANT, H_PLAYERS, H_SIZE
from comet.fast.jit import I8, I64
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


@jit
@rule("R-COMMIT-H-SUIT", "R-COMMIT-H-NINE", "R-COMMIT-H-KING-PAID", "R-COMMIT-H-NINE-PAID", "R-TURN-END", "R-END-OUT")
def play_batch(
    cfg: I64, deck: Deck, base: I64, seeds: I64, dealers: I64, given: I8, outcomes: Outcomes, rec: Recording
) -> None:
    """One whole deal per seed (the arguments: ``comet.fast.batch``).  The 9♦
    played on a run opens the branch to the 10♦ and ends the turn; played as a lead it starts the
    diamonds; the 10♦ played on the branch makes the run 9♦ 10♦; a stop ends the run."""
    pack = deck[0]
    players, cap, bufs, acts = prepare(cfg, pack.shape[0], MAX_ACTS)
    cnt, size = bufs[4], bufs[5]
    dead = bufs[6]
    chips = np.zeros(players, np.int64)
    zeros = np.zeros(players, np.int64)
    for d in range(seeds.shape[0]):
        start(d, cfg, pack, base, seeds, dealers, bufs, given, rec[2])
        chips[:] = 0
        to_move = (dealers[d] + 1) % players
        top = 0
        suit = -1
        branch = 0
        played = 0
        last = -1
        last_card = -1
        steps = 0
        winner = -1
        flags = 0
        while winner < 0:
            if steps >= cap:
                flags |= FLAG_CAPPED
                break
            n = legal(cfg, cnt, size, to_move, top, suit, branch, played, last, last_card, acts)
            need = top + 1 if top else 0
            a = choose(cfg, cnt, size, to_move, need, acts, n, seeds[d])
            steps = noted(rec, d, steps, a, n)
            if a == PASS:
                nxt = to_move + 1 if to_move + 1 < players else 0
                if nxt == last:
                    top = 0
                if top == 0:
                    suit = -1
                    branch = 0
                if cfg[H_BRANCH_NEXT] and branch and last_card == NINE_D and to_move == (last + 1) % players:
                    branch = 0  # RUL-COMMIT-H-NINE-RUN next_player: the branch lapses
                to_move = nxt
                played = 0
                continue
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
            played = 1
            last = seat
            last_card = c
            if size[seat] == 0:
                winner = seat
        if winner >= 0:
            settle(cfg, cnt, winner, chips)
        put_outcome(outcomes, d, winner, chips, zeros, steps, flags)
