"""The placebo check (issue 17): readings that provably cannot change play or payments show no measurable
effect, and a reading that does matter is not called a placebo by the same verdict (RUL-DEAL-ORDER,
RUL-PACKS; RUL-MUST-CONTINUE as the reading that matters)."""

from __future__ import annotations

import pytest
from comet.diverge.effect import verdict
from comet.diverge.pairs import all_pairs, pairs_for
from comet.diverge.placebo import PLACEBOS, placebo_reason
from comet.fast.diverge import paired_measure

N = 20_000


@pytest.mark.parametrize("field,value", sorted(PLACEBOS))
def test_placebo_readings_show_no_measurable_effect(field: str, value: str) -> None:
    pairs = [p for p in pairs_for(field, ["standard"]) if placebo_reason(p) is not None]
    assert pairs, (field, value)
    for pair in pairs:
        for players in (3, 4):
            for policy in ("random", "greedy"):
                v = verdict(paired_measure(pair, players, range(N), policy))
                assert not v.matters, (pair.key, players, policy, v.text)
                assert v.text.startswith(("no measurable effect", "no effect"))


def test_the_same_verdict_sees_a_reading_that_matters() -> None:
    """The check can fail: may_stop_early = true changes random play, and the verdict says so."""
    (pair,) = pairs_for("may_stop_early", ["standard"])
    v = verdict(paired_measure(pair, 4, range(N // 4), "random"))
    assert v.matters and v.text.startswith("matters")


def test_every_placebo_names_a_real_reading() -> None:
    keys = {(p.field, str(p.value_b).lower()) for p in all_pairs()}
    assert set(PLACEBOS) <= keys
