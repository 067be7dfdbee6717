"""Solve a small Comet with OpenSpiel's CFR and print its equilibrium value (spec/frameworks.md).

::

    python -m comet.frameworks.solve --small tiny --iterations 200
    python -m comet.frameworks.solve --small tiny_two_player --algorithm cfr+ --ruling comet_lead=any_rank
    python -m comet.frameworks.solve --small tiny --algorithm both --iterations 256 --curve spec/cfr-tiny.svg

The small Comets (``comet.small``) are research configurations, not from the sources.  The solver is
OpenSpiel's own (``CFRSolver`` / ``CFRPlusSolver``) over the game ``python_comet(small=...)``; the
exploitability is OpenSpiel's ``exploitability`` of the average policy, and each seat's value is the
expected utility when every seat plays that average policy (``expected_game_score.policy_value``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from comet.errors import RecordError
from comet.frameworks.openspiel import SHORT_NAME, CometGame
from comet.ruleset import RULING_FIELDS
from comet.small import SMALL


@dataclass(frozen=True, slots=True)
class Solution:
    """What ``solve`` found: the exploitability of the average policy after each checked iteration, the
    value of each seat when all play it, the game's size and the time taken."""

    small: str
    algorithm: str
    rulings: tuple[tuple[str, str], ...]
    curve: tuple[tuple[int, float], ...]
    values: tuple[float, ...]
    histories: int
    infosets: int
    seconds: float

    @property
    def exploitability(self) -> float:
        return self.curve[-1][1]


