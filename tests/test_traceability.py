"""Traceability gate: spec rule ids <-> ``@rule`` implementations <-> tests, and rulings <-> ``Ruleset``.

Generic over ``spec/rules*.md`` and ``spec/rulings*.md``.  The checks live in
``spec_checks`` as functions returning lists of problems; the second half of this
file feeds them deliberately broken input to show the gate can fail.
"""

from __future__ import annotations

import dataclasses

import pytest
from comet.presets import PRESETS
from comet.ruleset import RULING_FIELDS, Ruleset
from comet.trace import IMPLEMENTATIONS
from spec_checks import (
    check_fields_covered,
    check_implemented,
    check_readings,
    check_tested,
    gate_test_texts,
    import_all_comet_modules,
    parse_files,
    parse_spec,
    spec_files,
)

#: every module is imported (below), the fast engine's and the proofs' too: not a test of the bare install
NEEDS_EXTRAS = ("fast", "proofs", "study")
import_all_comet_modules()
SECTIONS = parse_files(spec_files()).sections


def _report(problems: list[str]) -> str:
    return "\n".join(problems)


def test_every_rule_is_implemented_and_every_implementation_is_specified() -> None:
    problems = check_implemented(SECTIONS, IMPLEMENTATIONS)
    assert not problems, _report(problems)


def test_every_rule_is_cited_by_a_test() -> None:
    problems = check_tested(SECTIONS, gate_test_texts())
    assert not problems, _report(problems)


def test_every_reading_names_a_field_and_the_default_matches_the_presets() -> None:
    problems = check_readings(SECTIONS)
    assert not problems, _report(problems)


def test_every_ruleset_field_is_selected_by_a_ruling() -> None:
    assert "variant" not in RULING_FIELDS
    problems = check_fields_covered(SECTIONS, RULING_FIELDS)
    assert not problems, _report(problems)


STANDARD_FIELDS = [
    "deal_sizes",
    "deal_order",
    "packs",
    "may_stop_early",
    "new_run",
    "quartet_on_lead",
    "comet_lead",
    "comet_as",
    "comet_requires_missing",
    "comet_bonus_last",
    "escalation",
    "comet_reset",
    "insolvency",
    "creditor_order",
    "starting_chips",
    "deal_count",
    "game_tie",
    "first_dealer_tie",
    "first_dealer_wild",
]


def test_every_standard_ruleset_field_is_selected_by_a_ruling_in_rulings_md() -> None:
    std = [s for s in SECTIONS if s.file == "spec/rulings.md"]
    problems = check_fields_covered(std, [f for f in STANDARD_FIELDS if f in RULING_FIELDS])
    assert not problems, _report(problems)


def test_standard_rule_ids_all_have_sections() -> None:
    """The ids used in the code for the standard game each have a section in spec/rules.md."""
    std = {s.id for s in SECTIONS if s.kind == "rule" and s.file == "spec/rules.md"}
    expected = set(
        [
            "R-PLAYERS",
            "R-PACK-BLACK",
            "R-PACK-RED",
            "R-PACK-ALTERNATE",
            "R-RANK-ORDER",
            "R-DEAL-DEALER",
            "R-DEAL-SIZES",
            "R-DEAL-ORDER",
            "R-DEAD-HAND",
            "R-LEAD-FIRST",
            "R-LEAD-ANY",
            "R-PLAY-HELD",
            "R-PLAY-CONTINUE",
            "R-PLAY-MUST",
            "R-NEW-RUN",
            "R-COMET-OPTIONAL",
            "R-TURN-END",
            "R-STOP-KING",
            "R-STOP-STUCK",
            "R-FOUR-OF-A-KIND",
            "R-THREE-NINES",
            "R-COMET-WILD",
            "R-COMET-STOP",
            "R-COMET-BONUS",
            "R-COMET-ESCALATE",
            "R-END-OUT",
            "R-SETTLE-POINTS",
            "R-SETTLE-CAUGHT",
            "R-SETTLE-COMET-LAST",
            "R-GAME-DEALS",
            "R-GAME-CHIPS",
            "R-GAME-WINNER",
        ]
    )
    assert expected <= std, sorted(expected - std)


# --------------------------------------------------------------------------- the gate can fail

_RULES = """\
### R-PLAY-MUST: If you can play, you must
**Implemented by.** `comet.engine.legal_actions`, `comet.engine.apply`
- 000:44 "If you can play, you must"
### R-NOWHERE: A rule nobody implemented
**Implemented by.** `comet.engine.nothing`
- 000:45 "the King ends a run"
"""

_RULINGS = """\
### RUL-X: Which reading?
**Question.** ?
**Sources.**
- 000:44 "If you can play, you must"
**Readings.**
- `may_stop_early = false` (default): must go on.
- `may_stop_early = "sometimes"`: not a reading.
- `no_such_field = 1`: not a field.
**Default and why.** x
**Example.** x
### RUL-Y: Two defaults and a wrong one?
**Applies to.** standard, nowhere
**Question.** ?
**Sources.**
- 000:22 "about 50 per player"
**Readings.**
- `starting_chips = 100` (default): wrong default.
- `starting_chips = 50` (default): a second default.
**Default and why.** x
**Example.** x
### RUL-Z: A default that differs from the preset?
**Question.** ?
**Sources.**
- 000:22 "about 50 per player"
**Readings.**
- `starting_chips = 100` (default): not the preset's 50.
**Default and why.** x
**Example.** x
"""


