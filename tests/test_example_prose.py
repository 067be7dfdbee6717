"""Worked examples that can happen (issue 38): an Example that says it is rendered from its record holds the
sentence ``example_prose.render`` makes from the replayed record, word for word.

Rules exercised: RUL-OPERA-STACK, RUL-OPERA-CAUGHT, RUL-OLD-OPERA-CAUGHT (R-OPERA-DOUBLE, R-SETTLE-CAUGHT,
R-OLD-MANILLE-CAUGHT), whose earlier prose described hands of two to four cards in an Opera, where every
hand is still full.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from example_prose import EXAMPLES, MARK, prose_problems, render
from spec_checks import parse_files, spec_files

SECTIONS = {s.id: s for s in parse_files(spec_files()).sections if s.kind == "ruling"}
#: The examples whose prose is rendered from the record; any other Example that carries the mark joins them.
RENDERED = ("RUL-OPERA-STACK", "RUL-OPERA-CAUGHT", "RUL-OLD-OPERA-CAUGHT")


def _data(rid: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{rid}.json").read_text(encoding="utf-8"))
    return data


def marked() -> list[str]:
    return sorted(rid for rid, s in SECTIONS.items() if any(MARK in line for line in s.body) or rid in RENDERED)


@pytest.mark.parametrize("rid", marked())
def test_rendered_example_prose_matches_the_replayed_record(rid: str) -> None:
    """The Example's hands, plays and chip figures are those of its record replayed under each reading."""
    assert prose_problems(rid, SECTIONS[rid].body, _data(rid)) == []


def test_prose_with_other_figures_is_reported() -> None:
    """A planted fault: prose that keeps the old, impossible figures (Ben pays 92, Carla 20) is reported
    with the sentence the record tells."""
    body = [line.replace("292", "92") for line in SECTIONS["RUL-OPERA-CAUGHT"].body]
    (problem,) = prose_problems("RUL-OPERA-CAUGHT", body, _data("RUL-OPERA-CAUGHT"))
    assert "differs from its record" in problem and "Ben loses 292" in problem


def test_a_record_changed_under_the_prose_is_reported() -> None:
    """A planted fault: the record's hands swapped between Ben and Carla (the manille now Carla's) no longer
    match the prose; a record that stops before the end is reported as such."""
    data = _data("RUL-OLD-OPERA-CAUGHT")
    hands = data["record"]["hands"]
    data["record"]["hands"] = [hands[0], hands[2], hands[1]]
    (problem,) = prose_problems("RUL-OLD-OPERA-CAUGHT", SECTIONS["RUL-OLD-OPERA-CAUGHT"].body, data)
    assert "Carla still holds all 12 cards" in problem and "and the manille" in problem
    data = _data("RUL-OPERA-STACK")
    data["record"]["actions"] = data["record"]["actions"][:-1]
    (problem,) = prose_problems("RUL-OPERA-STACK", SECTIONS["RUL-OPERA-STACK"].body, data)
    assert "does not play to the end" in problem


def test_render_names_every_reading() -> None:
    """The rendered sentence states each reading's figures, so two readings cannot be described as one."""
    text = render(_data("RUL-OPERA-STACK"))
    assert '`opera_stack = "multiply"`' in text and '`opera_stack = "highest"`' in text
