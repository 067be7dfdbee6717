"""``comet site``: the rulebook website is built from spec/, seeds/ and the model, whole and offline.

Cites R-COMET-WILD, R-PLAY-MUST (their sections and citations must reach the site) and every ruling id
(each has a page).  The browser tests are in ``test_site_browser.py``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import pytest
from comet.cli import main
from comet.diverge.store import load
from comet.records.deal_record import parse_record, replay_record
from comet.site.divergence import read_reports
from comet.site.sources import RULE_FILES, RULING_FILES, read_spec
from comet.site.witness import record_with, side, stepper_data
from site_checks import link_problems, scan, site_files

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def site(built_site: Path) -> Path:
    return built_site  # built once per session (conftest.py)


def test_every_rule_and_ruling_reaches_the_site(site: Path) -> None:
    rules = [s for f in read_spec(ROOT / "spec", RULE_FILES) for s in f.sections]
    rulings = [s for f in read_spec(ROOT / "spec", RULING_FILES) for s in f.sections]
    assert len(rules) > 50 and len(rulings) > 50
    text = (site / "rules.html").read_text(encoding="utf-8") + (site / "rules-variants.html").read_text(
        encoding="utf-8"
    )
    contract = (site / "dev" / "contract.html").read_text(encoding="utf-8")
    for r in rules:
        # the record contract is the implementers' (dev/contract.html), never in the player's rulebook
        if r.id.startswith("R-REC-"):
            assert f'id="{r.id}"' in contract and f'id="{r.id}"' not in text, r.id
        else:
            assert f'id="{r.id}"' in text, r.id
    for r in rulings:
        page = site / "ruling" / f"{r.id}.html"
        assert page.exists(), r.id
        assert 'id="ruling"' in page.read_text(encoding="utf-8")


def test_a_rule_quotes_its_seed_lines_in_context(site: Path) -> None:
    """R-PLAY-MUST's citations: each quote marked inside its seed line, linked to that line."""
    text = (site / "rules.html").read_text(encoding="utf-8")
    section = text.split('id="R-PLAY-MUST"', 1)[1].split("<section", 1)[0]
    links = re.findall(r'href="(seeds/[^"]+)"', section)
    assert links and all(re.match(r"seeds/(000-003|002)\.html#s\d{3}-L\d+$", h) for h in links)
    assert "<mark>" in section


def test_a_ruling_page_holds_sources_readings_witness_and_impact(site: Path) -> None:
    page = (site / "ruling" / "RUL-COMET-LEAD.html").read_text(encoding="utf-8")
    for part in (
        'class="sources"',
        "German rendering",
        "Readings.",
        "Default and why.",
        'id="switch"',
        'class="stepper"',
        'id="impact"',
        "<img ",
    ):
        assert part in page, part
    img = re.search(r'<img src="\.\./(plots/[^"]+)" alt="([^"]+)"', page)
    assert img and (site / img.group(1)).exists() and img.group(2)


def test_every_internal_link_and_anchor_resolves(site: Path) -> None:
    ids, links = scan(site)
    assert link_problems(site_files(site), ids, links) == []


def test_the_link_check_catches_a_dead_link_an_anchor_and_the_network(site: Path) -> None:
    ids, links = scan(site)
    broken = dict(links)
    broken["index.html"] = [*links["index.html"], "nowhere.html", "rules.html#R-NO-SUCH", "https://example.org/x.css"]
    problems = link_problems(site_files(site), ids, broken)
    assert len(problems) == 3
    assert "does not hold" in problems[0] and "no element with id 'R-NO-SUCH'" in problems[1]
    assert "leaves the site" in problems[2]


def test_the_site_ships_every_asset_and_fetches_nothing(site: Path) -> None:
    for name in ("assets/style.css", "assets/site.js", "assets/search-index.js"):
        assert (site / name).exists()
    for path in site.rglob("*.html"):
        assert not re.search(r'(src|href)="(https?:)?//', path.read_text(encoding="utf-8")), path


def test_the_search_index_holds_rules_rulings_and_seed_lines(site: Path) -> None:
    text = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    index = json.loads(text.removeprefix("window.COMET_INDEX = ").rstrip().rstrip(";"))
    kinds = {e["kind"] for e in index}
    assert {"rule", "ruling", "source", "preset"} <= kinds
    assert any(e["id"] == "R-COMET-WILD" for e in index)


