"""The longest deal where stops and kept cards force plays (comet_proofs.bounds.stops, lemmas.long_stops): the
lemmas are proved inductive where they are used, the longest deal at five players falls to what the ladder
reaches, and a planted wrong version of each is refused with the step that breaks it, in words
(R-STOP-KING, R-COMET-STOP, R-PLAY-MUST, R-TURN-END, R-STOP-STUCK)."""

from __future__ import annotations

import pytest

pytest.importorskip("z3")

import z3
from comet.presets import preset as preset_named
from comet_proofs.bounds import ACTIONS, lemmas, stops
from comet_proofs.bounds.proved import proved_bounds
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import Readings


def setting(preset: str, players: int) -> tuple[Encoding, Readings, int]:
    enc = encoding_for(preset)
    rd = enc.readings_of(preset_named(preset).rules)
    return enc, rd, lemmas.dealt_size(enc, players, rd)


def test_the_stops_lemma_is_proved_and_a_stop_worth_a_play_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-STOP-KING, R-COMET-STOP, R-NEW-RUN: "a stop played before the deal's last card is followed by no pass,
    n actions short of a play" is proved for the standard game at five players; planted wrong (a stop charged
    n+1, as if the stop itself did not count), Z3 refuses it at a King or the Comet, named in the words."""
    enc, rd, size = setting("standard", 5)
    assert lemmas.long_deal_lemma_holds(enc, 5, rd, size, stops=True)
    monkeypatch.setattr(lemmas, "stop_cost", lambda players: players + 1)
    assert not lemmas.long_deal_lemma_holds(enc, 5, rd, size, stops=True)
    why = lemmas.refutation(
        enc, 5, rd, size, lambda x: lemmas.long_stops(enc, x, size, 3), lambda x: [], stops.step_words
    )
    assert why is not None and why.startswith("from step ") and "leads to step " in why
    assert "the action Comet (rank" in why or "the action natural (rank 13)" in why


@pytest.mark.parametrize("preset", ["standard", "opera"])
def test_kept_cards_force_plays_and_the_longest_five_player_deal_is_the_ladders(preset: str) -> None:
    """R-PLAY-MUST, R-STOP-KING, R-COMET-STOP: ``forced_runs`` (a seat that passed holds none of the rank the
    run needs; while a natural r+1 is held each r played goes on to an r+1 or the Comet; a run needing r+1 was
    made from a hand holding the r) is proved at five players, and the longest deal read at its last step
    is 232, what the ladder deal reaches (tests/test_bounds_extremes.py), not the count's 237."""
    assert proved_bounds(preset, 5)[ACTIONS] == 232  # read at the last step only where the lemma is proved


def test_a_comet_forgotten_in_the_forced_runs_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMET-OPTIONAL planted wrong: the forced-run facts without the Comet (as if a run needing r+1 could go on
    only with a natural r+1) are refused at the Comet's play, named in the words."""
    enc, rd, size = setting("standard", 3)
    assert stops.forced_runs_refutation(enc, 3, rd, size) is None
    monkeypatch.setattr(stops, "wilds_played", lambda s: z3.IntVal(0))
    why = stops.forced_runs_refutation(enc, 3, rd, size)
    assert why is not None and "the action Comet (rank" in why and "leads to step " in why


def test_red_nines_longest_deals_are_lowered() -> None:
    """R-RED9-RUN, R-PLAY-MUST: with the red nines counted as the wild cards that go on (RUL-RED9-NINE-STOP =
    continues), the facts are proved at four and five players and lower the longest deal from 238 and 357 to
    233 and 351 (the ladder reaches 222 and 332)."""
    assert [proved_bounds("red_nines", n)[ACTIONS] for n in (4, 5)] == [233, 351]


def test_000s_commit_counts_its_stops_at_three_players() -> None:
    """R-COMMIT-H-STOPS, R-COMMIT-H-DEAL: the card-level encoding names its stops (the Kings and the 7D); with
    the whole pack dealt at three players the five do not fit in the two kept cards and the last, so two are
    played before the last card, n actions short each: the longest deal falls from 191 to 185 with the stops
    alone, and to 182 with the runs a suit forces (the commit ladder reaches 176)."""
    enc, rd, size = setting("commit_hoyle", 3)
    assert lemmas.long_deal_lemma_holds(enc, 3, rd, size, stops=True)
    assert stops.longest_counting_stops(enc, 3, rd, size, 191) == 185
    assert proved_bounds("commit_hoyle", 3)[ACTIONS] == 182


def test_000s_commit_suits_force_runs_and_a_forgotten_branch_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-H-SUIT, R-COMMIT-H-NINE: ``suit_runs`` (a card's successor in its suit still in a hand means the
    card is unplayed or its run waits for it, but for the one run a holder left for the 10D the 9D opened) is
    proved at three players and lowers the longest deal to 182; planted wrong (no run ever left for the 10D),
    Z3 refuses it at the 10D's play, named in the words."""
    enc, rd, size = setting("commit_hoyle", 3)
    assert stops.suit_runs_refutation(enc, 3, rd, size) is None
    assert stops.longest_counting_stops(enc, 3, rd, size, 191, suited=True) == 182
    monkeypatch.setattr(stops, "abandoned_runs", lambda e, s: z3.IntVal(0))
    why = stops.suit_runs_refutation(enc, 3, rd, size)
    assert why is not None and "the card 10D leads to step " in why, why


def test_the_cats_commits_long_deal_is_still_out_of_budget() -> None:
    """R-COMMIT-C-LOWEST, R-END-OUT: ``proved.LONG_DEAL_OUT_OF_BUDGET`` skips 002's Commit's ``long_deal`` check,
    which Z3 does not finish within the bounds step's budget (its longest deal stays the ranking's); the check
    is run here, so a change that lets Z3 prove it fails this test and the skip can go."""
    from comet_proofs.bounds.proved import LONG_DEAL_OUT_OF_BUDGET

    assert "commit_cats" in LONG_DEAL_OUT_OF_BUDGET
    enc, rd, size = setting("commit_cats", 3)
    assert not lemmas.long_deal_lemma_holds(enc, 3, rd, size)
    assert proved_bounds("commit_cats", 3)[ACTIONS] == 306
