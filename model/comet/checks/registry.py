"""Where each game family's independent recomputation registers itself (``comet/games/<name>/check.py``),
so that the one checker finds it by the ruleset's game family without naming any."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comet.cards import KING
from comet.checks.recompute import GameEconomy, Recomputation, StepCheck
from comet.ruleset import Ruleset
from comet.state import GameState
from comet.variant import variant_named

GameEndCheck = Callable[[GameState, GameState], list[str]]


def kings_stop(rules: Ruleset) -> int:
    """The standard bound on a run: a King ends it, so a run holds ranks below the King."""
    return KING


@dataclass(frozen=True, slots=True)
class GameCheck:
    """One game family's independent recomputation, for the one checker.

    ``settlement`` what a finished deal pays (and scores, in points games); ``step`` the payments or
    points made during play by one action; ``economy`` what one deal of a whole game carries over
    (the wild card's value, chips or points); ``end`` the end of a whole game; ``run_top(rules)``
    the rank a run never reaches (a King ends a run unless a ruling says otherwise).
    """

    settlement: Recomputation
    step: StepCheck
    economy: GameEconomy
    end: GameEndCheck
    run_top: Callable[[Ruleset], int] = kings_stop


CHECKS: dict[str, GameCheck] = {}


def register_check(name: str, check: GameCheck) -> GameCheck:
    """Add game family ``name``'s recomputation (called at import time by ``comet.games.<name>.check``)."""
    CHECKS[name] = check
    return check


def check_of(name: str) -> GameCheck | None:
    """Game family ``name``'s recomputation (its folder imported on first use), or None if it has none."""
    if name not in CHECKS:
        try:
            variant_named(name)
        except ValueError:
            return None
    return CHECKS.get(name)
