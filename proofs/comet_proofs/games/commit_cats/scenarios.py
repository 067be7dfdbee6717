"""Commit (002)'s witness scenarios: the 9D caught, a stuck run, going out on the Comet (9D) in a run."""

from __future__ import annotations

import z3

from comet_proofs.games.commit_scenarios import NINE_D_CAUGHT
from comet_proofs.scenario import STUCK_RUN, Scenario
from comet_proofs.symbolic import COMET

COMET_OUT = Scenario(
    "comet-out",
    "the winner goes out on the Comet (9D) during a run",
    lambda e, s, v: z3.And(s.winner >= 0, s.out_wild_as > 0),
    lambda s, a, v: s.winner >= 0 and s.out_wild_as > 0,
    step=lambda e, s, a, t: z3.And(a.kind == COMET, s.need > 0, t.winner >= 0),
)

SCENARIOS: tuple[Scenario, ...] = (NINE_D_CAUGHT, STUCK_RUN, COMET_OUT)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 8
