"""The witness scenarios' machinery (``traces.py`` finds a deal for each): a ``Scenario`` is a way for a deal to
end, judged on the encoding's last state and on the model's deal; each game's scenarios are in its folder
(``comet_proofs/games/<name>/scenarios.py``: ``SCENARIOS``, and ``TRACE_PLAYERS``, the player count with the
smallest hands), found by discovery (``traces.scenarios_for``).  ``STUCK_RUN`` is every game's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3
from comet import engine
from comet.state import Action, DealState

from comet_proofs.catalogue import restart
from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import NINE, SymAction, SymState

FinalGuard = Callable[[Encoding, SymState, int], z3.BoolRef]
StepGuard = Callable[[Encoding, SymState, SymAction, SymState], z3.BoolRef]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A way for a deal to end: ``final`` on the last state (given the Comet's starting value), optionally
    ``step`` on some step of the deal, and ``holds`` the same property judged on the model's deal
    (``step_holds`` its step, judged on the model's states; None: the final state says it)."""

    slug: str
    description: str
    final: FinalGuard
    holds: Callable[[DealState, Sequence[Action], int], bool]
    step: StepGuard | None = None
    escalated: bool = False
    # "z3": bounded unrolling of the encoding; "sample": seeded random deals of the model until one ends so
    # (for endings random play meets all the time, such as a stuck run); "z3" falls back to "sample".
    method: str = "z3"
    step_holds: Callable[[DealState, Sequence[Action]], bool] | None = None


def deal_states(start: DealState, actions: Sequence[Action]) -> list[DealState]:
    out = [start]
    for a in actions:
        out.append(engine.apply(out[-1], a))
    return out


def won_on_wild_nine(s: DealState, acts: Sequence[Action], start: int) -> bool:
    return s.winner >= 0 and s.out_wild_as == NINE


def caught(s: DealState, acts: Sequence[Action], start: int) -> bool:
    return s.winner >= 0 and any(c in s.wild for p, h in enumerate(s.hands) if p != s.winner for c in h)


def stuck_then_over(start_state: DealState, acts: Sequence[Action]) -> bool:
    states = deal_states(start_state, acts)
    restarts = [i for i, a in enumerate(acts) if a.is_pass and states[i].run and not states[i + 1].run]
    return bool(restarts) and states[-1].terminal


# A run gets stuck, then the deal ends: every game's.
STUCK_RUN = Scenario(
    "stuck-run",
    "a run gets stuck (everyone passes back to its last player), then the deal ends",
    lambda e, s, v: e.terminal(s),
    lambda s, a, v: True,
    step=lambda e, s, a, t: restart(s, a, t),
    step_holds=stuck_then_over,
    method="sample",
)
