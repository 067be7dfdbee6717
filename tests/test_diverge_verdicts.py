"""The verdict vocabulary (RUL- rulings' impact, issue 33): each answer derived from hand-made figures, every
phrase defined in the glossary, penalty points read in the reader's orientation, payment-only rulings exact."""

from __future__ import annotations

import pytest
from comet.diverge.exact import exact_effect
from comet.diverge.glossary import GAME_PHRASES, GLOSSARY, VERDICT_PHRASES
from comet.diverge.measure import GamePaired, Paired
from comet.diverge.pairs import pairs_for
from comet.diverge.verdicts import (
    Answer,
    ExactEffect,
    Scale,
    answer,
    check_phrase,
    game_answer,
    payment_only,
    swing_where_arises,
    z_of,
)


def paired(
    deals: int = 10_000,
    classes: tuple[int, ...] | None = None,
    d: tuple[int, int, int] = (0, 0, 0),
    d2: tuple[int, int, int] = (0, 0, 0),
    changed: int = 0,
    transfer: int = 0,
    transfer2: int = 0,
) -> Paired:
    """Three seats' paired sums, built by hand (no deal changes by default)."""
    return Paired(
        deals=deals,
        classes=classes or (deals, 0, 0, 0, 0),
        chips_a=(0, 0, 0),
        chips_d=d,
        chips_d2=d2,
        wins_a=(3000, 3000, 4000),
        wins_d=(0, 0, 0),
        wins_d2=(0, 0, 0),
        transfer=transfer,
        transfer2=transfer2,
        changed=changed,
    )


def test_every_phrase_is_defined() -> None:
    for phrase in VERDICT_PHRASES:
        assert phrase in GLOSSARY, f"verdict phrase {phrase!r} has no glossary entry"


def test_an_undefined_phrase_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # planted: a verdict in the old words ("matters") must not reach the report
    with pytest.raises(ValueError, match=r"not defined in comet\.diverge\.glossary"):
        check_phrase(Answer("matters", "matters: 2nd +0.001 chips/deal", "", "", "", ""))
    # planted: a whole-game verdict in words the glossary does not define is caught the same way
    import comet.diverge.verdicts as verdicts

    monkeypatch.setattr(verdicts, "GAME_CHANGES", "winners change")
    with pytest.raises(ValueError, match=r"'winners change'.*not defined in comet\.diverge\.glossary"):
        game_answer(games(winners=3))


def games(played: int = 100, winners: int = 0, length: tuple[int, int] = (0, 0), refused: int = 0) -> GamePaired:
    """Paired whole-game sums built by hand: ``winners`` games with other winners, deals per game changed by
    ``length`` (sum, sum of squares), ``refused`` more games refused under B."""
    return GamePaired(
        games=played + refused,
        refused_b=refused,
        winners_changed=winners,
        length_a=10 * played,
        length_d=length[0],
        length_d2=length[1],
        spread_a=50 * played,
        played=played,
    )


def test_whole_game_verdicts_use_the_glossarys_words() -> None:
    """A ruling that acts between deals is answered from paired whole games in the glossary's words: nothing
    moves (no measurable effect), winners change (changes whole games, never "who gains": games are not
    compared seat by seat), no game played under both readings."""
    assert set(GAME_PHRASES) <= set(VERDICT_PHRASES)
    quiet = game_answer(games())
    assert quiet.phrase == "no measurable effect on whole games", quiet.sentence
    assert quiet.sentence == "no measurable effect on whole games: winners change in 0 of 100 (at most 3.62 %)"
    moved = game_answer(games(winners=3, length=(-20, 40)))
    assert moved.phrase == "changes whole games" and not moved.gains
    assert moved.sentence.startswith("changes whole games: winners change in 3 of 100 (3.00 %, 1.03 to 8.45 %)"), (
        moved.sentence
    )
    assert "deals per game -0.20" in moved.sentence
    # games one reading ends earlier on average change the games though no winner changes
    assert game_answer(games(length=(-50, 100))).phrase == "changes whole games"
    none = game_answer(games(played=0, refused=5))
    assert none.phrase == "no game played under both readings" and "refused under A 0, under B 5" in none.often
    for a in (quiet, moved, none):
        assert a.phrase in GLOSSARY and a.sentence.startswith(a.phrase)


def test_a_seat_that_gains_beyond_its_interval_changes_who_gains() -> None:
    # 2nd seat +1 chip in 2,000 of 10,000 deals: mean +0.2, clearly beyond its interval
    p = paired(
        classes=(8000, 0, 0, 2000, 0),
        d=(-2000, 2000, 0),
        d2=(2000, 2000, 0),
        changed=2000,
        transfer=2000,
        transfer2=2000,
    )
    a = answer(p)
    assert a.phrase == "changes who gains"
    assert "2nd gains 0.200 chips per deal" in a.sentence
    assert "1st loses 0.200 chips per deal" in a.who


def test_changed_deals_alone_do_not_make_anyone_gain() -> None:
    # chips move in 100 deals but even out: +1 and -1 alike for each seat
    p = paired(classes=(9900, 0, 0, 100, 0), d=(0, 0, 0), d2=(100, 100, 0), changed=100, transfer=100, transfer2=100)
    a = answer(p)
    assert a.phrase == "changes deals but no seat gains measurably", a.sentence
    assert not a.gains


