"""The variant rulings the Z3 encodings now quantify (spec/proofs.md, per-preset tables): each reading's guard
is in the encoding, and a planted encoding that gets the guard wrong makes the directed refinement check
fail with a readable message naming the class, the readings and the differing successors.

Rules exercised: R-COMMIT-H-NINE (RUL-COMMIT-H-NINE-PASS, RUL-COMMIT-H-NINE-LEAD), R-RED9-RUN
(RUL-RED9-CONTINUE), R-RED9-WILD (RUL-RED9-NINE-STOP),
R-RED9-DECK (RUL-RED9-SUITS), R-RED9-RUN and R-COMMIT-C-LEAD (RUL-CATS-NEW-RUN).
"""

from __future__ import annotations

import pytest
import z3
from comet import engine
from comet.cards import CLUBS, DIAMONDS, HEARTS, SPADES, rank_of
from comet.games.red_nines import rules as red_nines_model
from comet.presets import PRESETS
from comet.state import DealState
from comet_proofs.crosscheck import crosscheck
from comet_proofs.games.commit_cats.encoding import CommitCatsEncoding
from comet_proofs.games.commit_hoyle.encoding import CommitHoyleEncoding
from comet_proofs.games.red_nines.encoding import RedNinesEncoding, natural_count, wild_count
from comet_proofs.refine import refine
from comet_proofs.symbolic import AbstractState, Readings, SymState


class NineForPassOnly(CommitHoyleEncoding):
    """RUL-COMMIT-H-NINE-PASS = without_only read backwards: the 9D only when nothing was played this turn."""

    def nine_ending(self, s: SymState, rd: Readings) -> z3.BoolRef:
        return z3.Or(z3.Not(rd["commit_nine_when"]), z3.Not(s.turn_played))


def failures(enc: CommitHoyleEncoding, only: str, sweep: bool = False) -> str:
    result = refine("commit_hoyle", players=(3,), random_deals=0, enc=enc, only=(only,), sweep=sweep)
    assert not result.ok
    return "\n".join(result.failures())


def test_commit_hoyle_nine_pass_and_nine_lead_are_quantified() -> None:
    """RUL-COMMIT-H-NINE-PASS and (issue 23) RUL-COMMIT-H-NINE-LEAD are free Booleans; none is outside."""
    enc = CommitHoyleEncoding()
    assert enc.has_ruling("commit_nine_when") and enc.has_ruling("commit_nine_lead") and not enc.outside


class NineLeadsAlways(CommitHoyleEncoding):
    """Bug (R-COMMIT-H-NINE): the last-card guard of RUL-COMMIT-H-NINE-LEAD = last_resort forgotten."""

    def reading(self, rd: Readings, name: str) -> z3.BoolRef:
        return z3.BoolVal(False) if name == "commit_nine_lead" else super().reading(rd, name)


def test_planted_nine_lead_without_the_last_card_guard_fails_the_refinement_check() -> None:
    """R-COMMIT-H-NINE, RUL-COMMIT-H-NINE-LEAD = last_resort: the encoding lets the 9D lead while its player
    holds other cards; the model refuses, at the witness of another card leading beside the 9D."""
    text = failures(NineLeadsAlways(), "another card leads while the mover holds the 9D")
    assert "commit_nine_lead=last_resort" in text


def test_sweep_finds_no_nine_for_pass_under_without_only() -> None:
    """RUL-COMMIT-H-NINE-PASS = without_only: the sweep finds no 9D in place of 'pass' and lists the reading
    as impossible; under the preset's reading the class has a witness where the model agrees."""
    result = refine("commit_hoyle", players=(3,), random_deals=0, only=("instead of 'pass'",), sweep=True)
    (cls,) = result.classes
    assert result.ok, result.failures()
    assert any("commit_nine_when=without_only" in x for x in cls.impossible)


def test_planted_nine_for_pass_only_fails_the_refinement_check() -> None:
    """R-COMMIT-H-NINE: the backwards guard lets the 9D replace 'pass' under without_only; the model refuses."""
    text = failures(NineForPassOnly(), "instead of 'pass'", sweep=True)
    assert "commit_nine_when=without_only" in text
    assert "the model's successors differ from the encoding's" in text


