"""The small Comets (``comet.small``): research configurations that OpenSpiel's CFR solves in seconds.

They are data on the one engine (a preset's rules, a reduced pack, a hand size), so every rule they play is
the preset's: R-DEAL-ORDER, R-DEAD-HAND, R-STOP-KING, R-STOP-STUCK, R-COMET-WILD, R-END-OUT, R-SETTLE-POINTS.
The OpenSpiel half is skipped without the ``openspiel`` extra unless ``COMET_REQUIRE_EXTRAS`` or ``CI`` is set.
"""

from __future__ import annotations

import itertools
import os
import random
import re
from pathlib import Path

import pytest
from comet import engine
from comet.cards import KING, rank_of
from comet.errors import RecordError
from comet.frameworks.chance import seeded_deal
from comet.frameworks.table import make_table, table_from_params
from comet.frameworks.utilities import utilities
from comet.presets import preset
from comet.small import SMALL, small, small_deal

SPEC = Path(__file__).resolve().parent.parent / "spec" / "frameworks.md"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_pack_is_part_of_the_presets_pack(name: str) -> None:
    """R-DEAD-HAND, R-STOP-KING, R-COMET-WILD: the reduced pack is cards of the preset's own pack, keeps its
    wild card and the King (the stop), and leaves a dead hand (so a run can stick)."""
    config = small(name)
    pack = config.pack()
    base = engine.packs_in_rotation(config.rules, config.players)[0]
    assert set(pack.cards) <= set(base.cards)
    assert pack.wild == base.wild and set(pack.wild) <= set(pack.cards)
    assert any(rank_of(c) == KING for c in pack.cards)
    assert config.dead_size > 0
    assert config.rules == preset(config.preset).rules


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_deals_play_to_the_end_under_the_engine(name: str) -> None:
    """R-END-OUT, R-DEAL-ORDER: random deals end within the step bound, zero-sum; the framework table deals the
    same cards as ``small_deal``."""
    table = make_table(small_name=name)
    for seed in range(40):
        state = small_deal(name, seed)
        assert state == seeded_deal(table, seed)
        assert [len(h) for h in state.hands] == [table.hand_size] * table.players
        rng = random.Random(seed)
        steps = 0
        while not state.terminal:
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            steps += 1
        assert steps <= engine.step_bound(small_deal(name, seed))
        assert abs(sum(utilities(state))) < 1e-9


def test_small_refuses_a_conflicting_preset_or_player_count() -> None:
    with pytest.raises(ValueError, match="leave preset and players out"):
        make_table("opera", small_name="tiny")
    with pytest.raises(ValueError, match="leave preset and players out"):
        table_from_params({"small": "tiny", "players": 3})
    with pytest.raises(RecordError, match="unknown small Comet 'huge'"):
        table_from_params({"small": "huge"})
    with pytest.raises(ValueError, match="takes a name"):
        table_from_params({"small": 3})


# --------------------------------------------------------------------- OpenSpiel's CFR on it