def test_gate_reports_missing_implementations_and_uncited_rules() -> None:
    sections = parse_spec("spec/rules-x.md", _RULES).sections
    impls = {"R-PLAY-MUST": ["comet.engine.legal_actions"], "R-ORPHAN": ["comet.engine.somewhere"]}
    assert check_implemented(sections, impls) == [
        "spec/rules-x.md:1: R-PLAY-MUST names comet.engine.apply, which is not marked @rule('R-PLAY-MUST');"
        " marked: comet.engine.legal_actions",
        "spec/rules-x.md:4: R-NOWHERE is implemented by no @rule('R-NOWHERE') function in model/",
        "@rule('R-ORPHAN') on comet.engine.somewhere has no '### R-ORPHAN: …' section in spec/rules*.md",
    ]
    tests = {"test_a.py": "def test_x() -> None:  # R-PLAY-MUST\n    pass\n", "test_b.py": "R-NOWHERE-ELSE"}
    assert check_tested(sections, tests) == [
        "spec/rules-x.md:4: R-NOWHERE is cited by no test in tests/ (name it in a test name, docstring or comment)"
    ]


def test_gate_reports_bad_readings_and_defaults() -> None:
    sections = parse_spec("spec/rulings-x.md", _RULINGS).sections
    problems = check_readings(sections)
    assert problems[0].startswith("spec/rulings-x.md:7: RUL-X: ruling 'may_stop_early' has no reading 'sometimes'")
    assert problems[1:] == [
        "spec/rulings-x.md:8: RUL-X names Ruleset field 'no_such_field', which does not exist",
        "spec/rulings-x.md:11: RUL-Y marks 2 readings (default); exactly one is required",
        "spec/rulings-x.md:26: RUL-Z: default starting_chips = 100, but preset 'standard' has 50",
    ]


def test_gate_reports_unknown_presets_and_uncovered_fields() -> None:
    text = _RULINGS.replace("- `starting_chips = 50` (default): a second default.\n", "")
    sections = parse_spec("spec/rulings-x.md", text).sections
    assert "spec/rulings-x.md:11: RUL-Y applies to unknown preset 'nowhere'" in check_readings(sections)
    fields = [f.name for f in dataclasses.fields(Ruleset) if f.name != "variant"]
    uncovered = check_fields_covered(sections, fields)
    assert "Ruleset field 'deal_sizes' is selected by no ruling in spec/rulings*.md" in uncovered
    assert not any("may_stop_early" in p or "starting_chips" in p for p in uncovered)


def test_presets_are_rulesets() -> None:
    # check_readings compares defaults against PRESETS[p].rules; make sure that is what they hold.
    assert all(isinstance(p.rules, Ruleset) for p in PRESETS.values())


def test_gate_catches_a_rule_whose_marker_is_removed_from_the_real_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant a bug: drop R-PLAY-MUST's @rule marker; the gate names the rule and where the spec defines it."""
    import comet.trace

    broken = {k: v for k, v in IMPLEMENTATIONS.items() if k != "R-PLAY-MUST"}
    monkeypatch.setattr(comet.trace, "IMPLEMENTATIONS", broken)
    problems = check_implemented(SECTIONS, comet.trace.IMPLEMENTATIONS)
    line = next(s.line for s in SECTIONS if s.id == "R-PLAY-MUST")
    assert problems == [
        f"spec/rules.md:{line}: R-PLAY-MUST is implemented by no @rule('R-PLAY-MUST') function in model/"
    ]


def test_gate_catches_a_rule_no_test_cites() -> None:
    """Plant a bug: remove every mention of R-THREE-NINES from the test texts."""
    texts = {k: v.replace("R-THREE-NINES", "R-XXX") for k, v in gate_test_texts().items()}
    problems = check_tested(SECTIONS, texts)
    assert [p.split(": ", 1)[1] for p in problems] == [
        "R-THREE-NINES is cited by no test in tests/ (name it in a test name, docstring or comment)"
    ]


_PRESET_READING = """\
### RUL-O: Is the Opera played?
**Applies to.** standard, opera (`opera = true`), two_player
**Question.** ?
**Sources.**
- 000:81 "Optional – agree before you start."
**Readings.**
- `opera = false` (default): no Opera.
- `opera = true`: Opera.
**Default and why.** x
**Example.** x
"""


def test_a_preset_that_is_a_reading_is_named_with_it_on_the_applies_to_line() -> None:
    """RUL-OPERA applies to the ``opera`` preset, which is its reading ``opera = true``: the line says so and
    the check holds the preset to that reading instead of the default.  Planted: the line naming the wrong
    reading, or the preset left bare, is reported."""
    ok = parse_spec("spec/rulings-x.md", _PRESET_READING).sections
    assert check_readings(ok) == []
    wrong = parse_spec("spec/rulings-x.md", _PRESET_READING.replace("(`opera = true`)", "(`opera = false`)"))
    assert check_readings(wrong.sections) == [
        "spec/rulings-x.md:1: RUL-O: Applies to says 'opera' has opera = false, but it has true"
    ]
    bare = parse_spec("spec/rulings-x.md", _PRESET_READING.replace(" (`opera = true`)", ""))
    assert check_readings(bare.sections) == [
        "spec/rulings-x.md:7: RUL-O: default opera = false, but preset 'opera' has true"
    ]
