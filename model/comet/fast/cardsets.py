"""What the fast kernels of the games with their own transition system share (Commit, Red Nines).

These games replace the standard play wholesale (``Variant.legal_actions``/``play``/``end_turn``), so
each has its own compiled module in ``comet.fast.games``; this module holds the parts that are not a
rule of any one of them: the action codes, the canonical order of actions and the reference policies
over such actions (the deal from a seed is every kernel's: ``comet.fast.batch``).

An action is one int: ``PASS`` (0); ``ONE`` one card, ``kind << 20 | card << 4 | as_rank`` (``as_rank``
the rank a wild card stands for, 0 for a natural card, as ``comet.state.Action``); ``GROUP`` several
natural cards of one rank, ``kind << 20 | counts << 4 | rank`` with two bits per suit (how many of the
rank's card of that suit; a pack holds at most two copies of a card).

The configuration ``cfg`` starts with the header every kernel shares (``comet.fast.config.H_*``); a game's
own readings follow from ``H_SIZE``.
"""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose.

from __future__ import annotations

from comet.fast.config import FLAG_CAPPED, H_POLICY, H_WILD1, H_WILD2, POLICY_GREEDY, POLICY_HOARDER, POLICY_RANDOM
from comet.fast.jit import I8, I64, hot, jit
from comet.fast.policies import priority
from comet.fast.rng import LANES

__all__ = ["FLAG_CAPPED", "LANES", "hot", "jit"]

CFG_SIZE = 24

PASS = 0
ONE = 1
GROUP = 2
MAX_ACTS = 256
KING = 13
KEY_DIGITS = 5  # comet.diverge.choices.KEY_DIGITS


@hot
def one(card: int, as_rank: int) -> int:
    return (ONE << 20) | (card << 4) | as_rank


@hot
def group(counts: int, rank: int) -> int:
    return (GROUP << 20) | (counts << 4) | rank


@hot
def is_wild(cfg: I64, c: int) -> bool:
    return bool(c == cfg[H_WILD1] or c == cfg[H_WILD2])


@hot
def n_cards(a: int) -> int:
    kind = a >> 20
    if kind == PASS:
        return 0
    if kind == ONE:
        return 1
    counts = (a >> 4) & 255
    n = 0
    for s in range(4):
        n += (counts >> (2 * s)) & 3
    return n


@hot
def first_card(a: int) -> int:
    """The lowest card of the action (-1 for a pass)."""
    kind = a >> 20
    if kind == PASS:
        return -1
    if kind == ONE:
        return (a >> 4) & 255
    counts = (a >> 4) & 255
    r = a & 15
    for s in range(4):
        if (counts >> (2 * s)) & 3:
            return r * 4 + s
    return -1


@hot
def as_rank(a: int) -> int:
    return a & 15 if (a >> 20) == ONE else 0


@hot
def play_rank(a: int) -> int:
    """``Action.rank``: the rank a wild card stands for, else the rank of the cards (0: a pass)."""
    kind = a >> 20
    if kind == PASS:
        return 0
    if kind == GROUP:
        return a & 15
    r = a & 15
    return r if r else ((a >> 4) & 255) >> 2


@hot
def has_wild(cfg: I64, a: int) -> bool:
    return (a >> 20) == ONE and is_wild(cfg, (a >> 4) & 255)


@hot
def digits(a: int, width: int, negate: bool) -> int:
    """The action's sorted cards as base-64 digits (``c + 1``, or ``63 - c`` if ``negate``), padded
    with zeros to ``width`` digits (a prefix sorts first, as tuples do)."""
    key = 0
    used = 0
    kind = a >> 20
    if kind == ONE:
        c = (a >> 4) & 255
        key = 63 - c if negate else c + 1
        used = 1
    elif kind == GROUP:
        counts = (a >> 4) & 255
        r = a & 15
        for s in range(4):
            for _ in range((counts >> (2 * s)) & 3):
                c = r * 4 + s
                key = key * 64 + (63 - c if negate else c + 1)
                used += 1
    while used < width:
        key *= 64
        used += 1
    return key


@hot
def order_key(a: int) -> int:
    """Orders actions as ``comet.state.Action`` does: by the sorted cards, then ``as_rank``."""
    return digits(a, 9, False) * 16 + as_rank(a)


@hot
def sort_actions(acts: I64, n: int) -> None:
    """Insertion sort of ``acts[:n]`` into the reference's canonical order (short lists)."""
    for i in range(1, n):
        a = acts[i]
        key = order_key(a)
        j = i - 1
        while j >= 0 and order_key(acts[j]) > key:
            acts[j + 1] = acts[j]
            j -= 1
        acts[j + 1] = a


