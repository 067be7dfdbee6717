"""A competent player: determinized Monte Carlo (PIMC, "perfect information Monte Carlo").

At each choice with more than one option, the seat to move samples ``samples`` deals consistent with what
it knows (its own hand, every card played so far, the number of cards each seat holds and the dead hand's
size): the cards it has not seen are shuffled and dealt back into the other hands and the dead hand at their
sizes.  In each sample it plays every legal option and lets every seat (itself included) finish the deal
with the ``greedy`` policy, and it takes the option with the best mean result for itself (chips, or points
in a points game); ties go by coupled-play priority.  The seat never reads another seat's cards: the unseen
cards are computed from the pack, its hand and the played cards (``unseen``), never from the other hands
(tests/test_diverge_pimc.py swaps hidden cards and checks the choice does not move).

This is the definition, on the reference engine (``comet.engine``).  ``comet.fast.pimc`` is the same
player compiled on the fast engine (the same generator, worlds, roll-outs and ties, so the same choices:
tests/test_fast_pimc.py), about a hundred times faster; the impact study and ``strength`` use it wherever
it plays the game (standard, Opera, two players, Old Comet), this one elsewhere (Commit, Red Nines).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from comet.diverge.policies import greedy_choice, rank_key
from comet.engine import _replace, apply, deal_points, legal_actions, packs_in_rotation, returns
from comet.policy import Policy
from comet.state import Action, DealState
from comet.variant import variant_of

SAMPLES = 6


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
    return (returns(state) if variant_of(state.rules).scoring == "chips" else deal_points(state))[seat]


@dataclass(frozen=True, slots=True)
class Pimc:
    """The PIMC player for deal ``seed`` (the seed only drives its sampling and its ties)."""

    seed: int
    samples: int = SAMPLES

    def __call__(self, state: DealState, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        rng = random.Random(self.seed * 1_000_003 + state.steps * 101 + seat)
        totals = [0] * len(legal)
        for i in range(self.samples):
            world = determinize(state, seat, rng)
            for j, a in enumerate(legal):
                totals[j] += value(rollout(apply(world, a), self.seed + i), seat)
        best = max(range(len(legal)), key=lambda j: (totals[j], rank_key(self.seed, seat, legal[j])))
        return legal[best]


def pimc_policy(seed: int, samples: int = SAMPLES) -> Policy:
    return Pimc(seed, samples)


@dataclass(frozen=True, slots=True)
class Strength:
    """PIMC in one seat against ``opponent`` in the others, over ``deals`` seeded deals, paired with the same
    deals played by ``opponent`` in every seat (the baseline: the seat's share of wins without PIMC)."""

    opponent: str
    players: int
    deals: int
    wins: int  # deals the PIMC seat won
    baseline: int  # deals the same seat won when the opponent's policy played it
    diff: int  # sum over deals of (PIMC won) - (baseline won)
    diff2: int
    chips: int  # chips (points) of the PIMC seat, summed
    chips2: int


def strength_engine(rules_name: str) -> str:
    """``fast`` if ``comet.fast.pimc`` plays the preset's game, else ``reference``."""
    from comet.fast.pimc import pimc_unsupported
    from comet.presets import preset

    return "fast" if pimc_unsupported(preset(rules_name).rules) is None else "reference"


def strength(
    rules_name: str, players: int, deals: int, opponent: str, samples: int = SAMPLES, engine: str = "auto"
) -> Strength:
    """PIMC's seat moves round the table: in deal ``seed`` it is seat ``(seed // players) % players`` and the
    dealer is ``seed % players``, so over ``players ** 2`` deals it sits in every position equally.
    ``engine``: ``fast``, ``reference`` or ``auto`` (``strength_engine``); the same figures on either."""
    from comet.diverge.policies import make_policy
    from comet.engine import shuffled_deal
    from comet.presets import preset

    rules = preset(rules_name).rules
    if engine == "auto":
        engine = strength_engine(rules_name)
    if engine == "fast":
        return fast_strength(rules_name, players, deals, opponent, samples)
    wins = base = diff = diff2 = chips = chips2 = 0
    for seed in range(deals):
        seat = (seed // players) % players
        won = []
        for me in (Pimc(seed, samples), make_policy(opponent, seed)):
            other = make_policy(opponent, seed)
            s = shuffled_deal(rules, players, seed % players, seed)
            while not s.terminal:
                legal = legal_actions(s)
                s = apply(s, (me if s.to_move == seat else other)(s, legal))
            won.append(int(s.winner == seat))
            if len(won) == 1:
                v = value(s, seat)
                chips += v
                chips2 += v * v
        wins += won[0]
        base += won[1]
        diff += won[0] - won[1]
        diff2 += (won[0] - won[1]) ** 2
    return Strength(opponent, players, deals, wins, base, diff, diff2, chips, chips2)


def fast_strength(rules_name: str, players: int, deals: int, opponent: str, samples: int = SAMPLES) -> Strength:
    """``strength`` played by ``comet.fast.pimc`` (the PIMC seat) and ``comet.fast.api`` (the baseline)."""
    import numpy as np

    from comet.fast.api import play_deals
    from comet.fast.diverge import policy_named
    from comet.fast.pimc import play_pimc
    from comet.presets import preset

    rules = preset(rules_name).rules
    seeds = np.arange(deals, dtype=np.int64)
    seats = (seeds // players) % players
    out = play_pimc(rules, players, seeds, samples=samples, pimc_seats=seats, opponent=opponent)
    base = play_deals(rules, players, seeds, policy_named(opponent))
    won = (out.winner == seats).astype(np.int64)
    baseline = (base.winner == seats).astype(np.int64)
    scores = out.points if variant_of(rules).scoring == "points" else out.chips
    v = scores[np.arange(deals), seats]
    d = won - baseline
    return Strength(
        opponent,
        players,
        deals,
        int(won.sum()),
        int(baseline.sum()),
        int(d.sum()),
        int((d * d).sum()),
        int(v.sum()),
        int((v * v).sum()),
    )


def strength_lines(
    results: Sequence[Strength], preset_name: str, samples: int = SAMPLES, engine: str = "reference"
) -> list[str]:
    """The report's section on the competent player."""
    from comet.diverge.stats import mean_estimate, share_text

    lines = [
        "## The competent player",
        "",
        f"`pimc` (`comet.diverge.pimc`): determinized Monte Carlo with {samples} sampled deals per choice and "
        f"greedy roll-outs, played here by the {engine} engine"
        + (" (`comet.fast.pimc`, the same choices as the reference player)" if engine == "fast" else "")
        + "; it sees only its own hand, the cards played and the hand "
        "sizes. Its strength in the preset "
        f"`{preset_name}`: PIMC in one seat (moving round the table deal by deal), the opponent's policy in the "
        "others; the baseline is the same seat on the same deals played by the opponent's policy. Parity is "
        "a win rate of 1 / players.",
        "",
        "| opponents | players | deals | PIMC seat's win rate (95 %) | baseline seat | PIMC − baseline (paired) "
        "| PIMC seat's mean result per deal |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        d = mean_estimate(r.deals, r.diff, r.diff2)
        c = mean_estimate(r.deals, r.chips, r.chips2)
        lines.append(
            f"| {r.opponent} | {r.players} | {r.deals:,} | {share_text(r.wins, r.deals)} | "
            f"{share_text(r.baseline, r.deals)} | {d.text(2, scale=100)} points | {c.text(2)} |"
        )
    return [*lines, ""]
