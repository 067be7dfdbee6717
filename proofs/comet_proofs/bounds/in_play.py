"""Bounds on what play builds up from 0 (a potential proved never to grow: ``InPlay``) and on a quantity as
a function of the Comet's value (a line ``a + b*v`` proved for every v)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from comet_proofs.bounds.optimum import TIMEOUT_MS, maxima, none_holds, step_cases, unsat_at_once
from comet_proofs.bounds.quantities import Quantity
from comet_proofs.certificates import Certificates
from comet_proofs.encoding import Encoding
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import PASS, Readings, SymAction, SymState


@dataclass(frozen=True, slots=True)
class InPlay:
    """A bound on a quantity that play builds up from 0 (the chips a seat loses or wins during play, the
    points it scores in play), proved by a potential: with ``per_pass`` at least what one pass adds and
    ``per_card`` at least what one play adds (plus what the play raises the pass budget by, times
    ``per_pass``), ``quantity + per_card * cards in hands + per_pass * passes left`` never grows, so the
    quantity ends at most ``most``, that potential's largest value in an initial deal."""

    per_pass: int
    per_card: int
    most: int


def in_play_bound(
    enc: Encoding,
    players: int,
    rd: Readings,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    quantity: Quantity,
    certs: Certificates | None = None,
    key: str = "in play",
) -> InPlay | None:
    """The most ``quantity`` (of a state; 0 when a deal starts) can reach in a deal (``InPlay``), or None
    where a weight is not found or the potential is not proved to fall: ``in_play_bounds`` of one."""
    return in_play_bounds(enc, players, rd, fixed, [quantity], certs, key)[0]


def in_play_bounds(
    enc: Encoding,
    players: int,
    rd: Readings,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    quantities: Sequence[Quantity],
    certs: Certificates | None = None,
    key: str = "in play",
) -> list[InPlay | None]:
    """For each of ``quantities`` (of a state; 0 when a deal starts) the most it can reach in a deal
    (``InPlay``), or None where a weight is not found or the potential is not proved to fall.  Each weight is
    an Optimize over ``Inv`` and one step (with ``fixed``: e.g. the Comet at its starting value); the potential
    is then checked by Z3 (no step from an ``Inv`` state makes it grow, and the quantity is 0 in every
    initial deal), so a weight Z3 got wrong cannot make the bound unsound.  The quantities share the step's
    formula and each Z3 call (``maximise_all``, ``none_holds``: the most lost and the most won of
    a card-level encoding, 7.5 s -> 5 s of CPU, 2026-12-02); each answer is the one it would get alone.
    ``certs``, ``key``: the weights and the largest potential from stored certificates (``maxima``); the
    potential's checks are made in any case."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    step = [enc.invariant(s), enc.transition(s, a, t, rd), *fixed(s)]
    gained = [quantity(t) - quantity(s) for quantity in quantities]
    out: list[InPlay | None] = [None] * len(quantities)
    passes = maxima(certs, f"{players}p {key}: most gained by a pass", [*step, a.kind == PASS], gained)
    alive = [i for i, w in enumerate(passes) if w is not None]
    per_pass = {i: max(passes[i] or 0, 0) for i in alive}
    raised = enc.pass_budget(t) - enc.pass_budget(s)
    weighed = [gained[i] + per_pass[i] * raised for i in alive]
    cards = maxima(certs, f"{players}p {key}: most gained by a play", [*step, a.kind != PASS], weighed)
    per_card = {i: max(w, 0) for i, w in zip(alive, cards, strict=True) if w is not None}
    alive = [i for i in alive if i in per_card]

    def potential(i: int, x: SymState) -> z3.ArithRef:
        return per_card[i] * enc.cards_in_hands(x) + per_pass[i] * enc.pass_budget(x)

    init = enc.fresh_state("ip", players)
    zero = none_holds([enc.initial(init, rd)], [quantities[i](init) != 0 for i in alive], 2 * TIMEOUT_MS, None, False)
    alive = [i for i, ok in zip(alive, zero, strict=True) if ok]
    grows = {i: gained[i] > potential(i, s) - potential(i, t) for i in alive}
    if alive and not unsat_at_once(step, [grows[i] for i in alive]):
        for case in step_cases(enc, a):
            kept = none_holds(step, [grows[i] for i in alive], 2 * TIMEOUT_MS, case, True)
            alive = [i for i, ok in zip(alive, kept, strict=True) if ok]
    most = maxima(
        certs,
        f"{players}p {key}: largest potential dealt",
        [enc.initial(init, rd)],
        [potential(i, init) for i in alive],
    )
    for i, m in zip(alive, most, strict=True):
        out[i] = None if m is None else InPlay(per_pass[i], per_card[i], m)
    return out


def lost_in_play(s: SymState) -> z3.ArithRef:
    """The chips seat 0 has lost during play so far."""
    return -s.chips[0]


def won_in_play(s: SymState) -> z3.ArithRef:
    """The chips seat 0 has won during play so far."""
    return s.chips[0]


# A Comet value past which the most a seat loses or wins grows by the same amount per unit of value: the
# settlement (no more than a few thousand chips) no longer decides which deal is the worst.
LARGE_VALUE = 10_000


def in_comet_value(constraints: list[z3.BoolRef], objective: z3.ArithRef, value: z3.ArithRef) -> tuple[int, int] | None:
    """The most ``objective`` reaches as a function of the Comet's value ``value`` (free in
    ``constraints``): (a, b) with ``objective <= a + b*v`` for every v >= 0: ``in_comet_values`` of one."""
    return in_comet_values(constraints, [objective], value)[0]


def in_comet_values(
    constraints: list[z3.BoolRef],
    objectives: Sequence[z3.ArithRef],
    value: z3.ArithRef,
    certs: Certificates | None = None,
    key: str = "in the Comet's value",
) -> list[tuple[int, int] | None]:
    """For each of ``objectives``, the most it reaches as a function of the Comet's value ``value`` (free in
    ``constraints``): (a, b) with ``objective <= a + b*v`` for every v >= 0.  The line is guessed from two
    optima (a at v = 0, where it is exact; b the growth per unit of v at ``LARGE_VALUE``) and then proved
    by Z3 for every value (``bounded_in_value``); None if an optimum is not found in time or the line does
    not hold everywhere.  The objectives share each Optimize (``maximise_all``; ``certs``, ``key``: from
    stored certificates, ``maxima``)."""
    at_zero = maxima(certs, f"{key} at 0", [*constraints, value == 0], objectives)
    far = maxima(certs, f"{key} at {LARGE_VALUE}", [*constraints, value == LARGE_VALUE], objectives)
    further = maxima(certs, f"{key} at {LARGE_VALUE + 1}", [*constraints, value == LARGE_VALUE + 1], objectives)
    out: list[tuple[int, int] | None] = []
    for objective, a, x, y in zip(objectives, at_zero, far, further, strict=True):
        if a is None or x is None or y is None:
            out.append(None)
            continue
        slope = y - x
        out.append((a, slope) if bounded_in_value(constraints, objective, value, a, slope) else None)
    return out


def bounded_in_value(constraints: list[z3.BoolRef], objective: z3.ArithRef, value: z3.ArithRef, a: int, b: int) -> bool:
    """Proved: ``objective <= a + b*value`` for every ``value`` >= 0 under ``constraints``."""
    above = z3.And(*constraints, value >= 0, objective > a + b * value)
    return bool(solve_alone([above], TIMEOUT_MS).verdict == z3.unsat)
