"""Directed deals in ``comet verify``'s fuzz campaign (issue 23): the rules random play misses are met by
the proofs' shipped witness deals, played under every check of the fuzzer; the second solver's silence is
explained per obligation.

Rules exercised: R-COMMIT-C-CAUGHT, R-COMMIT-C-OUT.
"""

from __future__ import annotations

import dataclasses

import pytest
import z3
from comet.fuzz import directed_hits
from comet.variant import REGISTRY
from comet_proofs.obligation import Obligation
from comet_proofs.traces import shipped_deals


def test_witness_deals_meet_commit_cats_caught() -> None:
    """R-COMMIT-C-CAUGHT: random play in a short campaign misses it; the shipped caught deal meets it."""
    hits, failures = directed_hits(shipped_deals(["commit_cats"]))
    assert not failures
    assert hits["R-COMMIT-C-CAUGHT"] >= 1


def test_a_planted_scoring_bug_fails_a_directed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-C-OUT planted to score nothing: the directed deals' checks report it."""
    monkeypatch.setitem(
        REGISTRY,
        "commit_cats",
        dataclasses.replace(REGISTRY["commit_cats"], points_of_deal=lambda state: (0,) * state.players),
    )
    _, failures = directed_hits(shipped_deals(["commit_cats"]))
    assert failures and "[directed deal]" in failures[0]


def test_the_second_solver_says_why_it_gave_no_answer() -> None:
    """A formula beyond a tiny budget: "no answer", with Z3's reason, the case and the budget in words."""
    x, y = z3.Ints("x y")
    hard = [x * x * x + y * y * y == 33, x > 0]
    verdict, why = Obligation.second_opinion(hard, [z3.BoolVal(True)], 1_000)
    assert verdict == "no answer"
    assert why.startswith("Z3 says '") and "within 1,000 units of work" in why and "its one case" in why