class MustContinueAlways(RedNinesEncoding):
    """RUL-RED9-CONTINUE = may ignored: a player holding the next rank must play it under either reading."""

    def may_pass_holding(self, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_red_nines_continue_is_quantified_and_witnessed() -> None:
    """RUL-RED9-CONTINUE: a free Boolean; under may a pass while holding the next rank has a witness where
    the model agrees, and the sweep finds none under must."""
    assert RedNinesEncoding().has_ruling("red_nines_continue")
    assert "red_nines_continue" not in RedNinesEncoding().outside
    result = refine("red_nines", players=(4,), random_deals=0, only=("RUL-RED9-CONTINUE",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("red_nines_continue=must" in x for x in cls.impossible)


def test_planted_red_nines_must_continue_fails_the_refinement_check() -> None:
    """R-RED9-RUN: an encoding blind to RUL-RED9-CONTINUE = may leaves the class without a witness."""
    result = refine("red_nines", players=(4,), random_deals=0, enc=MustContinueAlways(), only=("RUL-RED9-CONTINUE",))
    assert not result.ok
    text = "\n".join(result.failures())
    assert "has no witness under red_nines_continue=may" in text


class RedNineNeverStops(RedNinesEncoding):
    """RUL-RED9-NINE-STOP = stop ignored: a red nine always lets the run go on."""

    def wild_stops(self, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_red_nines_wild_stop_is_quantified_and_witnessed() -> None:
    """RUL-RED9-NINE-STOP: a free Boolean; under stop a red nine (not as a King) ends the run, with a witness
    where the model agrees; the sweep finds none under continues."""
    assert RedNinesEncoding().has_ruling("red_nines_wild_stop")
    assert "red_nines_wild_stop" not in RedNinesEncoding().outside
    result = refine("red_nines", players=(4,), random_deals=0, only=("RUL-RED9-NINE-STOP",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("red_nines_wild_stop=continues" in x for x in cls.impossible)


def test_planted_red_nine_never_stops_fails_the_refinement_check() -> None:
    """R-RED9-WILD: an encoding blind to RUL-RED9-NINE-STOP = stop leaves the class without a witness."""
    result = refine("red_nines", players=(4,), random_deals=0, enc=RedNineNeverStops(), only=("RUL-RED9-NINE-STOP",))
    assert not result.ok
    text = "\n".join(result.failures())
    assert "has no witness under red_nines_wild_stop=stop" in text


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_red_nines_suits_changes_no_count_the_encoding_sees(players: int) -> None:
    """RUL-RED9-SUITS is unquantified: under either order the model's pack has the encoding's number of red
    nines and of natural cards of every rank (R-RED9-DECK)."""
    enc = RedNinesEncoding()
    assert "red_nines_suits" in enc.unquantified and "red_nines_suits" not in enc.outside
    for order in ("hearts_first", "diamonds_first"):
        rules = PRESETS["red_nines"].rules.with_overrides({"red_nines_suits": order})
        (pack,) = engine.packs_in_rotation(rules, players)
        naturals = [c for c in pack.cards if c not in pack.wild]
        assert len(pack.cards) - len(naturals) == wild_count(players), order
        for r in enc.ranks:
            assert sum(1 for c in naturals if rank_of(c) == r) == natural_count(players, r), (order, r)


def test_planted_suit_order_with_two_red_suits_first_fails_the_cross_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-RED9-DECK: a model whose diamonds-first order adds both red suits before a black one deals six
    players four red nines; the cross-check (which varies RUL-RED9-SUITS) reports the broken invariant."""
    monkeypatch.setattr(red_nines_model, "EXTRA_SUITS_DIAMONDS_FIRST", (DIAMONDS, HEARTS, CLUBS, SPADES))
    rules = PRESETS["red_nines"].rules.with_overrides({"red_nines_suits": "diamonds_first"})
    states = [engine.shuffled_deal(rules, 6, 0, seed) for seed in range(2)]
    result = crosscheck(RedNinesEncoding(), states)
    assert not result.ok
    assert "breaks the encoded invariant 'card conservation'" in result.mismatches[0]


class NewRunNeverPassed(RedNinesEncoding):
    """RUL-CATS-NEW-RUN = may ignored: the new run is never passed on."""

    def may_pass_new_run(self, s: SymState, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_red_nines_new_run_is_quantified_and_witnessed() -> None:
    """RUL-CATS-NEW-RUN: a free Boolean in the Red Nines encoding; under may the new run is passed on, with
    a witness where the model agrees (successors, step bound); the sweep finds none under must."""
    assert RedNinesEncoding().has_ruling("cats_new_run") and "cats_new_run" not in RedNinesEncoding().outside
    result = refine("red_nines", players=(4,), random_deals=0, only=("RUL-CATS-NEW-RUN",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("cats_new_run=must" in x for x in cls.impossible)


def test_planted_red_nines_new_run_never_passed_fails_the_refinement_check() -> None:
    """R-RED9-RUN: an encoding blind to RUL-CATS-NEW-RUN = may leaves the class without a witness."""
    result = refine("red_nines", players=(4,), random_deals=0, enc=NewRunNeverPassed(), only=("RUL-CATS-NEW-RUN",))
    assert not result.ok
    assert "has no witness under cats_new_run=may" in "\n".join(result.failures())


class CatsNewRunNeverPassed(CommitCatsEncoding):
    """RUL-CATS-NEW-RUN = may ignored: the new run is never passed on."""

    def may_pass_new_run(self, s: SymState, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_commit_cats_new_run_is_quantified_and_witnessed() -> None:
    """RUL-CATS-NEW-RUN: a free Boolean in the commit_cats encoding; under may the new run is passed on,
    with a witness where the model agrees; the sweep finds none under must."""
    assert CommitCatsEncoding().has_ruling("cats_new_run") and "cats_new_run" not in CommitCatsEncoding().outside
    result = refine("commit_cats", players=(3,), random_deals=0, only=("RUL-CATS-NEW-RUN",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("cats_new_run=must" in x for x in cls.impossible)


def test_planted_commit_cats_new_run_never_passed_fails_the_refinement_check() -> None:
    """R-COMMIT-C-LEAD: an encoding blind to RUL-CATS-NEW-RUN = may leaves the class without a witness."""
    result = refine(
        "commit_cats", players=(3,), random_deals=0, enc=CatsNewRunNeverPassed(), only=("RUL-CATS-NEW-RUN",)
    )
    assert not result.ok
    assert "has no witness under cats_new_run=may" in "\n".join(result.failures())


# ----------------------------------------------------------------- RUL-RED9-KING (issue 23)


def king_states(seeds: int = 12) -> list[DealState]:
    """States of 4-player Red Nines deals under RUL-RED9-KING = suit_king where the run needs a King and the
    mover may play one (random play)."""
    import random

    rules = PRESETS["red_nines"].rules.with_overrides({"red_nines_king": "suit_king"})
    out: list[DealState] = []
    for seed in range(seeds):
        s = engine.shuffled_deal(rules, 4, seed % 4, seed)
        rng = random.Random(seed)
        while not s.terminal:
            acts = engine.legal_actions(s)
            if s.need == 13 and any(a.cards and not a.as_rank and a.rank == 13 for a in acts):
                out.append(s)
            s = engine.apply(s, acts[rng.randrange(len(acts))])
    return out


def test_red9_king_is_quantified_and_its_kings_agree_with_the_model() -> None:
    """RUL-RED9-KING (R-RED9-RUN): a free Boolean; on states where a King may be played on a run, the model's
    successors (the run ends, or stands at a King of another suit) are all in T, T's other outcome of a King
    being the one over-approximation (``overapproximated``)."""
    enc = RedNinesEncoding()
    assert enc.has_ruling("red_nines_king") and not enc.outside
    states = king_states()
    standing = [s for s in states if any(engine.apply(s, a).need == 14 for a in engine.legal_actions(s))]
    assert standing, "no King of another suit met"
    report = crosscheck(enc, states)
    assert report.ok, report.mismatches[0]


class KingsAlwaysExact(RedNinesEncoding):
    """The over-approximation not declared: T's other outcome of a King is reported."""

    def overapproximated(self, state: DealState, succ: AbstractState, model: set[AbstractState]) -> bool:
        return False


def test_the_red9_king_overapproximation_is_visible_and_a_wrong_standing_king_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RUL-RED9-KING: without ``overapproximated`` the cross-check lists T's extra outcome; a standing King
    planted to need a 15 (not nothing) makes the model's King of another suit a successor T forbids."""
    from comet_proofs.games.red_nines import encoding as red9

    states = king_states(6)
    report = crosscheck(KingsAlwaysExact(), states)
    assert not report.ok and "T allows a successor no legal action reaches" in report.mismatches[0]
    monkeypatch.setattr(red9, "STANDING", 15)
    report = crosscheck(RedNinesEncoding(), states)
    assert not report.ok and "leads to a state T forbids" in " ".join(report.mismatches)


# ----------------------------------------------------------------- RUL-COMMIT-C-CONTINUE (issue 38)


class CatsMustContinueAlways(CommitCatsEncoding):
    """RUL-COMMIT-C-CONTINUE = may ignored: a player holding the next card must always play it."""

    def may_stop(self, s: SymState, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_commit_cats_continue_is_quantified_and_witnessed() -> None:
    """RUL-COMMIT-C-CONTINUE: a free Boolean in the commit_cats encoding; under may a player holding the next
    card says "Without", with a witness where the model agrees; the sweep finds none under must."""
    assert CommitCatsEncoding().has_ruling("cats_continue") and "cats_continue" not in CommitCatsEncoding().outside
    result = refine("commit_cats", players=(3,), random_deals=0, only=("RUL-COMMIT-C-CONTINUE",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("cats_continue=must" in x for x in cls.impossible)


def test_planted_commit_cats_must_continue_fails_the_refinement_check() -> None:
    """R-COMMIT-C-SUIT: an encoding blind to RUL-COMMIT-C-CONTINUE = may leaves the class without a witness."""
    result = refine(
        "commit_cats", players=(3,), random_deals=0, enc=CatsMustContinueAlways(), only=("RUL-COMMIT-C-CONTINUE",)
    )
    assert not result.ok
    assert "has no witness under cats_continue=may" in "\n".join(result.failures())


# ----------------------------------------------------------------- RUL-RED9-HOLDING (issue 38)


class RedNineAlwaysForHeldRank(RedNinesEncoding):
    """RUL-RED9-HOLDING = requires_missing ignored: a red nine stands for a rank its player holds either way."""

    def wild_may_stand_for(self, held: z3.ArithRef, rd: Readings) -> z3.BoolRef:
        return z3.BoolVal(True)


def test_red_nines_holding_is_quantified_and_witnessed() -> None:
    """RUL-RED9-HOLDING: a free Boolean in the Red Nines encoding; under the default a red nine stands for a
    rank its player holds, with a witness where the model agrees; the sweep finds none under true."""
    assert RedNinesEncoding().has_ruling("red_nines_requires_missing")
    result = refine("red_nines", players=(4,), random_deals=0, only=("RUL-RED9-HOLDING",), sweep=True)
    assert result.ok, result.failures()
    (cls,) = result.classes
    assert any("red_nines_requires_missing=True" in x for x in cls.impossible)


def test_planted_red_nine_for_a_held_rank_fails_the_refinement_check() -> None:
    """R-RED9-WILD: an encoding blind to RUL-RED9-HOLDING = true lets a red nine stand for a held rank under
    it; the sweep finds that witness and the model refuses the step."""
    result = refine(
        "red_nines",
        players=(4,),
        random_deals=0,
        enc=RedNineAlwaysForHeldRank(),
        only=("RUL-RED9-HOLDING",),
        sweep=True,
    )
    assert not result.ok
    text = "\n".join(result.failures())
    assert "red_nines_requires_missing=true" in text and "the model's successors differ" in text
