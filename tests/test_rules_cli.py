"""`comet rules`, `comet rules show` and `comet rulings`, and TOML rule-set files (issue 9 item 5).

Checks the listing of R-PLAYERS (its citations and implementing function) and rule-set round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from comet.cli import main
from comet.presets import preset
from comet.records.rules_file import dumps_toml, load_rules_file, loads_toml, resolve
from comet.ruleset import RULING_FIELDS, RULING_OF
from extras_needed import unless_installed


def test_rules_json_lists_ids_citations_and_functions(capsys: pytest.CaptureFixture[str]) -> None:
    """R-PLAYERS is listed with its seed citations and comet.engine.check_players."""
    assert main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_id = {r["id"]: r for r in rows}
    r = by_id["R-PLAYERS"]
    assert "000:21" in r["citations"] and "comet.deal.check_players" in r["implemented_by"]
    assert all(r["implemented_by"] for r in rows), [r["id"] for r in rows if not r["implemented_by"]]


def test_rulings_json_lists_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulings", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["field"] for r in rows] == list(RULING_FIELDS)
    lead = next(r for r in rows if r["field"] == "comet_lead")
    assert lead["ruling"] == "RUL-COMET-LEAD" and lead["question"] and "standard" in lead["presets"]
    assert lead["defaults"]["standard"] == preset("standard").rules.comet_lead
    chips = next(r for r in rows if r["field"] == "starting_chips")
    assert chips["type"] == "integer" and chips["readings"] is None


def test_rules_show_toml_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "--preset", "standard", "--ruling", "comet_lead=forbidden", "--toml"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "house.toml"
    path.write_text(text)
    named = load_rules_file(path)
    assert named.preset == "standard" and named.rules == preset("standard").rules.with_overrides(
        {"comet_lead": "forbidden"}
    )
    for name in ("red_nines", "commit_hoyle", "old_comet"):
        rules = preset(name).rules
        assert loads_toml(dumps_toml(name, rules)).rules == rules
    assert all(f in RULING_OF for f in RULING_FIELDS if f in text.split("[rulings]")[1])


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("preset = ", "not TOML"),
        ('preset = "nonesuch"', "unknown preset"),
        ('preset = "standard"\n[rulings]\nno_such = 1', "unknown ruling"),
        ('preset = "standard"\n[rulings]\ncomet_lead = "sometimes"', "no reading"),
        ('preset = "commit_cats"\n[rulings]\nopera = true', "does not apply"),
        ('preset = "standard"\nextra = 1', "unknown key"),
    ],
)
def test_bad_rule_set_files_give_one_line(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as e:
        load_rules_file(path)
    assert needle in str(e.value) and "\n" not in str(e.value) and str(path) in str(e.value)


def test_resolve_errors_and_cli_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="neither a preset"):
        resolve("nonesuch")
    assert main(["rules", "show", "--preset", "standard", "--ruling", "bogus=1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [["rulings", "--help"], ["rules", "show", "--help"], pytest.param(["diverge", "--help"], marks=unless_installed("numpy"))],
)
def test_listing_commands_have_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "usage:" in out and out.count("--") >= 2
