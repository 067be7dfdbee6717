"""Comet as an OpenSpiel game, registered as ``python_comet`` (``pip install 'comet-rules[openspiel]'``).

::

    import comet.frameworks.openspiel, pyspiel
    game = pyspiel.load_game("python_comet(preset=opera,players=4,comet_lead=any_rank)")

One episode is one deal.  Chance deals the cards one at a time off a shuffled pack (the outcome is
the card, 0..51 = ``(rank - 1) * 4 + suit``, with its share of the cards left; whose card it is
follows R-DEAL-ORDER through ``comet.engine.distribute``); the undealt rest is the dead hand.  Every
rule comes from ``comet.engine``: legal actions, the transition, the settlement.  Parameters, action
ids, observations and utilities are described in spec/frameworks.md and live, framework-free, in
``comet.frameworks.table``, ``actions``, ``chance``, ``utilities``, ``text`` and ``tensors``.

This module holds the game, its states and ``load_game``; the observer is ``openspiel_observer``, the
redealing helpers of ISMCTS ``openspiel_resample``, playthroughs and bots ``openspiel_play``.  Two names
are re-exported here on purpose (in ``__all__``): ``CometObserver`` and ``action_id``, part of this
module's public API before the split.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import truediv
from typing import Any, Generic, TypeVar

import pyspiel

from comet import engine
from comet.cards import card_text, cards_text
from comet.frameworks import openspiel_resample as resample
from comet.frameworks.actions import NUM_ACTIONS, action_id, action_of, by_id
from comet.frameworks.chance import card_outcome, deal_of, hands_so_far, outcome_card
from comet.frameworks.openspiel_observer import CometObserver
from comet.frameworks.table import Table, parameter_defaults, table_from_params
from comet.frameworks.text import announcement, observation_text, public_line
from comet.frameworks.utilities import max_steps, utilities, utility_bounds
from comet.small import SMALL
from comet.state import Action, DealState

SHORT_NAME = "python_comet"


def game_type(short_name: str, long_name: str, small: str = "") -> pyspiel.GameType:
    """The GameType of ``python_comet``, or of a small Comet's own name (its parameter ``small`` preset)."""
    defaults = parameter_defaults()
    if small:
        defaults["small"] = small
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification=defaults,
    )


GAME_TYPE = game_type(SHORT_NAME, "Comet (comet-rules reference model)")
#: One game name per small Comet (``python_comet_tiny`` is ``python_comet(small=tiny)``), so that scripts
#: which pass their own parameters to ``load_game`` (OpenSpiel's ``cfr_example`` passes ``players``) can load
#: one by name alone.
SMALL_GAME_TYPES = {
    name: game_type(
        f"{SHORT_NAME}_{name}", f"Comet, the small research configuration {name} (not from the sources)", name
    )
    for name in SMALL
}


T = TypeVar("T")


