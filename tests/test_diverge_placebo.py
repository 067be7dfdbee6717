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


def test_the_placebo_check_judges_its_measurements_as_one_family() -> None:
    """RUL-DEAL-ORDER: judged alone, one placebo measurement in twenty reads 'matters' by chance (seeds
    12,000..13,999 of the standard game at 3 players do: the 2nd seat's win rate); the placebo check judges
    its measurements as one family, where that one reads 'no measurable effect', while a reading that
    matters (RUL-MUST-CONTINUE) still reads 'matters' in a family of the same size."""
    from comet.commands.diverge_page import placebo_lines
    from comet.diverge.records import Search
    from comet.diverge.report import PairReport
    from comet.diverge.study import Measured

    (pair,) = [p for p in pairs_for("deal_order", ["standard"]) if placebo_reason(p) is not None]
    chance = paired_measure(pair, 3, range(12_000, 14_000), "random")
    assert verdict(chance).matters and not verdict(chance, together=20).matters
    (real,) = pairs_for("may_stop_early", ["standard"])
    assert verdict(paired_measure(real, 4, range(N // 4), "random"), together=20).matters

    # a family of 20 measurements (the same one, as if at 20 player counts): none is an effect found
    report = PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [Measured(k, {"random": chance}) for k in range(20)])
    text = "\n".join(placebo_lines([report]))
    assert "EFFECT FOUND" not in text and "20 of the 20 would read 'changes who gains'" in text
    alone = PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [Measured(3, {"random": chance})])
    assert "EFFECT FOUND" in "\n".join(placebo_lines([alone]))