def test_penalty_points_read_as_worse_for_the_seat() -> None:
    # raw +1.13 points per deal for the 2nd seat: in a penalty-points game that is bad for it (planted sign flip:
    # reading raw points as a gain would say "better")
    p = paired(
        classes=(0, 10_000, 0, 0, 0),
        d=(0, 11_300, 0),
        d2=(0, 130_000, 0),
        changed=10_000,
        transfer=11_300,
        transfer2=130_000,
    )
    a = answer(p, Scale("points", lower_wins=True))
    assert "2nd scores 1.130 more penalty points per deal" in a.sentence
    assert a.sentence.split("per deal")[1].split(";")[0].endswith("= worse"), a.sentence
    plain = answer(p, Scale("points"))
    assert "= better" in plain.sentence and "penalty" not in plain.sentence


def test_exact_penalty_points_say_whom_they_help() -> None:
    """Red Nines' payment-only rulings: an exact change of penalty points says whether it is better or worse
    for those who score it (planted sign flip: fewer penalty points read as worse would fail here)."""
    from comet.diverge.verdicts import exact_answer

    penalty = Scale("points", lower_wins=True)
    fewer = ExactEffect(2000, 4, (((0, -148), 1), ((0, -160), 1), ((0, -200), 1), ((0, -292), 1)), 5)
    a = exact_answer(fewer, penalty)
    assert "the other seats together score 148 to 292 fewer penalty points" in a.sentence
    assert a.sentence.endswith("= better for them"), a.sentence
    more = ExactEffect(2000, 2, (((4, 0), 2),), 5)
    assert exact_answer(more, penalty).sentence.endswith(
        "the winner scores exactly 4 more penalty points = worse for the winner"
    ), exact_answer(more, penalty).sentence
    assert "worse" not in exact_answer(more, Scale("points")).sentence


def test_nothing_changes_never_arises_or_no_effect() -> None:
    assert answer(paired()).phrase == "never arises"
    offered = paired(classes=(9000, 0, 1000, 0, 0))
    assert answer(offered).phrase == "no effect"
    assert answer(offered, design="it never passes").phrase == "zero by design"


def test_play_that_parts_without_moving_a_chip_is_no_effect() -> None:
    """The readings part and the play differs in some deals, but no deal's chips or winner change: "no effect",
    never "changes deals" beside "changes 0.0 %" (the wording the published report once had for
    RUL-COMET-LEAD, old_comet at 2 players)."""
    parted = paired(classes=(9000, 0, 500, 500, 0))
    a = answer(parted)
    assert a.phrase == "no effect", a.sentence
    assert "the result changes in 0 of 10,000" in a.sentence, a.sentence
    moved = paired(classes=(9000, 0, 500, 500, 0), d=(5, -5, 0), d2=(25, 25, 0), changed=5)
    assert answer(moved).phrase == "changes deals but no seat gains measurably"


def test_one_interval_per_figure_and_nonnegative_swing() -> None:
    p = paired(classes=(9990, 0, 0, 10, 0), d=(5, -5, 0), d2=(25, 25, 0), changed=10, transfer=3, transfer2=9)
    swing = swing_where_arises(p, z_of(p))
    assert swing.low >= 0.0, swing
    assert z_of(p) > 1.96  # simultaneous: wider than one at a time
    assert z_of(p, together=10) > z_of(p)


def test_payment_only_ruling_is_answered_exactly() -> None:
    # planted: a payment-only ruling measured by a search player's changed choices is not payment-only evidence
    pay = paired(classes=(9900, 100, 0, 0, 0), d=(-400, 200, 200), d2=(1600, 400, 400), changed=100)
    searched = paired(classes=(9900, 95, 0, 5, 0), changed=100)
    assert payment_only({"random": pay, "pimc": searched})
    assert not payment_only({"random": searched})
    x = ExactEffect(1000, 80, (((-4, 4), 75), ((-12, 12), 5)), 3)
    a = answer(pay, exact=x)
    assert a.phrase == "exact effect"
    assert "the winner receives exactly 4 fewer chips (93.8 % of those deals) or 12 fewer chips" in a.sentence
    assert "option only one reading offers" not in a.sentence


def test_comet_bonus_last_is_exact_and_stuck_restart_is_not() -> None:
    """RUL-COMET-BONUS-LAST: the same actions replayed under both readings; the winner receives 2(n-1) fewer
    chips (or three times that) whenever the case arises.  RUL-STUCK-RESTART offers other options: no exact
    effect is claimed."""
    pair = next(iter(pairs_for("comet_bonus_last", ["standard"])))
    x = exact_effect(pair, 3, range(300), ("hoarder",))
    assert x is not None and x.arose > 0
    assert {c for c, _ in x.changes} <= {(-4, 4), (-12, 12)}, x.changes
    stuck = next(iter(pairs_for("stuck_restart", ["standard"])))
    assert exact_effect(stuck, 3, range(50), ("random",)) is None


def test_one_chip_or_point_is_said_in_the_singular() -> None:
    from comet.diverge.verdicts import exact_answer

    one = ExactEffect(1000, 10, (((-1, 1), 6), ((2, -2), 4)), 3)
    text = exact_answer(one, Scale()).sentence
    assert "exactly 1 fewer chip (60.0 % of those deals) or 2 more chips" in text, text
    assert "1 more penalty point " in exact_answer(ExactEffect(1000, 2, (((1, 0), 2),), 3), Scale("points", True)).sentence
