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
canonical ids of ``comet.frameworks.actions``.  Every rule comes from ``comet.engine``; an illegal id ends the
deal with a penalty (or, with ``illegal="raise"``, raises ``ValueError`` naming the rule it breaks).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from comet import engine
from comet.cards import KING, Card
from comet.errors import IllegalAction
from comet.frameworks.actions import NUM_ACTIONS, action_id, action_of, by_id, legal_ids
from comet.frameworks.chance import seeded_deal
from comet.frameworks.table import Table, make_table
from comet.frameworks.tensors import copies, fill_tensor, tensor_pieces
from comet.frameworks.text import table_text
from comet.frameworks.utilities import utilities, utility_bounds
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


class _Layout:
    """Where each piece of a table's flat observation starts, for writing it in a few assignments
    (``_observe``), with the card planes of recent hands and of the cards played kept ready."""

    def __init__(self, table: Table) -> None:
        self.table = table
        pieces, self.size = _observation_layout(table)
        at = {name: start for name, _, start, _ in pieces}
        self.player, self.hand, self.to_move = at["player"], at["hand"], at["to_move"]
        self.need, self.run_suit, self.played = at["need"], at["run_suit"], at["played"]
        self.held, self.chips, self.terminal = at["held"], at["chips"], at["terminal"]
        self.planes = copies(table) * 52  # the size of a card piece (one plane per copy)
        self.held_row = table.hand_size + 1
        self.hand_size = table.hand_size
        self.chip_scale = np.float32(utility_bounds(table).scale)
        self.hand_planes = functools.lru_cache(maxsize=1024)(self._planes)
        #: the cards played last asked for, and their planes: the next state's are these and a few more
        self.last_played: tuple[Card, ...] = ()
        self.last_played_planes = self._planes(())

    def _planes(self, cards: Sequence[Card]) -> npt.NDArray[np.float32]:
        out = np.zeros(self.planes, np.float32)
        _set_cards(out, cards, ())
        return out

    def played_planes(self, played: tuple[Card, ...]) -> npt.NDArray[np.float32]:
        last = self.last_played
        if played is last or played == last:
            return self.last_played_planes
        if len(played) > len(last) and played[: len(last)] == last:
            out = self.last_played_planes.copy()
            _set_cards(out, played[len(last) :], last)
        else:
            out = self._planes(played)
        self.last_played, self.last_played_planes = played, out
        return out


def _set_cards(out: npt.NDArray[np.float32], cards: Sequence[Card], before: Sequence[Card]) -> None:
    """Mark ``cards`` in the flat card planes ``out`` (as ``tensors.cards_into``: a copy of a card already
    there, among ``before`` or earlier in ``cards``, goes in the second plane)."""
    seen = set(before)
    for c in cards:
        out[c - 4 + (52 if c in seen else 0)] = 1.0
        seen.add(c)


#: Each table's layout by the table's identity (a ``functools.cache`` on the table would hash its rulings, 80
#: fields through Python, at every observation).
_LAYOUTS: dict[int, _Layout] = {}


def _layout(table: Table) -> _Layout:
    lay = _LAYOUTS.get(id(table))
    if lay is None or lay.table is not table:
        lay = _LAYOUTS[id(table)] = _Layout(table)
    return lay


def _observe(table: Table, state: DealState, seat: int, legal: Sequence[int] = ()) -> Observation:
    """``seat``'s observation of ``state``: the same tensor as ``fill_tensor`` writes (tests/test_pettingzoo.py
    compares them), in a few numpy assignments; ``legal`` the legal ids when ``seat`` is to move."""
    lay = _layout(table)
    flat = np.zeros(lay.size, np.float32)
    flat[lay.played : lay.played + lay.planes] = lay.played_planes(state.played)
    hand = state.hands[seat]
    if len(set(hand)) == len(hand):  # no card twice: the hand's columns join the one assignment below
        places = [lay.hand - 4 + c for c in hand]
    else:
        flat[lay.hand : lay.hand + lay.planes] = lay.hand_planes(hand)
        places = []
    need = state.need
    row, cap = lay.held_row, lay.hand_size
    places += [lay.held + s * row + min(len(h), cap) for s, h in enumerate(state.hands)]
    places += [
        lay.player + seat,
        lay.need + (need if need <= KING else 0),
        lay.run_suit + state.run_suit + 1,
        lay.terminal if state.terminal else lay.to_move + state.to_move,
    ]
    flat[places] = 1.0
    if state.payments:
        flat[lay.chips : lay.chips + state.players] = np.asarray(state.chips(), np.float32) / lay.chip_scale
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if legal:
        mask[legal] = 1
    return {"observation": flat, "action_mask": mask}