def _net(pays: list[dict[str, int]], players: int) -> list[int]:
    out = [0] * players
    for p in pays:
        out[p["payer"]] -= p["amount"]
        out[p["payee"]] += p["amount"]
    return out


def side_problems(obj: dict[str, Any], shown: dict[str, Any]) -> list[str]:
    """Where a stepper side departs from ``comet replay``: the record's part (to its end or its first illegal
    action, with that rule), each step's own payments, and the deal played on to its end."""
    try:
        verdict = replay_record(parse_record(obj))
    except ValueError:
        return [] if shown["refused"] else ["the reading refuses the deal, the stepper does not"]
    steps, problems = shown["steps"], []
    cut = verdict.applied + (0 if verdict.legal else 1)
    at = steps[cut]
    if verdict.legal and at["chips"] != verdict.to_json()["chips"]:
        problems.append(f"after the record: chips {at['chips']}, comet replay {verdict.to_json()['chips']}")
    if not verdict.legal and (verdict.error is None or at.get("error", {}).get("rule") != verdict.error.rule):
        problems.append(f"step {cut} should be refused under {verdict.error and verdict.error.rule}")
    for k in range(1, len(steps)):
        moved = [b - a for a, b in zip(steps[k - 1]["chips"], steps[k]["chips"], strict=True)]
        if moved != _net(steps[k]["pays"], len(moved)):
            problems.append(f"step {k} lists payments {steps[k]['pays']} but the chips move by {moved}")
    played = replay_record(parse_record({**obj, "actions": shown["actions"]}))
    final = played.to_json()
    if not (played.legal and final["finished"] and final["chips"] == steps[-1]["chips"]):
        problems.append(f"played on to the end: stepper {steps[-1]['chips']}, comet replay {final.get('chips')}")
    if any(not st.get("played_on") for st in steps[cut + 1 :]):
        problems.append("a step after the record is not marked as played on")
    return problems


def test_each_witness_side_is_what_replay_says() -> None:
    """The steps shown equal the oracle's replay of the record under that reading (RUL-COMET-LEAD and all), each
    step lists that action's own payments, and the deal is played on to its end as comet replay plays it."""
    n = 0
    for e in load().values():
        rec = e.get("record")
        if not e.get("found") or not isinstance(rec, dict):
            continue
        for value in (None, e["b"]):
            obj = record_with(rec, str(e["field"]), value)
            assert side_problems(obj, side(obj)) == [], e["key"]
            n += 1
    assert n > 100


def test_a_stepper_listing_every_payment_so_far_is_caught() -> None:
    """Planted slip: each step listing all the payments so far (not its own) is reported."""
    entries: list[Any] = list(load().values())
    candidates = (
        (obj, cast(Any, side(obj)))
        for e in entries
        if e.get("found") and isinstance(e.get("record"), dict)
        for obj in [record_with(e["record"], str(e["field"]), None)]
    )
    obj, shown = next((o, sh) for o, sh in candidates if sum(1 for st in sh["steps"] if st["pays"]) >= 2)
    so_far: list[Any] = []
    for st in shown["steps"]:
        so_far = so_far + st["pays"]
        st["pays"] = list(so_far)
    assert any("lists payments" in p for p in side_problems(obj, shown))


def test_a_folder_that_is_not_a_site_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["site", str(tmp_path)]) == 2
    assert "not empty and holds no site" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").exists()


def _impact_paragraphs(divergence: Path) -> int:
    """Pair sections (any ``### preset: `…` `` heading) holding at least one ``**Impact…`` paragraph."""
    n = 0
    # a report in pages (comet.commands.diverge_pages) holds its sections in RUL-ID.md beside its README.md
    readmes = list(divergence.rglob("README.md"))
    for p in [*readmes, *(q for r in readmes for q in r.parent.glob("RUL-*.md"))]:
        in_pair = counted = False
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                in_pair, counted = line.startswith("### ") and ": `" in line, False
            elif in_pair and not counted and line.startswith("**Impact"):
                n, counted = n + 1, True
    return n