class _Fixed(Generic[T]):
    """Immutable values a state shares with its clones (OpenSpiel clones states with ``deepcopy``)."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, object]) -> _Fixed[T]:
        return self


class CometGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """One deal of a Comet preset, with every ruling as a game parameter."""

    def __init__(self, params: Mapping[str, Any] | None = None, kind: pyspiel.GameType | None = None) -> None:
        kind = kind or GAME_TYPE
        given = {
            **({"small": kind.parameter_specification["small"]} if kind is not GAME_TYPE else {}),
            **(params or {}),
        }
        self.table: Table = table_from_params(given)
        bounds = utility_bounds(self.table)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=self.table.players,
            min_utility=bounds.low,
            max_utility=bounds.high,
            utility_sum=0.0,
            max_game_length=max_steps(self.table),
        )
        super().__init__(kind, info, given)
        copies = sorted(Counter(self.table.pack.cards).items())
        #: the pack before the deal: its cards as chance outcomes, ascending, and the copies of each
        self.pack_left: tuple[list[int], list[int]] = ([card_outcome(c) for c, _ in copies], [n for _, n in copies])

    def new_initial_state(self) -> CometState:
        return CometState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One chance node per card dealt to a player (the dead hand is the rest, with no node)."""
        return self.table.dealt

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> CometObserver:
        if params:
            raise ValueError(f"python_comet takes no observation parameters, not {dict(params)}")
        return CometObserver(self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Step:
    """One player action in a state's history, a link in a chain shared by the states after it (never
    copied: a state's history grows by a new link).  Its public text is made only when asked, once."""

    __slots__ = ("after", "before", "ident", "move", "prev", "text")

    def __init__(self, prev: _Step | None, before: DealState, move: Action, ident: int, after: DealState) -> None:
        self.prev = prev
        self.before = before
        self.move = move
        self.ident = ident
        self.after = after
        self.text: tuple[str, ...] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Step:
        return self  # immutable but for the memo of its text: shared by a state's clones

    def lines(self) -> tuple[str, ...]:
        """What the table saw: the announcement before the action, if any, then the action's public line."""
        if self.text is None:
            note = announcement(self.before)
            line = public_line(self.before, self.move, self.after)
            self.text = ("(" + note + ")", line) if note else (line,)
        return self.text

    def chain(self) -> list[_Step]:
        """Every step up to this one, oldest first."""
        out: list[_Step] = []
        step: _Step | None = self
        while step is not None:
            out.append(step)
            step = step.prev
        out.reverse()
        return out


#: A state's legal actions: their ids ascending, the action of each id, and the engine's list.
_Legal = tuple[list[int], dict[int, Action], Sequence[Action]]
_NO_DEAL: _Fixed[DealState | None] = _Fixed(None)
_NOT_ASKED: _Fixed[_Legal | None] = _Fixed(None)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class CometState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the cards dealt so far, then the engine's ``DealState``.

    Kept cheap for OpenSpiel's many calls per step: the player to move and the end are plain fields, the
    legal actions are computed once per state (and the chosen one applied from them, not looked up
    again), and the history is a shared chain whose text is written only when an observation asks."""

    def __init__(self, game: CometGame) -> None:
        super().__init__(game)
        self._fixed = _Fixed(game.table)
        self._left = _Fixed(game.pack_left)  # the cards not dealt yet (outcomes ascending, copies of each)
        self._order: list[int] = []  # cards dealt so far, top of the pack first
        self._deal = _NO_DEAL  # the engine's state once every card is dealt
        self._start = _NO_DEAL  # the engine's state as dealt (the hands each seat was dealt)
        self._log: _Step | None = None  # the last player action (a chain of them, shared with clones)
        self._legal = _NOT_ASKED  # this state's legal actions, once asked
        self._player = _CHANCE
        self._terminal = False

    @property
    def table(self) -> Table:
        return self._fixed.value

    @property
    def deal(self) -> DealState | None:
        """The engine's state (None while the cards are being dealt)."""
        return self._deal.value

    # ----------------------------------------------------------------- OpenSpiel's API

    def current_player(self) -> int:
        return self._player

    def _legal_now(self) -> _Legal:
        cached = self._legal.value
        if cached is not None:
            return cached
        d = self._deal.value
        assert d is not None
        actions = engine.legal_actions(d)
        ids = by_id(actions)
        legal: _Legal = (sorted(ids), ids, actions)
        fixed: _Fixed[_Legal | None] = _Fixed(legal)  # (not _Fixed[...](...): typing's call is slow)
        self._legal = fixed
        return legal

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player or player < 0:
            return []
        return self._legal_now()[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card left in the pack, with its share of the cards left (as ``chance.chance_outcomes``,
        from the cards left kept as they are dealt: OpenSpiel asks at every chance node)."""
        outcomes, copies = self._left.value
        total = float(sum(copies))
        return list(zip(outcomes, map(truediv, copies, repeat(total)), strict=True))

    def _apply_action(self, action: int) -> None:
        if self._player == _CHANCE:
            self._order.append(outcome_card(action))
            outcomes, copies = self._left.value
            at = bisect_left(outcomes, action)
            if at == len(outcomes) or outcomes[at] != action or not 0 <= action < 52:
                raise ValueError(f"chance outcome {action} is not a card left in the pack")
            outcomes, copies = list(outcomes), list(copies)
            if copies[at] == 1:
                del outcomes[at], copies[at]
            else:
                copies[at] -= 1
            self._left = _Fixed((outcomes, copies))
            table = self.table
            if len(self._order) == table.dealt:
                dealt = deal_of(table, self._order)
                dealt_fixed: _Fixed[DealState | None] = _Fixed(dealt)
                self._deal = self._start = dealt_fixed
                self._player = _TERMINAL if dealt.terminal else dealt.to_move
                self._terminal = dealt.terminal
            return
        d = self._deal.value
        assert d is not None
        _, known, actions = self._legal_now()
        move = known.get(action)
        if move is None:  # not legal: the engine raises IllegalAction naming the rule it breaks
            engine.apply(d, action_of(action))
            raise AssertionError(f"action {action} is not among the legal actions")
        after = engine.apply(d, move, legal=actions)
        self._log = _Step(self._log, d, move, action, after)
        self._deal = _Fixed(after)
        self._legal = _NOT_ASKED
        self._player = _TERMINAL if after.terminal else after.to_move
        self._terminal = after.terminal

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "deal " + card_text(outcome_card(action))
        return str(action_of(action))

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        d = self.deal
        if d is None:
            return [0.0] * self.table.players
        return list(utilities(d))

    def __str__(self) -> str:
        d = self.deal
        if d is None:
            hands = hands_so_far(self.table, self._order)
            return "dealing\n" + "\n".join(f"seat {s}: {cards_text(h)}" for s, h in enumerate(hands))
        lines = [f"seat {s}: {cards_text(h) or '-'}" for s, h in enumerate(d.hands)]
        lines.append(f"dead: {cards_text(d.dead) or '-'}")
        lines.append(observation_text(self.table, d, d.to_move, private=False))
        return "\n".join(lines)

    def _steps(self) -> list[_Step]:
        last = self._log
        return [] if last is None else last.chain()

    # ----------------------------------------------------------------- for observers

    def dealt_so_far(self) -> tuple[int, ...]:
        """The cards dealt so far, top of the pack first (the chance outcomes, as cards)."""
        return tuple(self._order)

    def dealt_to(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` was dealt (so far, while dealing)."""
        start = self._start.value
        if start is not None:
            return start.hands[seat]
        if not self._order:
            return ()
        return hands_so_far(self.table, self._order)[seat]

    def played_moves(self) -> list[tuple[int, Action]]:
        """(seat, action) of every player action so far."""
        return [(step.before.to_move, step.move) for step in self._steps()]

    def events(self) -> list[str]:
        """What the whole table has seen, in order: one line per player action (and the announcement
        before it, if any)."""
        return [line for step in self._steps() for line in step.lines()]

    def moves(self) -> list[tuple[int, int]]:
        """(seat, action id) of every player action so far (kept as they are applied: cheaper than
        OpenSpiel's ``full_history`` at every observation)."""
        return [(step.before.to_move, step.ident) for step in self._steps()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CometState:
        """OpenSpiel's resampling hook (what the stock ``ISMCTSBot`` calls): ``resample_deal`` driven
        by the framework's sampler (a callable giving floats in [0, 1))."""
        return self.resample_deal(player_id, random.Random(int(probability_sampler() * 2**53)))

    def resample_deal(self, player: int, rng: random.Random, tries: int = 500) -> CometState:
        """A state ``player`` cannot tell from this one, for ISMCTS (``ismcts_bot``): the cards ``player``
        has not seen are redealt to the other hands and the dead hand (the cards a seat has played stay in
        its hand), and a deal is kept only if every action so far is legal there and the table saw the
        same things (the same ``events``).

        First, rejection sampling: uniform shuffles of the unseen cards, those that put a card where the
        history rules it out (``_exclusions``: a seat that passed or played as it did could not have held
        it) dropped before the costly replay, up to ``tries`` replays; the draw is then uniform over the
        consistent deals.  Where consistent deals are too rare for that, a randomised search deals the
        unseen cards location by location avoiding the excluded places, again keeping only a consistent
        deal (not uniform, but never the true state unless it is the only one).  Only if both fail is the
        state itself returned (``openspiel_resample.RESAMPLE_FALLBACKS`` counts it; tests/test_openspiel.py requires none)."""
        d = self.deal
        if d is None:
            return self.clone()  # type: ignore[no-any-return]
        resample.RESAMPLE_CALLS[0] += 1
        table = self.table
        seat_of = resample.seats_of_positions(table)
        moves = [(seat, action_of(a)) for seat, a in self.moves()]
        known: list[list[int]] = [[] for _ in range(table.players)]  # cards each seat is seen to hold
        known[player] = list(self.dealt_to(player))
        for seat, move in moves:
            if seat != player:
                known[seat].extend(move.cards)
        unseen = list(table.pack.cards)
        for cards in known:
            for c in cards:
                unseen.remove(c)
        unseen.sort()
        target = self.events() + [announcement(d) or ""]
        excluded = self._exclusions(player, frozenset(unseen))
        free = {seat: table.hand_size - len(known[seat]) for seat in range(table.players)}  # places to fill

        def consistent(dealt: dict[int, list[int]]) -> list[int] | None:
            fill = [iter(known[seat] + dealt.get(seat, [])) for seat in range(table.players)]
            order = [next(fill[seat]) for seat in seat_of]
            return order if resample.replayed_events(deal_of(table, order), moves) == target else None

        replays = 0
        for _ in range(tries * 40):
            rng.shuffle(unseen)
            dealt: dict[int, list[int]] = {}
            at = 0
            for seat in range(table.players):
                dealt[seat] = unseen[at : at + free[seat]]
                at += free[seat]
            if any(c in excluded.get(seat, ()) for seat, cards in dealt.items() for c in cards):
                continue
            replays += 1
            order = consistent(dealt)
            if order is not None:
                return self._state_of(order, moves)
            if replays >= tries:
                break
        for _ in range(tries):
            searched = resample.deal_avoiding(unseen, free, excluded, rng)
            if searched is None:
                continue
            order = consistent(searched)
            if order is not None:
                return self._state_of(order, moves)
        resample.RESAMPLE_FALLBACKS[0] += 1
        return self.clone()  # type: ignore[no-any-return]

    def _state_of(self, order: list[int], moves: list[tuple[int, Action]]) -> CometState:
        s = self.get_game().new_initial_state()
        for c in order:
            s.apply_action(c - 4)
        for _, move in moves:
            s.apply_action(action_id(move))
        return s  # type: ignore[no-any-return]

    def _exclusions(self, player: int, unseen: frozenset[int]) -> dict[int, frozenset[int]]:
        """For each other seat, the unseen cards its own actions rule out of its hand: at each of its
        decisions, the card put in its hand (in place of one of its hidden cards) makes the action it took
        illegal, or changes what the table saw.  Asked of the engine, so no rule is written here; only a
        filter before the replay that decides (a wrong exclusion could only skew the draw, never let an
        inconsistent deal through).  Cached per state and seat: a bot asks many times from one state."""
        key = (player, len(self.history()))
        cache = self.__dict__.setdefault("_exclusion_cache", {})
        if key in cache:
            return cache[key]  # type: ignore[no-any-return]
        out: dict[int, set[int]] = {}
        d0 = deal_of(self.table, self._order)
        state = d0
        for seat, a in self.moves():
            move = action_of(a)
            if seat != player:
                hand = state.hands[seat]
                mine = [c for c in hand if c in unseen]
                if mine:
                    swap_out = mine[0]
                    before = public_line(state, move, engine.apply(state, move))
                    note = announcement(state)
                    for c in unseen - set(hand):
                        if c in out.get(seat, ()):
                            continue
                        trial = resample.swapped(state, seat, swap_out, c)
                        if move not in engine.legal_actions(trial) or announcement(trial) != note:
                            out.setdefault(seat, set()).add(c)
                            continue
                        if public_line(trial, move, engine.apply(trial, move)) != before:
                            out.setdefault(seat, set()).add(c)
            state = engine.apply(state, move)
        result = {seat: frozenset(cards) for seat, cards in out.items()}
        cache[key] = result
        return result


pyspiel.register_game(GAME_TYPE, CometGame)


def _small_game_class(kind: pyspiel.GameType) -> type[CometGame]:
    """A class per small Comet's name (pyspiel keeps the registered factory until the interpreter ends; a
    class, unlike a closure, outlives that safely)."""

    def __init__(self: CometGame, params: Mapping[str, Any] | None = None) -> None:
        CometGame.__init__(self, params, kind)

    return type(f"CometGame_{kind.short_name}", (CometGame,), {"__init__": __init__})


SMALL_GAME_CLASSES = {name: _small_game_class(kind) for name, kind in SMALL_GAME_TYPES.items()}
for _name, _kind in SMALL_GAME_TYPES.items():
    pyspiel.register_game(_kind, SMALL_GAME_CLASSES[_name])


def load_game(preset: str = "standard", **params: bool | int | str) -> CometGame:
    """``pyspiel.load_game("python_comet", {...})``: a preset, ``players``, ``dealer``, ``pack``,
    ``comet_value`` and any ruling field by name."""
    game = pyspiel.load_game(SHORT_NAME, {"preset": preset, **params})
    assert isinstance(game, CometGame)
    return game


__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "SMALL_GAME_TYPES",
    "CometGame",
    "CometObserver",
    "CometState",
    "action_id",
    "load_game",
]
