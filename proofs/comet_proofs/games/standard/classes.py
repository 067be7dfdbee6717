"""The standard game's behaviour classes for the directed refinement check (``comet_proofs.catalogue``),
in groups the games that share its rules take (``CLASSES`` is all of them, in this order)."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, comet_caught, continues, g, goes_out, leads, out, restart, won
from comet_proofs.symbolic import (
    COMET,
    COMET_QUARTET,
    KING,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
)

# Passes, in every game with runs (the card-level and Red Nines encodings take these too).
PASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "pass, the turn goes on to the next seat",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, t.need == s.need, s.need > 0)),
    ),
    BehaviourClass("pass that restarts a stuck run", g(lambda e, s, a, t: restart(s, a, t))),
)

# A stuck run back at its last player (RUL-STUCK-RESTART).
STUCK: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "a stuck run's last player passes the new run on (RUL-STUCK-RESTART)",
        g(
            lambda e, s, a, t: z3.And(
                a.kind == PASS,
                s.need == 0,
                z3.Not(s.turn_played),
                s.to_move == s.last_player,
                e.naturals_of_mover(s) > 0,
            )
        ),
        readings=((("stuck_restart", "may"),),),
    ),
    BehaviourClass(
        "a stuck run's last player leads the new run",
        g(
            lambda e, s, a, t: z3.And(
                a.kind == NATURAL, s.need == 0, z3.Not(s.turn_played), s.to_move == s.last_player, z3.Not(out(e, t))
            )
        ),
        readings=((), (("stuck_restart", "may"),)),
    ),
)

# Natural cards on a run, in every counting encoding.
NATURALS: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "natural card leads a run",
        leads(NATURAL),
    ),
    BehaviourClass(
        "natural card continues the run",
        continues(NATURAL),
    ),
    BehaviourClass(
        "natural King stops the run",
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, a.rank == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass("natural card goes out", g(lambda e, s, a, t: z3.And(a.kind == NATURAL, won(t)))),
)

# Four of a kind, the three natural 9s, the Comet leading and continuing.
SETS_AND_COMET: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "four of a kind",
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank != NINE, z3.Not(out(e, t)))),
        readings=((("quartet_on_lead", False),), (("quartet_on_lead", True),)),
    ),
    BehaviourClass(
        "four of a kind goes out",
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank != NINE, won(t))),
    ),
    BehaviourClass(
        "the three natural 9s without the Comet",
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank == NINE)),
    ),
    BehaviourClass(
        "the three natural 9s with the Comet",
        g(lambda e, s, a, t: a.kind == COMET_QUARTET),
        readings=((("comet_in_quartet", True),),),
    ),
    BehaviourClass(
        "the Comet leads a run",
        leads(COMET),
    ),
    BehaviourClass(
        "the Comet continues the run",
        continues(COMET),
        readings=((), (("comet_requires_missing", True),)),
    ),
)

# RUL-COMET-RANK = any_rank.
COMET_ANY_RANK: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "the Comet stands for another rank than the one needed",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank != s.need)),
        readings=((("comet_as", "any_rank"),),),
    ),
)

# Going out on the Comet, and a loser caught with it.
COMET_LAST: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "the Comet played last as a 9",
        goes_out(COMET, as_nine=True),
        readings=((), (("comet_bonus_last", "plain"),)),
    ),
    BehaviourClass(
        "the Comet played last, not as a 9",
        goes_out(COMET, as_nine=False),
        readings=((), (("comet_bonus_last", "plain"),)),
    ),
    BehaviourClass("a loser is caught with the Comet at settlement", g(lambda e, s, a, t: comet_caught(e, t))),
)

# The Comet at an escalated value (games whose Comet escalates).
ESCALATED: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "the Comet played at an escalated value",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, z3.Not(out(e, t)))),
        escalated=True,
    ),
    BehaviourClass(
        "going out on the Comet as a 9 at an escalated value",
        goes_out(COMET, as_nine=True),
        escalated=True,
    ),
)

# RUL-COMET-AFTER = optional_restart.
COMET_AFTER: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "the Comet keeps the run going (optional restart)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, t.free_lead)),
        readings=((("comet_after", "optional_restart"),),),
    ),
    BehaviourClass(
        "the free lead after the Comet",
        g(lambda e, s, a, t: z3.And(s.free_lead, a.kind == NATURAL, a.rank != s.need)),
        readings=((("comet_after", "optional_restart"),),),
    ),
)

# Passes that decline a run (RUL-NEW-RUN, RUL-MUST-CONTINUE).
DECLINING: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "a pass declines the new run",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0, s.turn_played)),
        readings=((("new_run", "may"),),),
    ),
    BehaviourClass(
        "a pass stops early",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need > 0, s.turn_played, e.mover_count(s, s.need) > 0)),
        readings=((("may_stop_early", True),),),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = (
    PASSES + STUCK + NATURALS + SETS_AND_COMET + COMET_ANY_RANK + COMET_LAST + ESCALATED + COMET_AFTER + DECLINING
)
