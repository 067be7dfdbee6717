"""Commit (000)'s witness scenarios: the 9D caught, a stuck run, the 9D played instead of 'without'."""

from __future__ import annotations

from collections.abc import Sequence

import z3
from comet.cards import DIAMONDS, card
from comet.state import Action, DealState

from comet_proofs.games.commit_scenarios import NINE_D_CAUGHT
from comet_proofs.scenario import STUCK_RUN, Scenario, deal_states
from comet_proofs.symbolic import CARD


def nine_instead_of_without(start: DealState, acts: Sequence[Action], value: int) -> bool:
    states = deal_states(start, acts)
    nine = card(9, DIAMONDS)
    return any(a.cards == (nine,) and states[i].run for i, a in enumerate(acts))


NINE_INSTEAD_OF_WITHOUT = Scenario(
    "nine-instead-of-without",
    "the 9D is played instead of 'without' during a run, and the deal then ends",
    lambda e, s, v: e.terminal(s),
    lambda s, a, v: True,
    step=lambda e, s, a, t: z3.And(a.kind == CARD, a.rank == card(9, DIAMONDS), s.need > 0),
    step_holds=lambda start, acts: nine_instead_of_without(start, acts, 0),
)

SCENARIOS: tuple[Scenario, ...] = (NINE_D_CAUGHT, STUCK_RUN, NINE_INSTEAD_OF_WITHOUT)
# The player count with the smallest hands (the shortest deals).
TRACE_PLAYERS = 8