def test_every_impact_section_of_the_divergence_reports_is_read() -> None:
    """The reports are read by structure: each **Impact** paragraph must be found under its pair heading,
    so a change of the report's layout shows here instead of silently emptying the ruling pages."""
    divergence = ROOT / "spec" / "divergence"
    impacts = read_reports(divergence)
    assert len(impacts) == _impact_paragraphs(divergence) > 0
    assert all(i.ruling.startswith("RUL-") for i in impacts) and any(i.plots for i in impacts)


def test_the_impact_reader_notices_a_changed_heading(tmp_path: Path) -> None:
    folder = ROOT / "spec" / "divergence"
    page = next(iter(sorted(folder.glob("RUL-*.md"))), folder / "README.md")  # a ruling's page, if in pages
    text = page.read_text(encoding="utf-8")
    (tmp_path / "README.md").write_text(text.replace(" (A) against ", " versus ", 1), encoding="utf-8")
    assert len(read_reports(tmp_path)) == _impact_paragraphs(tmp_path) - 1


def test_the_impact_reader_takes_the_per_player_count_layout(tmp_path: Path) -> None:
    """The newer reports write one ``**Impact at N players**`` block per player count, each with its plot."""
    (tmp_path / "a.png").write_bytes(b"")
    (tmp_path / "README.md").write_text(
        "# t\n\nGenerated by x.\n\n## RUL-COMET-LEAD: `comet_lead`\n\n"
        "### standard: `comet_lead = king` (A) against `comet_lead = forbidden` (B)\n\n**Witness** (deal).\n\n"
        "**Impact at 3 players** (1,000 paired deals per player, `fast` engine):\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "![paired change per seat](a.png)\n\n**Impact at 4 players** (1,000 paired deals):\n\n![again](a.png)\n",
        encoding="utf-8",
    )
    (imp,) = read_reports(tmp_path)
    assert (imp.ruling, imp.preset, imp.field, imp.a, imp.b) == (
        "RUL-COMET-LEAD",
        "standard",
        "comet_lead",
        "king",
        "forbidden",
    )
    assert len(imp.plots) == 2 and imp.markdown[0].startswith("**Impact at 3 players**")
    assert not any("Witness" in x for x in imp.markdown)


def test_where_a_play_is_legal_under_one_reading_only_the_other_side_names_the_rule() -> None:
    """At the step before the first difference of every 'legal' witness, the play one reading allows is listed
    under the other with the rule that reading's engine names (R-COMET-WILD, R-PLAY-MUST, …)."""
    n = 0
    for e in load().values():
        if e.get("kind") != "legal" or not isinstance(e.get("record"), dict):
            continue
        data = stepper_data(e)
        assert data is not None
        sides, k = data["sides"], data["diff_step"]
        assert isinstance(sides, list) and isinstance(k, int)
        record = e["record"]
        assert isinstance(record, dict) and isinstance(record["actions"], list)
        action = record["actions"][k - 1]
        listed = [json.dumps(s["steps"][k - 1].get("why_not", {})) for s in json.loads(json.dumps(sides))]
        assert any(json.dumps(action) + ":" in w for w in listed), (
            f"{e['key']}: {action!r} not explained at step {k - 1}"
        )
        n += 1
    assert n > 30


def test_the_records_on_a_ruling_page_replay_as_the_stepper_shows(site: Path) -> None:
    """The records printed under each witness are valid deal records: replayed, they end where the steps do."""
    page = (site / "ruling" / "RUL-COMET-LEAD.html").read_text(encoding="utf-8")
    texts = [html.unescape(t) for t in re.findall(r'<details class="record">.*?</details>', page, flags=re.S)]
    assert texts
    for block in texts:
        for raw in re.findall(r"<pre>(.*?)</pre>", block, flags=re.S):
            obj = json.loads(raw)
            shown = side(obj)
            verdict = replay_record(parse_record(obj))
            steps: list[Any] = cast(Any, shown["steps"])
            cut = verdict.applied + (0 if verdict.legal else 1)
            # the record's part, then the deal played on by the simple players
            assert not any(st.get("played_on") for st in steps[1 : cut + 1])
            assert all(st.get("played_on") for st in steps[cut + 1 :])


