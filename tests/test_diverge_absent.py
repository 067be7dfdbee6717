"""Issue 17 (audit): a ruling is not measured deal by deal at a player count where its readings cannot
part, and the report says why.  The counts come from the rules: the deal's set-up (the first pack's
cards, the deal sizes: RUL-COMMIT-C-REMOVED, RUL-RED9-SUITS) and each game's own account of a ruling
(``Variant.ruling_absent``: R-COMMIT-H-DEAL leaves no rest at three players, R-COMMIT-H-NINE's choice
needs a third player, R-RED9-DECK has two red nines at four players).  Each count left out is checked on
played deals: both readings play every one alike."""

from __future__ import annotations

from comet.diverge.measure import SAME
from comet.diverge.pairs import Pair, pairs_for
from comet.diverge.study import absent_reason, player_counts, unmeasured
from comet.fast.diverge import paired_measure


def _pair(field: str, preset: str) -> Pair:
    (p,) = pairs_for(field, [preset])
    return p


def alike_in_play(pair: Pair, players: int, seeds: int = 1_000) -> bool:
    """Both readings play every sampled deal alike, for every player (coupled play, fast engine)."""
    for policy in ("random", "greedy", "hoarder"):
        m = paired_measure(pair, players, range(seeds), policy)
        if m.classes[SAME] != m.deals:
            return False
    return True


def test_counts_left_out_come_from_the_rules() -> None:
    assert player_counts(_pair("commit_removed", "commit_cats")) == (4, 6, 8)
    assert player_counts(_pair("red_nines_suits", "red_nines")) == (5, 6, 7)
    assert player_counts(_pair("red_nines_many", "red_nines")) == (5, 6, 7, 8)
    assert 3 not in player_counts(_pair("commit_rest", "commit_hoyle"))
    assert 2 not in player_counts(_pair("commit_nine_branch", "commit_hoyle"))
    # rare, not impossible: an Opera drawn at two players (RUL-OPERA-DRAW) stays measured
    assert 2 in player_counts(_pair("opera_draw", "opera"))
    why = dict(unmeasured(_pair("commit_rest", "commit_hoyle")))
    assert set(why) == {3} and "R-COMMIT-H-DEAL" in why[3]
    assert "later deals" in dict(unmeasured(_pair("commit_removed", "commit_cats")))[2]


def test_every_count_left_out_plays_alike() -> None:
    for field, preset in (
        ("commit_removed", "commit_cats"),
        ("commit_rest", "commit_hoyle"),
        ("commit_nine_branch", "commit_hoyle"),
        ("red_nines_many", "red_nines"),
        ("red_nines_suits", "red_nines"),
    ):
        pair = _pair(field, preset)
        for n, why in unmeasured(pair):
            assert alike_in_play(pair, n), (pair.key, n, why)


def test_a_count_wrongly_left_out_is_caught() -> None:
    """Planted: claiming RUL-COMMIT-H-NINE-RUN cannot arise at three players (as if the choice needed four)
    is refuted by the same check; RUL-RED9-MANY at five players (three red nines, scored x8 or x4) is rare
    in play, so its premise is checked on the deck itself."""
    nine = _pair("commit_nine_branch", "commit_hoyle")
    assert absent_reason(nine, 3) is None and not alike_in_play(nine, 3)
    from comet.engine import packs_in_rotation
    from comet.games.red_nines.rules import nines_factor

    many = _pair("red_nines_many", "red_nines")
    pack = packs_in_rotation(many.a, 5)[0]
    assert sum(1 for c in pack.cards if c in pack.wild) == 3 and absent_reason(many, 5) is None
    assert nines_factor(many.a, 3) != nines_factor(many.b, 3)
