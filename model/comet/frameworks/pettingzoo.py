"""Comet as a PettingZoo AEC environment and a Gymnasium single-agent environment
(``pip install 'comet-rules[pettingzoo]'``).

::

    from comet.frameworks.pettingzoo import env, single_agent_env
    e = env(preset="opera", players=4, comet_lead="any_rank")  # AEC: one agent per seat
    g = single_agent_env(preset="standard", seat=0, opponents="greedy")  # the other seats are our policies

One episode is one deal, dealt by ``comet.engine.shuffled_deal`` from the seed given to ``reset``
(the same seed deals the same cards as ``comet deal --seed``).  Observations are a dict of
``observation`` (the seat's view: spec/frameworks.md, "Observation tensor") and ``action_mask``
(1 for the ids of ``comet.engine.legal_actions``, for the agent to move only); actions are the
canonical ids of ``comet.frameworks.common``.  Every rule comes from ``comet.engine``; an illegal id raises
``ValueError`` naming the rule it breaks.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from comet import engine
from comet.errors import IllegalAction
from comet.frameworks.common import (
    NUM_ACTIONS,
    Table,
    action_id,
    action_of,
    fill_tensor,
    legal_ids,
    make_table,
    observation_text,
    seeded_deal,
    tensor_pieces,
    utilities,
)
from comet.state import Action, DealState

Observation = dict[str, Any]  # "observation": float32 array, "action_mask": int8 array
Policy = Callable[[DealState, Sequence[Action]], Action]


@functools.cache
def _observation_layout(table: Table) -> tuple[tuple[tuple[str, tuple[int, ...], int, int], ...], int]:
    """(name, shape, start, end) of each piece of the flat observation, and its size (once per table)."""
    pieces = []
    at = 0
    for name, shape in tensor_pieces(table, private=True, public=True, recall=False):
        n = int(np.prod(shape))
        pieces.append((name, shape, at, at + n))
        at += n
    return tuple(pieces), at


def _observe(table: Table, state: DealState, seat: int, log: Sequence[tuple[int, Action]]) -> Observation:
    pieces, size = _observation_layout(table)
    flat = np.zeros(size, np.float32)
    views = {name: flat[start:end].reshape(shape) for name, shape, start, end in pieces}
    fill_tensor(views, table, state, seat, (), log)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if not state.terminal and state.to_move == seat:
        mask[legal_ids(state)] = 1
    return {"observation": flat, "action_mask": mask}


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    _, size = _observation_layout(table)
    # Every piece is one-hot (0 or 1) but the chips so far, divided by the utility bound's scale (within it:
    # tests/test_frameworks.py), so the observation lies in [-1, 1].
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low=-1.0, high=1.0, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(NUM_ACTIONS)


def _apply(state: DealState, ident: int | np.int64) -> DealState:
    """The engine's next state for action id ``ident``; ValueError naming the rule an illegal id breaks."""
    try:
        return engine.apply(state, action_of(int(ident)))
    except IllegalAction as e:
        raise ValueError(f"illegal action {ident} ({action_of(int(ident))}): {e.rule}: {e.message}") from None


class CometAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal of a Comet preset; agents ``player_0`` .. ``player_{n-1}`` are the seats."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "comet_v0", "is_parallelizable": False}

    def __init__(
        self,
        preset: str = "standard",
        players: int = 0,
        dealer: int = -1,
        pack: int = 0,
        comet_value: int = -1,
        render_mode: str | None = None,
        small: str = "",
        **rulings: bool | int | str,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = make_table(preset, players, dealer, pack, comet_value, rulings, small)
        self.possible_agents = [f"player_{i}" for i in range(self.table.players)]
        self.agents = self.possible_agents[:]
        obs, act = _spaces(self.table)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._rng = random.Random()
        self.state = seeded_deal(self.table, 0)
        self.log: list[tuple[int, Action]] = []
        self._reset_books()

    def _reset_books(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_move]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        self.state = seeded_deal(self.table, self._rng.getrandbits(64) if seed is None else seed)
        self.log = []
        self._reset_books()

    def observe(self, agent: str) -> Observation:
        return _observe(self.table, self.state, self.possible_agents.index(agent), self.log)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action id; the deal is not over")
        before = self.state
        self.state = _apply(before, action)
        self.log.append((before.to_move, action_of(int(action))))
        self._clear_rewards()
        if self.state.terminal:
            for a, u in zip(self.agents, utilities(self.state), strict=True):
                self.rewards[a] = u
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[self.state.to_move]
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return "\n".join(
            [f"seat {s}: {' '.join(map(str, h))}" for s, h in enumerate(self.state.hands)]
            + [observation_text(self.table, self.state, self.state.to_move, private=False)]
        )

    def close(self) -> None:
        pass


def env(
    preset: str = "standard",
    players: int = 0,
    dealer: int = -1,
    pack: int = 0,
    comet_value: int = -1,
    render_mode: str | None = None,
    small: str = "",
    **rulings: bool | int | str,
) -> CometAEC:
    """The AEC environment of one deal of ``preset`` (or of the small Comet ``small``: ``comet.small``);
    ruling fields as keyword arguments."""
    return CometAEC(preset, players, dealer, pack, comet_value, render_mode, small, **rulings)


def named_policy(name: str, seed: int) -> Policy:
    """One of our playing policies: ``simple`` (``comet.policy``), ``random``, ``greedy``, ``hoarder``
    (``comet.diverge.policies``)."""
    from comet.diverge.policies import POLICY_NAMES, make_policy
    from comet.policy import simple_policy

    if name == "simple":
        return simple_policy
    if name not in POLICY_NAMES:
        raise ValueError(f"unknown policy {name!r}; known: simple, {', '.join(POLICY_NAMES)}")
    return make_policy(name, seed)


class CometSingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a deal as a Gymnasium environment; the other seats play our policies.

    The reward is 0 until the deal ends, then the seat's utility (spec/frameworks.md).  An illegal
    action id raises ``ValueError`` naming the rule it breaks, or, given ``illegal_reward``, ends the
    episode with that reward (for checkers and learners that sample without the mask)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(
        self,
        preset: str = "standard",
        players: int = 0,
        seat: int = 0,
        opponents: str | Sequence[str] = "simple",
        dealer: int = -1,
        pack: int = 0,
        comet_value: int = -1,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        small: str = "",
        **rulings: bool | int | str,
    ) -> None:
        self.table = make_table(preset, players, dealer, pack, comet_value, rulings, small)
        self.illegal_reward = illegal_reward
        if not 0 <= seat < self.table.players:
            raise ValueError(f"seat must be 0..{self.table.players - 1}, not {seat}")
        self.seat = seat
        names = [opponents] * self.table.players if isinstance(opponents, str) else list(opponents)
        if len(names) != self.table.players - 1 and not isinstance(opponents, str):
            raise ValueError(f"give one policy per other seat ({self.table.players - 1}), not {len(names)}")
        if not isinstance(opponents, str):
            names.insert(seat, "simple")
        for name in names:
            named_policy(name, 0)  # a plain error for an unknown name now, not at the first step
        self._names = names
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self.table)
        self._rng = random.Random()
        self.state = seeded_deal(self.table, 0)
        self.log: list[tuple[int, Action]] = []
        self._policies: list[Policy] = []
        self._ended = False

    def _others_play(self) -> None:
        while not self.state.terminal and self.state.to_move != self.seat:
            s = self.state
            legal = engine.legal_actions(s)
            choice = self._policies[s.to_move](s, legal)
            self.state = engine.apply(s, choice, legal=legal)
            self.log.append((s.to_move, choice))

    def _result(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        obs = _observe(self.table, self.state, self.seat, self.log)
        reward = utilities(self.state)[self.seat] if self.state.terminal else 0.0
        return obs, reward, self.state.terminal, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        deal_seed = self._rng.getrandbits(64) if seed is None else seed
        self._policies = [named_policy(n, deal_seed + i) for i, n in enumerate(self._names)]
        self.state = seeded_deal(self.table, deal_seed)
        self.log = []
        self._ended = False
        self._others_play()
        obs, _, _, _, info = self._result()
        return obs, info

    def step(self, action: int | np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.state.terminal or self._ended:
            raise ValueError("the deal is over: call reset()")
        before = self.state
        if self.illegal_reward is not None and int(action) not in legal_ids(before):
            # The deal ends here with the fixed reward (``illegal_reward``), as Gymnasium's
            # checkers expect of an action drawn without the mask.
            self._ended = True
            obs = _observe(self.table, before, self.seat, self.log)
            return obs, self.illegal_reward, True, False, {"illegal": str(action_of(int(action)))}
        self.state = _apply(before, action)
        self.log.append((before.to_move, action_of(int(action))))
        self._others_play()
        return self._result()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return observation_text(self.table, self.state, self.seat)


def single_agent_env(
    preset: str = "standard",
    players: int = 0,
    seat: int = 0,
    opponents: str | Sequence[str] = "simple",
    **kwargs: Any,
) -> CometSingleAgentEnv:
    """The Gymnasium environment of one seat (``opponents``: one policy name for every other seat,
    or one per other seat in seat order)."""
    return CometSingleAgentEnv(preset, players, seat, opponents, **kwargs)


__all__ = ["CometAEC", "CometSingleAgentEnv", "action_id", "env", "named_policy", "single_agent_env"]
