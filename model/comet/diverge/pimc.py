"""A competent player: determinized Monte Carlo (PIMC, "perfect information Monte Carlo").

At each choice with more than one option, the seat to move samples ``samples`` deals (``samples_for``: 6, or
100 in Commit-Cats) consistent with what
it knows (its own hand, every card played so far, the number of cards each seat holds and the dead hand's
size): the cards it has not seen are shuffled and dealt back into the other hands and the dead hand at their
sizes.  In each sample it plays every legal option and lets every seat (itself included) finish the deal
with the ``greedy`` policy, and it takes the option with the best mean result for itself (chips, or points
in a points game, negated in a game the lowest total wins); ties go by coupled-play priority.  The seat never reads another seat's cards: the unseen
cards are computed from the pack, its hand and the played cards (``unseen``), never from the other hands
(tests/test_diverge_pimc.py swaps hidden cards and checks the choice does not move).

This is the definition, on the reference engine (``comet.engine``).  ``comet.fast.pimc`` is the same
player compiled on the fast engine (the same generator, worlds, roll-outs and ties, so the same choices:
tests/test_fast_pimc.py), about a hundred times faster; the impact study and ``strength`` use it wherever
it plays the game (every preset's game since issue 17), this one elsewhere.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from comet.diverge.choices import greedy_choice, rank_key
from comet.engine import _replace, apply, deal_points, legal_actions, packs_in_rotation, returns
from comet.policy import Policy
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of

SAMPLES = 6

#: games whose player samples more deals per choice than ``SAMPLES``.  Commit-Cats (the whole deck dealt, a
#: choice only where a suit's lowest card, the Comet or a pass is open) offers few choices, most of them a
#: close call between holding the Comet and playing it; with 6 worlds its choices were mostly noise and the
#: player beat greedy by no measurable margin at 7 players (issue 17: +0.20 points, -0.24 to +0.64, over
#: 2,000 deals).  100 worlds per choice make it measurably stronger at every player count (README.md, "The
#: divergence report at scale"); a Commit-Cats deal is cheap enough to afford them.
GAME_SAMPLES: dict[str, int] = {"commit_cats": 100}


def samples_for(rules: Ruleset) -> int:
    """The sampled deals per choice of the PIMC player of ``rules``' game: ``GAME_SAMPLES`` or ``SAMPLES``."""
    return GAME_SAMPLES.get(rules.variant, SAMPLES)


def unseen(state: DealState, seat: int) -> list[int]:
    """The cards ``seat`` has not seen: the pack less its own hand and the cards played (a sorted list)."""
    pack = next(p for p in packs_in_rotation(state.rules, state.players) if p.name == state.pack)
    left = Counter(pack.cards)
    left.subtract(state.hands[seat])
    left.subtract(state.played)
    return sorted(left.elements())


def determinize(state: DealState, seat: int, rng: random.Random) -> DealState:
    """A deal consistent with what ``seat`` knows: its own hand, the other hands and the dead hand refilled
    at their sizes from the cards it has not seen."""
    cards = unseen(state, seat)
    rng.shuffle(cards)
    hands = []
    at = 0
    for s in range(state.players):
        if s == seat:
            hands.append(state.hands[s])
            continue
        k = len(state.hands[s])
        hands.append(tuple(sorted(cards[at : at + k])))
        at += k
    dead = tuple(sorted(cards[at:]))
    return _replace(state, hands=tuple(hands), dead=dead)


def rollout(state: DealState, seed: int) -> DealState:
    s = state
    while not s.terminal:
        legal = legal_actions(s)
        s = apply(s, greedy_choice(seed, s, legal), legal=legal)
    return s


def value(state: DealState, seat: int) -> int:
    """What the player maximises: its chips, or its points in a points game, negated where the lowest total
    wins (Red Nines' penalty points)."""
    v = variant_of(state.rules)
    if v.scoring == "chips":
        return returns(state)[seat]
    return -deal_points(state)[seat] if v.lower_wins else deal_points(state)[seat]


@dataclass(frozen=True, slots=True)
class Pimc:
    """The PIMC player for deal ``seed`` (the seed only drives its sampling and its ties); ``samples`` worlds
    per choice (None: the game's own number, ``samples_for``)."""

    seed: int
    samples: int | None = None

    def __call__(self, state: DealState, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        rng = random.Random(self.seed * 1_000_003 + state.steps * 101 + seat)
        totals = [0] * len(legal)
        for i in range(samples_for(state.rules) if self.samples is None else self.samples):
            world = determinize(state, seat, rng)
            for j, a in enumerate(legal):
                totals[j] += value(rollout(apply(world, a), self.seed + i), seat)
        best = max(range(len(legal)), key=lambda j: (totals[j], rank_key(self.seed, seat, legal[j])))
        return legal[best]


def pimc_policy(seed: int, samples: int | None = None) -> Policy:
    return Pimc(seed, samples)
