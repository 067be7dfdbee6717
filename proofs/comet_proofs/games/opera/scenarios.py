"""The Opera's witness scenarios: the standard game's, and going out in the first turn."""

from __future__ import annotations

import z3

from comet_proofs.games.standard import scenarios as standard
from comet_proofs.scenario import Scenario

FIRST_TURN = Scenario(
    "opera-first-turn",
    "the first player goes out in the first turn (Opera)",
    lambda e, s, v: z3.And(s.winner >= 0, s.x("first_turn") == 1),
    lambda s, a, v: s.winner >= 0 and s.turn == 0,
)

SCENARIOS: tuple[Scenario, ...] = (*standard.SCENARIOS, FIRST_TURN)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 5
