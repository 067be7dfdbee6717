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
from typing import Any

import numpy as np

from comet import engine
from comet.frameworks.chance import seeded_deal
from comet.frameworks.table import make_table

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


# --------------------------------------------------------------------- what the frameworks cost with no rules at all

#: The shape of the standard 4-player deal the floors imitate: cards dealt (chance nodes), player actions
#: (about the mean of random deals), legal actions per decision, cards left at a chance node.
FLOOR_CHANCE, FLOOR_STEPS, FLOOR_LEGAL, FLOOR_OUTCOMES = 40, 63, (1, 5, 9), 30


def openspiel_floor_steps(seconds: float) -> float:
    """Steps per CPU second of a do-nothing OpenSpiel Python game driven by ``openspiel_steps``'s loop: the
    same number of chance nodes and player actions as a standard 4-player deal, every method returning a
    constant.  What OpenSpiel's calls into Python cost alone: no wrapper of a Python game goes faster."""
    import pyspiel

    from comet.frameworks.openspiel import load_game

    game = load_game("standard", players=4)
    outcomes = [(i, 1 / FLOOR_OUTCOMES) for i in range(FLOOR_OUTCOMES)]
    end = FLOOR_CHANCE + FLOOR_STEPS
    chance, terminal = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

    class Nothing(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
        def __init__(self) -> None:
            super().__init__(game)
            self.k = 0

        def current_player(self) -> int:
            return chance if self.k < FLOOR_CHANCE else (terminal if self.k >= end else 0)

        def _legal_actions(self, player: int) -> list[int]:
            return list(FLOOR_LEGAL)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes

        def _apply_action(self, action: int) -> None:
            self.k += 1

        def is_terminal(self) -> bool:
            return self.k >= end

    def work(n: int) -> int:
        rng = random.Random(n)
        s = Nothing()
        k = 0
        while not s.is_terminal():
            if s.is_chance_node():
                got = s.chance_outcomes()
                s.apply_action(got[rng.randrange(len(got))][0])
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            k += 1
        return k

    return cpu_rate(work, seconds)


def pettingzoo_floor_steps(seconds: float, size: int = 500) -> float:
    """Steps per CPU second of a do-nothing PettingZoo AEC environment driven by ``pettingzoo_steps``'s loop:
    four agents, the same number of steps as a standard 4-player deal, each observation two new arrays (a
    ``size`` float tensor and the action mask with three ids set).  What the AEC API and fresh observations
    cost alone."""
    from pettingzoo import AECEnv

    from comet.frameworks.actions import NUM_ACTIONS

    class Nothing(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
        metadata = {"name": "nothing"}  # noqa: RUF012  (PettingZoo declares it so)

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(4)]
            self.k = 0

        def reset(self, seed: int | None = None, options: object = None) -> None:
            self.agents = self.possible_agents[:]
            self.k = 0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[list(FLOOR_LEGAL)] = 1
            return {"observation": np.zeros(size, np.float32), "action_mask": mask}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self.k += 1
            self._clear_rewards()
            if self.k >= FLOOR_STEPS:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.agents[self.k % 4]
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()

    e = Nothing()

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


def floor_report(seconds: float = 2.0) -> str:
    """The engine's rate, each framework's rate through our wrapper, and its floor (the framework with no rules
    at all), measured in one run: the best ratio a wrapper could reach is engine time / (engine time + floor)."""
    engine_rate = engine_steps("standard", 4, seconds)
    lines = [f"engine: {engine_rate:,.0f} steps/s (standard, 4 players)"]
    for what, wrapped, floor in (
        ("OpenSpiel", openspiel_steps, openspiel_floor_steps),
        ("PettingZoo", pettingzoo_steps, pettingzoo_floor_steps),
    ):
        if not available("pyspiel" if what == "OpenSpiel" else "pettingzoo"):
            continue
        rate = wrapped("standard", 4, seconds)
        nothing = floor(seconds)
        best = (1 / engine_rate) / (1 / engine_rate + 1 / nothing)
        lines.append(
            f"{what}: {rate:,.0f} steps/s, {rate / engine_rate:.2f}x the engine's rate; with no rules at all "
            f"{nothing:,.0f} steps/s, so at best {best:.2f}x"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(
            "python -m comet.frameworks.bench [SECONDS]: steps per CPU second of the engine and of OpenSpiel and\n"
            "PettingZoo through our wrappers (standard, 4 players), beside each framework with no rules at all\n"
            "(its floor), all in one run; SECONDS per measurement (default 2)."
        )
        sys.exit(0)
    try:
        budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    except ValueError:
        print(f"error: SECONDS must be a number, not {sys.argv[1]!r}", file=sys.stderr)
        sys.exit(2)
    print(floor_report(budget))
