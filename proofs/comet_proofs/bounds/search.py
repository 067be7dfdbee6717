"""The search for extremal deals: for one quantity of the bounds table, a real deal of the model that reaches
as much of it as the search can find (spec/extremes.md).

Nothing here is trusted from an encoding: a deal is the model's (``engine.start_deal``), played by the
model's legal actions, and valued by the same ``quantities`` the table reads off every shipped witness.

The search has two levels.

- **Play** (``beam_play``): from a dealt state, a beam search over the model's actions, one action per
  level, keeping the ``width`` most promising states (``promise``: for a loser, the points in its hand and
  how near another seat is to going out; for a winner, the points the others hold and how near it is to going
  out; for the length, the cards still held), and the best finished deal met on the way.
- **Deal** (``climb``): hill climbing over the deal itself: a card moved between two hands (or a hand and the
  dead hand), kept when the best play of the new deal is at least as good, from the best shipped deal of
  that quantity where there is one (the bound-settlement deals), else from a seeded shuffle.

The search is heuristic: what it finds is a lower bound on the extreme (a real deal), never a proof that
nothing is larger; where it meets the proved bound the row is exact.  Run by ``comet bounds --search``; its
deals are shipped under ``witnesses/extremes/`` (``extremes.json``) and replayed whenever the table is made.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from comet import engine
from comet.cards import Card
from comet.presets import preset as preset_named
from comet.state import Action, DealState
from comet.variant import variant_of

from comet_proofs.bounds.quantities import ACTIONS, DEAL_GAIN, DEAL_LOSS, GAIN, LOSS, POINTS, quantities

# How a state is judged while its deal goes on, per quantity: "loss" (seat 0 keeps points while another seat
# nears going out), "gain" (seat 0 nears going out while the others keep points), "long" (cards still held).
MODES: dict[str, tuple[str, ...]] = {
    ACTIONS: ("long",),
    LOSS: ("loss",),
    DEAL_LOSS: ("loss",),
    GAIN: ("gain",),
    DEAL_GAIN: ("gain",),
    POINTS: ("gain", "loss"),
}


@dataclass(frozen=True, slots=True)
class Played:
    """The best finished deal a play search met: its value for the quantity, the start and the actions."""

    value: int
    start: DealState
    actions: tuple[Action, ...]


def value_of(final: DealState, actions: int, quantity: str) -> int:
    """``quantity`` of one finished deal of the model (the most over its seats, as the table reads it)."""
    return quantities(final, actions)[quantity]


@dataclass(frozen=True, slots=True)
class Aim:
    """What a play search steers for: ``mode`` ("loss": seat ``seat`` keeps points while another seat nears
    going out; "gain": ``seat`` nears going out while the others keep points; "long": cards still held),
    ``weight`` how much a card nearer to going out is worth against a point in hand."""

    mode: str
    seat: int = 0
    weight: int = 3


def promise(state: DealState, aim: Aim) -> int:
    """How promising an unfinished state is for ``aim`` (larger is better)."""
    if aim.mode == "long":
        return sum(len(h) for h in state.hands)
    chips, seat = state.chips(), aim.seat
    held = [engine.points_in_hand(state, h) for h in state.hands]
    if aim.mode == "loss":
        others = min(len(h) for p, h in enumerate(state.hands) if p != seat)
        return 4 * held[seat] - chips[seat] - aim.weight * others
    return 4 * (sum(held) - held[seat]) + chips[seat] - aim.weight * len(state.hands[seat])


def beam_play(start: DealState, quantity: str, width: int, rng: random.Random, aim: Aim) -> Played | None:
    """The best finished deal from ``start`` a beam search of ``width`` states a level finds (None: none
    finished, which a deal cannot do within its step bound)."""
    frontier: list[tuple[DealState, tuple[Action, ...]]] = [(start, ())]
    best: Played | None = None
    while frontier:
        scored: dict[DealState, tuple[float, tuple[Action, ...]]] = {}
        for state, path in frontier:
            for action in engine.legal_actions(state):
                child, route = engine.apply(state, action), (*path, action)
                if child.terminal:
                    got = value_of(child, len(route), quantity)
                    if best is None or got > best.value:
                        best = Played(got, start, route)
                elif child not in scored:
                    scored[child] = (promise(child, aim) + rng.random(), route)
        ranked = sorted(scored.items(), key=lambda item: item[1][0], reverse=True)[:width]
        frontier = [(state, route) for state, (_, route) in ranked]
    return best


Deal = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]


def moved(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` with one card of one place (a hand, or the dead hand) swapped with one of another."""
    places = [list(h) for h in deal[0]] + [list(deal[1])]
    filled = [i for i, p in enumerate(places) if p]
    a, b = rng.sample(filled, 2)
    i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
    places[a][i], places[b][j] = places[b][j], places[a][i]
    return tuple(tuple(sorted(p)) for p in places[:-1]), tuple(sorted(places[-1]))


def dealt(rules_start: DealState, deal: Deal) -> DealState:
    """The model's start of ``deal`` with the rules, dealer, pack and Comet value of ``rules_start``."""
    pack = next(
        p for p in engine.packs_in_rotation(rules_start.rules, rules_start.players) if p.name == rules_start.pack
    )
    return engine.start_deal(
        rules_start.rules, pack, rules_start.players, rules_start.dealer, deal[0], deal[1], rules_start.comet_value
    )


def climb(
    preset: str,
    players: int,
    quantity: str,
    seconds: float,
    seed: int = 0,
    width: int = 12,
    first: Played | None = None,
    progress: Callable[[int], None] | None = None,
) -> Played | None:
    """Hill climbing over deals of ``preset`` for ``players`` seats, for ``seconds`` of CPU: each deal valued
    by ``beam_play`` (a mode of ``MODES[quantity]`` and a weight drawn per try), a move kept when its value is
    at least the best so far; from ``first`` (a shipped deal, as played) or a seeded shuffle.  ``progress``: called
    with the best value after each try."""
    rng = random.Random(seed)
    rules = preset_named(preset).rules
    modes = MODES[quantity]

    def aim() -> Aim:
        return Aim(rng.choice(modes), rng.randrange(players), rng.choice((1, 3, 6, 12)))

    start = first.start if first is not None else engine.shuffled_deal(rules, players, 0, rng.getrandbits(32))
    best = first if first is not None else beam_play(start, quantity, width, rng, aim())
    deal: Deal = (start.hands, start.dead)
    ends = time.process_time() + seconds
    while time.process_time() < ends:
        trial = moved(deal, rng)
        for _ in range(rng.randrange(3)):
            trial = moved(trial, rng)
        got = beam_play(dealt(start, trial), quantity, width, rng, aim())
        if got is not None and (best is None or got.value >= best.value):
            best, deal = got, trial
        if progress is not None and best is not None:
            progress(best.value)
    return best


def quantities_of(preset: str) -> tuple[str, ...]:
    """The table's quantities for ``preset`` (chips games: actions and the four chip figures; points games:
    actions and points)."""
    if variant_of(preset_named(preset).rules).scoring == "chips":
        return (ACTIONS, LOSS, GAIN, DEAL_LOSS, DEAL_GAIN)
    return (ACTIONS, POINTS)
