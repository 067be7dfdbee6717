"""The card-level Commit encodings (``comet_proofs.games.commit_common``): how card conservation is stated.

A card's place is one variable, so "every card is in exactly one place" can be stated as a disjunction
(its place is one of the places: ``SuitedEncoding.card_conservation``) or as a count of 0/1 indicators
(``counted_conservation``).  The two must be the same fact for every player count, so that the proofs'
faster statement proves what the count says (RUL-COMMIT-H-DEAL, R-COMMIT-C-DEAL: every card of the deck
dealt, played or set aside).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import z3
from comet.cards import card_text
from comet_proofs.games.commit_common import DECK51, PLAYED, REMOVED, SuitedEncoding, held_name
from comet_proofs.obligation import Obligation, ProofResult, Round
from comet_proofs.obligations import obligations
from comet_proofs.registry import encoding_for
from comet_proofs.solving import LIA2CARD
from comet_proofs.symbolic import COMET, SymAction, SymState
from comet_proofs.terms import indicator

CARD_LEVEL = ("commit_hoyle", "commit_cats")


def conservation_mismatch(enc: SuitedEncoding, players: int) -> str | None:
    """A card where the encoding's card conservation and the count of its indicators disagree, or None
    (Z3 proves them equivalent).  Both are conjunctions of one fact per card over that card's place
    only, so they are compared card by card (the whole sums at once took Z3 29 s)."""
    s = enc.fresh_state("s", players)
    mine, counted = enc.card_conservation(s), enc.counted_conservation(s)
    assert mine.num_args() == counted.num_args() == len(DECK51)
    for c, one, other in zip(DECK51, mine.children(), counted.children(), strict=True):
        solver = z3.Solver()
        solver.add(one != other)
        if solver.check() == z3.unsat:
            continue
        place = solver.model().eval(enc.loc(s, c), model_completion=True)
        return f"card conservation and its count disagree at {players} players: {enc.loc(s, c)} = {place}"
    return None


@pytest.mark.parametrize("preset", CARD_LEVEL)
def test_card_conservation_is_the_count_of_its_indicators(preset: str) -> None:
    enc = encoding_for(preset)
    assert isinstance(enc, SuitedEncoding)
    for n in enc.player_counts:
        assert conservation_mismatch(enc, n) is None


class ForgetsRemoved(SuitedEncoding):
    """Bug: the disjunction leaves out the removed cards' place, so it is no longer the count."""

    def card_conservation(self, s: SymState) -> z3.BoolRef:
        places = (*range(s.players), PLAYED)
        return z3.And([z3.Or([self.loc(s, c) == place for place in places]) for c in DECK51])


def test_a_disjunction_that_is_not_the_count_is_reported() -> None:
    base = type(encoding_for("commit_hoyle"))
    planted = type("ForgetsRemoved_commit_hoyle", (ForgetsRemoved, base), {})()
    text = conservation_mismatch(planted, 4)
    assert text is not None and "disagree at 4 players" in text


# ---------------------------------------------------------------- card conservation's initial case through a form
# (``Encoding.initial_forms``): commit_cats proves ``Init ⇒`` the disjunction, then the disjunction ⇒ its count, card
# by card (R-COMMIT-C-DEAL: every card of the reduced deck dealt or set aside).

CONSERVATION = "card conservation (initial + inductive)"


def conservation_initial(enc: SuitedEncoding, players: int) -> ProofResult:
    (ob,) = [o for o in obligations(enc, players, "commit_cats") if o.name == CONSERVATION]
    return ob.run()


def test_commit_cats_conservation_initial_case_goes_through_the_disjunction() -> None:
    enc = encoding_for("commit_cats")
    assert isinstance(enc, SuitedEncoding)
    assert set(enc.initial_forms(enc.fresh_state("s", 3))) == {"card conservation"}
    (ob,) = [o for o in obligations(enc, 3, "commit_cats") if o.name == CONSERVATION]
    assert len(ob.cases) == 2
    assert ob.run().proved


class FormAllowsNowhere(SuitedEncoding):
    """Bug: the initial case's form of card conservation also allows a place that is none of the places, so
    Init implies it but it does not imply the count."""

    def initial_forms(self, s: SymState) -> dict[str, z3.BoolRef]:
        places = (*range(s.players), PLAYED, REMOVED, 99)
        return {"card conservation": z3.And([z3.Or([self.loc(s, c) == p for p in places]) for c in DECK51])}


class FormForgetsRemoved(SuitedEncoding):
    """Bug: the initial case's form leaves out the removed cards' place, which Init uses from 4 players (002's
    table takes sevens and eights out; at 3 players the whole deck is dealt), so an initial deal breaks it."""

    def initial_forms(self, s: SymState) -> dict[str, z3.BoolRef]:
        places = (*range(s.players), PLAYED)
        return {"card conservation": z3.And([z3.Or([self.loc(s, c) == p for p in places]) for c in DECK51])}


@pytest.mark.parametrize(
    ("planted", "players", "said"),
    [(FormAllowsNowhere, 3, "does not imply it"), (FormForgetsRemoved, 4, "an initial deal breaks card conservation")],
)
def test_a_wrong_initial_form_fails_card_conservation(planted: type[SuitedEncoding], players: int, said: str) -> None:
    base = type(encoding_for("commit_cats"))
    enc = type(f"{planted.__name__}_commit_cats", (planted, base), {})()
    result = conservation_initial(enc, players)
    assert not result.proved
    assert result.counterexample is not None and said in result.counterexample


