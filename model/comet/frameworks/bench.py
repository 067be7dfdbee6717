"""Steps per CPU second through the OpenSpiel and PettingZoo wrappers beside the engine's own rate
(``comet bench``'s framework rows; spec/frameworks.md).

A step is one player action, chosen uniformly at random among the legal ones, in complete random
deals of one preset and player count; the time of dealing is included in every rate, so the
engine's rate is ``shuffled_deal`` + ``legal_actions`` + ``apply``, OpenSpiel's the chance nodes +
``legal_actions()`` + ``apply_action``, PettingZoo's ``reset`` + ``last()`` (the observation and the
action mask the agent needs) + ``step``, Gymnasium's ``reset`` + ``step`` for one seat with the other
seats played by our policies (their actions count as steps too).  A framework that is not installed
gives no row.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable

import numpy as np

from comet import engine
from comet.frameworks.common import make_table, seeded_deal

#: (what, wrapper) in the order the rows are measured.
WRAPPERS: tuple[tuple[str, str], ...] = (
    ("engine-steps", "comet.engine"),
    ("openspiel-steps", "pyspiel"),
    ("pettingzoo-steps", "pettingzoo"),
    ("gymnasium-steps", "gymnasium"),
)


def available(module: str) -> bool:
    return module == "comet.engine" or importlib.util.find_spec(module) is not None


def cpu_rate(work: Callable[[int], int], seconds: float) -> float:
    """Steps per CPU second of ``work(deal_number)`` (which returns the steps of one deal)."""
    n = steps = 0
    t0 = time.process_time()
    while True:
        steps += work(n)
        n += 1
        dt = time.process_time() - t0
        if dt >= seconds:
            return steps / dt


def engine_steps(preset: str, players: int, seconds: float) -> float:
    table = make_table(preset, players)

    def work(n: int) -> int:
        rng = random.Random(n)
        s = seeded_deal(table, n)
        k = 0
        while not s.terminal:
            legal = engine.legal_actions(s)
            s = engine.apply(s, legal[rng.randrange(len(legal))], legal=legal)
            k += 1
        return k

    return cpu_rate(work, seconds)


def openspiel_steps(preset: str, players: int, seconds: float) -> float:
    from comet.frameworks.openspiel import load_game

    game = load_game(preset, players=players)

    def work(n: int) -> int:
        rng = random.Random(n)
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            k += 1
        return k

    return cpu_rate(work, seconds)


def pettingzoo_steps(preset: str, players: int, seconds: float) -> float:
    from comet.frameworks.pettingzoo import env

    e = env(preset=preset, players=players)

    def work(n: int) -> int:
        rng = random.Random(n)
        e.reset(seed=n)
        k = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            k += 1
        return k

    return cpu_rate(work, seconds)


def gymnasium_steps(preset: str, players: int, seconds: float) -> float:
    from comet.frameworks.pettingzoo import single_agent_env

    g = single_agent_env(preset=preset, players=players, opponents="random")

    def work(n: int) -> int:
        rng = random.Random(n)
        obs, _ = g.reset(seed=n)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = g.step(int(legal[rng.randrange(len(legal))]))
        return g.state.steps

    return cpu_rate(work, seconds)


MEASURES: dict[str, Callable[[str, int, float], float]] = {
    "engine-steps": engine_steps,
    "openspiel-steps": openspiel_steps,
    "pettingzoo-steps": pettingzoo_steps,
    "gymnasium-steps": gymnasium_steps,
}


def framework_rows(preset: str, players: int, seconds: float) -> list[tuple[str, float, str]]:
    """(what, steps per CPU second, note) for the engine and every installed wrapper; the note of a
    wrapper's row states its overhead against the engine's rate measured in the same run."""
    rows: list[tuple[str, float, str]] = []
    base = 0.0
    for what, module in WRAPPERS:
        if not available(module):
            continue
        rate = MEASURES[what](preset, players, seconds)
        if what == "engine-steps":
            base = rate
            rows.append((what, rate, "random legal actions, dealing included"))
        else:
            rows.append((what, rate, f"{base / rate:.1f}x the engine's time per step" if rate else "no steps"))
    return rows
