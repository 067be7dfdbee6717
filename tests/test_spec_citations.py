"""The spec's citations resolve and its sections are well formed (DESIGN.md, "Conventions checked by tests").

Covers every ``spec/*.md`` for citations and every ``spec/rules*.md`` / ``spec/rulings*.md``
for structure, so the variants' files are checked the moment they appear.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from spec_checks import (
    SPEC_DIR,
    Citation,
    check_citation,
    check_citations,
    check_structure,
    citations_in_text,
    load_seeds,
    parse_files,
    parse_spec,
    spec_files,
)

SEEDS = load_seeds()


def _report(problems: list[str]) -> str:
    return "\n".join(problems)


def test_the_standard_spec_files_exist() -> None:
    names = {p.name for p in spec_files()}
    assert {"rules.md", "rulings.md"} <= names, names


def test_seeds_load_with_their_last_unterminated_line() -> None:
    # seeds/README.md: 000 and 003 have 86 lines, 002 has 91; none ends with a newline.
    assert {k: len(v) for k, v in SEEDS.items()} == {"000": 86, "002": 91, "003": 86}


@pytest.mark.parametrize("path", sorted(SPEC_DIR.glob("*.md")), ids=lambda p: p.name)
def test_every_citation_resolves(path: Path) -> None:
    cites, problems = citations_in_text(f"spec/{path.name}", path.read_text(encoding="utf-8"))
    for c in cites:
        problems += tuple(check_citation(c, SEEDS))
    assert not problems, _report(list(problems))


def test_headings_and_lines_are_well_formed() -> None:
    parsed = parse_files(spec_files())
    assert not parsed.problems, _report(list(parsed.problems))


def test_sections_are_unique_cited_and_complete() -> None:
    parsed = parse_files(spec_files())
    assert parsed.sections
    assert not check_structure(parsed.sections), _report(check_structure(parsed.sections))


# --------------------------------------------------------------------------- the gate can fail


def test_gate_reports_a_wrong_quote_a_wrong_line_and_an_unknown_seed() -> None:
    good = Citation("spec/x.md", 3, "000", 44, 44, "If you can play, you must")
    assert check_citation(good, SEEDS) == []
    wrong_quote = Citation("spec/x.md", 4, "000", 44, 44, "If you can play, you may")
    wrong_line = Citation("spec/x.md", 5, "000", 45, 45, "If you can play, you must")
    past_end = Citation("spec/x.md", 6, "002", 90, 92, "Copyright")
    no_seed = Citation("spec/x.md", 7, "001", 1, 1, "Comet")
    problems = check_citations(parse_spec("spec/rules-x.md", "").sections, SEEDS) + [
        p for c in (wrong_quote, wrong_line, past_end, no_seed) for p in check_citation(c, SEEDS)
    ]
    assert problems == [
        'spec/x.md:4: quote "If you can play, you may" does not occur in 000:44',
        'spec/x.md:5: quote "If you can play, you must" does not occur in 000:45',
        "spec/x.md:6: 002:90-92 is outside seed 002, which has lines 1-91",
        "spec/x.md:7: no seed 001 in seeds/ (known: 000, 002, 003)",
    ]


def test_quotes_match_across_line_breaks_after_normalising_whitespace() -> None:
    ok = Citation("spec/x.md", 1, "002", 90, 91, "Copyright © 2015   CatsAtCards.com.  All rights reserved.")
    assert check_citation(ok, SEEDS) == []
    one_line_only = Citation("spec/x.md", 1, "002", 90, 90, "Copyright © 2015 CatsAtCards.com. All rights reserved.")
    assert check_citation(one_line_only, SEEDS)


def test_gate_reports_bad_headings_lines_and_missing_parts() -> None:
    rules = "\n".join(
        [
            "# Rules",
            "### R-GOOD: A rule",
            "**Implemented by.** `comet.engine.legal_actions`",
            '- 000:44 "If you can play, you must"',
            "### R-bad lower case",
            "### R-GOOD: The same id again",
            "**Implemented by.** `comet.engine.apply`",
            "- 000:44 If you can play (no quotes)",
            "### R-NOCODE: No implementation line",
            '- 000:45 "the King ends a run"',
        ]
    )
    parsed = parse_spec("spec/rules-x.md", rules)
    assert parsed.problems == (
        "spec/rules-x.md:5: malformed heading (want ### R-ID: Title): ### R-bad lower case",
        'spec/rules-x.md:8: malformed citation (want - NNN:L "quote" or - NNN:L-M "quote"): - 000:44 If you can play (no quotes)',
    )
    assert check_structure(parsed.sections) == [
        "spec/rules-x.md:6: id R-GOOD is used twice (first at spec/rules-x.md:2)",
        "spec/rules-x.md:6: R-GOOD cites no seed passage",
        "spec/rules-x.md:9: R-NOCODE has no '**Implemented by.** `comet.module.function`' line",
    ]
    rulings = "\n".join(
        [
            "### RUL-NO-QUESTION-MARK: A statement",
            "### RUL-THIN: Is this ruling complete?",
            "**Question.** Is it?",
            '- 000:44 "If you can play, you must"',
            "- `may_stop_early = false`: no default marked",
            "- `may_stop_early=true` malformed",
        ]
    )
    parsed = parse_spec("spec/rulings-x.md", rulings)
    assert parsed.problems == (
        "spec/rulings-x.md:1: malformed heading (want ### RUL-ID: Question?): ### RUL-NO-QUESTION-MARK: A statement",
    )
    assert check_structure(parsed.sections) == [
        "spec/rulings-x.md:2: RUL-THIN lacks the part **Sources.**",
        "spec/rulings-x.md:2: RUL-THIN lacks the part **Readings.**",
        "spec/rulings-x.md:2: RUL-THIN lacks the part **Default and why.**",
        "spec/rulings-x.md:2: RUL-THIN lacks the part **Example.**",
    ]
