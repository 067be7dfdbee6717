"""Issue 35: the site for players and historians.  How to play is the spec's own statements (each linked to
its rule, no code in it); the player's rulebook carries no implementation detail; the glossary points at
rules that exist; a preset page lists only its own game's rules (R-OLD-*, not the two-player game's); the
000 | 003 table marks the lines the comparison lists; Commit has a 000 | 002 view; the rulings index
answers each ruling in a line; the search index holds no link targets."""

from __future__ import annotations

import json
import re
from pathlib import Path

from comet.site.pages_players import GLOSSARY
from comet.site.pages_sources import differences
from comet.site.plain import reading_labels, short, statement
from comet.site.sources import RULE_FILES, RULING_FILES, Section, read_spec
from comet.site.summary import detail_words, measured, origin_words

ROOT = Path(__file__).resolve().parents[1]
CODE_MARKS = ("comet.", "Ruleset", "@rule", "test_", "<code>")


def _text(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def _main(page: str) -> str:
    return page.split('<main id="main" tabindex="-1">', 1)[1].split("</main>", 1)[0]


def test_how_to_play_says_each_rule_once_with_its_id_and_no_code(built_site: Path) -> None:
    """R-PLAY-MUST, R-COMET-BONUS and the rest: each step of how-to-play.html links its rule and holds no code."""
    page = _main(_text(built_site, "how-to-play.html"))
    steps = re.findall(r"<li>(.*?)</li>", page.split('<ul class="steps">', 1)[1], flags=re.S)
    assert len(steps) > 25
    for s in steps:
        if 'class="rule-ref"' in s:
            assert re.search(r'href="rules\.html#R-[A-Z0-9-]+"', s), s
    shown = re.sub(r'href="[^"]*"', "", page)  # a link's target (how-to-play/old_comet.html) is not shown
    assert not [m for m in CODE_MARKS if m in shown], "how to play names code"
    assert "collects its current value" in page  # R-COMET-BONUS without its `Payment` clause
    assert 'class="hand"' in page  # the worked deal is drawn as cards


def test_a_statement_keeps_the_rule_and_drops_the_code() -> None:
    rules = {s.id: s for f in read_spec(ROOT / "spec", RULE_FILES) for s in f.sections}
    bonus = statement(rules["R-COMET-BONUS"])
    assert bonus.startswith("Whoever plays the Comet collects") and "`" not in bonus
    planted = Section("R-X", "t", "rules.md", "1. c", ("A rule in words. The model stores it as `x`.", ""))
    assert statement(planted) == "A rule in words."


def test_the_players_rulebook_holds_no_implementation_detail(built_site: Path) -> None:
    page = _main(_text(built_site, "rules.html"))
    assert "Implemented by" not in page and "R-REC-" not in page and "rank * 4" not in page
    assert 'id="R-REC-PAYMENTS"' in _text(built_site, "dev/contract.html")
    assert re.search(r"comet\.(engine|legal)\.legal_actions", _text(built_site, "implementers.html"))


def test_every_glossary_entry_points_at_rules_that_exist() -> None:
    ids = {s.id for f in read_spec(ROOT / "spec", RULE_FILES) for s in f.sections}
    missing = [(w, i) for w, _, refs in GLOSSARY for i in refs if i not in ids]
    assert missing == []
    words = {w.split()[0].lower() for w, _, _ in GLOSSARY}
    assert {"run", "stop", "without", "dead", "natural", "caught", "manille"} <= words


def test_a_preset_page_lists_only_its_own_games_rules(built_site: Path) -> None:
    std = _text(built_site, "preset/standard.html")
    assert "Its own rules" not in std and "R-2P-DEAL" not in std and "R-OLD-DEAL" not in std
    old = _text(built_site, "preset/old_comet.html")
    own = re.search(r"Its own rules:</p><ul>(.*?)</ul>", old, flags=re.S)
    assert own is not None
    ids = re.findall(r">(R-[A-Z0-9-]+)</a>", own.group(1))
    assert ids and all(i.startswith("R-OLD-") for i in ids), ids


def test_the_000_003_table_marks_the_lines_the_comparison_lists(built_site: Path) -> None:
    listed = differences(ROOT / "seeds" / "comparison-000-003.md")
    assert 1 in listed and 3 in listed and 2 not in listed
    page = _text(built_site, "seeds/000-003.html")
    marked = {int(n) for n in re.findall(r'<tr class="differs"><th scope="row">(\d+)</th>', page)}
    assert marked == set(listed)


def test_commit_has_a_000_002_view(built_site: Path) -> None:
    page = _text(built_site, "seeds/commit-000-002.html")
    assert "000:86" in page and "002:32" in page and "002:45" in page
    assert 'href="commit-000-002.html"' in _text(built_site, "seeds/index.html")


def test_the_rulings_index_answers_each_ruling_in_a_line(built_site: Path) -> None:
    page = _main(_text(built_site, "rulings.html"))
    rulings = [s for f in read_spec(ROOT / "spec", RULING_FILES) for s in f.sections]
    items = re.findall(r'<ul class="rulings">(.*?)</ul>', page, flags=re.S)
    lines = [li for block in items for li in re.findall(r"<li>(.*?)</li>", block, flags=re.S)]
    assert len(lines) == len(rulings)
    answered = [li for li in lines if 'class="answer"' in li]
    assert len(answered) >= len(rulings) - 5  # a ruling without a "Default and why" has no one-line answer
    assert "comet.ruleset.Ruleset" not in page and "grep" not in page
    assert page.index('<ul class="rulings">') < 3000  # the first ruling is near the top, not screens down


def test_readings_have_plain_labels() -> None:
    labels = reading_labels(read_spec(ROOT / "spec", RULING_FILES))
    assert labels[("comet_as", json.dumps("needed_rank"))] == "on a run the Comet stands for the rank the run needs"
    assert short("x" * 200).endswith("…") and len(short("word " * 50)) <= 90


def test_the_first_difference_and_the_origin_read_as_words() -> None:
    assert detail_words("'pass': B allows it, A does not") == (
        "the move “pass” is allowed under reading B and not under reading A"
    )
    assert detail_words("deal 3 net chips: A [1, 39, 0], B [0, 38, 0]") == (
        "deal 3 net chips: A (Anna +1, Ben +39, Carla +0), B (Anna +0, Ben +38, Carla +0)"
    )
    assert "[" not in detail_words("A: winners [0, 4]; B: deal 6 net chips [0, 0, 0, 0, 46]")
    assert "Z3 solver" in origin_words("Z3, 2 players, every deal")


def test_how_much_a_ruling_matters_is_read_from_the_report_and_a_missing_one_is_no_error(tmp_path: Path) -> None:
    got = measured(ROOT / "spec" / "divergence" / "README.md")
    assert got and all(m.matters <= m.total for m in got.values())
    assert measured(tmp_path / "nothing.md") == {}
    (tmp_path / "r.md").write_text("| [RUL-A](#a) | p | `x = y` | 2 | w | pimc, 5 deals: matters: z |\n", "utf-8")
    assert measured(tmp_path / "r.md")["RUL-A"].words().startswith("matters in 1 of 1")


def test_the_search_index_holds_no_link_targets(built_site: Path) -> None:
    text = _text(built_site, "assets/search-index.js")
    index = json.loads(text.split("=", 1)[1].strip().rstrip(";"))
    bad = [e["id"] for e in index if "](" in e["text"] or re.search(r"\]\s*\(#", e["text"])]
    assert bad == []
    assert any("R-PLAY-MUST" in e["id"] for e in index)


def verdict_words_missing(glossary_page: str) -> list[str]:
    """The verdict phrases (``comet.diverge.glossary``) the site's glossary page does not define."""
    from comet.diverge.glossary import GLOSSARY as VERDICTS
    from comet.site.html import esc

    return [w for w in VERDICTS if f">{esc(w)}</dt>" not in glossary_page]


def test_the_site_glossary_defines_every_verdict_phrase(built_site: Path) -> None:
    """Issue 33 item 1: the answers' words are defined once, and the site shows the report's definitions."""
    page = _text(built_site, "glossary.html")
    assert verdict_words_missing(page) == []
    planted = page.replace(">changes who gains</dt>", ">changes who wins</dt>")
    assert verdict_words_missing(planted) == ["changes who gains"]