@hot
def add_wilds(cfg: I64, cnt: I8, seat: int, rank: int, acts: I64, n: int) -> int:
    """Append the wild cards ``seat`` holds, standing for ``rank`` (lower card id first)."""
    w1 = cfg[H_WILD1]
    w2 = cfg[H_WILD2]
    if w2 >= 0 and w2 < w1:
        w1, w2 = w2, w1
    if w1 >= 0 and cnt[seat, w1] > 0:
        acts[n] = one(w1, rank)
        n += 1
    if w2 >= 0 and w2 != w1 and cnt[seat, w2] > 0:
        acts[n] = one(w2, rank)
        n += 1
    return n


@hot
def remove(cnt: I8, seat: int, a: int) -> int:
    """Take the action's cards out of ``seat``'s hand; return how many."""
    kind = a >> 20
    if kind == ONE:
        cnt[seat, (a >> 4) & 255] -= 1
        return 1
    counts = (a >> 4) & 255
    r = a & 15
    n = 0
    for s in range(4):
        k = (counts >> (2 * s)) & 3
        cnt[seat, r * 4 + s] -= k
        n += k
    return n


# --------------------------------------------------------------------- policies
#
# The reference policies over these actions, reproduced exactly: ``random``, ``greedy`` and ``hoarder``
# are ``comet.diverge.policies.make_policy(name, seed)`` (coupled play: a choice by chance is the option
# of highest priority, a hash of the deal's seed, the seat and the option), ``simple`` is
# ``comet.policy.simple_policy``.


@hot
def option_key(a: int) -> int:
    """``comet.diverge.choices.option_key``: the sorted cards as base-64 digits (card + 1, padded to
    five), then the rank the wild card stands for; a pass is 0."""
    k = n_cards(a)
    return digits(a, max(k, KEY_DIGITS), False) * 16 + as_rank(a)


@hot
def rank_key(seed: int, seat: int, a: int) -> int:
    """``comet.diverge.choices.rank_key``: the option's priority for ``seat`` in the deal of ``seed``,
    then the option itself."""
    return priority(seed, seat, option_key(a))


@hot
def run_length(cfg: I64, cnt: I8, seat: int, rank: int) -> int:
    """How many consecutive ranks from ``rank`` up the hand holds naturally."""
    n = 0
    r = rank
    while 1 <= r <= KING:
        held = False
        for c in range(r * 4, r * 4 + 4):
            if cnt[seat, c] > 0 and not is_wild(cfg, c):
                held = True
        if not held:
            break
        n += 1
        r += 1
    return n


@hot
def simple_choice(acts: I64, n: int, need: int) -> int:
    """``simple_policy``: the most cards and the lowest first card among the plays without ``as_rank``;
    else the one standing for the rank needed (a 9 on a lead), else the first standing for a rank;
    else pass."""
    best = -1
    best_score = -1
    for i in range(n):
        a = acts[i]
        if a == PASS or as_rank(a):
            continue
        score = n_cards(a) * 64 + (63 - first_card(a))
        if score > best_score:
            best_score = score
            best = a
    if best >= 0:
        return best
    first = -1
    for i in range(n):
        a = acts[i]
        if not as_rank(a):
            continue
        r = as_rank(a)
        if r == need or (need == 0 and r == 9):
            return int(a)
        if first < 0:
            first = a
    if first >= 0:
        return first
    return PASS


@hot
def choose(cfg: I64, cnt: I8, size: I64, seat: int, need: int, acts: I64, n: int, seed: int) -> int:
    """The policy's action among ``acts[:n]`` (canonical order); ``need`` is ``DealState.need``."""
    policy = cfg[H_POLICY]
    if policy == POLICY_RANDOM:
        best = acts[0]
        best_key = -1
        for i in range(n):
            rk = rank_key(seed, seat, acts[i])
            if rk > best_key:
                best_key = rk
                best = acts[i]
        return int(best)
    if policy == POLICY_HOARDER:
        first_wild = -1
        first_nine = -1
        others = 0
        for i in range(n):
            a = acts[i]
            if has_wild(cfg, a):
                if first_wild < 0:
                    first_wild = a
                if first_nine < 0 and play_rank(a) == 9:
                    first_nine = a
            else:
                others += 1
        held_wild = 0
        for c in range(56):
            if is_wild(cfg, c):
                held_wild += cnt[seat, c]
        if first_wild >= 0 and (held_wild == size[seat] or others == 0):
            return first_nine if first_nine >= 0 else first_wild
        # the natural play of most cards, ties by priority; else pass
        best = PASS
        best_cards = -1
        best_key = -1
        for i in range(n):
            a = acts[i]
            if a == PASS or has_wild(cfg, a):
                continue
            k = n_cards(a)
            rk = rank_key(seed, seat, a)
            if k > best_cards or (k == best_cards and rk > best_key):
                best_cards = k
                best_key = rk
                best = a
        return int(best)
    if policy != POLICY_GREEDY:
        return simple_choice(acts, n, need)
    # greedy: among the plays (those without a wild card if there are any) the most cards, then the
    # longest run held from the play's rank, the higher rank, the priority; a pass if nothing else
    naturals = 0
    plays = 0
    for i in range(n):
        a = acts[i]
        if a != PASS:
            plays += 1
            if not has_wild(cfg, a):
                naturals += 1
    if plays == 0:
        return int(acts[0])
    best = -1
    best_score = -1
    best_key = -1
    for i in range(n):
        a = acts[i]
        if a == PASS or (naturals and has_wild(cfg, a)):
            continue
        r = play_rank(a)
        score = (n_cards(a) * 16 + run_length(cfg, cnt, seat, r)) * 16 + r
        rk = rank_key(seed, seat, a)
        if score > best_score or (score == best_score and rk > best_key):
            best_score = score
            best_key = rk
            best = a
    return int(best)


