"""The Opera as a quantified ruling of the two-player and Old Comet encodings (``comet_proofs.games.opera.option``):
no ruling is outside them any more, the Opera's obligations hold, and a planted bug in the Opera part makes a
proof or the refinement check fail with a readable counterexample."""

from __future__ import annotations

import z3
from comet import engine
from comet_proofs import ProofResult, prove
from comet_proofs.games.old_comet.encoding import OldCometEncoding
from comet_proofs.games.two_player.encoding import TwoPlayerEncoding
from comet_proofs.refine import refine
from comet_proofs.registry import encodings
from comet_proofs.symbolic import Readings, SymAction, SymState


def failures(results: list[ProofResult]) -> list[ProofResult]:
    return [r for r in results if not r.proved]


def test_the_opera_is_quantified_not_outside() -> None:
    """Issue 23 item 2: every ruling of two_player and old_comet is inside their encodings."""
    for preset in ("two_player", "old_comet"):
        enc = encodings()[preset]()
        assert enc.outside == (), preset
        assert enc.has_ruling("opera") and enc.has_ruling("opera_draw") and enc.has_ruling("opera_stack"), preset
    assert encodings()["two_player"]().has_ruling("opera_caught")
    old = encodings()["old_comet"]()
    assert old.has_ruling("old_opera_caught") and old.has_ruling("old_opera_bonus")


class TwoPlayerDrawKeepsWinner(TwoPlayerEncoding):
    """Bug: a drawn Opera deal of the two-player game still names the first player the winner (R-OPERA-DRAW)."""

    def winner_after(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return z3.If(out, s.to_move, -1)


def test_two_player_draw_with_a_winner_breaks_the_proof() -> None:
    """R-OPERA-DRAW in the two-player game: the turn-structure step fails; the counterexample shows the draw
    under the Opera's readings."""
    bad = failures(prove(TwoPlayerDrawKeepsWinner(), 2, only=("turn structure",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "one step breaks turn structure" in text and "drawn 1" in text and "WINNER" in text
    assert "opera=true" in text and "opera_draw=dealer_could" in text


class ManilleBonusForgotten(OldCometEncoding):
    """Bug: the Opera won on the manille never raises its bonus (RUL-OLD-OPERA-BONUS = doubled ignored); every
    chip obligation still holds (nothing paid is zero-sum), so only the refinement check can see it."""

    def opera_manille_bonus(self, s: SymState, rd: Readings) -> z3.ArithRef:
        return z3.IntVal(0)


def test_forgotten_opera_manille_bonus_fails_the_refinement_check() -> None:
    """RUL-OLD-OPERA-BONUS: the witness of going out on the manille in an Opera settles differently in the model
    (its R-OPERA-DOUBLE payments) and in the planted encoding; the failure names the class and the readings."""
    only = "going out on the manille in an Opera"
    result = refine("old_comet", players=(3,), random_deals=0, enc=ManilleBonusForgotten(), only=(only,))
    assert not result.ok
    text = "\n".join(result.failures())
    assert f"class 'Old Comet: {only}" in text and "old_opera_bonus=doubled" in text
    assert "model returns" in text and "encoding returns" in text and "R-OPERA-DOUBLE" in text


def test_the_opera_classes_are_witnessed_in_both_games() -> None:
    """The Opera's behaviour classes (the draw, the doubling, the caught loser) have witnesses the model
    agrees with, in the two-player game and in Old Comet."""
    for preset, players in (("two_player", 2), ("old_comet", 3)):
        result = refine(preset, players=(players,), random_deals=0, only=("opera on", "in an Opera"))
        assert result.classes and all(c.witnesses for c in result.classes), result.failures()
        assert result.ok, "\n\n".join(result.failures())


def test_the_starting_points_cover_the_opera() -> None:
    """The starting-point check asks a fresh deal to be an initial state under both readings of ``opera``
    (its Boolean occurs in Init through the state's copy of it and ``dealer_could``)."""
    from comet_proofs.dealt import Membership

    for preset in ("two_player", "old_comet"):
        enc = encodings()[preset]()
        assert "opera" in Membership(enc, enc.player_counts[0]).fields, preset


def test_sampled_opera_states_agree_with_the_model() -> None:
    """The random cross-check on states of deals played with the Opera on: T's successors are the model's."""
    from comet_proofs.crosscheck import check_state, sample_states

    for preset, players in (("two_player", 2), ("old_comet", 3)):
        enc = encodings()[preset]()
        states = [s for s in sample_states((players,), 6, 11, per_deal=4, preset=preset) if s.rules.opera]
        assert states, preset
        # and fresh Opera deals, whose successors ask the model's search whether the dealer could go out too
        rules = states[0].rules
        for seed in range(3):
            pack = engine.packs_in_rotation(rules, players)[0]
            states.append(engine.shuffled_deal(rules, players, seed % players, seed, pack, 0))
        for state in states:
            _, problem = check_state(enc, state)
            assert problem is None, problem