def small_game(name: str, rulings: Mapping[str, str] | None = None) -> CometGame:
    """The OpenSpiel game of the small Comet ``name`` with ``rulings`` (field -> reading) on top."""
    params: dict[str, bool | int | str] = {"small": name}
    defaults = pyspiel.load_game(SHORT_NAME).get_parameters()
    for field, text in (rulings or {}).items():
        if field not in RULING_FIELDS:
            raise ValueError(f"unknown ruling {field!r}; known: {', '.join(RULING_FIELDS)}")
        default = defaults[field]
        value: bool | int | str = text
        if isinstance(default, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError(f"ruling {field} takes true or false, not {text!r}")
            value = text.lower() == "true"
        elif isinstance(default, int):
            value = int(text)
        params[field] = value
    game = pyspiel.load_game(SHORT_NAME, params)
    assert isinstance(game, CometGame)
    return game


def game_size(game: CometGame) -> tuple[int, int]:
    """(histories, information sets of the players) of ``game``, by walking its whole tree."""
    histories = 0
    infosets: set[str] = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            infosets.add(state.information_state_string())
            actions = state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    return histories, len(infosets)


def checkpoints(iterations: int) -> list[int]:
    """The iterations after which the exploitability is measured: powers of two, and the last."""
    points = [1 << k for k in range(iterations.bit_length()) if 1 << k <= iterations]
    return sorted(set(points + [iterations]))


def solve(
    name: str,
    iterations: int,
    algorithm: str = "cfr",
    rulings: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Run ``algorithm`` (``cfr`` or ``cfr+``) for ``iterations`` on the small Comet ``name``."""
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    solvers = {"cfr": cfr.CFRSolver, "cfr+": cfr.CFRPlusSolver}
    if algorithm not in solvers:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(solvers)}")
    start = time.perf_counter()
    game = small_game(name, rulings)
    solver = solvers[algorithm](game)
    marks = set(checkpoints(iterations))
    curve: list[tuple[int, float]] = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            curve.append((i, float(exploitability.exploitability(game, solver.average_policy()))))
        if progress is not None:
            progress(i)
    policy = solver.average_policy()
    values = expected_game_score.policy_value(game.new_initial_state(), [policy] * game.num_players())
    histories, infosets = game_size(game)
    return Solution(
        name,
        algorithm,
        tuple(sorted((rulings or {}).items())),
        tuple(curve),
        tuple(float(v) for v in values),
        histories,
        infosets,
        time.perf_counter() - start,
    )


def report(solution: Solution) -> str:
    """The solution as text: the game, its size, the exploitability curve and each seat's value."""
    readings = ", ".join(f"{k}={v}" for k, v in solution.rulings) or "the preset's readings"
    lines = [
        SMALL[solution.small].summary(),
        f"rulings: {readings}",
        f"size: {solution.histories} histories, {solution.infosets} information sets",
        f"{solution.algorithm}, {solution.curve[-1][0]} iterations in {solution.seconds:.1f} s",
        "iteration  exploitability",
    ]
    lines += [f"{i:9d}  {e:.6f}" for i, e in solution.curve]
    lines.append(
        "equilibrium value (average policy, exploitability "
        f"{solution.exploitability:.4f}): " + "  ".join(f"seat {s} {v:+.4f}" for s, v in enumerate(solution.values))
    )
    return "\n".join(lines)


def parse_rulings(items: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        field, sep, value = item.partition("=")
        if not sep or not field or not value:
            raise ValueError(f"--ruling takes FIELD=READING (e.g. comet_lead=any_rank), not {item!r}")
        out[field.strip()] = value.strip()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m comet.frameworks.solve",
        description="Solve a small Comet (a research configuration, not from the sources) with OpenSpiel's CFR: "
        "print the exploitability of the average policy as it falls and each seat's equilibrium value.",
    )
    parser.add_argument("--small", default="tiny", choices=sorted(SMALL), help="the small Comet (default tiny)")
    parser.add_argument("--iterations", type=int, default=128, help="CFR iterations (default 128)")
    parser.add_argument(
        "--algorithm",
        default="cfr",
        choices=("cfr", "cfr+", "both"),
        help="the solver (default cfr); both runs CFR, then CFR+, and reports each",
    )
    parser.add_argument(
        "--curve",
        metavar="FILE",
        help="also draw the exploitability after each checked iteration as an SVG plot (log-log) into FILE",
    )
    parser.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="FIELD=READING",
        help="a reading on top of the preset's (repeatable), e.g. comet_lead=any_rank",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    algorithms = ["cfr", "cfr+"] if args.algorithm == "both" else [args.algorithm]
    solutions: list[Solution] = []
    try:
        rulings = parse_rulings(args.ruling)
        for algorithm in algorithms:
            if args.no_progress:
                solutions.append(solve(args.small, args.iterations, algorithm, rulings))
                continue
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), transient=True) as bar:
                task = bar.add_task(f"{algorithm} on {args.small}", total=args.iterations)
                solutions.append(solve(args.small, args.iterations, algorithm, rulings, _advance(bar, task)))
        if args.curve:
            write_curve(args.curve, solutions)
    except (ValueError, RecordError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("\n\n".join(report(s) for s in solutions))
    if args.curve:
        print(f"\nexploitability curve written to {args.curve}")
    return 0


#: How the plot names each algorithm.
LABELS = {"cfr": "CFR", "cfr+": "CFR+"}


def _advance(bar: Any, task: Any) -> Callable[[int], None]:
    """The progress callback that moves ``bar``'s ``task`` to the iteration done."""
    return lambda i: bar.update(task, completed=i)


def curve_title(solutions: Sequence[Solution]) -> str:
    s = solutions[0]
    readings = ", ".join(f"{k}={v}" for k, v in s.rulings)
    names = " and ".join(dict.fromkeys(LABELS[x.algorithm] for x in solutions))
    return f"OpenSpiel's {names} on the small Comet {s.small}" + (f" ({readings})" if readings else "")


def write_curve(path: str, solutions: Sequence[Solution]) -> None:
    """The exploitability curves of ``solutions`` as an SVG plot (``comet.frameworks.plot``) in ``path``."""
    from pathlib import Path

    from comet.frameworks.plot import curve_svg

    text = curve_svg([(LABELS[s.algorithm], s.curve) for s in solutions], curve_title(solutions))
    Path(path).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
