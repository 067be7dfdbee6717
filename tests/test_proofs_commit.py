"""The card-level Commit encodings (``comet_proofs.games.commit_common``): how card conservation is stated.

A card's place is one variable, so "every card is in exactly one place" can be stated as a disjunction
(its place is one of the places: ``SuitedEncoding.card_conservation``) or as a count of 0/1 indicators
(``counted_conservation``).  The two must be the same fact for every player count, so that the proofs'
faster statement proves what the count says (RUL-COMMIT-H-DEAL, R-COMMIT-C-DEAL: every card of the deck
dealt, played or set aside).
"""

from __future__ import annotations

import pytest
import z3
from comet.cards import card_text
from comet_proofs.games.commit_common import DECK51, PLAYED, REMOVED, SuitedEncoding
from comet_proofs.obligation import ProofResult
from comet_proofs.obligations import obligations
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import SymState
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
