"""The impact study's plan (issue 17): the player counts a ruling is measured at are derived from the
rule sets (RUL-COMMIT-H-FIVE only at five players, RUL-RED9-SUITS only past four), and the fast engine's
paired sums equal the reference's (RUL-COMET-LEAD, RUL-NEW-RUN)."""

from __future__ import annotations

from comet.diverge.measure import reference_paired
from comet.diverge.pairs import pairs_for
from comet.diverge.study import game_level, player_counts
from comet.fast.diverge import paired_measure


def test_player_counts_come_from_the_deal_set_up() -> None:
    (five,) = pairs_for("commit_five", ["commit_hoyle"])
    assert player_counts(five) == (5,)
    (suits,) = pairs_for("red_nines_suits", ["red_nines"])
    assert player_counts(suits) == (5, 6, 7, 8)
    (lead, *_) = pairs_for("comet_lead", ["standard"])
    assert player_counts(lead) == (2, 3, 4, 5)
    assert game_level(next(iter(pairs_for("escalation", ["standard"])))) and not game_level(lead)


def test_fast_paired_sums_equal_the_reference() -> None:
    for field in ("comet_lead", "new_run", "deal_order"):
        for pair in pairs_for(field, ["standard"]):
            for policy in ("random", "hoarder"):
                assert paired_measure(pair, 4, range(40), policy) == reference_paired(pair, 4, range(40), policy)
