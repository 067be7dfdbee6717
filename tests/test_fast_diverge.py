"""The fast engine as the impact study's backend gives the reference's DealResult seed for seed
(R-END-OUT, R-SETTLE-POINTS, R-OPERA-DRAW through the outcomes it compares)."""

from __future__ import annotations

import pytest
from comet.diverge.impact import BACKENDS, check_backend, reference_deal
from comet.fast.diverge import deal_results, register
from comet.presets import PRESETS


@pytest.mark.parametrize("name", ["standard", "opera", "two_player", "old_comet"])
@pytest.mark.parametrize("policy", ["random", "greedy", "hoarder"])
def test_deal_results_equal_the_reference(name: str, policy: str) -> None:
    rules = PRESETS[name].rules
    players = 2 if name == "two_player" else 4
    seeds = list(range(12))
    assert deal_results(rules, players, seeds, policy) == [reference_deal(rules, players, s, policy) for s in seeds]


def test_registered_backend_agrees() -> None:
    register()
    assert "fast" in BACKENDS
    assert check_backend("fast", PRESETS["standard"].rules, 3, range(20), "random") == []
    with pytest.raises(ValueError, match="policy"):
        deal_results(PRESETS["standard"].rules, 3, [1], "clever")
