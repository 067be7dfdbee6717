"""Random deals and games driven by Hypothesis, when it is installed: generation and shrinking.

The random cases are the same as the standard-library path's (``cases.random_deal`` and
``cases.random_game``: random readings, random legal play, a planted illegal action, malformed field or
game fault), but every random choice is drawn from Hypothesis (``st.randoms``), so a disagreement is
shrunk by Hypothesis first: fewer readings changed, fewer players, the first legal action wherever that
still disagrees, no planted fault unless it matters.  The record so found is then cut by
``shrink.shrink_record`` (trailing deals and actions dropped), which Hypothesis cannot do on its own
because a deal is played to its end.

Hypothesis is a test dependency, not a runtime one: ``available()`` says whether it is importable, and
``comet conform`` falls back to the seeded standard-library generator and shrinker without it (the report
says which ran).
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from comet.conform.cases import Case, random_deal, random_game

#: Examples tried per call of ``hypothesis.find`` (a batch); batches run until the time is spent.
BATCH = 40
#: At most this many requests are spent by Hypothesis shrinking one disagreement.
MAX_SHRINK_CALLS = 300
#: ... and at most this many seconds.
MAX_SHRINK_SECONDS = 20.0


class _Stop(BaseException):
    """Raised inside Hypothesis's run to end it (time up, or the shrinking budget spent).  A
    BaseException, so that Hypothesis does not take it for the test failing and passes it on at once."""


def available() -> bool:
    """Whether Hypothesis can be imported (``pip install hypothesis``; the ``dev`` extra has it)."""
    return importlib.util.find_spec("hypothesis") is not None


def version() -> str:
    """Hypothesis's version, for the report."""
    import hypothesis

    return str(hypothesis.__version__)


@dataclass(frozen=True, slots=True)
class Found:
    """One disagreement: the first case Hypothesis generated that disagreed and its problem, and the
    case Hypothesis shrank it to."""

    first: Case
    problem: str
    shrunk: Case


def make_case(presets: list[str], games: bool, pick: int, rng: random.Random, index: int) -> Case:
    """The case of one example: ``pick`` chooses the preset and whether it is a game (one in four when
    games are tested), ``rng`` (Hypothesis's) makes every other choice."""
    name = presets[pick % len(presets)]
    if games and (pick // len(presets)) % 4 == 3:
        return random_game(rng, name, index)
    return random_deal(rng, name, index)


def explore(
    presets: list[str],
    games: bool,
    seconds: float,
    seed: int,
    check: Callable[[Case], str | None],
    seen: Callable[[Case, str | None], None],
    shrink: Callable[[], bool],
    limit: int | None = None,
) -> list[Found]:
    """Generate cases for ``seconds`` (one batch at least) and shrink each disagreement.

    ``check(case)`` asks the implementation and the model (None: they agree); ``seen(case, problem)`` is
    told of every generated case (not of the shrinking's); ``shrink()`` says whether the next
    disagreement is still to be shrunk (the report narrates only the first few).  ``limit``: exactly this
    many generated cases instead of a time (a run that does not depend on the machine's speed)."""
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import FlakyStrategyDefinition, NoSuchExample

    strategy = st.tuples(st.integers(0, 4 * len(presets) - 1), st.randoms(use_true_random=False))
    began = time.monotonic()
    found: list[Found] = []
    batch = 0
    counter = [0]

    def over() -> bool:
        if limit is not None:
            return counter[0] >= limit
        return time.monotonic() - began >= seconds and counter[0] > 0

    while batch == 0 or not over():
        state: dict[str, object] = {"first": None, "calls": 0}
        shrinking = shrink()

        def condition(example: tuple[int, random.Random], state: dict[str, object] = state) -> bool:
            if state["first"] is None:
                if over():
                    raise _Stop  # time is up (or the cases counted): the batch ends here
                case = make_case(presets, games, example[0], example[1], counter[0] + 1)
                counter[0] += 1  # after the case is made: one that runs out of Hypothesis's data is not counted
                problem = check(case)
                seen(case, problem)
                if problem is not None:
                    state["first"] = (case, problem)
                    state["last"] = case
                    state["shrink_began"] = time.monotonic()
                return problem is not None
            calls = state["calls"]
            shrink_began = state["shrink_began"]
            assert isinstance(calls, int) and isinstance(shrink_began, float)
            if calls >= MAX_SHRINK_CALLS or time.monotonic() - shrink_began > MAX_SHRINK_SECONDS:
                raise _Stop  # enough: the smallest case so far is the answer
            state["calls"] = calls + 1
            case = make_case(presets, games, example[0], example[1], 0)
            if check(case) is None:
                return False
            state["last"] = case
            return True

        config = settings(
            max_examples=BATCH,
            database=None,
            deadline=None,
            derandomize=False,
            verbosity=Verbosity.quiet,
            phases=(Phase.generate, Phase.shrink) if shrinking else (Phase.generate,),
            suppress_health_check=list(HealthCheck),
        )
        # NoSuchExample: nothing found; _Stop (reported by Hypothesis as drawing cut short): time is up or
        # the shrinking budget is spent, and state["last"] holds the smallest case so far.
        with contextlib.suppress(NoSuchExample, _Stop, FlakyStrategyDefinition):
            find(strategy, condition, settings=config, random=random.Random(seed * 7919 + batch))
        first = state["first"]
        if isinstance(first, tuple):
            last = state["last"]
            assert isinstance(last, Case)
            found.append(Found(first[0], first[1], last))
        batch += 1
    return found
