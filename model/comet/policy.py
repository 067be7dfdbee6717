"""Simple playing policies used by the CLI, fuzzing and benchmarks (not rules)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from comet.state import PASS, Action, DealState

Policy = Callable[[DealState, Sequence[Action]], Action]


def simple_policy(state: DealState, legal: Sequence[Action]) -> Action:
    """Play naturally where possible (four of a kind first, lowest card on a lead);
    use the Comet only when nothing else goes, or as the last card; else pass."""
    plays = [a for a in legal if not a.is_pass]
    natural = [a for a in plays if not a.as_rank]
    if natural:
        return max(natural, key=lambda a: (len(a.cards), -a.cards[0]))
    wild = [a for a in plays if a.as_rank]
    if wild:
        need = state.need
        for a in wild:
            if a.as_rank == need or (need == 0 and a.as_rank == 9):
                return a
        return wild[0]
    return PASS


def random_policy(rng: random.Random) -> Policy:
    """Uniformly random among the legal actions."""

    def choose(state: DealState, legal: Sequence[Action]) -> Action:
        return legal[rng.randrange(len(legal))]

    return choose
