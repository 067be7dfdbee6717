"""The fast engine in the impact study (issues 9, 17): its paired sums over a seed range equal the reference
engine's, for every preset it plays and every policy (R-DEAL, R-TURN-END)."""

from __future__ import annotations

import pytest
from comet.diverge.measure import reference_paired
from comet.diverge.pairs import Pair, pairs_for
from comet.fast.api import supported_presets
from comet.fast.diverge import paired_measure, policy_named


@pytest.mark.parametrize("name", supported_presets())
@pytest.mark.parametrize("policy", ["random", "greedy", "hoarder"])
def test_paired_measure_equals_the_reference(name: str, policy: str) -> None:
    players = 2 if name == "two_player" else 3
    for field in ("comet_as", "may_stop_early", "opera"):
        for pair in pairs_for(field, [name])[:1]:
            assert paired_measure(pair, players, range(15), policy) == reference_paired(
                pair, players, range(15), policy
            )


#: The Old Comet deals whose Opera first player went out on the manille, at three players under the hoarder
#: (found in the first 30,000 seeds with opera on): where RUL-OLD-OPERA-BONUS can pay.
OPERA_ON_THE_MANILLE = (13511, 14879, 27151)


@pytest.mark.parametrize("policy", ["random", "greedy", "hoarder"])
@pytest.mark.parametrize(
    ("field", "base"),
    [
        ("old_last_card", {}),
        ("old_last_card", {"comet_after": "optional_restart", "old_king_quartet": "per_play"}),
        ("old_opera_bonus", {"opera": True}),
        ("old_opera_bonus", {"opera": True, "opera_stack": "highest"}),
        ("old_opera_bonus", {"opera": True, "old_bonus_last": "multiplied", "opera_stack": "multiply"}),
    ],
)
def test_paired_measure_equals_the_reference_on_the_old_comet_readings(
    field: str, base: dict[str, object], policy: str
) -> None:
    """RUL-OLD-LAST-CARD and RUL-OLD-OPERA-BONUS, played by the fast engine since issue 17: the paired sums
    of both readings on the seeds (and the Opera deals out on the manille) are the reference's."""
    pair = pairs_for(field, ["old_comet"])[0]
    pair = Pair(pair.preset, field, pair.a.with_overrides(base), pair.b.with_overrides(base))
    seeds = [*range(12), *OPERA_ON_THE_MANILLE]
    fast = paired_measure(pair, 3, seeds, policy)
    assert fast == reference_paired(pair, 3, seeds, policy)
    if field == "old_last_card" or policy == "hoarder":
        assert fast.changed > 0, "the readings never paid differently: the test does not reach the ruling"


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        policy_named("clever")
