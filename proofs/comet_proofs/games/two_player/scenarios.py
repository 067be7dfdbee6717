"""The two-player game's witness scenarios (its Comet does not escalate within a deal's scenarios)."""

from __future__ import annotations

from comet_proofs.games.standard import scenarios as standard
from comet_proofs.scenario import STUCK_RUN, Scenario

SCENARIOS: tuple[Scenario, ...] = (standard.COMET_NINE, standard.CAUGHT, STUCK_RUN)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 2
