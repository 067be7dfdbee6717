"""The lemmas the bounds stand on, each proved before it is used: "no hand is larger than the hand dealt"
and, where only the Comet pays in play, ``comet_only``."""

from __future__ import annotations

import z3

from comet_proofs.bounds.optimum import TIMEOUT_MS, maxima, step_cases, unsat_at_once
from comet_proofs.certificates import Certificates
from comet_proofs.encoding import Encoding
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import COMET_PLAYED, NINE, Readings, SymAction, SymState


def dealt_size(enc: Encoding, players: int, rd: Readings, certs: Certificates | None = None) -> int:
    """The largest hand an initial deal gives (Optimize over ``Init``; ``certs``: ``maxima``)."""
    init = enc.fresh_state("d", players)
    size = maxima(certs, f"{players}p largest hand dealt", [enc.initial(init, rd)], [enc.hand_size(init, 0)])[0]
    if size is None:
        raise AssertionError(f"{enc.name}: no largest initial hand")
    return size


def hands_within_deal(enc: Encoding, s: SymState, size: int) -> z3.BoolRef:
    return z3.And([enc.hand_size(s, p) <= size for p in range(s.players)])


def lemma_holds(enc: Encoding, players: int, rd: Readings, size: int) -> bool:
    """ "No hand is larger than the hand dealt": true initially, and no step makes any hand larger (whatever
    the state: no invariant needed; the step tried whole, then split by the encoding's ``action_cases``, as
    the proofs do: ``unsat_at_once``)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    base = z3.And(enc.initial(s, rd), z3.Not(hands_within_deal(enc, s, size)))
    grows = z3.Or([enc.hand_size(t, p) > enc.hand_size(s, p) for p in range(players)])
    step = z3.And(enc.transition(s, a, t, rd), grows)
    if solve_alone([base], 6 * TIMEOUT_MS).verdict != z3.unsat:
        return False
    if unsat_at_once([step], [z3.BoolVal(True)]):
        return True
    return all(solve_alone([step], 6 * TIMEOUT_MS, c).verdict == z3.unsat for c in step_cases(enc, a))


def comet_only(enc: Encoding, s: SymState) -> z3.BoolRef:
    """Chips move in play only for the Comet, once: none before it is played, and then no seat has paid
    more than 4 times its value or received more than that from each other player."""

    cv, n = s.comet_value, s.players
    bounded = [z3.And(c >= -4 * cv, c <= 4 * cv * (n - 1)) for c in s.chips]
    return z3.And(z3.Implies(s.comet != COMET_PLAYED, z3.And([c == 0 for c in s.chips])), *bounded)


def comet_only_lemma_holds(enc: Encoding, players: int, rd: Readings) -> bool:
    """``comet_only`` is true initially and kept by every step from an ``Inv`` state (so it bounds the chips
    a deal moves in play); false where other things pay in play (Kings paid for in play, in some games)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    init = enc.fresh_state("i", players)
    for formula in (
        z3.And(enc.initial(init, rd), z3.Not(comet_only(enc, init))),
        z3.And(enc.invariant(s), comet_only(enc, s), enc.transition(s, a, t, rd), z3.Not(comet_only(enc, t))),
    ):
        if solve_alone([formula], 2 * TIMEOUT_MS).verdict != z3.unsat:
            return False
    return True


def run_played(enc: Encoding, s: SymState) -> z3.BoolRef:
    """A run needs rank r only after an r-1 was played, and a deal won on the Comet standing for a 9 has an 8
    on the pile: the Comet as a 9 answers a run that needs a 9 (so no finished deal has the winner out on the
    Comet as a 9 while the losers hold every 8, a state ``Inv`` alone admits)."""
    index = {r: i for i, r in enumerate(s.ranks)}
    parts = [z3.Implies(s.need == r, s.played[index[r - 1]] >= 1) for r in s.ranks if r - 1 in index]
    if NINE - 1 in index:
        parts.append(z3.Implies(s.out_wild_as == NINE, s.played[index[NINE - 1]] >= 1))
    return z3.And(*parts)


def run_played_lemma_holds(enc: Encoding, players: int, rd: Readings, size: int) -> bool:
    """``run_played`` is true initially and kept by every step from an ``Inv`` state whose hands are within
    the deal (tried whole, then split by the step's cases, as ``lemma_holds``); false where the preset's
    readings let the Comet stand for a 9 without an 8 before it."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    init = enc.fresh_state("i", players)
    if solve_alone([z3.And(enc.initial(init, rd), z3.Not(run_played(enc, init)))], 2 * TIMEOUT_MS).verdict != z3.unsat:
        return False
    step = [enc.invariant(s), hands_within_deal(enc, s, size), run_played(enc, s), enc.transition(s, a, t, rd)]
    breaks = [z3.Not(run_played(enc, t))]
    if unsat_at_once(step, breaks):
        return True
    return all(solve_alone([z3.And(*step, *breaks)], 2 * TIMEOUT_MS, c).verdict == z3.unsat for c in step_cases(enc, a))
