"""What a seat may know, as a tensor: the named pieces of an observation (cards as one plane of 52 per copy
a pack holds, seats one-hot) and their filling from a deal (spec/frameworks.md, "What a seat may know")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from comet.cards import KING, Card
from comet.frameworks.table import Table
from comet.frameworks.utilities import chip_scale
from comet.state import Action, DealState


def copies(table: Table) -> int:
    """The most copies of one card in the pack (1, or 2 in the two-pack games)."""
    return max(Counter(table.pack.cards).values())


# Tensor pieces: (name, shape) for an observation of ``table``; cards as one plane of 52 per copy
# a pack holds (a first copy, a second copy), seats one-hot.
def tensor_pieces(table: Table, *, private: bool, public: bool, recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    n = table.players
    k = copies(table)
    pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
    if private:
        pieces.append(("hand", (k, 52)))
        if recall:
            pieces.append(("dealt", (k, 52)))
    if public:
        pieces += [
            ("to_move", (n,)),
            ("need", (KING + 1,)),
            ("run_suit", (5,)),
            ("played", (k, 52)),
            ("held", (n, table.hand_size + 1)),
            ("chips", (n,)),
            ("terminal", (1,)),
        ]
        if recall:
            pieces.append(("played_by", (n, k, 52)))
    return pieces


def cards_into(out: npt.NDArray[np.float32], cards: Sequence[Card]) -> None:
    """Mark ``cards`` in the card planes ``out`` (a second copy of a card in the second plane)."""
    if not cards:
        return
    places = [c - 4 for c in cards]
    if len(set(places)) == len(places):  # the usual case: one copy of each, one numpy assignment
        out[0, places] = 1.0
        return
    seen: set[Card] = set()
    for c in cards:
        out[1 if c in seen else 0, c - 4] = 1.0
        seen.add(c)


def fill_tensor(
    views: Mapping[str, npt.NDArray[np.float32]],
    table: Table,
    state: DealState,
    seat: int,
    dealt: Sequence[Card],
    log: Sequence[tuple[int, Action]],
) -> None:
    """Write what ``seat`` may know into the named views (all zeroed by the caller)."""
    views["player"][seat] = 1.0
    if "hand" in views:
        cards_into(views["hand"], state.hands[seat])
    if "dealt" in views:
        cards_into(views["dealt"], dealt)
    if "to_move" in views:
        if not state.terminal:
            views["to_move"][state.to_move] = 1.0
        views["need"][state.need if state.need <= KING else 0] = 1.0
        views["run_suit"][state.run_suit + 1] = 1.0
        cards_into(views["played"], state.played)
        for s, h in enumerate(state.hands):
            views["held"][s, min(len(h), table.hand_size)] = 1.0
        views["chips"][:] = np.asarray(state.chips(), np.float32) / np.float32(chip_scale(table))
        views["terminal"][0] = 1.0 if state.terminal else 0.0
    if "played_by" in views:
        by: dict[int, list[Card]] = {}
        for s, a in log:
            by.setdefault(s, []).extend(a.cards)
        for s, cards in by.items():
            cards_into(views["played_by"][s], cards)
