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
from comet_proofs.games.commit_common import DECK51, PLAYED, SuitedEncoding
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import SymState

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
