"""Which rule ids a deal, a transition or a game step exercised (for fuzzing coverage).

Choice: a *classifier* over ``(before, action, after)`` values, not instrumentation of the
engine.  The engine stays exactly as fast as in normal use (``@rule`` is free at run time);
the fuzzer asks this module afterwards which rules a transition exercised, judging only
from the observable states.  That also makes a hit mean "the situation the rule is about
happened" (a King actually stopped a run), rather than "the function that holds the rule
was called" (``legal_actions`` holds eight rule ids and runs on every step).

Rule ids the classifier does not know (a variant's rules added later) are not silently
counted as hit: ``CallCounter`` is an opt-in counting mode that wraps every function
registered with ``@rule`` for the duration of a ``with`` block and counts calls per rule
id; the campaign uses those counts only for ids outside ``CLASSIFIED`` and says so in its
report ("by call").  ``all_rule_ids()`` is the universe: every id named by an ``@rule``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

from comet.cards import KING
from comet.engine import legal_actions, settlement
from comet.state import PASS, Action, DealState
from comet.trace import IMPLEMENTATIONS

# Every id the classifiers below can emit.
CLASSIFIED: frozenset[str] = frozenset(
    {
        "R-PLAYERS",
        "R-PACK-BLACK",
        "R-PACK-RED",
        "R-PACK-ALTERNATE",
        "R-DEAL-SIZES",
        "R-DEAL-ORDER",
        "R-DEAD-HAND",
        "R-LEAD-FIRST",
        "R-LEAD-ANY",
        "R-RANK-ORDER",
        "R-PLAY-HELD",
        "R-PLAY-CONTINUE",
        "R-PLAY-MUST",
        "R-NEW-RUN",
        "R-TURN-END",
        "R-STOP-KING",
        "R-STOP-STUCK",
        "R-FOUR-OF-A-KIND",
        "R-THREE-NINES",
        "R-COMET-WILD",
        "R-COMET-OPTIONAL",
        "R-COMET-STOP",
        "R-COMET-BONUS",
        "R-END-OUT",
        "R-SETTLE-POINTS",
        "R-SETTLE-CAUGHT",
        "R-SETTLE-COMET-LAST",
        "R-COMET-ESCALATE",
        "R-DEAL-DEALER",
        "R-GAME-DEALS",
        "R-GAME-CHIPS",
        "R-GAME-WINNER",
    }
)


def load_model() -> None:
    """Import every module of the ``comet`` package so that all ``@rule`` marks are registered."""
    import comet

    for info in pkgutil.iter_modules(comet.__path__, "comet."):
        if info.name not in ("comet.cli", "comet.__main__"):
            importlib.import_module(info.name)


def all_rule_ids() -> frozenset[str]:
    """Every rule id named by an ``@rule`` somewhere in the model."""
    load_model()
    return frozenset(IMPLEMENTATIONS)


def deal_rules(start: DealState) -> set[str]:
    """Rules exercised by dealing ``start`` (players, pack, sizes, order, dead hand, first lead)."""
    hit = {"R-PLAYERS", "R-DEAL-SIZES", "R-DEAL-ORDER", "R-LEAD-FIRST"}
    if start.dead:
        hit.add("R-DEAD-HAND")
    if start.pack == "black":
        hit.add("R-PACK-BLACK")
    elif start.pack == "red":
        hit.add("R-PACK-RED")
    return hit


def transition_rules(before: DealState, action: Action, after: DealState) -> set[str]:
    """Rules a single legal step exercised, judged from the states on either side."""
    hit: set[str] = set()
    legal = legal_actions(before)
    need = before.need
    if PASS not in legal:
        hit.add("R-PLAY-MUST")
    if action.is_pass:
        hit.add("R-TURN-END")
        if before.run and not after.run and not after.terminal:
            hit.add("R-STOP-STUCK")
        if any(a.as_rank for a in legal):
            hit.add("R-COMET-OPTIONAL")
        if need == 0 and before.turn_played:
            hit.add("R-NEW-RUN")
        return hit
    hit.add("R-PLAY-HELD")
    if need == 0:
        hit.add("R-LEAD-ANY")
        if before.steps > 0 and (before.turn_played or before.last_player == before.to_move):
            hit.add("R-NEW-RUN")
    else:
        hit.add("R-PLAY-CONTINUE")
        if action.rank == need:
            hit.add("R-RANK-ORDER")
    if action.as_rank:
        hit.update({"R-COMET-WILD", "R-COMET-STOP"})
        if len(after.payments) > len(before.payments):
            hit.add("R-COMET-BONUS")
    elif action.rank == KING:
        hit.add("R-STOP-KING")
    if len(action.cards) >= 4:
        hit.add("R-FOUR-OF-A-KIND")
    elif len(action.cards) == 3:
        hit.add("R-THREE-NINES")
    if after.terminal:
        hit.add("R-END-OUT")
        pays = settlement(after)
        if pays:
            hit.add("R-SETTLE-POINTS")
        if any(c in after.wild for seat, h in enumerate(after.hands) if seat != after.winner for c in h):
            hit.add("R-SETTLE-CAUGHT")
        if after.out_wild_as:
            hit.add("R-SETTLE-COMET-LAST")
    return hit


def game_rules(first_deal: bool, start: DealState, previous_start: DealState | None) -> set[str]:
    """Rules exercised by a whole game's deal sequence at ``start``."""
    hit = {"R-GAME-WINNER"}
    if first_deal:
        hit.update({"R-GAME-DEALS", "R-GAME-CHIPS", "R-DEAL-DEALER"})
    if previous_start is not None:
        if previous_start.pack != start.pack:
            hit.add("R-PACK-ALTERNATE")
        if start.comet_value != previous_start.comet_value or any(
            c in previous_start.wild for c in previous_start.dead
        ):
            hit.add("R-COMET-ESCALATE")
    return hit


# --------------------------------------------------------------------- opt-in counting mode


def _resolve(qualified: str) -> tuple[ModuleType, str] | None:
    module_name, _, attr = qualified.rpartition(".")
    module = sys.modules.get(module_name)
    if module is None or "." in attr:
        return None
    return module, attr


class CallCounter:
    """Counts calls of ``@rule`` functions per rule id while active (see the module docstring)."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    @contextmanager
    def active(self) -> Iterator[CallCounter]:
        load_model()
        by_function: dict[int, tuple[Callable[..., object], list[str]]] = {}
        for rid, names in IMPLEMENTATIONS.items():
            for qualified in names:
                where = _resolve(qualified)
                if where is None:
                    continue
                fn = getattr(where[0], where[1], None)
                if callable(fn):
                    by_function.setdefault(id(fn), (fn, []))[1].append(rid)
        patched: list[tuple[ModuleType, str, object]] = []
        for name, module in list(sys.modules.items()):
            if not (name == "comet" or name.startswith("comet.")) or module is None:
                continue
            for attr, value in list(vars(module).items()):
                entry = by_function.get(id(value))
                if entry is None:
                    continue
                patched.append((module, attr, value))
                setattr(module, attr, self._wrap(entry[0], tuple(entry[1])))
        try:
            yield self
        finally:
            for module, attr, value in reversed(patched):
                setattr(module, attr, value)

    def _wrap(self, fn: Callable[..., object], rids: tuple[str, ...]) -> Callable[..., object]:
        calls = self.calls

        @functools.wraps(fn)
        def counted(*args: object, **kwargs: object) -> object:
            for rid in rids:
                calls[rid] += 1
            return fn(*args, **kwargs)

        return counted
