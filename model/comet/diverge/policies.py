"""Playing policies by name, for divergence search and impact studies (not rules; any legal choice is fair):
``random``, ``greedy`` and ``hoarder`` make coupled choices (``comet.diverge.choices``), ``simple`` plays the
natural way (``comet.policy.simple_policy``), ``pimc`` is the competent player (``comet.diverge.pimc``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from comet.diverge.choices import greedy_choice, hoarder_choice, random_choice
from comet.diverge.pimc import Pimc
from comet.policy import Policy, simple_policy
from comet.state import Action, DealState

POLICY_NAMES = ("random", "greedy", "hoarder")


def make_policy(name: str, seed: int) -> Policy:
    """The policy called ``name`` with the priorities of deal ``seed``; ValueError for an unknown name."""
    fixed: dict[str, Callable[[int, DealState, Sequence[Action]], Action]] = {
        "random": random_choice,
        "greedy": greedy_choice,
        "hoarder": hoarder_choice,
    }
    if name == "simple":
        return simple_policy
    if name == "pimc":
        return Pimc(seed)
    if name not in fixed:
        raise ValueError(f"unknown policy {name!r}; choose one of: {', '.join((*POLICY_NAMES, 'simple', 'pimc'))}")
    pick = fixed[name]

    def choose(state: DealState, legal: Sequence[Action]) -> Action:
        return pick(seed, state, legal)

    return choose
