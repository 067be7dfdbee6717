"""Playing policies for divergence search and impact studies (not rules; any legal choice is fair).

``random`` picks uniformly; ``greedy`` plays the most cards, prefers continuing long runs and dumps high
cards first; ``hoarder`` keeps the wild card (the Comet) until it is the last card or nothing else goes.
Every policy only chooses among ``legal_actions``, so it works for every variant.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from comet.cards import rank_of
from comet.policy import Policy, simple_policy
from comet.state import Action, DealState

POLICY_NAMES = ("random", "greedy", "hoarder")


def _run_length(hand: Sequence[int], rank: int) -> int:
    """How many consecutive ranks from ``rank`` up the hand holds (naturally)."""
    ranks = {rank_of(c) for c in hand}
    n = 0
    while rank + n in ranks:
        n += 1
    return n


def greedy_policy(state: DealState, legal: Sequence[Action]) -> Action:
    """Most cards first; on a lead the card that starts the longest run in hand, then the highest rank."""
    plays = [a for a in legal if not a.is_pass]
    if not plays:
        return legal[0]
    hand = [c for c in state.hands[state.to_move] if c not in state.wild]
    natural = [a for a in plays if not any(c in state.wild for c in a.cards)] or plays

    def score(a: Action) -> tuple[int, int, int, tuple[int, ...]]:
        return (len(a.cards), _run_length(hand, a.rank), a.rank, tuple(-c for c in a.cards))

    return max(natural, key=score)


def hoarder_policy(state: DealState, legal: Sequence[Action]) -> Action:
    """Like the simple policy, but the wild card is kept back until it is the last card in hand
    (or a pass is not allowed); then it stands for a 9 where it may."""
    hand = state.hands[state.to_move]
    wild_plays = [a for a in legal if any(c in state.wild for c in a.cards)]
    others = [a for a in legal if a not in wild_plays]
    holds_only_wild = all(c in state.wild for c in hand)
    if wild_plays and (holds_only_wild or not others):
        nines = [a for a in wild_plays if a.rank == 9]
        return (nines or wild_plays)[0]
    return simple_policy(state, others)


def make_policy(name: str, seed: int) -> Policy:
    """The policy called ``name`` (``random`` seeded with ``seed``); ValueError for an unknown name."""
    if name == "random":
        rng = random.Random(seed)

        def choose(state: DealState, legal: Sequence[Action]) -> Action:
            return legal[rng.randrange(len(legal))]

        return choose
    fixed: dict[str, Callable[[DealState, Sequence[Action]], Action]] = {
        "greedy": greedy_policy,
        "hoarder": hoarder_policy,
        "simple": simple_policy,
    }
    if name not in fixed:
        raise ValueError(f"unknown policy {name!r}; choose one of: {', '.join((*POLICY_NAMES, 'simple'))}")
    return fixed[name]
