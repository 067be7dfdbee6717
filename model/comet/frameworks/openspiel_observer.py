"""``CometObserver``: OpenSpiel's observer protocol for ``python_comet`` (the tensor, its named pieces and the
text a seat may know; spec/frameworks.md, "What a seat may know").  It reads a state through ``ObservedState``,
which ``comet.frameworks.openspiel.CometState`` provides, so this module needs nothing from the game's."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pyspiel

from comet.cards import cards_text
from comet.frameworks.chance import hands_so_far
from comet.frameworks.table import Table
from comet.frameworks.tensors import cards_into, fill_tensor, tensor_pieces
from comet.frameworks.text import announcement, end_text, observation_text
from comet.state import Action, DealState


class ObservedState(Protocol):
    """What an observer reads of an OpenSpiel state (``CometState``)."""

    @property
    def deal(self) -> DealState | None: ...

    def dealt_so_far(self) -> tuple[int, ...]: ...

    def dealt_to(self, seat: int) -> tuple[int, ...]: ...

    def played_moves(self) -> list[tuple[int, Action]]: ...

    def events(self) -> list[str]: ...


class CometObserver:
    """OpenSpiel's observer protocol: ``tensor``/``dict`` set by ``set_from``, text by ``string_from``.

    ``perfect_recall`` adds the cards the seat was dealt and everything the table has seen, in order;
    ``private_info`` SINGLE_PLAYER shows the seat's own hand, ALL_PLAYERS every hand and the dead hand;
    ``public_info`` the run, the cards played, the cards held, chips and scores, the end of the deal."""

    def __init__(self, table: Table, iig: pyspiel.IIGObservationType) -> None:
        self.table = table
        self.recall = bool(iig.perfect_recall)
        self.public = bool(iig.public_info)
        self.private = iig.private_info
        pieces = tensor_pieces(
            table,
            private=self.private != pyspiel.PrivateInfoType.NONE,
            public=self.public,
            recall=self.recall,
        )
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        at = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n

    def set_from(self, state: ObservedState, player: int) -> None:
        self.tensor.fill(0.0)
        d = state.deal
        if d is None:
            self.dict["player"][player] = 1.0
            for name in ("hand", "dealt"):
                if name in self.dict:
                    cards_into(self.dict[name], state.dealt_to(player))
            return
        moves = state.played_moves() if "played_by" in self.dict else []
        fill_tensor(self.dict, self.table, d, player, state.dealt_to(player), moves)

    def string_from(self, state: ObservedState, player: int) -> str:
        d = state.deal
        parts: list[str] = []
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            if self.recall:
                parts.append(f"seat {player} dealt {cards_text(state.dealt_to(player)) or '-'}")
            elif d is not None:
                parts.append(f"seat {player}; hand {cards_text(d.hands[player]) or '-'}")
            else:
                parts.append(f"seat {player}; hand {cards_text(state.dealt_to(player)) or '-'}")
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            hands = d.hands if d is not None else hands_so_far(self.table, state.dealt_so_far())
            parts.append("hands " + " | ".join(cards_text(h) or "-" for h in hands))
            if d is not None:
                parts.append("dead " + (cards_text(d.dead) or "-"))
        if not self.public:
            return "; ".join(parts)
        if d is None:
            parts.append(f"dealing, {len(state.dealt_so_far())} of {self.table.dealt} cards dealt")
            return "; ".join(parts)
        if self.recall:
            parts.extend(state.events())
            note = announcement(d)
            if note:
                parts.append("(" + note + ")")
            if d.terminal:
                parts.append(end_text(d))
            return "\n".join(parts)
        parts.append(observation_text(self.table, d, player, private=False))
        return "; ".join(parts)
