"""The catalogue of behaviour classes the directed refinement check (``refine.py``) must witness.

A behaviour class is data: a name, the presets it applies to, a guard over one symbolic step
``(s, a, s2, rd)`` of the preset's encoding, and the reading combinations to witness it under (each a
tuple of ``(ruling field, reading)`` pairs on top of the preset's own readings; ``()`` is the preset as
it is).  ``refine`` asks Z3 for ``Inv(s) ∧ T(s, a, s2) ∧ guard`` under each reading combination, turns
the answer into a real ``DealState`` and compares the model with the encoding there.  A class without a
witness fails the check: either the encoding cannot make that step at all (a contradictory effect) or
the catalogue names a behaviour the game does not have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import (
    CARD,
    COMET,
    COMET_QUARTET,
    GROUP_BASE,
    KING,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)

Guard = Callable[[Encoding, SymState, SymAction, SymState, Readings], z3.BoolRef]
Overrides = tuple[tuple[str, object], ...]

STANDARD_FAMILY = ("standard", "opera", "two_player", "old_comet")
CHIPS_FAMILY = ("standard", "opera", "old_comet")
ALL_PRESETS = ("standard", "opera", "two_player", "old_comet", "red_nines", "commit_hoyle", "commit_cats")
COUNTING = ("standard", "opera", "two_player", "old_comet", "red_nines")
COMMIT = ("commit_hoyle", "commit_cats")


@dataclass(frozen=True, slots=True)
class BehaviourClass:
    """One kind of step the refinement check must find and check for each preset in ``presets``."""

    name: str
    presets: tuple[str, ...]
    guard: Guard
    readings: tuple[Overrides, ...] = ((),)
    # A class about the Comet's value: its witnesses keep the Comet's value above the start value.
    escalated: bool = False


# ---------------------------------------------------------------- helpers over one step


def out(enc: Encoding, s2: SymState) -> z3.BoolRef:
    """The step ends the deal (someone went out, or an Opera draw)."""
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


# ---------------------------------------------------------------- the standard game and its relatives

STANDARD_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "pass, the turn goes on to the next seat",
        ALL_PRESETS,
        g(lambda e, s, a, t: z3.And(a.kind == PASS, t.need == s.need, s.need > 0)),
    ),
    BehaviourClass("pass that restarts a stuck run", ALL_PRESETS, g(lambda e, s, a, t: restart(s, a, t))),
    BehaviourClass(
        "a stuck run's last player passes the new run on (RUL-STUCK-RESTART)",
        STANDARD_FAMILY,
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
        STANDARD_FAMILY,
        g(
            lambda e, s, a, t: z3.And(
                a.kind == NATURAL, s.need == 0, z3.Not(s.turn_played), s.to_move == s.last_player, z3.Not(out(e, t))
            )
        ),
        readings=((), (("stuck_restart", "may"),)),
    ),
    BehaviourClass(
        "natural card leads a run",
        COUNTING,
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, s.need == 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "natural card continues the run",
        COUNTING,
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, s.need > 0, a.rank == s.need, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "natural King stops the run",
        COUNTING,
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, a.rank == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass("natural card goes out", COUNTING, g(lambda e, s, a, t: z3.And(a.kind == NATURAL, won(t)))),
    BehaviourClass(
        "four of a kind",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank != NINE, z3.Not(out(e, t)))),
        readings=((("quartet_on_lead", False),), (("quartet_on_lead", True),)),
    ),
    BehaviourClass(
        "four of a kind goes out",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank != NINE, won(t))),
    ),
    BehaviourClass(
        "the three natural 9s without the Comet",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank == NINE)),
    ),
    BehaviourClass(
        "the three natural 9s with the Comet",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: a.kind == COMET_QUARTET),
        readings=((("comet_in_quartet", True),),),
    ),
    BehaviourClass(
        "the Comet leads a run",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "the Comet continues the run",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank == s.need, z3.Not(out(e, t)))),
        readings=((), (("comet_requires_missing", True),)),
    ),
    BehaviourClass(
        "the Comet stands for another rank than the one needed",
        ("standard", "opera", "two_player"),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank != s.need)),
        readings=((("comet_as", "any_rank"),),),
    ),
    BehaviourClass(
        "the Comet played last as a 9",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == NINE, won(t))),
        readings=((), (("comet_bonus_last", "plain"),)),
    ),
    BehaviourClass(
        "the Comet played last, not as a 9",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank != NINE, won(t))),
        readings=((), (("comet_bonus_last", "plain"),)),
    ),
    BehaviourClass(
        "a loser is caught with the Comet at settlement", STANDARD_FAMILY, g(lambda e, s, a, t: comet_caught(e, t))
    ),
    BehaviourClass(
        "the Comet played at an escalated value",
        ("standard", "opera", "old_comet"),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, z3.Not(out(e, t)))),
        escalated=True,
    ),
    BehaviourClass(
        "going out on the Comet as a 9 at an escalated value",
        ("standard", "opera", "old_comet"),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == NINE, won(t))),
        escalated=True,
    ),
    BehaviourClass(
        "the Comet keeps the run going (optional restart)",
        ("standard", "opera", "two_player"),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, t.free_lead)),
        readings=((("comet_after", "optional_restart"),),),
    ),
    BehaviourClass(
        "the free lead after the Comet",
        ("standard", "opera", "two_player"),
        g(lambda e, s, a, t: z3.And(s.free_lead, a.kind == NATURAL, a.rank != s.need)),
        readings=((("comet_after", "optional_restart"),),),
    ),
    BehaviourClass(
        "a pass declines the new run",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0, s.turn_played)),
        readings=((("new_run", "may"),),),
    ),
    BehaviourClass(
        "a pass stops early",
        STANDARD_FAMILY,
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need > 0, s.turn_played, e.mover_count(s, s.need) > 0)),
        readings=((("may_stop_early", True),),),
    ),
)


def _first(s: SymState) -> z3.ArithRef:
    return extra_or(s, "first_turn")


OPERA_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Opera: going out in the first turn (doubled)",
        ("opera",),
        g(lambda e, s, a, t: z3.And(_first(s) == 1, won(t))),
        readings=((), (("opera_stack", "highest"),)),
    ),
    BehaviourClass(
        "Opera: going out in the first turn on the Comet",
        ("opera",),
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
        ("opera",),
        g(lambda e, s, a, t: z3.And(_first(s) == 1, comet_caught(e, t))),
        readings=((), (("opera_caught", "highest"),)),
    ),
    BehaviourClass(
        "Opera: the draw (the dealer could have gone out too)",
        ("opera",),
        g(lambda e, s, a, t: extra_or(t, "drawn") == 1),
    ),
    BehaviourClass(
        "Opera: going out after the first turn", ("opera",), g(lambda e, s, a, t: z3.And(_first(s) == 0, won(t)))
    ),
)

TWO_PLAYER_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "two-player doubling: the loser caught with the Comet",
        ("two_player",),
        g(lambda e, s, a, t: z3.And(comet_caught(e, t), a.kind == NATURAL)),
    ),
    BehaviourClass(
        "two-player doubling: going out on the Comet",
        ("two_player",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, won(t))),
    ),
)

OLD_COMET_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Old Comet: an Ace leads (Ace low)",
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(a.kind == NATURAL, a.rank == 1, s.need == 0)),
    ),
    BehaviourClass(
        "Old Comet: the manille stands for a King",
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == KING, z3.Not(out(e, t)))),
        readings=((), (("old_manille_king", "manille_and_king"),)),
    ),
    BehaviourClass(
        "Old Comet: the four Kings at once",
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(a.kind == QUARTET, a.rank == KING)),
        readings=((), (("old_king_quartet", "per_play"),)),
    ),
    BehaviourClass(
        "Old Comet: a stuck run pays its last player", ("old_comet",), g(lambda e, s, a, t: restart(s, a, t))
    ),
    BehaviourClass(
        "Old Comet: a play ends the run (RUL-OLD-LAST-CARD)",
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(a.kind != PASS, t.need == 0, z3.Not(out(e, t)))),
        readings=((), (("old_last_card", "every_run_end"),)),
    ),
    BehaviourClass(
        "Old Comet: the manille caught at settlement",
        ("old_comet",),
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
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(won(t), _loser_holds_courts(t))),
        readings=((), (("old_court_points", "rank"),)),
    ),
    BehaviourClass(
        "Old Comet: going out on the manille",
        ("old_comet",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, won(t))),
        readings=((), (("old_manille_last", "multiplied"),), (("old_bonus_last", "multiplied"),)),
    ),
)


def _loser_holds_courts(s2: SymState) -> z3.BoolRef:
    """A loser still holds a Jack, Queen or King (RUL-OLD-COURT-POINTS decides what they are worth)."""
    courts = [i for i, r in enumerate(s2.ranks) if r > 10]
    return z3.Or([z3.And(s2.winner != p, z3.Or([s2.hands[p][i] > 0 for i in courts])) for p in range(s2.players)])


# ---------------------------------------------------------------- Red Nines


def _loser_with_red_nines(s2: SymState, least: int) -> z3.BoolRef:
    return z3.And(
        won(s2),
        z3.Or([z3.And(s2.winner != p, s2.x(f"wild{p}") >= least) for p in range(s2.players)]),
    )


RED_NINES_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Red Nines: a red nine leads a run",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, z3.Not(out(e, t)))),
        readings=((), (("red_nines_lead", "last_resort"),)),
    ),
    BehaviourClass(
        "Red Nines: a player holding the next rank passes (RUL-RED9-CONTINUE)",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need > 0, s.need <= KING, e.mover_count(s, s.need) >= 1)),
        readings=((("red_nines_continue", "may"),),),
    ),
    BehaviourClass(
        "Red Nines: a red nine continues the run",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Red Nines: the new run passed to the left neighbour (RUL-CATS-NEW-RUN)",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0)),
        readings=((("cats_new_run", "may"),),),
    ),
    BehaviourClass(
        "Red Nines: a red nine ends the run (RUL-RED9-NINE-STOP)",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank != KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("red_nines_wild_stop", "stop"),),),
    ),
    BehaviourClass(
        "Red Nines: a King of another suit leaves the run standing (RUL-RED9-KING = suit_king)",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == 6, t.need == KING + 1, z3.Not(out(e, t)))),
        readings=((("red_nines_king", "suit_king"),),),
    ),
    BehaviourClass(
        "Red Nines: a run standing at a King is passed on (RUL-RED9-KING = suit_king)",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == KING + 1)),
        readings=((("red_nines_king", "suit_king"),),),
    ),
    BehaviourClass(
        "Red Nines: going out on a red nine as a 9",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == NINE, won(t))),
        readings=((), (("red_nines_out", "like_comet"),)),
    ),
    BehaviourClass(
        "Red Nines: going out on a red nine, not as a 9",
        ("red_nines",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank != NINE, won(t))),
    ),
    BehaviourClass(
        "Red Nines: the first play, a group of one rank",
        ("red_nines",),
        g(lambda e, s, a, t: a.kind >= GROUP_BASE + 2),
        readings=((), (("red_nines_first", "all"),)),
    ),
    BehaviourClass(
        "Red Nines: a loser holding a red nine (penalty doubled)",
        ("red_nines",),
        g(lambda e, s, a, t: _loser_with_red_nines(t, 1)),
    ),
    BehaviourClass(
        "Red Nines: a loser holding two or more red nines",
        ("red_nines",),
        g(lambda e, s, a, t: _loser_with_red_nines(t, 2)),
        readings=((), (("red_nines_many", "cap_four"),)),
    ),
)


# ---------------------------------------------------------------- Commit (card-level encodings)


def _card(a: SymAction) -> z3.BoolRef:
    return a.kind == CARD


def _nine_d() -> int:
    from comet_proofs.games.commit_common import NINE_D

    return NINE_D


def _branch(s: SymState) -> z3.ArithRef:
    return s.x("branch")


def _holds_nine_d(e: Encoding, s: SymState) -> z3.ArithRef:
    from comet_proofs.games.commit_common import loc_name

    return s.x(loc_name(_nine_d()))


def _commit_caught(e: Encoding, t: SymState) -> z3.BoolRef:
    where = _holds_nine_d(e, t)
    return z3.And(won(t), where >= 0, where != t.winner)


def _nine_d_loc(s: SymState) -> z3.ArithRef:
    from comet_proofs.games.commit_common import NINE_D, loc_name

    return s.x(loc_name(NINE_D))


def _kings_held(t: SymState) -> z3.BoolRef:
    from comet.cards import card

    from comet_proofs.games.commit_common import loc_name

    kings = [t.x(loc_name(card(KING, suit))) for suit in range(4)]
    return z3.And(won(t), z3.Or([z3.And(k >= 0, k != t.winner) for k in kings]))


COMMIT_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit: a card leads a run",
        COMMIT,
        g(lambda e, s, a, t: z3.And(_card(a), s.need == 0, _branch(s) == 0, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit: the next card of the suit continues the run",
        COMMIT,
        g(lambda e, s, a, t: z3.And(_card(a), s.need > 0, a.rank == s.need * 4 + s.x("suit"), z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit: a King stops the run",
        COMMIT,
        g(lambda e, s, a, t: z3.And(_card(a), a.rank / 4 == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass("Commit: a card goes out", COMMIT, g(lambda e, s, a, t: z3.And(_card(a), won(t)))),
    BehaviourClass("Commit: a loser caught with the 9D", COMMIT, g(lambda e, s, a, t: _commit_caught(e, t))),
)

HOYLE_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit 000: the 9D instead of 'without' (opens the 10D branch)",
        ("commit_hoyle",),
        g(lambda e, s, a, t: z3.And(_card(a), a.rank == _nine_d(), s.need > 0, z3.Not(out(e, t)))),
        readings=((), (("commit_nine_when", "without_only"),)),
    ),
    BehaviourClass(
        "Commit 000: the 9D instead of 'pass' (nothing played this turn)",
        ("commit_hoyle",),
        g(
            lambda e, s, a, t: z3.And(
                _card(a), a.rank == _nine_d(), s.need > 0, a.rank != s.need * 4 + s.x("suit"), z3.Not(s.turn_played)
            )
        ),
    ),
    BehaviourClass(
        "Commit 000: the 9D leads a run (RUL-COMMIT-H-NINE-LEAD = last_resort: as the last card)",
        ("commit_hoyle",),
        g(lambda e, s, a, t: z3.And(_card(a), a.rank == _nine_d(), s.need == 0, _branch(s) == 0)),
        readings=((), (("commit_nine_lead", "last_resort"),)),
    ),
    BehaviourClass(
        "Commit 000: another card leads while the mover holds the 9D (RUL-COMMIT-H-NINE-LEAD = last_resort)",
        ("commit_hoyle",),
        g(
            lambda e, s, a, t: z3.And(
                _card(a), a.rank != _nine_d(), s.need == 0, _branch(s) == 0, _nine_d_loc(s) == s.to_move
            )
        ),
        readings=((("commit_nine_lead", "last_resort"),),),
    ),
    BehaviourClass(
        "Commit 000: the 10D taken on the 9D's branch",
        ("commit_hoyle",),
        g(
            lambda e, s, a, t: z3.And(
                _card(a), _branch(s) != 0, a.rank == _branch(s), a.rank != s.need * 4 + s.x("suit")
            )
        ),
    ),
    BehaviourClass(
        "Commit 000: the 7D stops the run",
        ("commit_hoyle",),
        g(lambda e, s, a, t: z3.And(_card(a), a.rank == 7 * 4 + 1, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit 000: a card whose successor is face down stops the run",
        ("commit_hoyle",),
        g(
            lambda e, s, a, t: z3.And(
                _card(a), a.rank / 4 < KING, a.rank != 7 * 4 + 1, a.rank != _nine_d(), t.need == 0, z3.Not(out(e, t))
            )
        ),
        readings=((("commit_rest", "stop_cards"),),),
    ),
    BehaviourClass(
        "Commit 000: the 9D's branch lapses after the next player",
        ("commit_hoyle",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, _branch(s) != 0, _branch(t) == 0, t.need > 0)),
        readings=((("commit_nine_branch", "next_player"),),),
    ),
    BehaviourClass(
        "Commit 000: after a led 9D its player goes on with the 10D (RUL-COMMIT-H-NINE-LEAD-TURN = goes_on)",
        ("commit_hoyle",),
        g(lambda e, s, a, t: z3.And(_card(a), s.turn_played, s.x("nine_last") == 1, _branch(s) == 0)),
        readings=((("commit_nine_lead_turn", "goes_on"),),),
    ),
    BehaviourClass(
        "Commit 000: Kings left in hand at the end",
        ("commit_hoyle",),
        g(lambda e, s, a, t: _kings_held(t)),
        readings=((), (("commit_king_payer", "others"),)),
    ),
)

CATS_CLASSES: tuple[BehaviourClass, ...] = (
    BehaviourClass(
        "Commit 002: the Comet (9D) continues the run and opens a branch",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, _branch(t) != 0)),
    ),
    BehaviourClass(
        "Commit 002: the Comet ends the run (stop reading)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank != KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("commit_comet", "stop"),),),
    ),
    BehaviourClass(
        "Commit 002: the replaced card played on the branch",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(_card(a), _branch(s) != 0, a.rank == _branch(s))),
    ),
    BehaviourClass(
        "Commit 002: the Comet as a King",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, a.rank == KING)),
        readings=((), (("commit_comet_king", "comet_and_king"),)),
    ),
    BehaviourClass(
        "Commit 002: a hand of only the 9D goes out as a 9 (RUL-COMMIT-C-COMET-LEAD = last_resort)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, a.rank == 9, won(t))),
        readings=((("commit_comet_lead", "last_resort"),),),
    ),
    BehaviourClass(
        "Commit 002: the Comet leads as the King and its player leads again (RUL-COMMIT-C-COMET-LEAD)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need == 0, a.rank == KING, z3.Not(out(e, t)))),
    ),
    BehaviourClass(
        "Commit 002: going out on the Comet during a run",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, won(t))),
    ),
    BehaviourClass(
        "Commit 002: the new run passed to the left neighbour (RUL-CATS-NEW-RUN)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, s.need == 0, _branch(s) == 0)),
        readings=((("cats_new_run", "may"),),),
    ),
    BehaviourClass(
        "Commit 002: the Comet skips ahead in the suit (RUL-COMMIT-C-COMET-CARD = any_higher)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, a.rank > s.need, z3.Not(out(e, t)))),
        readings=((("commit_comet_card", "any_higher"),),),
    ),
    BehaviourClass(
        "Commit 002: a card before a missing one ends the run (RUL-COMMIT-C-STOPS = missing_successor)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(_card(a), a.rank / 4 < KING, t.need == 0, z3.Not(out(e, t)))),
        readings=((("commit_stops", "missing_successor"),),),
    ),
    BehaviourClass(
        "Commit 002: the replaced card lapses with its player's turn (RUL-COMMIT-C-REPLACED = player_only)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(a.kind == PASS, _branch(s) != 0, _branch(t) == 0, t.need > 0)),
        readings=((("commit_comet_branch", "player_only"),),),
    ),
    BehaviourClass(
        "Commit 002: the lowest card leads (rank then suit)",
        ("commit_cats",),
        g(lambda e, s, a, t: z3.And(_card(a), s.need == 0, _branch(s) == 0)),
        readings=((("commit_lowest", "rank_then_suit"),),),
    ),
)

CATALOGUE: tuple[BehaviourClass, ...] = (
    STANDARD_CLASSES
    + OPERA_CLASSES
    + TWO_PLAYER_CLASSES
    + OLD_COMET_CLASSES
    + RED_NINES_CLASSES
    + COMMIT_CLASSES
    + HOYLE_CLASSES
    + CATS_CLASSES
)


def classes_for(preset: str) -> tuple[BehaviourClass, ...]:
    """The behaviour classes of ``preset``, in catalogue order."""
    return tuple(c for c in CATALOGUE if preset in c.presets)
