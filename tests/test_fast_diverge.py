"""The fast engine in the impact study (issues 9, 17): its paired sums over a seed range equal the reference
engine's, for every preset it plays and every policy (R-DEAL, R-TURN-END)."""

from __future__ import annotations

import pytest
from comet.diverge.measure import reference_paired
from comet.diverge.pairs import pairs_for
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


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        policy_named("clever")
