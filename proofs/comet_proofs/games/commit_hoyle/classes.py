"""Commit as 000 tells it: the standard game's passes, the card-level encodings' classes, and its own."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, g, out
from comet_proofs.games.commit_classes import COMMIT, branch, kings_held, nine_d_loc, plays_card
from comet_proofs.games.commit_common import NINE_D
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    KING,
    PASS,
)

HOYLE: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit 000: the 9D instead of 'without' (opens the 10D branch)",
        g(lambda e, s, a, t: z3.And(plays_card(a), a.rank == NINE_D, s.need > 0, z3.Not(out(e, t)))),
        readings=((), (("commit_nine_when", "without_only"),)),
    ),
    BehaviourClass(
        "Commit 000: the 9D instead of 'pass' (nothing played this turn)",
        g(
            lambda e, s, a, t: z3.And(
                plays_card(a), a.rank == NINE_D, s.need > 0, a.rank != s.need * 4 + s.x("suit"), z3.Not(s.turn_played)
            )
        ),
    ),
    BehaviourClass(
        "Commit 000: the 9D leads a run (RUL-COMMIT-H-NINE-LEAD = last_resort: as the last card)",
        g(lambda e, s, a, t: z3.And(plays_card(a), a.rank == NINE_D, s.need == 0, branch(s) == 0)),
        readings=((), (("commit_nine_lead", "last_resort"),)),
    ),
    BehaviourClass(
        "Commit 000: another card leads while the mover holds the 9D (RUL-COMMIT-H-NINE-LEAD = last_resort)",
        g(
            lambda e, s, a, t: z3.And(
                plays_card(a), a.rank != NINE_D, s.need == 0, branch(s) == 0, nine_d_loc(s) == s.to_move
            )
        ),
        readings=((("commit_nine_lead", "last_resort"),),),
    ),
    BehaviourClass(
        "Commit 000: the 10D taken on the 9D's branch",
        g(
            lambda e, s, a, t: z3.And(
                plays_card(a), branch(s) != 0, a.rank == branch(s), a.rank != s.need * 4 + s.x("suit")
            )
        ),
    ),
    BehaviourClass(
        "Commit 000: the 7D stops the run",
        g(lambda e, s, a, t: z3.And(plays_card(a), a.rank == 7 * 4 + 1, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit 000: a card whose successor is face down stops the run",
        g(
            lambda e, s, a, t: z3.And(
                plays_card(a), a.rank / 4 < KING, a.rank != 7 * 4 + 1, a.rank != NINE_D, t.need == 0, z3.Not(out(e, t))
            )
        ),
        readings=((("commit_rest", "stop_cards"),),),
    ),
    BehaviourClass(
        "Commit 000: the 9D's branch lapses after the next player",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, branch(s) != 0, branch(t) == 0, t.need > 0)),
        readings=((("commit_nine_branch", "next_player"),),),
    ),
    BehaviourClass(
        "Commit 000: after a led 9D its player goes on with the 10D (RUL-COMMIT-H-NINE-LEAD-TURN = goes_on)",
        g(lambda e, s, a, t: z3.And(plays_card(a), s.turn_played, s.x("nine_last") == 1, branch(s) == 0)),
        readings=((("commit_nine_lead_turn", "goes_on"),),),
    ),
    BehaviourClass(
        "Commit 000: Kings left in hand at the end",
        g(lambda e, s, a, t: kings_held(t)),
        readings=((), (("commit_king_payer", "others"),)),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = standard.PASSES + COMMIT + HOYLE