@jit
def pick(cfg: I64, cnt: I8, size: I64, seat: int, need: int, acts: I64, n: int, seed: int) -> int:
    """``choose``, compiled once for every game and called rather than inlined: the games' ``run_batch`` and
    their PIMC player's roll-outs call it (inlining it at each of those places made the compilation several
    times longer); only each game's ``play_batch``, the loop ``comet bench`` measures, inlines ``choose``."""
    return choose(cfg, cnt, size, seat, need, acts, n, seed)


# --------------------------------------------------------------------- a deal in play
#
# The scalars of a deal of these games, in one small array (``st``) so a deal can be copied and resumed (the
# PIMC player's roll-outs, ``comet.fast.pimc``); each game reads the slots it needs.  Every game's
# ``legal_now(cfg, packcnt, dead, cnt, size, st, acts)``, ``apply_action(cfg, packcnt, dead, cnt, size, st,
# scores, a)`` and ``finish(cfg, cnt, st, scores)`` take the same arguments, and its ``play_batch`` is a loop
# over them.  ``legal_now`` and ``apply_action`` are inlined into the loops that call them (called as compiled
# functions, with ``pick``, they cost ``play_batch`` 15% of its deals per second; inlined in the PIMC player's
# roll-outs too, those are 8% faster and compile about 18 s longer per game, once).

S_TO_MOVE = 0
S_TOP = 1  # the top rank of the run (0: none)
S_SUIT = 2  # the run's suit (-1: none)
S_BRANCH = 3  # the branch card (0: none)
S_PLAYED = 4  # whether the seat to move has played this turn
S_LAST = 5  # the last seat to play (-1: none yet)
S_LAST_CARD = 6  # the last card played (-1: none)
S_BEGUN = 7  # whether any card has been played in the deal
S_STEPS = 8  # actions so far
S_WINNER = 9  # -1: none yet
S_WILD_AS = 10  # the rank the wild card stood for if the winner went out on it (0: not on a wild card)
S_FLAGS = 11  # the outcome flags (``comet.fast.config.FLAG_*``) so far
ST_SIZE = 12


@hot
def start_state(st: I64, players: int, dealer: int) -> None:
    """The state of a deal before its first action: the dealer's left to move, no run."""
    st[S_TO_MOVE] = dealer + 1 if dealer + 1 < players else 0
    st[S_TOP] = 0
    st[S_SUIT] = -1
    st[S_BRANCH] = 0
    st[S_PLAYED] = 0
    st[S_LAST] = -1
    st[S_LAST_CARD] = -1
    st[S_BEGUN] = 0
    st[S_STEPS] = 0
    st[S_WINNER] = -1
    st[S_WILD_AS] = 0
    st[S_FLAGS] = 0


@hot
def need_of(st: I64) -> int:
    """``DealState.need``: the rank the run needs next (0: a new run)."""
    return int(st[S_TOP] + 1) if st[S_TOP] else 0


@hot
def best_option(acts: I64, n: int, totals: I64, seed: int, seat: int) -> int:
    """The option of the highest total, ties by ``seat``'s coupled-play priority (``rank_key``): the PIMC
    player's pick (``comet.diverge.pimc.Pimc``)."""
    best = 0
    best_key = rank_key(seed, seat, acts[0])
    for j in range(1, n):
        rk = rank_key(seed, seat, acts[j])
        if totals[j] > totals[best] or (totals[j] == totals[best] and rk > best_key):
            best = j
            best_key = rk
    return int(acts[best])
