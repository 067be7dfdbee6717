"""The two-player game's behaviour classes: the standard game's but the escalated Comet's (two players play
one deal at a time with the Comet at its start value), the two-player doubling, and the Opera's with ``opera`` on."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, comet_caught, g, won
from comet_proofs.games.opera.classes import OPERA_OPTION
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    GROUP_BASE,
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
    BehaviourClass(
        "RUL-2P-SETS: two or three of the rank needed at once (any_number)",
        g(lambda e, s, a, t: z3.And(a.kind >= GROUP_BASE + 2, s.need > 0)),
        readings=((("two_player_sets", "any_number"),),),
    ),
    BehaviourClass(
        "RUL-2P-SETS: a set of two or three leading (any_number, quartet_on_lead)",
        g(lambda e, s, a, t: z3.And(a.kind >= GROUP_BASE + 2, s.need == 0)),
        readings=((("two_player_sets", "any_number"), ("quartet_on_lead", True)),),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = (
    tuple(c for c in standard.CLASSES if c not in standard.ESCALATED) + TWO_PLAYER + OPERA_OPTION
)
