"""Which rule ids a deal, a transition or a game step exercised (for fuzzing coverage).

Choice: a *classifier* over ``(before, action, after)`` values, not instrumentation of the
engine.  The engine stays exactly as fast as in normal use (``@rule`` is free at run time);
the fuzzer asks this module afterwards which rules a transition exercised, judging only
from the observable states.  That also makes a hit mean "the situation the rule is about
happened" (a King actually stopped a run), rather than "the function that holds the rule
was called" (``legal_actions`` holds eight rule ids and runs on every step).

Every rule id has a classifier: the standard game's in ``transition_rules``/``deal_rules``/
``game_rules``, each variant's in ``VARIANT_CLASSIFIERS`` and each rule option's in
``OPTION_CLASSIFIERS``; ``unclassified_ids()`` lists any id an ``@rule`` names that none of
them emits, and a test fails while it is not empty.  Only as a fallback for such a gap (a
rule added later, before its classifier), ``CallCounter`` is an opt-in counting mode that,
for the duration of a ``with`` block, counts calls of the functions registered with ``@rule``
for those ids (a ``sys.settrace`` hook on calls only, installed only when there are such
ids); the campaign uses those counts only for unclassified ids and says so in its report ("by call").  ``all_rule_ids()`` is the universe: every id named by an ``@rule``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FrameType

from comet.cards import KING, card, rank_of
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
        "R-REC-STATE",
        "R-REC-ACTION-ORDER",
        "R-REC-PAYMENTS",
        "R-REC-NUMBERS",
        "R-REC-FAULTS",
        "R-REC-ILLEGAL-PRECEDENCE",
    }
)

#: Rule ids about a record's text, not its deal (R-REC-LIMITS: sizes, numbers, duplicate keys, a byte order
#: mark; R-REC-FORMAT: the format number): counted only for the cases that exercise them, the malformed
#: vectors named ``limit-*`` / ``format-*`` (``comet.vectors.write``), conform's hostile texts and the
#: coverage sweep's record texts (``comet.fuzz.sweep.record_text_hits``), never for a deal.
RECORD_TEXT: dict[str, str] = {"limit-": "R-REC-LIMITS", "format-": "R-REC-FORMAT"}


# The search paths already walked (``load_model``: the package's and the game folders'; ``load_games``: the
# game folders'): a walk lists directories, and the fuzzer asked for one on every step it classified, half
# of the campaign's time and all of its system time (2026-12-02).  A test that puts a game folder on
# ``comet.games.__path__`` changes the key, so its folder is walked too.
_WALKED: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()


def _walked(what: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    import comet
    import comet.games

    return what, tuple(comet.__path__), tuple(comet.games.__path__)


def load_model() -> None:
    """Import every module of the ``comet`` package so that all ``@rule`` marks are registered (once per
    search path: ``_WALKED``)."""
    import comet

    key = _walked("model")
    if key in _WALKED:
        return
    for info in pkgutil.walk_packages(comet.__path__, "comet."):
        if not info.name.startswith(("comet.cli", "comet.__main__", "comet.commands")):
            import_if_installed(info.name)
    _WALKED.add(key)


def import_if_installed(name: str) -> bool:
    """Import the module ``name`` of the package; False, and nothing imported, where it needs a library that
    is not installed (the adapters of the optional extras, ``comet.frameworks.openspiel`` without ``open_spiel``: the
    main job runs from the plain ``.[dev]`` install).  A module of the package that is missing, or any other
    error, is raised: only a third-party library may be absent."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.split(".")[0] == "comet":
            raise
        return False
    return True


def all_rule_ids() -> frozenset[str]:
    """Every rule id named by an ``@rule`` somewhere in the model."""
    load_model()
    return frozenset(IMPLEMENTATIONS)


def deal_rules(start: DealState) -> set[str]:
    """Rules exercised by dealing ``start`` (players, pack, sizes, order, dead hand, first lead)."""
    hit = {"R-PLAYERS", "R-DEAL-SIZES", "R-DEAL-ORDER", "R-LEAD-FIRST"}
    # The record contract's ids about reading records and refusing actions (spec/rules.md section 7)
    # concern every deal, which is what a record describes; the conformance vectors count them
    # properly (malformed and illegal cases, comet.vectors.case_rules).
    # R-REC-LIMITS and R-REC-FORMAT are about a record's text (its size, numbers, keys and format number):
    # no deal exercises them, the cases that do count them (RECORD_TEXT).
    hit.update({"R-REC-NUMBERS", "R-REC-FAULTS", "R-REC-ILLEGAL-PRECEDENCE"})
    if start.dead:
        hit.add("R-DEAD-HAND")
    if start.pack == "black":
        hit.add("R-PACK-BLACK")
    elif start.pack == "red":
        hit.add("R-PACK-RED")
    return hit


def transition_rules(before: DealState, action: Action, after: DealState) -> set[str]:
    """Rules a single legal step exercised, judged from the states on either side."""
    hit: set[str] = {"R-REC-STATE"}
    legal = legal_actions(before)
    need = before.need
    if len(legal) > 1:
        hit.add("R-REC-ACTION-ORDER")
    if len(after.payments) > len(before.payments) or (after.terminal and settlement(after)):
        hit.add("R-REC-PAYMENTS")
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
        return hit | variant_rules(before, action, after)
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
    hit |= variant_rules(before, action, after)
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


Classifier = Callable[[DealState, Action, DealState], set[str]]


@dataclass(frozen=True, slots=True)
class VariantClassifier:
    """A variant's (or an option's) own rule ids: ``ids`` are those ``step`` can emit, judged from
    ``(before, action, after)``; ``game`` ids are about how a whole game of the variant ends and
    are hit by every deal played as part of a game (``game_rules``)."""

    ids: frozenset[str]
    step: Classifier
    game: frozenset[str] = frozenset()

    @property
    def emits(self) -> frozenset[str]:
        return self.ids | self.game


