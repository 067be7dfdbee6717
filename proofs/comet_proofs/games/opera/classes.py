"""The Opera's behaviour classes: the standard game's, and the Opera's own."""

from __future__ import annotations

from dataclasses import replace

import z3

from comet_proofs.catalogue import BehaviourClass, comet_caught, extra_or, g, won
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    SymState,
)


def _first(s: SymState) -> z3.ArithRef:
    return extra_or(s, "first_turn")


OPERA: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Opera: going out in the first turn (doubled)",
        g(lambda e, s, a, t: z3.And(_first(s) == 1, won(t))),
        readings=((), (("opera_stack", "highest"),)),
    ),
    BehaviourClass(
        "Opera: going out in the first turn on the Comet",
        g(lambda e, s, a, t: z3.And(_first(s) == 1, won(t), a.kind == COMET)),
        readings=(
            (),
            (("opera_stack", "highest"),),
            (("opera_comet_bonus", "doubled"),),
            (("opera_comet_bonus", "doubled"), ("opera_stack", "highest"), ("comet_bonus_last", "plain")),
        ),
    ),
    BehaviourClass(
        "Opera: a loser caught with the Comet in an Opera",
        g(lambda e, s, a, t: z3.And(_first(s) == 1, comet_caught(e, t))),
        readings=((), (("opera_caught", "highest"),)),
    ),
    BehaviourClass(
        "Opera: the draw (the dealer could have gone out too)",
        g(lambda e, s, a, t: extra_or(t, "drawn") == 1),
    ),
    BehaviourClass("Opera: going out after the first turn", g(lambda e, s, a, t: z3.And(_first(s) == 0, won(t)))),
)

CLASSES: tuple[BehaviourClass, ...] = standard.CLASSES + OPERA


def switched_on(classes: tuple[BehaviourClass, ...]) -> tuple[BehaviourClass, ...]:
    """``classes`` for a game where the Opera is a ruling (``opera.option``): each reading combination with
    ``opera`` on (a reading the game does not quantify falls away in ``refine.reading_combinations``)."""
    return tuple(
        replace(c, name=f"{c.name} (opera on)", readings=tuple(((("opera", True),) + r) for r in c.readings))
        for c in classes
    )


# The Opera's classes for the two-player game and Old Comet (going out after the first turn is their own
# classes' business, with the Opera off or on alike).
OPERA_OPTION: tuple[BehaviourClass, ...] = switched_on(OPERA[:4])
