"""The two-player game's behaviour classes: the standard game's but the escalated Comet's (two players play
one deal at a time with the Comet at its start value), and the two-player doubling."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, comet_caught, g, won
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    NATURAL,
)

TWO_PLAYER: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "two-player doubling: the loser caught with the Comet",
        g(lambda e, s, a, t: z3.And(comet_caught(e, t), a.kind == NATURAL)),
    ),
    BehaviourClass(
        "two-player doubling: going out on the Comet",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, won(t))),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = tuple(c for c in standard.CLASSES if c not in standard.ESCALATED) + TWO_PLAYER
