"""Immutable values: actions, payments and the state of one deal.

The state is deliberately flat and integer-valued (cards are ints, hands are
sorted tuples) so that the symbolic encoding in ``comet_proofs`` can mirror it
field by field.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import overload

from comet.cards import Card, card_text, rank_of, rank_text
from comet.ruleset import Ruleset


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """Play ``cards`` (empty tuple: pass).  ``as_rank`` is the rank a wild card stands for."""

    cards: tuple[Card, ...] = ()
    as_rank: int = 0

    @property
    def is_pass(self) -> bool:
        return not self.cards

    @property
    def rank(self) -> int:
        """The rank this play puts on the run (0 for a pass)."""
        if self.as_rank:
            return self.as_rank
        return rank_of(self.cards[0]) if self.cards else 0

    def __str__(self) -> str:
        if not self.cards:
            return "pass"
        text = "play " + " ".join(card_text(c) for c in self.cards)
        if self.as_rank:
            text += " as " + rank_text(self.as_rank)
        return text


PASS = Action()


@functools.cache
def one_card(card: Card, as_rank: int) -> Action:
    """The action that plays the single ``card`` (standing for ``as_rank`` if it is wild, else 0).

    Actions are immutable, so one value per card and rank is shared: a replayed action parsed from
    its text is then the very object ``legal_actions`` lists, and ``in`` finds it by identity."""
    return Action((card,), as_rank)


@dataclass(frozen=True, slots=True)
class Payment:
    """``amount`` chips (or points) from ``payer`` to ``payee`` under rule ``rule``."""

    payer: int
    payee: int
    amount: int
    rule: str


class Terminal:
    """``DealState.terminal``: the deal is over (a winner, or drawn).

    Worked out from ``winner`` and ``drawn`` on first reading and then kept in the state's own
    dictionary, where the next reading finds it as a plain attribute (a descriptor without ``__set__``
    yields to the instance's dictionary): a property would cost a call on every reading, and every loop
    that plays a deal reads it once per action.  The engine writes it when it builds the next state
    (``comet.engine``), so in play the value is always already there.  A derived value of fields that
    never change, so the state stays immutable in effect; it is not a field (equality, ``repr``,
    ``dataclasses.replace`` and ``fields`` ignore it)."""

    @overload
    def __get__(self, state: None, owner: type[DealState]) -> Terminal: ...
    @overload
    def __get__(self, state: DealState, owner: type[DealState] | None = None) -> bool: ...
    def __get__(self, state: DealState | None, owner: type[DealState] | None = None) -> bool | Terminal:
        if state is None:
            return self
        done = state.winner >= 0 or state.drawn
        state.__dict__["terminal"] = done
        return done


@dataclass(frozen=True)
class DealState:
    """Everything needed to continue a deal; equal states behave identically.

    Frozen but deliberately without ``__slots__``: the engine makes one new state per action, and a
    state with a ``__dict__`` is copied with its changes in one step (``engine._replace``), where a
    slotted one needs a call per field (two thirds of the time of an action).

    ``run`` holds the ranks of the current run (empty: the player to move
    starts a new run).  ``last_player`` is the last seat that played a card
    (-1 before the first play).  ``winner`` is -1 while the deal goes on.
    """

    rules: Ruleset
    players: int
    dealer: int
    pack: str
    wild: tuple[Card, ...]
    comet_value: int
    hands: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...]
    played: tuple[Card, ...]
    run: tuple[int, ...]
    to_move: int
    turn_played: bool
    last_player: int
    turn: int
    steps: int
    payments: tuple[Payment, ...]
    winner: int = -1
    out_wild_as: int = 0
    drawn: bool = False
    # Suit-following games (Commit): the suit the run must follow (-1: any suit / no run), and a
    # second card that may also continue the run (0: none; 000's 9D "or the diamonds from the 10D",
    # 002's Comet "the card the Comet was set to replace").
    run_suit: int = -1
    branch: int = 0
    # Points games that score during play (002's Commit: Kings and the Comet): points per seat so far.
    scores: tuple[int, ...] = ()
    # RUL-COMET-AFTER (optional_restart): right after the Comet the player may also start a new run.
    free_lead: bool = False

    #: Is the deal over (a winner, or drawn)?  Read once per action by every loop that plays a deal.
    terminal = Terminal()  # not annotated: a class attribute, not a field

    @property
    def need(self) -> int:
        """The rank that continues the run, or 0 when a new run is to be started."""
        return self.run[-1] + 1 if self.run else 0

    def chips(self) -> tuple[int, ...]:
        """Net chips moved so far this deal, per seat (zero-sum)."""
        net = [0] * self.players
        for p in self.payments:
            net[p.payer] -= p.amount
            net[p.payee] += p.amount
        return tuple(net)


@dataclass(frozen=True, slots=True)
class GameState:
    """Between deals: who deals next, balances, the Comet values carried over."""

    rules: Ruleset
    players: int
    deals: int
    dealer: int
    deal_index: int
    balances: tuple[int, ...]
    comet_values: tuple[int, ...]
    history: tuple[tuple[int, ...], ...] = ()
    extra_rounds: int = 0
    # RUL-INSOLVENCY = drop_out: the seats that dropped out, in the order they did (never dealt in again).
    out: tuple[int, ...] = ()
