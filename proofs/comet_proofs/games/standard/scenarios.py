"""The standard game's witness scenarios (``comet_proofs.traces``); the games that share its rules take some."""

from __future__ import annotations

import z3

from comet_proofs.catalogue import comet_caught
from comet_proofs.scenario import STUCK_RUN, Scenario, caught, won_on_wild_nine
from comet_proofs.symbolic import NINE

COMET_NINE_ESCALATED = Scenario(
    "comet-nine-escalated",
    "the winner goes out on the Comet as a 9, the Comet worth more than at the start",
    lambda e, s, v: z3.And(s.winner >= 0, s.out_wild_as == NINE, s.comet_value > v),
    lambda s, a, v: won_on_wild_nine(s, a, v) and s.comet_value > v,
    escalated=True,
)
COMET_NINE = Scenario(
    "comet-nine",
    "the winner goes out on the Comet (the wild card) as a 9",
    lambda e, s, v: z3.And(s.winner >= 0, s.out_wild_as == NINE),
    won_on_wild_nine,
)
CAUGHT = Scenario(
    "caught",
    "a loser is caught with the Comet (the wild card) at the end",
    lambda e, s, v: comet_caught(e, s),
    caught,
)

SCENARIOS: tuple[Scenario, ...] = (COMET_NINE_ESCALATED, CAUGHT, STUCK_RUN)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 5
