"""Checking one deal or one game: every invariant of ``comet.checks`` after every step, rejections probed,
the rule ids exercised."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from comet import engine
from comet import game as game_module
from comet.checks import (
    Counterexample,
    check_game_economy,
    check_game_economy_end,
    check_game_end,
    check_game_step,
    check_rejection,
    check_replay,
    check_state,
    check_terminal,
    check_transition,
)
from comet.checks.coverage import deal_rules, game_rules, transition_rules
from comet.errors import IllegalAction, RecordError
from comet.fuzz.space import arbitrary_action
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState
from comet.variant import variant_of

# Fields of a deal state that record the path, not the position: two states differing only
# in these are counted as one "distinct state" (the same position reached another way).
HISTORY_FIELDS = frozenset({"steps", "turn", "payments", "played"})


def position_key(state: DealState) -> int:
    """A hash of the state without its history fields (see ``HISTORY_FIELDS``)."""
    return hash(tuple(getattr(state, f.name) for f in dataclasses.fields(state) if f.name not in HISTORY_FIELDS))


@dataclass(frozen=True, slots=True)
class DealOutcome:
    final: DealState
    actions: tuple[Action, ...]
    failure: str  # empty when every check passed
    settlement_skipped: bool
    hits: tuple[str, ...]
    states: frozenset[int]


Chooser = Callable[[DealState, Sequence[Action]], Action]


def check_deal(
    start: DealState,
    choose: Chooser,
    known_rules: frozenset[str],
    rng: random.Random | None = None,
    probes: int = 1,
    stop: Callable[[DealState], bool] | None = None,
) -> DealOutcome:
    """Play ``start`` to the end with ``choose``, checking every invariant after every step.

    With ``rng``, ``probes`` arbitrary actions per step are offered to check rejections.  ``stop`` ends
    the deal early (a game won inside it, ``comet.game.deal_over``); a deal cut short has no settlement.
    """
    hits: Counter[str] = Counter(deal_rules(start))
    seen: set[int] = {position_key(start)}
    actions: list[Action] = []
    s = start

    def fail(problems: Sequence[str], extra: str = "") -> DealOutcome:
        text = "; ".join(problems) + extra + "\n" + Counterexample(start, tuple(actions)).text()
        return DealOutcome(s, tuple(actions), text, False, tuple(hits.elements()), frozenset(seen))

    try:
        problems = check_state(s, start)
        if problems:
            return fail(problems)
        while not s.terminal and not (stop is not None and stop(s)):
            legal = engine.legal_actions(s)
            if rng is not None:
                for _ in range(probes):
                    probe = arbitrary_action(s, rng)
                    bad = check_rejection(s, probe, set(known_rules))
                    if bad:
                        return fail(bad, f" (offered {probe} after the actions below)")
            a = choose(s, legal)
            before = s
            actions.append(a)
            s = engine.apply(s, a)
            hits.update(transition_rules(before, a, s))
            seen.add(position_key(s))
            problems = check_transition(before, a, s) + check_state(s, start)
            if problems:
                return fail(problems)
        problems, skipped = check_terminal(s) if s.terminal else ([], False)
        problems += check_replay(start, actions, s)
        if problems:
            return fail(problems)
    except (IllegalAction, RecordError, ValueError, IndexError, KeyError, TypeError) as e:
        return fail([f"the engine raised {type(e).__name__}: {e}"])
    return DealOutcome(s, tuple(actions), "", skipped, tuple(hits.elements()), frozenset(seen))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    game: GameState
    deals: tuple[DealOutcome, ...]
    failure: str  # empty when every check passed
    economy_skipped: bool = False  # the variant has no chip-economy recomputation


def check_game(
    rules: Ruleset,
    players: int,
    deals: int,
    first_dealer: int,
    rng: random.Random,
    choose: Chooser,
    known_rules: frozenset[str],
    hits: Counter[str] | None = None,
    first_seed: int | None = None,
) -> GameOutcome:
    """Play a whole game deal by deal (``next_deal``/``finish_deal``), checking every deal with
    ``check_deal`` and the game with ``check_game_step`` and ``check_game_end``.  ``first_seed``,
    if given, shuffles the first deal (the rest are drawn from ``rng``)."""
    game = first = game_module.new_game(rules, players, deals, first_dealer)
    played: list[DealOutcome] = []
    skipped = False
    previous: DealState | None = None
    while not game_module.game_over(game):
        seed = first_seed if (first_seed is not None and game.deal_index == 0) else rng.getrandbits(32)
        start = game_module.next_deal(game, seed)
        if hits is not None:
            hits.update(game_rules(previous is None, start, previous))
        out = check_deal(start, choose, known_rules, None, stop=partial(game_module.deal_over, game))
        played.append(out)
        if out.failure:
            return GameOutcome(game, tuple(played), f"game deal {game.deal_index}: {out.failure}")
        after = game_module.finish_deal(game, out.final)
        economy, skip = check_game_economy(game, start, out.final, after)
        skipped = skipped or skip
        problems = check_game_step(game, start, out.final, after) + economy
        if problems:
            return GameOutcome(
                game, tuple(played), f"game deal {game.deal_index}: " + "; ".join(problems) + "\n" + game_text(game)
            )
        game, previous = after, start
    ending, skip = check_game_economy_end(first, game)
    problems = check_game_end(first, game) + ending
    if problems:
        return GameOutcome(
            game, tuple(played), "game end: " + "; ".join(problems) + "\n" + game_text(game), skipped or skip
        )
    return GameOutcome(game, tuple(played), "", skipped or skip)


def game_length(rules: Ruleset, players: int, rng: random.Random) -> int:
    """A short game: the variant's own default length half the time (if it declares one),
    else one or two rounds, or any small count when the ruling allows it."""
    default = variant_of(rules).default_deals
    if default is not None and rng.randrange(2):
        return default(players)
    if rules.deal_count == "multiple_of_players":
        return players * rng.randint(1, 2)
    return rng.randint(1, 2 * players)


def game_text(game: GameState) -> str:
    diffs = game.rules.differences(Ruleset(variant=game.rules.variant))
    return (
        f"variant={game.rules.variant} players={game.players} deals={game.deals} dealer={game.dealer} "
        f"deal_index={game.deal_index} balances={game.balances} comet_values={game.comet_values}\n"
        "rulings: " + (", ".join(f"{k}={v}" for k, v in diffs.items()) if diffs else "defaults")
    )
