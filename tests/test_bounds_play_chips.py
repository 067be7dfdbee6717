"""Old Comet's chips in play (``comet_proofs.bounds.play_chips``, spec/extremes.md "Where a gap remains"): the
lemmas on what play moves towards the winner and away from a seat keeping its cards are proved inductive, a
planted claim one chip too strong is refused with the step that breaks it in words, and with the settlement
they bound the whole deal at what a built deal reaches (R-OLD-KING, R-OLD-LAST-CARD, R-OLD-MANILLE-PLAY,
R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip("z3")

import z3
from comet import engine
from comet.presets import preset as preset_named
from comet.variant import variant_of
from comet_proofs.bounds import DEAL_GAIN, DEAL_LOSS, play_chips
from comet_proofs.bounds.build import built_deals
from comet_proofs.bounds.lemmas import dealt_size
from comet_proofs.bounds.play_chips import Lemma, kept_loss, refutation, whole_deal, win_in_play
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import Readings, SymState


def setting(players: int) -> tuple[Encoding, Readings, int, Callable[[SymState], list[z3.BoolRef]]]:
    rules = preset_named("old_comet").rules
    enc = encoding_for("old_comet")
    rd = enc.readings_of(rules)

    def fixed(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value, *enc.fixed_by_rules(x, rules)]

    return enc, rd, dealt_size(enc, players, rd), fixed


def at(
    enc: Encoding, lemma: Callable[[Encoding, SymState, int, int, int], z3.BoolRef], size: int, dearest: int
) -> Lemma:
    """``lemma`` for seat 0 as a formula of one state."""

    def of(x: SymState) -> z3.BoolRef:
        return lemma(enc, x, size, dearest, 0)

    return of


@pytest.mark.parametrize("players", [3, 5])
def test_both_lemmas_are_proved_inductive(players: int) -> None:
    """R-OLD-KING, R-OLD-LAST-CARD, R-OLD-MANILLE-PLAY: true in every initial deal and kept by every step."""
    enc, rd, size, fixed = setting(players)
    for lemma in (win_in_play, kept_loss):
        assert refutation(enc, players, rd, size, at(enc, lemma, size, 10), fixed) is None


def test_a_cheaper_manille_is_refused_with_the_step_that_plays_it() -> None:
    """R-OLD-MANILLE-PLAY planted wrong: a manille worth 9 chips from each (it is 10) breaks both lemmas, and
    the refutation names the step, the manille played (the Comet's action kind), and the chips it moved."""
    enc, rd, size, fixed = setting(3)
    for lemma in (win_in_play, kept_loss):
        why = refutation(enc, 3, rd, size, at(enc, lemma, size, 9), fixed)
        assert why is not None and why.startswith("from hands [seat 0:") and "the action Comet" in why
        assert "chips [" in why and "leads to hands" in why


def test_a_winners_king_forgotten_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-KING planted wrong: the winner's lemma made one chip too strong where its last card is a King
    (a King held no longer counted) is refused at a King's play, named in the counterexample."""
    enc, rd, size, fixed = setting(3)
    monkeypatch.setattr(play_chips, "holds_king", lambda s, seat: z3.BoolVal(False))
    why = refutation(enc, 3, rd, size, lambda x: win_in_play(enc, x, size, 10), fixed)
    assert why is not None and "(rank 13)" in why


def test_the_hand_over_count_needs_its_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-PLAY-CONTINUE, R-OLD-LAST-CARD: the keeper's lemma counts a chip lost at each hand-over only with the
    facts it stands on (a lead is the last player's); without them Z3 finds a step that breaks it."""
    enc, rd, size, fixed = setting(3)
    monkeypatch.setattr(play_chips, "leads", lambda enc, s, size: [])
    assert refutation(enc, 3, rd, size, lambda x: kept_loss(enc, x, size, 10), fixed) is not None


@pytest.mark.parametrize("players", [2, 3])
def test_the_whole_deal_bounds_are_what_a_built_deal_reaches(players: int) -> None:
    """R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT, R-OLD-MANILLE-PLAY: the most lost and won in a whole deal, proved
    with the lemmas and the settlement at once, are met by deals built by hand and played by the model (the
    keeper deal; the winner out on the manille, every other card led alone and stuck)."""
    from comet_proofs.bounds.lemmas import long_deal_lemma_holds, run_played_lemma_holds

    enc, rd, size, fixed = setting(players)
    played_before = run_played_lemma_holds(enc, players, rd, size)
    long_ok = long_deal_lemma_holds(enc, players, rd, size)
    proved = whole_deal(enc, players, rd, size, 10, fixed, played_before, long_ok)
    reached: dict[str, int] = {}
    for _, best in built_deals("old_comet", players):
        for q in (DEAL_LOSS, DEAL_GAIN):
            if q in best:
                final = engine.replay(best[q].start, best[q].actions)
                assert final.terminal
                reached[q] = max(reached.get(q, best[q].value), best[q].value)
    assert proved == reached


def test_the_lemmas_are_the_presets_readings_own() -> None:
    """RUL-OLD-LAST-CARD = every_run_end (R-OLD-LAST-CARD): where the card that ends a run earns a chip too (a
    King, the manille, the winner's last card), both lemmas are false, and Z3 finds the step that breaks
    each, so the bounds they give are claimed for the preset's own readings only."""
    from dataclasses import replace

    rules = replace(preset_named("old_comet").rules, old_last_card="every_run_end")
    enc = encoding_for("old_comet")
    rd = enc.readings_of(rules)
    size = dealt_size(enc, 3, rd)

    def fixed(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value, *enc.fixed_by_rules(x, rules)]

    for lemma in (win_in_play, kept_loss):
        why = refutation(enc, 3, rd, size, at(enc, lemma, size, 10), fixed)
        assert why is not None and "leads to hands" in why
