"""The witness scenario the two Commit games share: a loser caught holding the 9D."""

from __future__ import annotations

import z3

from comet_proofs.scenario import Scenario, caught

NINE_D_CAUGHT = Scenario(
    "caught",
    "a loser is caught holding the 9D at the end",
    lambda e, s, v: z3.And(s.winner >= 0, s.x("loc.9D") >= 0, s.x("loc.9D") != s.winner),
    caught,
    method="sample",
)
