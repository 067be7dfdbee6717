"""The player's command line (issue 35 item 7): `comet rules` and `comet rulings` print every name whole, on
a narrow terminal and through a pipe, with readings spelt as the defaults are; `comet game`'s standings add up
and say why the game ended (R-GAME-DEALS, R-GAME-WINNER, RUL-STARTING-CHIPS, RUL-INSOLVENCY)."""

from __future__ import annotations

import io
import re

import pytest
from comet.cli import main
from comet.commands.rules import (
    Row,
    default_spec_dir,
    format_blocks,
    print_listing,
    rule_list,
    rule_rows,
    ruling_list,
    ruling_rows,
)
from rich.console import Console


def _names(rows: list[Row]) -> list[str]:
    return [n for r in rows for n in (*r.names, *r.whole) if n]


def _listings() -> dict[str, tuple[list[Row], tuple[str, ...], tuple[str, ...], str | None]]:
    spec = default_spec_dir()
    return {
        "rules": (rule_rows(rule_list(spec)), ("rule",), ("cites", "implemented by"), "implemented by"),
        "rulings": (ruling_rows(ruling_list(spec)), ("field", "ruling"), ("readings", "defaults"), None),
    }


def _cut(out: str, names: list[str]) -> list[str]:
    """The names that do not appear whole on one line of ``out``."""
    return [n for n in names if not re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w.-])", out)]


@pytest.mark.parametrize("command", ["rules", "rulings"])
def test_piped_listing_prints_every_name_whole(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Through a pipe (not a terminal) the listing is the plain layout: no name cut at 80 columns."""
    assert main([command]) == 0
    out = capsys.readouterr().out
    rows = _listings()[command][0]
    assert not _cut(out, _names(rows)), f"names cut in the piped 'comet {command}': {_cut(out, _names(rows))[:5]}"


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
@pytest.mark.parametrize("command", ["rules", "rulings"])
def test_terminal_listing_keeps_names_whole_at_any_width(command: str, width: int) -> None:
    """On a terminal of any width: a table where it fits with every name whole, else wrapped blocks; either
    way each field, ruling id, rule id and implementing function appears whole, and no line is wider than the
    terminal unless a single name is."""
    rows, name_cols, cell_cols, whole_col = _listings()[command]
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=True, color_system=None, legacy_windows=False)
    title = {"rules": "title", "rulings": "question"}[command]
    print_listing(f"comet {command}", name_cols, title, cell_cols, rows, whole_col, console=console)
    out = buf.getvalue()
    cut = _cut(out, _names(rows))
    assert not cut, f"'comet {command}' at {width} columns cuts {len(cut)} names, e.g. {cut[:3]}"
    longest = max(len(n) for n in _names(rows)) + len("        ,")  # indented, a comma after
    wide = [line for line in out.splitlines() if len(line) > max(width, longest)]
    assert not wide, f"'comet {command}' at {width} columns prints lines wider than the terminal: {wide[:2]}"


def test_a_cut_name_is_caught() -> None:
    """The check above fails on a listing that shortens names (the slip the issue found: 'RUL-DEAL-SIZ…')."""
    rows = _listings()["rulings"][0]
    slipped = [Row((r.names[0][:12], r.names[1][:12]), r.text, r.cells) for r in rows]
    out = format_blocks(slipped)
    assert "RUL-DEAL-SIZES" in _cut(out, _names(rows))


def test_readings_are_spelt_as_the_defaults_are(capsys: pytest.CaptureFixture[str]) -> None:
    """RUL-MUST-CONTINUE: its readings print 'false', 'true' (as its defaults and rule-set files do), never
    Python's 'False, True'; each with its plain label."""
    assert main(["rulings"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("may_stop_early") :].split("\n\n")[0]
    assert "readings: false (" in block and ", true (" in block, block
    assert "defaults: old_comet: false" in block, block
    assert "False" not in out and "True" not in out


def _standings(out: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():
        if line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            rows[cells[0]] = cells[4:]
    return rows


def test_game_standings_add_up_and_explain_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    """`comet game --preset standard --seed 1`: the starting chips are a row of the table, so each column sums
    to its total; a total below nothing is named a debt (RUL-INSOLVENCY = debt); the game's end is explained
    (one round, R-GAME-DEALS); the winner is named."""
    assert main(["game", "--preset", "standard", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    rows = _standings(out)
    assert rows["start"] == ["50", "50", "50"], out
    deals = [k for k in rows if k.isdigit()]
    assert deals == ["1", "2", "3"], out
    totals = [int(t) for t in rows["total"]]
    for seat in range(3):
        assert 50 + sum(int(rows[d][seat]) for d in deals) == totals[seat], f"seat {seat} does not add up:\n{out}"
    flat = " ".join(out.split())
    assert "started with 50 chips (RUL-STARTING-CHIPS)" in flat
    for t in totals:
        if t < 0:
            assert f"ends at {t}: a debt of {-t} chips" in flat and "RUL-INSOLVENCY = debt" in flat, flat
    assert min(totals) < 0, "seed 1 was chosen for its debt; pick another seed with one"
    assert "ended after 3 deals: a game is one round, each of the 3 players dealing once (R-GAME-DEALS)" in flat
    assert "Winner: Anna with 132 chips." in flat


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (
            ["--preset", "two_player", "--seed", "1"],
            "reached the target of 121 points, which ends the game (R-2P-GAME)",
        ),
        (["--preset", "red_nines", "--seed", "1"], "(R-RED9-GAME)"),
        (["--seed", "1", "--deals", "6"], "ended after 6 deals, as many as asked for (--deals 6)"),
        (["--preset", "two_player", "--seed", "1", "--deals", "2"], "the most this run allows (--deals 2)"),
    ],
)
def test_game_says_why_it_ended(argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    """R-GAME-DEALS R-2P-GAME R-RED9-GAME: a target reached, the variant's length, the deals asked for, or a
    cap on deals before anyone reached the target; points games say they start at 0."""
    assert main(["game", *argv]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert reason in flat, flat
    if "two_player" in argv or "red_nines" in argv:
        assert "Everyone started at 0 points" in flat


@pytest.mark.parametrize(
    ("reading", "words"),
    [
        ("drop_out", "Carla ran out of chips and dropped out (RUL-INSOLVENCY = drop_out)"),
        ("pay_what_you_have", "Carla ends with no chips: a player who cannot pay in full pays what they have"),
    ],
)
def test_game_standings_add_up_under_every_insolvency_reading(
    reading: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """RUL-INSOLVENCY: whichever reading, each column sums to its total and a player left without chips is
    explained (seed 1: Carla cannot pay in full in the first deal)."""
    assert main(["game", "--seed", "1", "--deals", "9", "--ruling", f"insolvency={reading}"]) == 0
    out = capsys.readouterr().out
    rows = _standings(out)
    deals = [k for k in rows if k.isdigit()]
    for seat in range(3):
        total = int(rows["total"][seat])
        assert 50 + sum(int(rows[d][seat]) for d in deals) == total, f"seat {seat} does not add up:\n{out}"
    assert words in " ".join(out.split()), out
