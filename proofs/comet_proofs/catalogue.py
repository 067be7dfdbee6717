"""The machinery of the behaviour classes the directed refinement check (``refine.py``) must witness; each game's
classes are in its folder (``comet_proofs/games/<name>/classes.py``: ``CLASSES``), found by discovery
(``refine.classes_for``).

A behaviour class is data: a name, a guard over one symbolic step ``(s, a, s2, rd)`` of the preset's
encoding, and the reading combinations to witness it under (each a tuple of ``(ruling field, reading)``
pairs on top of the preset's own readings; ``()`` is the preset as it is).  ``refine`` asks Z3 for
``Inv(s) ∧ T(s, a, s2) ∧ guard`` under each reading combination, turns the answer into a real
``DealState`` and compares the model with the encoding there.  A class without a witness fails the check:
either the encoding cannot make that step at all (a contradictory effect) or the game's classes name a
behaviour the game does not have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import NINE, PASS, Readings, SymAction, SymState

Guard = Callable[[Encoding, SymState, SymAction, SymState, Readings], z3.BoolRef]
Overrides = tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class BehaviourClass:
    """One kind of step the refinement check must find and check for each game whose ``CLASSES`` list it."""

    name: str
    guard: Guard
    readings: tuple[Overrides, ...] = ((),)
    # A class about the Comet's value: its witnesses keep the Comet's value above the start value.
    escalated: bool = False


# ---------------------------------------------------------------- helpers over one step


def out(enc: Encoding, s2: SymState) -> z3.BoolRef:
    """The step ends the deal (someone went out, or a drawn deal)."""
    return enc.terminal(s2)


def won(s2: SymState) -> z3.BoolRef:
    return s2.winner >= 0


def restart(s: SymState, a: SymAction, s2: SymState) -> z3.BoolRef:
    """A pass that brings a stuck run back to its last player, who starts a new one (R-STOP-STUCK)."""
    return z3.And(a.kind == PASS, s.need > 0, s2.need == 0)


def extra_or(s: SymState, name: str, default: int = 0) -> z3.ArithRef:
    return s.x(name) if any(k == name for k, _ in s.extra) else z3.IntVal(default)


def comet_caught(enc: Encoding, s2: SymState) -> z3.BoolRef:
    """The deal is won while a loser still holds the Comet (counting encodings)."""
    return z3.And(won(s2), s2.comet >= 0, s2.comet != s2.winner)


def g(f: Callable[[Encoding, SymState, SymAction, SymState], z3.BoolRef]) -> Guard:
    """A guard that does not look at the readings."""

    def guard(enc: Encoding, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        return f(enc, s, a, s2)

    return guard


def leads(kind: int) -> Guard:
    """An action of ``kind`` leads a new run, and the deal goes on."""
    return g(lambda e, s, a, t: z3.And(a.kind == kind, s.need == 0, z3.Not(out(e, t))))


def continues(kind: int) -> Guard:
    """An action of ``kind`` continues the run with the rank it needs, and the deal goes on."""
    return g(lambda e, s, a, t: z3.And(a.kind == kind, s.need > 0, a.rank == s.need, z3.Not(out(e, t))))


def goes_out(kind: int, as_nine: bool) -> Guard:
    """An action of ``kind`` is the winner's last card, standing for a 9 (``as_nine``) or for another rank."""
    if as_nine:
        return g(lambda e, s, a, t: z3.And(a.kind == kind, a.rank == NINE, won(t)))
    return g(lambda e, s, a, t: z3.And(a.kind == kind, a.rank != NINE, won(t)))