def _observe_reference(table: Table, state: DealState, seat: int, log: Sequence[tuple[int, Action]]) -> Observation:
    """The observation through ``fill_tensor`` (the OpenSpiel observer's writer): what ``_observe`` must equal."""
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


class _Legal:
    """The legal actions of one state, computed once however often they are asked (the mask, the check of
    the action chosen, the engine's transition): their ids ascending and the action of each id."""

    __slots__ = ("actions", "by_id", "ids", "state")

    def __init__(self, state: DealState) -> None:
        self.state = state
        self.actions: Sequence[Action] = () if state.terminal else engine.legal_actions(state)
        self.by_id = by_id(self.actions)
        self.ids = sorted(self.by_id)

    def next_state(self, ident: int | np.int64) -> DealState:
        """The engine's state after action id ``ident``; ValueError naming the rule an illegal id breaks."""
        move = self.by_id.get(int(ident))
        if move is None:
            _apply(self.state, ident)  # raises, naming the rule
            raise AssertionError(f"action {ident} is not among the legal actions")
        return engine.apply(self.state, move, legal=self.actions)


def _legal_of(cached: _Legal | None, state: DealState) -> _Legal:
    return cached if cached is not None and cached.state is state else _Legal(state)


class CometAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal of a Comet preset; agents ``player_0`` .. ``player_{n-1}`` are the seats."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "comet_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "standard",
        players: int = 0,
        dealer: int = -1,
        pack: int = 0,
        comet_value: int = -1,
        render_mode: str | None = None,
        small: str = "",
        illegal: str = "terminate",
        illegal_reward: float | None = None,
        reveal: bool = False,
        **rulings: bool | int | str,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        self.render_mode = render_mode
        self.reveal = reveal
        self.illegal = illegal
        self.table = make_table(preset, players, dealer, pack, comet_value, rulings, small)
        self.illegal_reward = utility_bounds(self.table).low if illegal_reward is None else float(illegal_reward)
        self.possible_agents = [f"player_{i}" for i in range(self.table.players)]
        self.agents = self.possible_agents[:]
        obs, act = _spaces(self.table)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._rng = random.Random()
        self.state = seeded_deal(self.table, 0)
        self.log: list[tuple[int, Action]] = []
        self._legal: _Legal | None = None
        self._reset_books()

    def _legal_now(self) -> _Legal:
        self._legal = _legal_of(self._legal, self.state)
        return self._legal

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
        seat = self.possible_agents.index(agent)
        state = self.state
        mine = not state.terminal and state.to_move == seat
        return _observe(self.table, state, seat, self._legal_now().ids if mine else ())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action id; the deal is not over")
        before = self.state
        legal = self._legal_now()
        if self.illegal == "terminate" and int(action) not in legal.by_id:
            # As the classic environments' TerminateIllegalWrapper: the deal ends, the offender gets the
            # penalty, the others 0.
            self._clear_rewards()
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal": str(action_of(int(action)))}
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            return
        self.state = legal.next_state(action)
        self.log.append((before.to_move, legal.by_id[int(action)]))
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
        """The table by card name: the hand of the seat to move, the others' sizes (every hand with
        ``reveal=True``), the public state; printed in ``"human"`` mode, returned in ``"ansi"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='human' or 'ansi'")
            return None
        text = table_text(self.table, self.state, (self.state.to_move,), reveal=self.reveal)
        if self.render_mode == "human":
            print(text)
            return None
        return text

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
    illegal: str = "terminate",
    illegal_reward: float | None = None,
    reveal: bool = False,
    **rulings: bool | int | str,
) -> CometAEC:
    """The AEC environment of one deal of ``preset`` (or of the small Comet ``small``: ``comet.small``);
    ruling fields as keyword arguments.  An illegal action id ends the deal with ``illegal_reward`` (default:
    the least utility of the table) for the agent that chose it and 0 for the others, as the classic
    environments do; ``illegal="raise"`` raises ValueError naming the rule it breaks.  ``reveal`` renders
    every hand and the dead hand."""
    return CometAEC(
        preset, players, dealer, pack, comet_value, render_mode, small, illegal, illegal_reward, reveal, **rulings
    )


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


#: An opponent given as a function: it sees its seat's observation (``observation`` and ``action_mask``,
#: as the learner does) and returns an action id.  This is how a trained agent plays the other seats.
Opponent = Callable[[Observation], int]


def _opponent_policy(table: Table, seat: int, f: Opponent, log: Sequence[tuple[int, Action]]) -> Policy:
    """An engine policy that asks ``f`` for an action id from ``seat``'s observation; an id it may not play is
    a plain ValueError naming the seat."""

    def choose(state: DealState, legal: Sequence[Action]) -> Action:
        ident = int(f(_observe(table, state, seat, sorted(action_id(a) for a in legal))))
        action = action_of(ident)
        if action not in legal:
            raise ValueError(f"the opponent at seat {seat} chose illegal action {ident} ({action})")
        return action

    return choose


class CometSingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a deal as a Gymnasium environment; the other seats are played by ``opponents``: our
    policies by name (``simple``, ``random``, ``greedy``, ``hoarder``) or functions from an observation to
    an action id (self-play), one for every other seat or one per other seat in seat order.

    The reward is 0 until the deal ends, then the seat's utility (spec/frameworks.md).  An illegal action
    id ends the episode with ``illegal_reward`` (default: the least utility of the table,
    ``utility_bounds(table).low``, so no illegal action is ever better than a legal line), as Gymnasium's
    ``check_env`` and learners sampling without the mask expect; ``illegal="raise"`` raises ``ValueError``
    naming the rule it breaks instead.  ``action_masks()`` is the mask of the legal ids (the sb3-contrib
    ``MaskablePPO`` convention).  ``reset(options={"seat": k})`` moves the learner to seat ``k``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(
        self,
        preset: str = "standard",
        players: int = 0,
        seat: int = 0,
        opponents: str | Opponent | Sequence[str | Opponent] = "simple",
        dealer: int = -1,
        pack: int = 0,
        comet_value: int = -1,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        illegal: str = "penalty",
        small: str = "",
        **rulings: bool | int | str,
    ) -> None:
        self.table = make_table(preset, players, dealer, pack, comet_value, rulings, small)
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.illegal = illegal
        self.illegal_reward = utility_bounds(self.table).low if illegal_reward is None else float(illegal_reward)
        self.seat = self._check_seat(seat)
        n = self.table.players
        if isinstance(opponents, str) or callable(opponents):
            given: list[str | Opponent] = [opponents] * (n - 1)
        else:
            given = list(opponents)
            if len(given) != n - 1:
                raise ValueError(f"give one opponent per other seat ({n - 1}), not {len(given)}")
        for o in given:
            if isinstance(o, str):
                named_policy(o, 0)  # a plain error for an unknown name now, not at the first step
            elif not callable(o):
                raise ValueError(f"an opponent is a policy name or a function of an observation, not {o!r}")
        self._opponents = given
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self.table)
        self._rng = random.Random()
        self.state = seeded_deal(self.table, 0)
        self.log: list[tuple[int, Action]] = []
        self._legal: _Legal | None = None
        self._policies: list[Policy] = []
        self._ended = False

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < self.table.players:
            raise ValueError(f"seat must be 0..{self.table.players - 1}, not {seat!r}")
        return int(seat)

    def _policy(self, seat: int, deal_seed: int) -> Policy:
        if seat == self.seat:
            return named_policy("simple", deal_seed)  # never asked: the learner plays this seat
        o = self._opponents[seat if seat < self.seat else seat - 1]
        if isinstance(o, str):
            return named_policy(o, deal_seed + seat)
        return _opponent_policy(self.table, seat, o, self.log)

    def _others_play(self) -> None:
        while not self.state.terminal and self.state.to_move != self.seat:
            s = self.state
            legal = engine.legal_actions(s)
            choice = self._policies[s.to_move](s, legal)
            self.state = engine.apply(s, choice, legal=legal)
            self.log.append((s.to_move, choice))

    def _learner_ids(self) -> list[int]:
        """The learner's legal ids (none unless it is to move in a deal that goes on)."""
        if self.state.terminal or self._ended or self.state.to_move != self.seat:
            return []
        self._legal = _legal_of(self._legal, self.state)
        return self._legal.ids

    def _result(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        obs = _observe(self.table, self.state, self.seat, self._learner_ids())
        reward = utilities(self.state)[self.seat] if self.state.terminal else 0.0
        return obs, reward, self.state.terminal, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if options and "seat" in options:
            self.seat = self._check_seat(options["seat"])
        if seed is not None:
            self._rng.seed(seed)
        deal_seed = self._rng.getrandbits(64) if seed is None else seed
        self.log = []
        self._policies = [self._policy(s, deal_seed) for s in range(self.table.players)]
        self.state = seeded_deal(self.table, deal_seed)
        self._ended = False
        self._others_play()
        obs, _, _, _, info = self._result()
        return obs, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """True for the legal action ids of the learner's seat (none once the deal is over)."""
        mask = np.zeros(NUM_ACTIONS, np.bool_)
        mask[self._learner_ids()] = True
        return mask

    def step(self, action: int | np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.state.terminal or self._ended:
            raise ValueError("the deal is over: call reset()")
        before = self.state
        self._legal = legal = _legal_of(self._legal, before)
        if self.illegal == "penalty" and int(action) not in legal.by_id:
            # The episode ends here with the penalty, as the classic environments end a game.
            self._ended = True
            obs = _observe(self.table, before, self.seat)
            return obs, self.illegal_reward, True, False, {"illegal": str(action_of(int(action)))}
        self.state = legal.next_state(action)
        self.log.append((before.to_move, legal.by_id[int(action)]))
        self._others_play()
        return self._result()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi' or 'human'")
            return None
        text = table_text(self.table, self.state, (self.seat,))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def single_agent_env(
    preset: str = "standard",
    players: int = 0,
    seat: int = 0,
    opponents: str | Opponent | Sequence[str | Opponent] = "simple",
    **kwargs: Any,
) -> CometSingleAgentEnv:
    """The Gymnasium environment of one seat (``opponents``: a policy name or a function of an observation
    for every other seat, or one per other seat in seat order)."""
    return CometSingleAgentEnv(preset, players, seat, opponents, **kwargs)


#: The Gymnasium ids registered when this module is imported, so that
#: ``gymnasium.make("comet.frameworks.pettingzoo:comet/Comet-v0", preset="opera", players=4)`` imports it first.
GYMNASIUM_IDS = {
    "comet/Comet-v0": {},
    "comet/TinyComet-v0": {"small": "tiny"},
    "comet/TinyCometTwoPlayer-v0": {"small": "tiny_two_player"},
}


def register_gymnasium() -> None:
    """Register ``GYMNASIUM_IDS`` with Gymnasium (again: a no-op for an id already there)."""
    for ident, kwargs in GYMNASIUM_IDS.items():
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point=CometSingleAgentEnv, kwargs=kwargs)


register_gymnasium()


__all__ = [
    "GYMNASIUM_IDS",
    "CometAEC",
    "CometSingleAgentEnv",
    "Opponent",
    "action_id",
    "env",
    "named_policy",
    "register_gymnasium",
    "single_agent_env",
]
