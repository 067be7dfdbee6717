"""The opera game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from comet.state import DealState


def first_turn_opera(state: DealState, base: int) -> int:
    """``base`` with the Opera option applied (000:83 "if the first player goes out in their very first
    turn, everyone pays double"; 002:31 "doubled again ... doubled yet again"; RUL-OPERA-STACK)."""
    first = (state.dealer + 1) % state.players
    if not (state.rules.opera and state.winner == first and state.turn == 0):
        return base
    return base * 2 if state.rules.opera_stack == "multiply" else max(base, 2)