def test_the_card_level_indicators_are_the_if_terms() -> None:
    """``terms.indicator`` builds ``If(x == k, 1, 0)`` through Z3's C API: the very same term (hash-consed),
    so the card-level states (R-COMMIT-C-DEAL: a card's place) mean what the Python operators would build."""
    x = z3.Int("x")
    assert indicator(x, z3.IntVal(3)).eq(z3.If(x == 3, 1, 0))
    assert not indicator(x, z3.IntVal(3)).eq(z3.If(x == 4, 1, 0))
    s = encoding_for("commit_cats").fresh_state("s", 4)
    loc = z3.Int(f"s.loc.{card_text(DECK51[7])}")
    assert s.hands[2][7].eq(z3.If(loc == 2, 1, 0)) and s.played[7].eq(z3.If(loc == PLAYED, 1, 0))


# ---------------------------------------------------------------- the hand counts and the sliced inductive step
# (``SuitedEncoding.hand_size`` is a field per seat tied to the cards by the part "hand counts"; the joint step is
# checked in the slices of ``step_slices``): R-COMMIT-H-DEAL, R-COMMIT-C-DEAL (the cards in each hand), R-END-OUT
# (a hand played out ends the deal).

JOINT = "inductive step (every part of Inv and the ranking, one check per action)"


class CometKeepsTheCount(SuitedEncoding):
    """Bug: a wild play of the 9D (R-COMMIT-C-COMET) leaves the mover's count as it was, so the count and the
    cards part ways (found in the slice checked card by card: the Comet's cases)."""

    def count_effect(self, s: SymState, a: SymAction, s2: SymState) -> z3.BoolRef:
        kept = z3.And([s2.x(held_name(p)) == s.x(held_name(p)) for p in range(s.players)])
        return z3.If(a.kind == COMET, kept, super().count_effect(s, a, s2))


def joint_result(enc: SuitedEncoding, players: int, preset: str) -> ProofResult:
    (ob,) = [o for o in obligations(enc, players, preset) if o.name == JOINT]
    return ob.run()


def test_the_sliced_step_proves_and_has_two_slices() -> None:
    enc = encoding_for("commit_hoyle")
    assert isinstance(enc, SuitedEncoding)
    parts = list(enc.invariant_parts(enc.fresh_state("s", 2)))
    slices = enc.step_slices(parts)
    assert [sl.by_card for sl in slices] == [True, False]
    assert [sl.tactics for sl in slices] == [LIA2CARD, ()]  # the indicator sums card by card through lia2card
    named = [g for sl in slices for g in sl.goals]
    assert sorted(named) == sorted([*parts, "termination"])  # every goal in exactly one slice
    assert joint_result(enc, 2, "commit_hoyle").proved


def test_a_count_that_misses_a_play_breaks_hand_counts() -> None:
    base = type(encoding_for("commit_cats"))
    enc = type("CometKeepsTheCount_commit_cats", (CometKeepsTheCount, base), {})()
    result = joint_result(enc, 2, "commit_cats")
    assert not result.proved
    broke = dict(result.broken)
    # the count also feeds the step bound and the ranking, which break with it; the cards' own goals do not
    assert "hand counts (initial + inductive)" in broke
    assert "card conservation (initial + inductive)" not in broke and "turn structure (initial + inductive)" not in broke
    assert "one step breaks hand counts" in broke["hand counts (initial + inductive)"]
    assert "action: play the Comet as" in broke["hand counts (initial + inductive)"]


def test_a_slice_missing_a_hypothesis_falls_back_to_the_whole_one() -> None:
    """A round whose hypothesis is too weak for its goal is checked again from the whole hypothesis: the goal
    holds there, so it is not broken; a goal the whole hypothesis breaks is, with its own counterexample."""
    x = z3.Int("x")
    goals = [
        ("positive", x + 1 > 0, lambda m: f"x = {m.eval(x)}"),
        ("not three", x != 3, lambda m: f"x = {m.eval(x)}"),
    ]

    def joint() -> tuple[list[z3.BoolRef], list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]]]:
        return [x >= 0], goals

    def rounds() -> list[Round]:
        return [Round(("positive",), (), (x >= 5,)), Round(("not three",), (x >= 0,), (x == 3,))]

    ob = Obligation("joint", "synthetic", 2, lambda: ([z3.BoolVal(False)], str), joint=joint, rounds=rounds)
    result = ob.run()
    assert not result.proved
    assert dict(result.broken) == {"not three": "x = 3"}


# ---------------------------------------------------------------- "deal scores non-negative" from part of Inv
# (``Encoding.scores_hypothesis``): R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT (a finished deal's points).

SCORES = "deal scores non-negative, no chips move"


class ScoresFromMoreThanInv(SuitedEncoding):
    """Bug: the scores are proved from a hypothesis that ``Inv`` does not imply (seat 0 never scores in play)."""

    def scores_hypothesis(self, s: SymState) -> z3.BoolRef:
        return z3.And(super().scores_hypothesis(s), s.x("score0") == 0)


def scores_result(enc: SuitedEncoding) -> ProofResult:
    (ob,) = [o for o in obligations(enc, 3, "commit_cats") if o.name == SCORES]
    return ob.run()


def test_commit_cats_scores_are_proved_from_part_of_inv() -> None:
    enc = encoding_for("commit_cats")
    assert isinstance(enc, SuitedEncoding)
    (ob,) = [o for o in obligations(enc, 3, "commit_cats") if o.name == SCORES]
    assert len(ob.cases) == 2  # Inv implies the part, the part implies the scores
    assert ob.run().proved


def test_a_scores_hypothesis_beyond_inv_is_reported() -> None:
    base = type(encoding_for("commit_cats"))
    enc = type("ScoresFromMoreThanInv_commit_cats", (ScoresFromMoreThanInv, base), {})()
    result = scores_result(enc)
    assert not result.proved
    assert result.counterexample is not None and "outside the hypothesis the scores are proved from" in result.counterexample