def test_a_file_or_an_unwritable_place_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("x", encoding="utf-8")
    assert main(["site", str(tmp_path / "f")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["site", str(tmp_path / "f" / "sub")]) == 2
    assert "cannot write the site" in capsys.readouterr().err


def test_a_preset_page_shows_the_deal_comet_deal_plays(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = (site / "preset" / "old_comet.html").read_text(encoding="utf-8")
    listed = re.search(r'<ol class="story">(.*?)</ol>', page, flags=re.S).group(1)  # type: ignore[union-attr]
    story = "\n".join(html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", listed, flags=re.S))
    capsys.readouterr()
    assert main(["deal", "--preset", "old_comet", "--seed", "1"]) == 0
    assert capsys.readouterr().out.strip() == story.strip()
    assert 'aria-label="9 of diamonds, the manille"' in page


def base_args(e: Mapping[str, object], g: Mapping[str, object]) -> list[str]:
    """The `comet game` command a game witness page gives (reading A; B adds --ruling)."""
    return [
        "game",
        "--preset",
        str(e["preset"]),
        "--players",
        str(g["players"]),
        "--deals",
        str(g["deals"]),
        "--seed",
        str(g["seed"]),
    ]


def test_the_game_witness_commands_the_pages_give_replay_the_stored_winners(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game witness page says 'Play it again: comet game …' (simple policy only): those commands must give
    the winners the stored witness names, under A (no --ruling) and B."""
    from comet.notation import seat_name

    n = 0
    for e in load().values():
        g = e.get("game")
        if not isinstance(g, dict) or g.get("policy") != "simple":
            continue
        detail = str(e["detail"])
        # a game witness names the earliest thing that differs: the first dealer, else each side's outcome
        first = re.fullmatch(r"first dealer: A seat (\d+), B seat (\d+)", detail)
        if first:
            part_a, part_b = f"first dealer seat {first[1]}", f"first dealer seat {first[2]}"
        elif detail.startswith("A: "):
            part_a, _, part_b = detail.removeprefix("A: ").partition("; B: ")
        else:  # another earliest difference (a deal's net chips, ...): both commands run and tell apart
            outs = []
            for extra in (
                [],
                ["--ruling", f"{e['field']}={str(e['b']).lower() if isinstance(e['b'], bool) else e['b']}"],
            ):
                capsys.readouterr()
                assert main([*base_args(e, g), *extra]) == 0, f"{e['key']}: {detail!r}"
                outs.append(capsys.readouterr().out)
            assert outs[0] != outs[1], f"{e['key']}: the two commands print the same game ({detail!r})"
            n += 1
            continue
        base = base_args(e, g)
        value = e["b"]
        shown_b = str(value).lower() if isinstance(value, bool) else str(value)
        for argv, part in ((base, part_a), ([*base, "--ruling", f"{e['field']}={shown_b}"], part_b)):
            capsys.readouterr()
            code = main(argv)
            out = capsys.readouterr().out
            if part.startswith("refused"):
                assert code == 2, f"{e['key']}: {argv} should be refused ({part})"
                continue
            dealer = re.match(r"first dealer seat (\d+)", part)
            if dealer:
                assert code == 0, f"{e['key']}: {argv}"
                row = next(x for x in out.splitlines() if re.match(r"\W*1\W", x))  # the first deal's row
                shown = row.split("\u2502")[2].strip()
                assert shown == seat_name(int(dealer[1])), f"{e['key']}: {row!r}, stored {part!r}"
                continue
            deal = re.fullmatch(r"deal (\d+) net chips \[([-0-9, ]*)\]", part)
            if deal:  # the side that plays on (RUL-GAME-TIE, RUL-2P-END, ...): that deal's row, seat by seat
                assert code == 0, f"{e['key']}: {argv}"
                row = next(x for x in out.splitlines() if re.match(rf"\W*{deal[1]}\W", x))
                cells = [c.strip() for c in row.split("\u2502")][1:-1]
                shown_net = [int(c) for c in cells[-int(str(g["players"])) :]]
                assert shown_net == [int(x) for x in deal[2].split(",")], f"{e['key']}: {row!r}, stored {part!r}"
                continue
            seats = re.match(r"winners \[([0-9, ]*)\]", part)
            assert code == 0 and seats, f"{e['key']}: {part!r}"
            line = [x for x in out.splitlines() if x.startswith("Winner")][-1]
            names = " and ".join(seat_name(int(x)) for x in seats.group(1).split(","))
            assert line.split(": ", 1)[1].startswith(names + " with"), f"{e['key']}: {line!r}, stored {part!r}"
        n += 1
    assert n > 5
