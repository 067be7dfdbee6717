"""Issue 20: no two rulings argue from the same premise to opposite defaults (``ruling_premises``).

RUL-COMET-LEAD allowed a led Comet although "no card is being replaced" while RUL-COMMIT-C-COMET forbade
one because "there is nothing to replace"; both now state their premise, and the check fails on such a pair.
"""

from __future__ import annotations

import dataclasses

from ruling_premises import check_premises, premises
from spec_checks import parse_files, parse_spec, spec_files

SECTIONS = parse_files(spec_files()).sections


def test_no_premise_leads_to_opposite_answers() -> None:
    """RUL-COMET-LEAD RUL-COMMIT-C-COMET-LEAD: both rulings on a led wild card argue from the same premise."""
    assert check_premises(SECTIONS) == []
    lead = {s.id: premises(s) for s in SECTIONS if s.id in ("RUL-COMET-LEAD", "RUL-COMMIT-C-COMET-LEAD")}
    assert {p[:3] for ps in lead.values() for p in ps} == {("nothing-to-replace", "wild-may-lead", "yes")}


def _ruling(rid: str, field: str, default: str, other: str, premise: str) -> str:
    return (
        f"### {rid}: Question?\n\n**Readings.**\n- `{field} = {default}` (default): one.\n"
        f"- `{field} = {other}`: two.\n\n{premise}\n"
    )


def test_opposite_answers_from_one_premise_are_reported() -> None:
    """The broken input of issue 20: the old RUL-COMMIT-C-COMET (no lead, nothing to replace) next to RUL-COMET-LEAD."""
    text = _ruling(
        "RUL-A",
        "comet_lead",
        '"king"',
        '"forbidden"',
        '**Premise.** nothing-to-replace => wild-may-lead = yes (`comet_lead = "king"`)',
    ) + _ruling(
        "RUL-B",
        "commit_comet_lead",
        '"last_resort"',
        '"king"',
        '**Premise.** nothing-to-replace => wild-may-lead = no (`commit_comet_lead = "last_resort"`)',
    )
    sections = parse_spec("spec/rulings-x.md", text).sections
    assert check_premises(sections) == [
        "premise nothing-to-replace leads to opposite answers to wild-may-lead: RUL-A says yes, RUL-B says no"
    ]
    # Different premises (the write-up says why the texts differ) pass.
    apart = text.replace("nothing-to-replace => wild-may-lead = no", "lead-forbidden-in-002-44 => wild-may-lead = no")
    assert check_premises(parse_spec("spec/rulings-x.md", apart).sections) == []


def test_a_premise_must_argue_for_the_default_and_be_well_formed() -> None:
    text = _ruling(
        "RUL-A", "comet_lead", '"king"', '"forbidden"', '**Premise.** p => q = no (`comet_lead = "forbidden"`)'
    )
    assert check_premises(parse_spec("spec/rulings-x.md", text).sections) == [
        'spec/rulings-x.md:1: RUL-A: premise p argues for `comet_lead = "forbidden"`, which is not its default'
    ]
    bad = _ruling("RUL-A", "comet_lead", '"king"', '"forbidden"', "**Premise.** p leads to q")
    (problem,) = check_premises(parse_spec("spec/rulings-x.md", bad).sections)
    assert "malformed premise" in problem
    stray = _ruling(
        "RUL-A", "comet_lead", '"king"', '"forbidden"', '**Premise.** p => q = yes (`comet_lead = "queen"`)'
    )
    (problem,) = check_premises(parse_spec("spec/rulings-x.md", stray).sections)
    assert "not a reading of it" in problem


def test_play_as_above_is_argued_one_way() -> None:
    """RUL-OLD-COURT-POINTS, RUL-OLD-MANILLE-LAST, RUL-OLD-CAUGHT-DOUBLE, RUL-OLD-ESCALATION, RUL-OLD-BONUS-LAST
    (issue 38): every ruling that argues from Old Comet's "Play as above" (000:85) names the premise
    play-as-above-is-about-play, and none reads it as carrying the standard payments over; the court cards'
    default rests on a premise of its own.  Had RUL-OLD-COURT-POINTS kept "everything it leaves unsaid is the
    standard game's" as a premise, the check would report it against the others."""
    by_id = {s.id: premises(s) for s in SECTIONS}
    about_play = {rid for rid, ps in by_id.items() for p in ps if p[0] == "play-as-above-is-about-play"}
    assert {"RUL-OLD-MANILLE-LAST", "RUL-OLD-CAUGHT-DOUBLE", "RUL-OLD-ESCALATION", "RUL-OLD-BONUS-LAST"} <= about_play
    assert all(p[0] != "play-as-above-is-about-play" for p in by_id["RUL-OLD-COURT-POINTS"])
    cited = {s.id for s in SECTIONS if s.kind == "ruling" and any('"Play as above' in t for t in s.body)}
    assert cited - about_play <= {"RUL-OLD-COURT-POINTS", "RUL-OLD-MANILLE-KING"}, cited - about_play
    # the old argument of RUL-OLD-COURT-POINTS, written as a premise, contradicts the others
    court = next(s for s in SECTIONS if s.id == "RUL-OLD-COURT-POINTS")
    planted = dataclasses.replace(
        court,
        body=(
            *court.body,
            '**Premise.** play-as-above-is-about-play => standard-payments-carry-over = yes (`old_court_points = "ten"`)',
        ),
    )
    problems = check_premises([s for s in SECTIONS if s.id != court.id] + [planted])
    assert len(problems) == 1 and "play-as-above-is-about-play leads to opposite answers" in problems[0]
    assert "RUL-OLD-COURT-POINTS says yes" in problems[0]
