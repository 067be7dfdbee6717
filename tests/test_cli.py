"""The command line as a user meets it: help on every command, one-line errors, deal and game output."""

from __future__ import annotations

import pytest
from comet.cli import COMMANDS, main
from comet.presets import PRESETS


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: comet {command}") and len(out.splitlines()) > 3


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["deal", "--players", "9"], "[players]"),
        (["deal", "--ruling", "comet_lead=bogus"], "comet_lead"),
        (["deal", "--ruling", "nosuchfield=1"], "nosuchfield"),
        (["deal", "--preset", "nosuch"], "[variant]"),
        (["deal", "--players", "abc"], "invalid int value"),
        (["game", "--deals", "4"], "multiple"),
        (["nosuchcommand"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """R-PLAYERS R-GAME-DEALS: bad input gives one plain line on stderr and exit code 2, no traceback."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err


def test_deal_narrates_in_the_sources_words(capsys: pytest.CaptureFixture[str]) -> None:
    """R-TURN-END R-END-OUT: 'comet deal' narrates turns ('without', 'pass') and the settlement."""
    assert main(["deal", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "without" in out and "out!" in out and "Net for the deal" in out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_deals_and_plays_a_game(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """R-GAME-WINNER: every preset plays a narrated deal and a whole game with standings."""
    assert main(["deal", "--preset", name, "--seed", "2"]) == 0
    assert main(["game", "--preset", name, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Winner" in out
