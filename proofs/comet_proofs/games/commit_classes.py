"""What the two Commit encodings share for the directed refinement check: behaviour classes of the card-level
encodings (``COMMIT``) and their guards' helpers."""

from __future__ import annotations

import z3
from comet.cards import card

from comet_proofs.catalogue import BehaviourClass, g, out, won
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import NINE_D, loc_name
from comet_proofs.symbolic import (
    CARD,
    KING,
    SymAction,
    SymState,
)


def plays_card(a: SymAction) -> z3.BoolRef:
    """The action plays one card (the card-level encodings' kind ``CARD``)."""
    return a.kind == CARD


def branch(s: SymState) -> z3.ArithRef:
    """The card the 9D's branch allows (0: no branch open)."""
    return s.x("branch")


def nine_d_loc(s: SymState) -> z3.ArithRef:
    """Where the 9D is: a seat, or the pile's or dead hand's code."""
    return s.x(loc_name(NINE_D))


def commit_caught(e: Encoding, t: SymState) -> z3.BoolRef:
    """The deal is won while a loser still holds the 9D."""
    where = nine_d_loc(t)
    return z3.And(won(t), where >= 0, where != t.winner)


def kings_held(t: SymState) -> z3.BoolRef:
    """The deal is won while a loser still holds a King."""
    kings = [t.x(loc_name(card(KING, suit))) for suit in range(4)]
    return z3.And(won(t), z3.Or([z3.And(k >= 0, k != t.winner) for k in kings]))


COMMIT: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit: a card leads a run",
        g(lambda e, s, a, t: z3.And(plays_card(a), s.need == 0, branch(s) == 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit: the next card of the suit continues the run",
        g(lambda e, s, a, t: z3.And(plays_card(a), s.need > 0, a.rank == s.need * 4 + s.x("suit"), z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit: a King stops the run",
        g(lambda e, s, a, t: z3.And(plays_card(a), a.rank / 4 == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass("Commit: a card goes out", g(lambda e, s, a, t: z3.And(plays_card(a), won(t)))),
    BehaviourClass("Commit: a loser caught with the 9D", g(lambda e, s, a, t: commit_caught(e, t))),
)