def first_step(before: DealState) -> bool:
    """The deal's first action: the deck and the deal sizes of the variant have been used."""
    return before.steps == 0


def losers_hold(after: DealState, test: Callable[[int], bool]) -> bool:
    return after.winner >= 0 and any(test(c) for seat, h in enumerate(after.hands) if seat != after.winner for c in h)


def wild_played(before: DealState, action: Action) -> bool:
    return any(c in before.wild for c in action.cards)


def natural_king(before: DealState, action: Action) -> bool:
    return any(rank_of(c) == KING and c not in before.wild for c in action.cards)


def continues_in_suit(before: DealState, c: int) -> bool:
    nxt = card(before.run[-1] + 1, before.run_suit) if before.run and before.run_suit >= 0 else -1
    return c == nxt or (bool(before.branch) and c == before.branch)


#: Each game family's classifier of its own rule ids, registered by ``comet/games/<name>/coverage.py``;
#: options' (a game folder registers them), active when their ruleset flag is set.  Every id named by an ``@rule`` must be
#: emitted by ``CLASSIFIED``, a game's or an option's classifier (``unclassified_ids``; a test fails
#: otherwise); call counting (``CallCounter``) remains only as the fallback that keeps a campaign's
#: report honest while such a gap exists.
VARIANT_CLASSIFIERS: dict[str, VariantClassifier] = {}
OPTION_CLASSIFIERS: dict[str, VariantClassifier] = {}


def register_classifier(name: str, classifier: VariantClassifier, *, option: bool = False) -> VariantClassifier:
    """Register game family ``name``'s classifier (or, with ``option``, the classifier of the ruleset flag
    ``name``); called at import time by ``comet.games.<name>.coverage``."""
    (OPTION_CLASSIFIERS if option else VARIANT_CLASSIFIERS)[name] = classifier
    return classifier


def load_games() -> None:
    """Import every game family's folder, so that all classifiers are registered (once per search path:
    ``_WALKED``)."""
    import comet.games

    key = _walked("games")
    if key in _WALKED:
        return
    for info in pkgutil.iter_modules(comet.games.__path__, "comet.games."):
        if info.ispkg:
            import_if_installed(info.name)
    _WALKED.add(key)


def variant_classifiers() -> dict[str, VariantClassifier]:
    """Every game family's classifier (all game folders loaded)."""
    load_games()
    return VARIANT_CLASSIFIERS


def option_classifiers() -> dict[str, VariantClassifier]:
    """Every option's classifier, by its ruleset flag (all game folders loaded)."""
    load_games()
    return OPTION_CLASSIFIERS


def classified_ids() -> frozenset[str]:
    """Every id some classifier can emit (the rest are counted by call)."""
    out = set(CLASSIFIED) | set(RECORD_TEXT.values())
    for entry in (*variant_classifiers().values(), *option_classifiers().values()):
        out |= entry.emits
    return frozenset(out)


def unclassified_ids() -> frozenset[str]:
    """Rule ids named by an ``@rule`` that no classifier emits (only call counting would see them)."""
    return all_rule_ids() - classified_ids()


def variant_rules(before: DealState, action: Action, after: DealState) -> set[str]:
    hit: set[str] = set()
    entry = VARIANT_CLASSIFIERS.get(before.rules.variant)
    if entry is not None:
        hit |= entry.step(before, action, after)
    for flag, option in option_classifiers().items():
        if getattr(before.rules, flag):
            hit |= option.step(before, action, after)
    return hit


def game_rules(first_deal: bool, start: DealState, previous_start: DealState | None) -> set[str]:
    """Rules exercised by a whole game's deal sequence at ``start``."""
    hit = {"R-GAME-WINNER"}
    entry = VARIANT_CLASSIFIERS.get(start.rules.variant)
    if entry is not None:
        hit |= entry.game
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


def _resolve(qualified: str) -> CodeType | None:
    """The code object of a function registered as ``module.qualname`` (None if not found)."""
    parts = qualified.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:cut]))
        if module is None:
            continue
        obj: object = module
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return None
        code = getattr(inspect.unwrap(obj), "__code__", None) if callable(obj) else None
        return code if isinstance(code, CodeType) else None
    return None


class CallCounter:
    """Counts calls of ``@rule`` functions per rule id while active (see the module docstring).

    Uses ``sys.settrace`` (call events only) with a table from code object to rule ids, so it sees every call,
    including calls through a variant's hook table; only ids in ``only`` are counted, and the
    profiler is not installed at all when ``only`` is empty (no cost for the standard game).
    """

    def __init__(self, only: frozenset[str] | None = None) -> None:
        self.calls: Counter[str] = Counter()
        self.only = only

    @contextmanager
    def active(self) -> Iterator[CallCounter]:
        load_model()
        wanted = frozenset(IMPLEMENTATIONS) if self.only is None else self.only
        codes: dict[CodeType, list[str]] = {}
        for rid, names in IMPLEMENTATIONS.items():
            if rid not in wanted:
                continue
            for qualified in names:
                code = _resolve(qualified)
                if code is not None:
                    codes.setdefault(code, []).append(rid)
        if not codes:
            yield self
            return
        calls = self.calls

        def on_call(frame: FrameType, event: str, arg: object) -> None:
            # a global trace function sees only "call" events; returning None skips line tracing
            rids = codes.get(frame.f_code)
            if rids:
                calls.update(rids)

        previous = sys.gettrace()
        sys.settrace(on_call)
        try:
            yield self
        finally:
            sys.settrace(previous)
