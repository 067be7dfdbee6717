"""Old Comet's witness scenarios: the standard game's."""

from __future__ import annotations

from comet_proofs.games.standard import scenarios as standard
from comet_proofs.scenario import Scenario

SCENARIOS: tuple[Scenario, ...] = standard.SCENARIOS
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 5
