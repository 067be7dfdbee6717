"""The standard play's legal actions in the fast kernel (``comet.engine.legal_actions``' counterpart) and
the moves on the hand counts: taking an action's cards out, putting them back, counting them."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).
# ruff: noqa: SIM109, SIM110

from __future__ import annotations

from comet.fast.config import (
    C_ANY_SETS,
    C_COMET_ANY,
    C_COMET_LEAD,
    C_COMET_QUARTET,
    C_LOWEST,
    C_NEW_RUN_MAY,
    C_QUARTET_LEAD,
    C_REQ_MISSING,
    C_STOP_EARLY,
    C_STUCK_MAY,
    H_MUTANT,
    H_PLAYERS,
    H_WILD1,
    KING,
    LEAD_ANY_RANK,
    LEAD_FORBIDDEN,
    LEAD_KING,
    PASS,
    QUARTET,
    QUARTET_WILD,
    SINGLE,
    WILD,
    code,
    set_copies,
)
from comet.fast.jit import I8, I64, hot, jit
from comet.trace import rule


@hot
@rule("R-STOP-STUCK")
def stuck_may_pass(cfg: I64, nat: I8, seat: int, turn_played: int, last: int) -> bool:
    """RUL-STUCK-RESTART may: a stuck run came back to its last player, who may pass the new run
    left if the left neighbour can start it (a natural card, or the Comet when it may lead)."""
    if not cfg[C_STUCK_MAY] or turn_played or last != seat:
        return False
    if cfg[C_COMET_LEAD] != LEAD_FORBIDDEN:
        return True
    left = (seat + 1) % cfg[H_PLAYERS]
    for r in range(1, 14):
        if nat[left, r] > 0:
            return True
    return False


@jit
@rule("R-FOUR-OF-A-KIND")
def partial_sets(cfg: I64, cnt: I8, seat: int, r: int, whole: bool, acts: I64, n: int) -> int:
    """RUL-2P-SETS any_number: every choice of two or more of ``seat``'s natural cards of rank ``r`` (copies
    of one card are alike: each choice once), written from ``acts[n]`` as ``QUARTET`` with the copies per suit
    in the card field; all of them is left out where ``whole`` (the seeds' set, already written).  Returns
    the new count."""
    wild = cfg[H_WILD1]
    h0 = 0 if r * 4 == wild else cnt[seat, r * 4]
    h1 = 0 if r * 4 + 1 == wild else cnt[seat, r * 4 + 1]
    h2 = 0 if r * 4 + 2 == wild else cnt[seat, r * 4 + 2]
    h3 = 0 if r * 4 + 3 == wild else cnt[seat, r * 4 + 3]
    for k0 in range(h0 + 1):
        for k1 in range(h1 + 1):
            for k2 in range(h2 + 1):
                for k3 in range(h3 + 1):
                    if k0 + k1 + k2 + k3 < 2:
                        continue
                    if whole and k0 == h0 and k1 == h1 and k2 == h2 and k3 == h3:
                        continue
                    if cfg[H_MUTANT] == 5 and k0 + k1 + k2 + k3 == 2:  # planted bug (tests only): no pairs
                        continue
                    acts[n] = code(QUARTET, k0 | (k1 << 2) | (k2 << 4) | (k3 << 6), r)
                    n += 1
    return n


@jit
def sort_block(cfg: I64, packcnt: I64, acts: I64, lo: int, hi: int) -> None:
    """Sort ``acts[lo:hi]`` into the reference's canonical order (``order_key``; a few actions of one rank)."""
    for i in range(lo + 1, hi):
        a = acts[i]
        key = order_key(cfg, packcnt, a)
        j = i - 1
        while j >= lo and order_key(cfg, packcnt, acts[j]) > key:
            acts[j + 1] = acts[j]
            j -= 1
        acts[j + 1] = a


@hot
@rule("R-LEAD-ANY", "R-PLAY-CONTINUE", "R-PLAY-MUST", "R-NEW-RUN", "R-COMET-WILD", "R-FOUR-OF-A-KIND", "R-OLD-ACE-LOW")
def legal(
    cfg: I64,
    packnat: I64,
    packcnt: I64,
    cnt: I8,
    nat: I8,
    seat: int,
    run_top: int,
    turn_played: int,
    free_lead: int,
    last: int,
    acts: I64,
) -> int:
    """Write the legal actions of ``seat`` into ``acts`` in the reference's canonical order (pass
    first, then by sorted cards, then by the rank the wild card stands for); return how many."""
    wild = cfg[H_WILD1]
    lowest = cfg[C_LOWEST]
    wild_held = cnt[seat, wild] > 0
    lead = run_top == 0
    need = 0 if lead else run_top + 1
    wild_lo = 1
    wild_hi = 0  # the ranks the wild card may stand for (none when lo > hi)
    quartet_wild = False
    if lead:
        singles_all = True
        quartets_all = cfg[C_QUARTET_LEAD] == 1
        if wild_held and cfg[C_COMET_LEAD] == LEAD_ANY_RANK:
            wild_lo, wild_hi = lowest, KING
        elif wild_held and cfg[C_COMET_LEAD] == LEAD_KING:
            wild_lo, wild_hi = KING, KING
        naturals = False
        for r in range(1, 14):
            if nat[seat, r] > 0:
                naturals = True
                break
        may_pass = (
            not (naturals or wild_lo <= wild_hi)
            or (cfg[C_NEW_RUN_MAY] == 1 and turn_played == 1)
            or stuck_may_pass(cfg, nat, seat, turn_played, last)
        )
    else:
        matching = nat[seat, need] > 0
        # RUL-COMET-AFTER optional_restart: after the Comet a new run may start instead, with any
        # card (or a quartet where a lead may be one)
        singles_all = free_lead == 1
        quartets_all = free_lead == 1 and cfg[C_QUARTET_LEAD] == 1
        if wild_held and not (cfg[C_REQ_MISSING] and matching):
            if cfg[C_COMET_ANY]:
                wild_lo, wild_hi = lowest, KING
            else:
                wild_lo, wild_hi = need, need
        quartet_wild = cfg[C_COMET_QUARTET] == 1 and wild_held and nat[seat, need] == 3 and packnat[need] == 3
        may_pass = not matching or (cfg[C_STOP_EARLY] == 1 and turn_played == 1)
        if cfg[H_MUTANT] == 2:  # planted bug (tests only): pass is always allowed
            may_pass = True
    n = 0
    if may_pass:
        acts[0] = code(PASS, 0, 0)
        n = 1
    scan_all = singles_all or quartets_all
    wild_rank = wild >> 2
    any_sets = cfg[C_ANY_SETS] == 1
    for r in range(1, 14):
        if not (scan_all or r == need or r == wild_rank):
            continue
        block = n
        held = nat[seat, r]
        quartet = held >= 3 and held == packnat[r] and (quartets_all or r == need)
        with_wild = quartet_wild and r == need
        single = singles_all or r == need
        first_natural = True
        for c in range(r * 4, r * 4 + 4):
            if c == wild:
                for x in range(wild_lo, wild_hi + 1):
                    acts[n] = code(WILD, wild, x)
                    n += 1
                if with_wild and first_natural:  # the wild card is the lowest card of the four 9s
                    acts[n] = code(QUARTET_WILD, wild, r)
                    n += 1
                    with_wild = False
                continue
            if single and cnt[seat, c] > 0:
                acts[n] = code(SINGLE, c, r)
                n += 1
            if first_natural and packcnt[c] > 0:
                first_natural = False
                if quartet and with_wild:
                    q = code(QUARTET, 0, r)
                    qw = code(QUARTET_WILD, wild, r)
                    if order_key(cfg, packcnt, q) > order_key(cfg, packcnt, qw):
                        q, qw = qw, q
                    acts[n] = q
                    acts[n + 1] = qw
                    n += 2
                elif quartet:
                    acts[n] = code(QUARTET, 0, r)
                    n += 1
        if any_sets and held >= 2 and (quartets_all or r == need):
            # RUL-2P-SETS any_number: the sets short of the whole rank, sorted in among this rank's plays
            n = partial_sets(cfg, cnt, seat, r, quartet, acts, n)
            sort_block(cfg, packcnt, acts, block, n)
    return n


@hot
def remove(cfg: I64, packcnt: I64, cnt: I8, nat: I8, seat: int, a: int) -> int:
    """Take the action's cards out of ``seat``'s hand; return how many Kings went down naturally."""
    kind = a >> 12
    wild = cfg[H_WILD1]
    if kind == SINGLE:
        c = (a >> 4) & 255
        cnt[seat, c] -= 1
        nat[seat, c >> 2] -= 1
        return 1 if (c >> 2) == KING else 0
    r = a & 15
    if kind == QUARTET and (a >> 4) & 255:  # a set short of the whole rank (RUL-2P-SETS any_number)
        k = 0
        for s in range(4):
            m = set_copies(a, s)
            cnt[seat, r * 4 + s] -= m
            k += m
        nat[seat, r] -= k
        return k if r == KING else 0
    if kind == QUARTET or kind == QUARTET_WILD:
        for s in range(4):
            c = r * 4 + s
            if c != wild:
                cnt[seat, c] = 0
        nat[seat, r] = 0
    if kind == QUARTET_WILD or kind == WILD:
        cnt[seat, wild] -= 1
        return 0
    return packcnt_kings(packcnt, r)


@hot
def packcnt_kings(packcnt: I64, r: int) -> int:
    if r != KING:
        return 0
    k = 0
    for s in range(4):
        k += packcnt[KING * 4 + s]
    return k


@jit
def put_back(cfg: I64, packcnt: I64, cnt: I8, nat: I8, seat: int, a: int) -> None:
    """Undo ``remove`` (for the dealer's search; the hand held every natural card of a quartet)."""
    kind = a >> 12
    wild = cfg[H_WILD1]
    if kind == SINGLE:
        c = (a >> 4) & 255
        cnt[seat, c] += 1
        nat[seat, c >> 2] += 1
        return
    r = a & 15
    if kind == QUARTET and (a >> 4) & 255:  # a set short of the whole rank
        k = 0
        for s in range(4):
            m = set_copies(a, s)
            cnt[seat, r * 4 + s] += m
            k += m
        nat[seat, r] += k
        return
    if kind == QUARTET or kind == QUARTET_WILD:
        k = 0
        for s in range(4):
            c = r * 4 + s
            if c != wild:
                cnt[seat, c] = packcnt[c]
                k += packcnt[c]
        nat[seat, r] = k
    if kind == QUARTET_WILD or kind == WILD:
        cnt[seat, wild] += 1


@hot
def cards_in(a: int, cfg: I64, packcnt: I64) -> int:
    kind = a >> 12
    if kind == SINGLE:
        return 1
    if kind == WILD:
        return 1
    r = a & 15
    k = 0
    if kind == QUARTET and (a >> 4) & 255:  # a set short of the whole rank
        for s in range(4):
            k += set_copies(a, s)
        return k
    for s in range(4):
        c = r * 4 + s
        if c != cfg[H_WILD1]:
            k += packcnt[c]
    return k + (1 if kind == QUARTET_WILD else 0)


@hot
def first_card(cfg: I64, packcnt: I64, a: int) -> int:
    """The lowest card of the action (the first of its sorted cards; -1 for a pass)."""
    kind = a >> 12
    if kind == PASS:
        return -1
    if kind == SINGLE or kind == WILD:
        return (a >> 4) & 255
    r = a & 15
    if kind == QUARTET and (a >> 4) & 255:  # a set short of the whole rank
        for s in range(4):
            if set_copies(a, s) > 0:
                return r * 4 + s
    low = 99
    for s in range(4):
        c = r * 4 + s
        if c != cfg[H_WILD1] and packcnt[c] > 0:
            low = c
            break
    if kind == QUARTET_WILD and cfg[H_WILD1] < low:
        return int(cfg[H_WILD1])
    return low


@hot
def order_key(cfg: I64, packcnt: I64, a: int) -> int:
    """A number that orders actions as ``comet.state.Action`` does: by their sorted cards
    (a tuple; a prefix first), then the rank the wild card stands for."""
    kind = a >> 12
    if kind == PASS:
        return 0
    r = a & 15
    if kind == SINGLE:
        return (((a >> 4) & 255) + 1) << 28  # (card + 1) * 64**4 * 16
    if kind == WILD:
        return ((((a >> 4) & 255) + 1) << 28) + r
    wild = cfg[H_WILD1]
    key = 0
    digits = 0
    partial = kind == QUARTET and (a >> 4) & 255  # a set short of the whole rank: its own copies
    if True:
        placed = kind != QUARTET_WILD
        for s in range(4):
            c = r * 4 + s
            if not placed and wild < c:
                key = key * 64 + wild + 1
                digits += 1
                placed = True
            if c != wild:
                for _ in range(set_copies(a, s) if partial else packcnt[c]):
                    key = key * 64 + c + 1
                    digits += 1
        if not placed:
            key = key * 64 + wild + 1
            digits += 1
    while digits < 5:
        key *= 64
        digits += 1
    return key * 16 + (r if (kind == WILD or kind == QUARTET_WILD) else 0)
