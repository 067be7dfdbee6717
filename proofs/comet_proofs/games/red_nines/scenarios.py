"""Red Nines' witness scenarios: a red nine as the 9 to go out, a loser holding one, a stuck run."""

from __future__ import annotations

import z3

from comet_proofs.games.standard import scenarios as standard
from comet_proofs.scenario import STUCK_RUN, Scenario, caught

CAUGHT = Scenario(
    "caught",
    "a loser is caught holding a red nine at the end",
    lambda e, s, v: z3.And(
        s.winner >= 0, z3.Or([z3.And(s.winner != p, s.x(f"wild{p}") >= 1) for p in range(s.players)])
    ),
    caught,
    method="sample",
)

SCENARIOS: tuple[Scenario, ...] = (standard.COMET_NINE, CAUGHT, STUCK_RUN)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 4
