"""Red Nines' behaviour classes: the standard game's passes and natural runs, and its own."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, g, goes_out, leads, out, won
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    GROUP_BASE,
    KING,
    PASS,
    SymState,
)


def _loser_with_red_nines(s2: SymState, least: int) -> z3.BoolRef:
    return z3.And(
        won(s2),
        z3.Or([z3.And(s2.winner != p, s2.x(f"wild{p}") >= least) for p in range(s2.players)]),
    )


RED_NINES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Red Nines: a red nine leads a run",
        leads(COMET),
        readings=((), (("red_nines_lead", "last_resort"),)),
    ),
    BehaviourClass(
        "Red Nines: a player holding the next rank passes (RUL-RED9-CONTINUE)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need > 0, s.need <= KING, e.mover_count(s, s.need) >= 1)),
        readings=((("red_nines_continue", "may"),),),
    ),
    BehaviourClass(
        "Red Nines: a red nine stands for a rank its player holds (RUL-RED9-HOLDING)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank >= 1, a.rank <= KING, e.mover_count(s, a.rank) >= 1)),
    ),
    BehaviourClass(
        "Red Nines: a red nine continues the run",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Red Nines: the new run passed to the left neighbour (RUL-CATS-NEW-RUN)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0)),
        readings=((("cats_new_run", "may"),),),
    ),
    BehaviourClass(
        "Red Nines: a red nine ends the run (RUL-RED9-NINE-STOP)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank != KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("red_nines_wild_stop", "stop"),),),
    ),
    BehaviourClass(
        "Red Nines: a King of another suit leaves the run standing (RUL-RED9-KING = suit_king)",
        g(lambda e, s, a, t: z3.And(a.kind == 6, t.need == KING + 1, z3.Not(out(e, t)))),
        readings=((("red_nines_king", "suit_king"),),),
    ),
    BehaviourClass(
        "Red Nines: a run standing at a King is passed on (RUL-RED9-KING = suit_king)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == KING + 1)),
        readings=((("red_nines_king", "suit_king"),),),
    ),
    BehaviourClass(
        "Red Nines: going out on a red nine as a 9",
        goes_out(COMET, as_nine=True),
        readings=((), (("red_nines_out", "like_comet"),)),
    ),
    BehaviourClass(
        "Red Nines: going out on a red nine, not as a 9",
        goes_out(COMET, as_nine=False),
    ),
    BehaviourClass(
        "Red Nines: the first play, a group of one rank",
        g(lambda e, s, a, t: a.kind >= GROUP_BASE + 2),
        readings=((), (("red_nines_first", "all"),)),
    ),
    BehaviourClass(
        "Red Nines: a loser holding a red nine (penalty doubled)",
        g(lambda e, s, a, t: _loser_with_red_nines(t, 1)),
    ),
    BehaviourClass(
        "Red Nines: a loser holding two or more red nines",
        g(lambda e, s, a, t: _loser_with_red_nines(t, 2)),
        readings=((), (("red_nines_many", "cap_four"),)),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = standard.PASSES + standard.NATURALS + RED_NINES