if os.environ.get("COMET_REQUIRE_EXTRAS") or os.environ.get("CI"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")


def assert_converges(curve: tuple[tuple[int, float], ...]) -> None:
    """CFR's average policy gets less exploitable: every checkpoint below the first, the last below half of it."""
    first = curve[0][1]
    rising = [(i, e) for i, e in curve[1:] if e >= first]
    assert not rising, f"exploitability did not fall from {first:.4f} at iteration 1: {rising}"
    assert curve[-1][1] < first / 2, f"exploitability {curve[-1][1]:.4f} after {curve[-1][0]} is not half of {first}"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_cfr_exploitability_falls(name: str) -> None:
    from comet.frameworks.solve import solve

    solution = solve(name, 8)
    assert [i for i, _ in solution.curve] == [1, 2, 4, 8]
    assert_converges(solution.curve)
    assert abs(sum(solution.values)) < 1e-6  # zero-sum


def test_a_solver_that_does_not_learn_is_caught() -> None:
    """The planted bug: the uniform policy's exploitability, the same at every checkpoint."""
    from comet.frameworks.solve import small_game
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = small_game("tiny")
    flat = float(exploitability.exploitability(game, policy.UniformRandomPolicy(game)))
    with pytest.raises(AssertionError, match="did not fall"):
        assert_converges(((1, flat), (2, flat), (4, flat)))


def test_cfr_plus_and_a_ruling_on_top() -> None:
    """RUL-COMET-LEAD read on the small game: CFR+ converges under either reading."""
    from comet.frameworks.solve import solve

    solution = solve("tiny", 4, "cfr+", {"comet_lead": "any_rank"})
    assert solution.rulings == (("comet_lead", "any_rank"),)
    assert_converges(solution.curve)


def test_random_sim_test_passes_on_the_small_game() -> None:
    from comet.frameworks.solve import small_game

    for name in SMALL:
        pyspiel.random_sim_test(small_game(name), num_sims=20, serialize=True, verbose=False)


def test_documented_sizes_are_the_games() -> None:
    """spec/frameworks.md's table of sizes is what walking each game's tree counts."""
    from comet.frameworks.solve import game_size, small_game

    text = SPEC.read_text(encoding="utf-8")
    for name in SMALL:
        row = re.search(rf"^\| `{name}` \|.*\| ([\d,]+) \| ([\d,]+) \|", text, re.M)
        assert row, f"spec/frameworks.md has no size row for {name}"
        documented = tuple(int(x.replace(",", "")) for x in row.groups())
        assert documented == game_size(small_game(name)), f"{name}: spec/frameworks.md says {documented}"


def test_solve_command_prints_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    from comet.frameworks.solve import main

    assert main(["--small", "tiny_two_player", "--iterations", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "equilibrium value" in out and "seat 0" in out
    assert main(["--ruling", "comet_lead"]) == 2
    assert "FIELD=READING" in capsys.readouterr().err


def plotted_curves(svg: str) -> dict[str, list[tuple[float, float]]]:
    """The (x, y) points of each curve drawn in an SVG written by ``comet.frameworks.plot`` (y grows downwards)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    out: dict[str, list[tuple[float, float]]] = {}
    for line in root.iter("{http://www.w3.org/2000/svg}polyline"):
        if line.get("class") == "curve":
            pairs = [p.split(",") for p in (line.get("points") or "").split()]
            out[line.get("data-label") or ""] = [(float(x), float(y)) for x, y in pairs]
    return out


def assert_plot_falls(curves: dict[str, list[tuple[float, float]]]) -> None:
    """Each drawn curve goes right and (exploitability falling) down the page: y grows at every point."""
    for label, points in curves.items():
        assert [x for x, _ in points] == sorted(x for x, _ in points), f"{label}: iterations out of order"
        climbs = [b for a, b in itertools.pairwise(points) if b[1] <= a[1]]
        assert not climbs, f"{label}: the plotted exploitability does not fall at {climbs}"


def test_the_curve_command_plots_a_falling_exploitability(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec/frameworks.md's research example on a few iterations: CFR and CFR+ on tiny, their curves in an SVG
    whose lines fall (the plot is the solver's curve: one point per checked iteration)."""
    from comet.frameworks.solve import main

    out = tmp_path / "curve.svg"
    assert (
        main(["--small", "tiny", "--algorithm", "both", "--iterations", "4", "--no-progress", "--curve", str(out)]) == 0
    )
    text = capsys.readouterr().out
    assert text.count("equilibrium value") == 2 and "cfr+, 4 iterations" in text
    curves = plotted_curves(out.read_text(encoding="utf-8"))
    assert sorted(curves) == ["CFR", "CFR+"] and all(len(points) == 3 for points in curves.values())
    assert_plot_falls(curves)
    assert main(["--iterations", "1", "--no-progress", "--curve", str(tmp_path / "no" / "such" / "dir.svg")]) == 2
    assert "error:" in capsys.readouterr().err


def test_a_plot_of_a_solver_that_does_not_learn_is_caught() -> None:
    """The planted bug: a flat curve (the uniform policy at every checkpoint) is drawn flat, and caught."""
    from comet.frameworks.plot import curve_svg

    flat = curve_svg([("CFR", [(1, 9.0), (2, 9.0), (4, 9.0)])], "flat")
    with pytest.raises(AssertionError, match="does not fall"):
        assert_plot_falls(plotted_curves(flat))


def test_the_committed_curve_is_a_solver_run() -> None:
    """spec/cfr-tiny.svg, the plot spec/frameworks.md shows, has both curves, falling, from iteration 1 to 256."""
    curves = plotted_curves((SPEC.parent / "cfr-tiny.svg").read_text(encoding="utf-8"))
    assert sorted(curves) == ["CFR", "CFR+"]
    assert all(len(points) == 9 for points in curves.values())  # 1, 2, 4, ..., 256
    assert_plot_falls(curves)


def test_pettingzoo_plays_the_small_game() -> None:
    """The AEC environment takes ``small`` and deals its pack (R-DEAL-ORDER)."""
    zoo = pytest.importorskip("comet.frameworks.pettingzoo")
    from pettingzoo.test import api_test

    e = zoo.env(small="tiny")
    api_test(e, num_cycles=20)
    e.reset(seed=5)
    assert e.state == small_deal("tiny", 5)


def walk_returns(game: object) -> tuple[float, float, int]:
    """(least, most) return of any seat over every terminal history of an OpenSpiel game, and the most
    chance nodes on one history."""
    low, high, most_chance = 0.0, 0.0, 0
    stack = [(game.new_initial_state(), 0)]  # type: ignore[attr-defined]
    while stack:
        state, chance = stack.pop()
        if state.is_terminal():
            low, high = min(low, *state.returns()), max(high, *state.returns())
            most_chance = max(most_chance, chance)
        elif state.is_chance_node():
            stack.extend((state.child(a), chance + 1) for a, _ in state.chance_outcomes())
        else:
            stack.extend((state.child(a), chance) for a in state.legal_actions())
    return low, high, most_chance


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_utilities_are_exact(name: str) -> None:
    """R-SETTLE-POINTS: MinUtility/MaxUtility of a small Comet are the least and most any history returns,
    and MaxChanceNodesInHistory the chance nodes of a history (one per card dealt)."""
    from comet.frameworks.solve import small_game

    game = small_game(name)
    low, high, chance = walk_returns(game)
    assert (game.min_utility(), game.max_utility()) == (low, high)
    assert game.max_chance_nodes_in_history() == chance == small(name).players * small(name).hand_size


def test_a_wrong_exact_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: an exact range that halves the true one no longer matches the walked histories."""
    import comet.frameworks.utilities as utilities_module
    from comet.frameworks.solve import small_game

    true_range = utilities_module.exact_utility_range
    monkeypatch.setattr(utilities_module, "exact_utility_range", lambda t: tuple(x / 2 for x in true_range(t)))
    utilities_module.utility_bounds.cache_clear()
    try:
        game = small_game("tiny")
        low, high, _ = walk_returns(game)
        assert (game.min_utility(), game.max_utility()) != (low, high)
    finally:
        utilities_module.utility_bounds.cache_clear()


EQUILIBRIUM = SPEC.parent / "equilibrium.md"


def test_the_fingerprint_sees_a_change_of_returns_only() -> None:
    """RUL-COMET-BONUS-LAST (R-COMET-BONUS) changes only what is paid, never a legal action: the game
    fingerprint still tells it apart; RUL-PACKS (which pack a deal uses) cannot change a small Comet's
    fixed pack: the same game.  A planted fingerprint without the returns misses the first."""
    import comet.frameworks.ruling_values as rv
    from comet.frameworks.solve import small_game

    base = rv.fingerprint(small_game("tiny"))
    assert rv.fingerprint(small_game("tiny", {"comet_bonus_last": "plain"})) != base
    assert rv.fingerprint(small_game("tiny", {"packs": "black_only"})) == base


def test_a_fingerprint_without_returns_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import comet.frameworks.ruling_values as rv
    from comet.frameworks.openspiel import CometState
    from comet.frameworks.solve import small_game

    monkeypatch.setattr(CometState, "returns", lambda self: [0.0] * self.table.players)
    same = rv.fingerprint(small_game("tiny", {"comet_bonus_last": "plain"})) == rv.fingerprint(small_game("tiny"))
    assert same  # with the returns hidden the two games look alike: the check above would fail


def test_equilibrium_page_rows_are_reproduced() -> None:
    """spec/equilibrium.md: a solved row (RUL-COMET-BONUS-LAST = plain on tiny) is what solving gives again
    with the page's iterations, and every row marked "same" is the same game."""
    import comet.frameworks.ruling_values as rv
    from comet.frameworks.solve import small_game, solve

    text = EQUILIBRIUM.read_text(encoding="utf-8")
    header = re.search(r"--iterations (\d+)", text)
    assert header, "spec/equilibrium.md names no --iterations"
    iterations = int(header.group(1))
    tiny = text.split("## tiny\n")[1].split("## ")[0]
    row = re.search(r"\| `comet_bonus_last` \| plain \(multiplied\) \| differs \| ([+-][\d.]+) \|", tiny)
    assert row, "spec/equilibrium.md has no solved row for comet_bonus_last on tiny"
    value = solve("tiny", iterations, "cfr", {"comet_bonus_last": "plain"}).values[0]
    assert f"{value:+.3f}" == row.group(1)
    base = rv.fingerprint(small_game("tiny"))
    for field, reading in re.findall(r"\| `(\w+)` \| (\w+) \(\w+\) \| same \|", tiny):
        assert rv.fingerprint(small_game("tiny", {field: reading})) == base, f"{field}={reading} is not the same game"
