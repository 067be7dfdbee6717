"""Old Comet's behaviour classes: the standard game's but RUL-COMET-RANK's and RUL-COMET-AFTER's other
readings (Old Comet's encoding does not quantify them), its own, and the Opera's with ``opera`` on."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import BehaviourClass, comet_caught, extra_or, g, out, restart, won
from comet_proofs.games.opera.classes import OPERA_OPTION
from comet_proofs.games.standard import classes as standard
from comet_proofs.symbolic import (
    COMET,
    KING,
    NATURAL,
    PASS,
    QUARTET,
    SymState,
)


def _loser_holds_courts(s2: SymState) -> z3.BoolRef:
    """A loser still holds a Jack, Queen or King (RUL-OLD-COURT-POINTS decides what they are worth)."""
    courts = [i for i, r in enumerate(s2.ranks) if r > 10]
    return z3.Or([z3.And(s2.winner != p, z3.Or([s2.hands[p][i] > 0 for i in courts])) for p in range(s2.players)])


OLD_COMET: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Old Comet: an Ace leads (Ace low)",
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, a.rank == 1, s.need == 0)),
    ),
    BehaviourClass(
        "Old Comet: the manille stands for a King",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == KING, z3.Not(out(e, t)))),
        readings=((), (("old_manille_king", "manille_and_king"),)),
    ),
    BehaviourClass(
        "Old Comet: the four Kings at once",
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank == KING)),
        readings=((), (("old_king_quartet", "per_play"),)),
    ),
    BehaviourClass("Old Comet: a stuck run pays its last player", g(lambda e, s, a, t: restart(s, a, t))),
    BehaviourClass(
        "Old Comet: a play ends the run (RUL-OLD-LAST-CARD)",
        g(lambda e, s, a, t: z3.And(a.kind != PASS, t.need == 0, z3.Not(out(e, t)))),
        readings=((), (("old_last_card", "every_run_end"),)),
    ),
    BehaviourClass(
        "Old Comet: the manille caught at settlement",
        g(lambda e, s, a, t: comet_caught(e, t)),
        readings=(
            (),
            (("old_caught", "nine_only"),),
            (("old_caught_double", "doubled"),),
            (("old_caught_nine", "extra"),),
        ),
    ),
    BehaviourClass(
        "Old Comet: a loser pays for court cards",
        g(lambda e, s, a, t: z3.And(won(t), _loser_holds_courts(t))),
        readings=((), (("old_court_points", "rank"),)),
    ),
    BehaviourClass(
        "Old Comet: going out on the manille",
        g(lambda e, s, a, t: z3.And(a.kind == COMET, won(t))),
        readings=((), (("old_manille_last", "multiplied"),), (("old_bonus_last", "multiplied"),)),
    ),
)

# Old Comet's own Opera rulings: the caught manille's 10s doubled (RUL-OLD-OPERA-CAUGHT), the manille's bonus
# raised when the first player goes out on it (RUL-OLD-OPERA-BONUS, stacked on RUL-OLD-BONUS-LAST)
OLD_OPERA: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Old Comet: the manille caught in an Opera",
        g(lambda e, s, a, t: z3.And(extra_or(s, "first_turn") == 1, comet_caught(e, t))),
        readings=((("opera", True),), (("opera", True), ("old_opera_caught", "doubled"))),
    ),
    BehaviourClass(
        "Old Comet: going out on the manille in an Opera",
        g(lambda e, s, a, t: z3.And(extra_or(s, "first_turn") == 1, a.kind == COMET, won(t))),
        readings=(
            (("opera", True), ("old_opera_bonus", "doubled")),
            (("opera", True), ("old_opera_bonus", "doubled"), ("old_bonus_last", "multiplied")),
            (("opera", True), ("old_opera_bonus", "doubled"), ("opera_stack", "highest")),
        ),
    ),
)

CLASSES: tuple[BehaviourClass, ...] = (
    tuple(c for c in standard.CLASSES if c not in standard.COMET_ANY_RANK + standard.COMET_AFTER)
    + OLD_COMET
    + OPERA_OPTION
    + OLD_OPERA
)
