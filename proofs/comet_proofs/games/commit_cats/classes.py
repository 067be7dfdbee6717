"""Commit as 002 tells it: the standard game's passes, the card-level encodings' classes, and its own."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, g, out, won
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_classes import COMMIT, branch, plays_card
from comet_proofs.games.commit_common import SuitedEncoding
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    KING,
    PASS,
    SymState,
)


def _holds_next(e: Encoding, s: SymState) -> z3.BoolRef:
    """The mover holds a natural card that continues the run (a suited encoding; false for any other)."""
    if not isinstance(e, SuitedEncoding):
        return z3.BoolVal(False)
    return e.mover_holds_wanted(s, natural_only=True)


CATS: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit 002: the Comet (9D) continues the run and opens a branch",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, branch(t) != 0)),
    ),
    BehaviourClass(
        "Commit 002: the Comet ends the run (stop reading)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank != KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("commit_comet", "stop"),),),
    ),
    BehaviourClass(
        "Commit 002: the replaced card played on the branch",
        g(lambda e, s, a, t: z3.And(plays_card(a), branch(s) != 0, a.rank == branch(s))),
    ),
    BehaviourClass(
        "Commit 002: the Comet as a King",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == KING)),
        readings=((), (("commit_comet_king", "comet_and_king"),)),
    ),
    BehaviourClass(
        "Commit 002: a hand of only the 9D goes out as a 9 (RUL-COMMIT-C-COMET-LEAD = last_resort)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, a.rank == 9, won(t))),
        readings=((("commit_comet_lead", "last_resort"),),),
    ),
    BehaviourClass(
        "Commit 002: the Comet leads as the King and its player leads again (RUL-COMMIT-C-COMET-LEAD)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, a.rank == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit 002: going out on the Comet during a run",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, won(t))),
    ),
    BehaviourClass(
        "Commit 002: the new run passed to the left neighbour (RUL-CATS-NEW-RUN)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0, branch(s) == 0)),
        readings=((("cats_new_run", "may"),),),
    ),
    BehaviourClass(
        "Commit 002: a player holding the next card says Without (RUL-COMMIT-C-CONTINUE)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need > 0, s.turn_played, _holds_next(e, s))),
        readings=((("cats_continue", "may"),),),
    ),
    BehaviourClass(
        "Commit 002: the Comet skips ahead in the suit (RUL-COMMIT-C-COMET-CARD = any_higher)",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank > s.need, z3.Not(out(e, t)))),
        readings=((("commit_comet_card", "any_higher"),),),
    ),
    BehaviourClass(
        "Commit 002: a card before a missing one ends the run (RUL-COMMIT-C-STOPS = missing_successor)",
        g(lambda e, s, a, t: z3.And(plays_card(a), a.rank / 4 < KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("commit_stops", "missing_successor"),),),
    ),
    BehaviourClass(
        "Commit 002: the replaced card lapses with its player's turn (RUL-COMMIT-C-REPLACED = player_only)",
        g(lambda e, s, a, t: z3.And(a.kind == PASS, branch(s) != 0, branch(t) == 0, t.need > 0)),
        readings=((("commit_comet_branch", "player_only"),),),
    ),
    BehaviourClass(
        "Commit 002: the lowest card leads (rank then suit)",
        g(lambda e, s, a, t: z3.And(plays_card(a), s.need == 0, branch(s) == 0)),
        readings=((("commit_lowest", "rank_then_suit"),),),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = standard.PASSES + COMMIT + CATS
