"""The one checker of the invariants, used by the fuzzers, the Hypothesis machines and the every-preset
tests alike.

- ``deal``: every reachable state, every transition, the end of a deal, replay, rejection;
- ``game``: one deal of a whole game and the game's end;
- ``recompute`` and ``registry``: the shapes of a game family's independent recomputation and where
  ``comet/games/<name>/check.py`` registers it;
- ``play``: a whole deal or game played under these checks;
- ``counterexample``: a reproducible deal for a report.
"""

from comet.checks.counterexample import Counterexample
from comet.checks.deal import (
    check_rejection,
    check_replay,
    check_settlement,
    check_state,
    check_terminal,
    check_transition,
    check_variant_step,
    payment_bound,
)
from comet.checks.game import (
    check_game_economy,
    check_game_economy_end,
    check_game_end,
    check_game_step,
)
from comet.checks.recompute import Expected, Recomputation, payments_table
from comet.checks.registry import GameCheck, check_of, register_check

__all__ = [
    "Counterexample",
    "Expected",
    "GameCheck",
    "Recomputation",
    "check_game_economy",
    "check_game_economy_end",
    "check_game_end",
    "check_game_step",
    "check_of",
    "check_rejection",
    "check_replay",
    "check_settlement",
    "check_state",
    "check_terminal",
    "check_transition",
    "check_variant_step",
    "payment_bound",
    "payments_table",
    "register_check",
]
