"""The built rulebook site in a real browser (Chromium from Debian, driven by Playwright for Python).

No console errors on any page; every internal link and anchor the browser's DOM holds resolves (after the
scripts ran); every ruling page shows its witness deals, and stepping through each to its end shows the
final chips ``comet replay`` gives for that record under that reading; the search finds a rule by id and
a seed line by one of its words; axe-core finds no serious or critical accessibility violation;
screenshots at 360 px and desktop width go to ``test-artifacts/site/``.

Chromium is never downloaded: it is ``/usr/bin/chromium`` (``apt-get install chromium``); axe-core comes
from npm into a cache folder (``.ci/run``; ``COMET_AXE_JS`` names the file).  Without them the tests skip
with the reason, except under CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from comet.cli import main as comet_main
from comet.diverge.store import load
from comet.site.witness import record_with, side
from site_checks import link_problems, site_files

#: the browser and its driver (the extra [browser], Debian's chromium): not a test of the bare install
NEEDS_EXTRAS = ("browser",)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("COMET_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
AXE_CANDIDATES = (
    os.environ.get("COMET_AXE_JS", ""),
    str(ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"),
    str(Path.home() / ".cache" / "comet-ci" / "npm" / "node_modules" / "axe-core" / "axe.min.js"),
)
STEP_ALL = """() => Array.from(document.querySelectorAll('details.witness')).map(d => {
  d.open = true; d.dispatchEvent(new Event('toggle')); const b = d.querySelector('[data-go=next]'); let n = 0;
  while (!b.disabled && n < 10000) { b.click(); n++; }
  return [d.dataset.key, Array.from(d.querySelectorAll('output.chips')).map(o => o.dataset.chips)]; })"""
AXE_RUN = "async () => await axe.run(document, {resultTypes: ['violations']})"
ARTIFACTS = ROOT / "test-artifacts" / "site"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture
def site(built_site: Path) -> Path:
    return built_site  # built once per session (conftest.py)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed (pip install playwright)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        b.new_context().set_default_timeout(10_000)
        yield b
        b.close()


def _url(site: Path, rel: str) -> str:
    return (site / rel).as_uri()


def _watch(page: Any, errors: list[str]) -> None:
    page.on(
        "console", lambda m: errors.append(f"{page.url}: console.{m.type}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    # a request the next navigation cancels (a favicon still loading) is not a failure of the site
    page.on(
        "requestfailed",
        lambda r: None if "ERR_ABORTED" in str(r.failure) else errors.append(f"{page.url}: request failed: {r.url}"),
    )


@dataclass
class Crawl:
    """One visit of every page (at 360 px): what the live DOM held, and each witness stepped to its end."""

    errors: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    ids: dict[str, set[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)
    fields: dict[str, list[str]] = field(default_factory=dict)  # ruling page -> the fields it has witnesses for
    stepped: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)  # page -> (key, final chips)


@pytest.fixture(scope="module")
def crawl(built_site: Path, browser: Any) -> Crawl:
    """Every page from the home page on, following links, on a 360 px wide screen.  On a ruling page every
    witness's Next button is pressed by the page until it is disabled."""
    out, site = Crawl(), built_site
    page = browser.new_page(viewport={"width": 360, "height": 800})
    _watch(page, out.errors)
    todo = ["index.html"]
    while todo:
        rel = todo.pop()
        if rel in out.seen:
            continue
        out.seen.add(rel)
        page.goto(_url(site, rel), wait_until="domcontentloaded")
        out.ids[rel] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        srcs = page.eval_on_selector_all("[src]", "els => els.map(e => e.getAttribute('src'))")
        out.links[rel] = hrefs + srcs
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            out.errors.append(f"{rel} is {wide} px wider than a 360 px screen")
        if rel.startswith("ruling/"):
            out.fields[rel] = [
                i.removeprefix("witness-")
                for i in page.eval_on_selector_all("h3[id^=witness-]", "els => els.map(e => e.id)")
            ]
            out.stepped[rel] = [(str(k), list(c)) for k, c in page.evaluate(STEP_ALL)]
            keys = page.eval_on_selector_all(".witness[data-key]", "els => els.map(e => e.dataset.key)")
            out.stepped[rel] += [(str(k), []) for k in keys if k not in {x for x, _ in out.stepped[rel]}]
        for h in hrefs:
            target = h.split("#")[0].split("?")[0]
            if target.endswith(".html") and "://" not in target:
                todo.append(os.path.normpath(os.path.join(os.path.dirname(rel), target)).replace(os.sep, "/"))
    page.close()
    return out


def test_no_console_error_and_every_link_resolves(site: Path, crawl: Crawl) -> None:
    """No console error or failed request on any page, no page wider than 360 px, every page reachable, and
    every link and anchor the live DOM holds resolves."""
    files = site_files(site)
    assert crawl.errors == []
    html_pages = {f for f in files if f.endswith(".html")}
    assert html_pages <= crawl.seen, f"pages no link reaches: {sorted(html_pages - crawl.seen)}"
    assert link_problems(files, crawl.ids, crawl.links) == []


def _replay_chips(record: dict[str, Any]) -> object:
    """What ``comet replay`` prints for the record: its chips, or (for an illegal action) the chips of the
    record cut before it; "refused" when the reading refuses the deal."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(record, f)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = comet_main(["replay", f.name])
    os.unlink(f.name)
    if code == 2:
        return "refused"
    verdict = json.loads(out.getvalue())
    if verdict["legal"]:
        return verdict["chips"]
    return _replay_chips({**record, "actions": record["actions"][: verdict["error"]["index"]]})


def _expected(e: Any) -> list[object]:
    """For each reading, comet replay's chips for the record played on to the deal's end (the actions the
    stepper shows: the record's, then the simple players'; tests/test_site.py checks they begin with the record's)."""
    rec = e["record"]
    assert isinstance(rec, dict)
    out: list[object] = []
    for v in (None, e["b"]):
        obj = record_with(rec, str(e["field"]), v)
        shown = side(obj)
        out.append("refused" if shown["refused"] else _replay_chips({**obj, "actions": shown["actions"]}))
    return out


def _chips(texts: list[str]) -> list[object]:
    return [json.loads(c) if c != "refused" else c for c in texts]


def test_stepping_each_witness_to_its_end_shows_the_replayed_chips(site: Path, browser: Any, crawl: Crawl) -> None:
    """Every ruling page shows exactly the stored witnesses of its fields; each deal witness, stepped to its
    end, shows for both readings the chips ``comet replay`` gives for that record under that reading.  One
    of them is also stepped by Playwright's own clicks, action by action."""
    entries = load()
    checked = 0
    for rel, fields in crawl.fields.items():
        shown_keys = {k for k, _ in crawl.stepped[rel]}
        stored = {k for k, e in entries.items() if e.get("field") in fields}
        assert shown_keys == stored, f"{rel}: witnesses shown {sorted(shown_keys)}, stored {sorted(stored)}"
        assert not fields or shown_keys, f"{rel} shows no witness"
        for key, chips in crawl.stepped[rel]:
            if not chips:
                continue  # a game witness, or none found in the bound: no deal to step
            assert _chips(chips) == _expected(entries[key]), f"{rel} {key}"
            checked += 1
    assert checked >= 50 and crawl.errors == []
    page = browser.new_page()
    errors: list[str] = []
    _watch(page, errors)
    page.goto(_url(site, "ruling/RUL-COMET-LEAD.html"))
    box = page.locator("details.witness").first
    nxt = box.locator("button[data-go=next]")
    while nxt.is_enabled():
        nxt.click()
    chips = box.locator("output.chips").evaluate_all("els => els.map(e => e.dataset.chips)")
    assert _chips(chips) == _expected(entries[str(box.get_attribute("data-key"))])
    page.close()
    assert errors == []


def test_the_site_works_from_a_static_http_host(site: Path, browser: Any) -> None:
    """Served by a plain static file server (no server logic): pages, search and the stepper work, and no
    request fails (the favicon included)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    page = browser.new_page()
    errors: list[str] = []
    _watch(page, errors)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    try:
        page.goto(base + "index.html")
        page.goto(base + "ruling/RUL-COMET-RANK.html")
        page.locator("details.witness").first.locator("button[data-go=last]").click()
        assert page.locator("details.witness").first.locator("output.chips").count() == 2
        page.goto(base + "search.html?q=R-COMET-WILD")
        assert page.locator("#results li a").first.get_attribute("href") == "rules.html#R-COMET-WILD"
    finally:
        page.close()
        server.shutdown()
    assert errors == []


def test_search_finds_a_rule_by_id_and_a_seed_line_by_a_word(site: Path, browser: Any) -> None:
    page = browser.new_page()
    page.goto(_url(site, "search.html") + "?q=R-PLAY-MUST")
    first = page.locator("#results li a").first
    assert first.get_attribute("href") == "rules.html#R-PLAY-MUST"
    page.fill("#q", "Comet lead")  # the words of an id rank that ruling first
    assert page.locator("#results li a").first.get_attribute("href") == "ruling/RUL-COMET-LEAD.html"
    snips = page.locator("#results .snip").all_inner_texts()
    assert not any("](" in t for t in snips), "a snippet shows a link target"
    page.fill("#q", "Tausch")  # a word of seed 003 only
    hrefs = page.locator("#results li a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(h.startswith("seeds/000-003.html#s003-L") for h in hrefs), hrefs
    page.locator("#results li a[href^='seeds/']").first.click()
    assert "#s003-L" in page.url and "Tausch" in page.locator(":target").inner_text()
    page.close()


def test_the_stepper_answers_the_keyboard_and_print_hides_the_controls(site: Path, browser: Any) -> None:
    page = browser.new_page()
    page.goto(_url(site, "ruling/RUL-COMET-RANK.html"))
    stepper = page.locator("details.witness").first.locator(".stepper")
    stepper.locator("button[data-go=next]").focus()
    page.keyboard.press("Enter")
    assert stepper.get_attribute("data-step") == "1"
    page.keyboard.press("ArrowRight")
    assert stepper.get_attribute("data-step") == "2"
    page.keyboard.press("ArrowLeft")
    assert stepper.get_attribute("data-step") == "1"
    page.emulate_media(media="print")
    assert not stepper.locator(".controls").is_visible()
    assert not page.locator("header.top").is_visible()
    assert stepper.locator("ol.actions").is_visible()
    page.close()


def test_axe_reports_a_planted_violation(browser: Any) -> None:
    """The check can fail: an image without alt text and an unlabelled field are reported as serious or worse."""
    axe = _axe()
    page = browser.new_page()
    page.set_content('<html lang="en"><title>t</title><main><img src="x.png"><input type="text"></main></html>')
    page.add_script_tag(content=axe)
    result = page.evaluate(AXE_RUN)
    page.close()
    assert {"image-alt", "label"} <= set(_serious(result))


def _serious(result: dict[str, Any]) -> list[str]:
    return [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")]


def _axe() -> str:
    for c in AXE_CANDIDATES:
        if c and Path(c).is_file():
            return Path(c).read_text(encoding="utf-8")
    _missing("axe-core is not installed (npm install axe-core into a cache folder; COMET_AXE_JS names axe.min.js)")
    return ""


# One page of every kind the site has (test_axe_covers_every_kind_of_page checks that), more where a kind
# varies: a ruling with deal witnesses, with a game witness, with none; presets of points and of chips.
AXE_PAGES = (
    "index.html",
    "how-to-play.html",
    "how-to-play/old_comet.html",
    "how-to-play/red_nines.html",
    "glossary.html",
    "compare.html",
    "rules.html",
    "rules-variants.html",
    "ruling/RUL-COMET-LEAD.html",
    "ruling/RUL-OPERA.html",
    "ruling/RUL-2P-END.html",
    "ruling/RUL-ANNOUNCE.html",
    "presets.html",
    "preset/standard.html",
    "preset/old_comet.html",
    "preset/red_nines.html",
    "extremes.html",
    "extremes/standard.html",
    "rulings.html",
    "seeds/index.html",
    "seeds/comparison.html",
    "seeds/000-003.html",
    "seeds/002.html",
    "seeds/commit-000-002.html",
    "seeds/opera-000-002.html",
    "implementers.html",
    "researchers.html",
    "dev/contract.html",
    "dev/rulings-format.html",
    "dev/record.html",
    "dev/vectors.html",
    "dev/perft.html",
    "dev/proofs.html",
    "dev/changelog.html",
    "dev/frameworks.html",
    "dev/implementing.html",
    "play.html",
    "check.html",
    "search.html?q=comet",
)


def uncovered_kinds(site: Path, pages: tuple[str, ...]) -> list[str]:
    """The pages of the built site of no kind ``pages`` holds (a kind: a page of the top folder, or a folder)."""

    def kind(rel: str) -> str:
        rel = rel.split("?")[0]
        return rel.rsplit("/", 1)[0] + "/" if "/" in rel else rel

    kinds = {kind(p) for p in pages}
    built = {p.relative_to(site).as_posix() for p in site.rglob("*.html") if "assets" not in p.parts}
    return sorted(p for p in built if kind(p) not in kinds)


def test_axe_covers_every_kind_of_page(site: Path) -> None:
    """Every page of the built site is of a kind AXE_PAGES holds, so a new kind of page is checked by axe
    too (no browser needed); planted: without the researchers' page and the how-to-play folder, both show."""
    uncovered = uncovered_kinds(site, AXE_PAGES)
    assert not uncovered, f"kinds of page axe never visits: {uncovered}"
    fewer = tuple(p for p in AXE_PAGES if p != "researchers.html" and not p.startswith("how-to-play/"))
    missed = uncovered_kinds(site, fewer)
    assert "researchers.html" in missed and "how-to-play/opera.html" in missed, missed


@pytest.mark.parametrize("width", [360, 1280])
def test_axe_finds_no_serious_violation(site: Path, browser: Any, width: int) -> None:
    """Every kind of page, on a phone and on a desktop: no serious or critical finding (a table that scrolls
    sideways must be reachable by keyboard, headings in order, landmarks told apart)."""
    axe = _axe()
    page = browser.new_page(viewport={"width": width, "height": 900})
    bad = []
    for rel in AXE_PAGES:
        page.goto(_url(site, rel.split("?")[0]) + ("?" + rel.split("?")[1] if "?" in rel else ""))
        page.add_script_tag(content=axe)
        result = page.evaluate(AXE_RUN)
        bad += [
            f"{rel} at {width} px: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in result["violations"]
            if v["impact"] in ("serious", "critical") or v["id"] in ("heading-order", "landmark-unique")
        ]
    page.close()
    assert bad == []


@pytest.fixture(scope="module")
def served(built_site: Path) -> Iterator[str]:
    """The site served as ``comet site --serve`` serves it (WebAssembly does not load from file://)."""
    import threading

    from comet.commands.site import make_server
    from comet.site.pages_play import pyodide_dir

    if pyodide_dir(ROOT) is None:
        _missing("the npm package pyodide is not installed (.ci/run installs it into the npm cache)")
    server = make_server(built_site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _ready(page: Any, button: str) -> None:
    page.wait_for_selector(f"{button}:not([disabled])", timeout=180_000)  # Pyodide starts in seconds, slower under load


def test_play_a_whole_deal_by_clicking(served: str, browser: Any) -> None:
    """R-PLAY-HELD, R-PLAY-MUST: in play.html a card that may not be played is refused with its rule, the
    legal moves take the deal to its end, and the final chips are the ones comet replay gives the record."""
    page = browser.new_page(viewport={"width": 360, "height": 800})
    errors: list[str] = []
    _watch(page, errors)
    page.goto(served + "play.html")
    _ready(page, "#start")
    page.click("#start")
    page.wait_for_selector("#hand button")
    refused = False
    for _ in range(400):
        if page.locator("#winner").count():
            break
        legal = page.locator("#legal button").evaluate_all("els => els.map(e => e.dataset.action)")
        cards = page.locator("#hand button").evaluate_all("els => els.map(e => e.dataset.card)")
        wrong = [c for c in cards if not any(a.startswith(f"play {c}") for a in legal)]
        if wrong and not refused:
            page.click(f"#hand button[data-card='{wrong[0]}']")
            text = page.inner_text("#refused")
            assert text.startswith("Refused: R-"), text
            refused = True
            continue
        page.locator("#legal button").last.click()
    assert page.locator("#winner").count() == 1 and refused
    record = json.loads(page.inner_text("#record-out"))
    shown = [int(x.split(": ")[1]) for x in page.locator("#result li").all_inner_texts()]
    assert _replay_chips(record) == shown
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-360.png"))
    page.close()
    assert errors == []


def test_a_rulings_witness_is_played_in_the_page_under_the_chosen_reading(served: str, browser: Any) -> None:
    """RUL-COMET-LEAD: 'play this deal yourself under B' opens play.html on the witness's cards under B."""
    page = browser.new_page()
    errors: list[str] = []
    _watch(page, errors)
    page.goto(served + "ruling/RUL-COMET-LEAD.html")
    box = page.locator("details.witness").first
    data = json.loads(str(box.locator("button.play-it[data-reading=b]").get_attribute("data-play")))
    box.locator("button.play-it[data-reading=b]").click()
    page.wait_for_url("**/play.html?witness=1")
    _ready(page, "#start")
    page.wait_for_selector("#hand button", timeout=60_000)
    assert "reading B" in page.inner_text("#witness-note")
    shown = page.locator("#hand button").evaluate_all("els => els.map(e => e.dataset.card)")
    mover = [n for n, h in enumerate(data["record"]["hands"]) if sorted(h) == sorted(shown)]
    assert mover, f"the hand shown {shown} is none of the witness's hands"
    page.close()
    assert errors == []


def test_the_record_checker_in_the_page_gives_comet_replays_verdict(served: str, browser: Any) -> None:
    """check.html on 20 vectors (legal, illegal, malformed, game): the exit code and output of comet replay."""
    from test_site_play import replay_cli, sample_vectors

    page = browser.new_page()
    errors: list[str] = []
    _watch(page, errors)
    page.goto(served + "check.html")
    _ready(page, "#run")
    wrong = []
    samples = sample_vectors()
    kinds = sorted(name.split("/")[0] for name, _ in samples)
    assert kinds == sorted(["replay", "illegal", "malformed", "game"] * 5), kinds  # 20: five of each
    exits = set()
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in samples:
            page.fill("#record", text)
            page.evaluate("() => { delete document.getElementById('verdict').dataset.exit; }")
            page.click("#run")
            want = replay_cli(text, Path(tmp))
            got = (int(str(page.get_attribute("#verdict", "data-exit"))), page.inner_text("#output").strip())
            exits.add(got[0])
            if got != (want["exit"], want["stdout"]):
                wrong.append(f"{name}: page exit {got[0]}, comet replay exit {want['exit']}")
            elif want["exit"] == 2 and not str(page.text_content("#verdict")).endswith(str(want["stderr"])):
                wrong.append(
                    f"{name}: the page says {page.text_content('#verdict')!r}, comet replay {want['stderr']!r}"
                )
    page.close()
    assert exits == {0, 1, 2}, f"the vectors gave exits {exits}: legal, illegal and malformed must all be there"
    assert wrong == [] and errors == []


@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_at_phone_and_desktop_width(site: Path, browser: Any, width: int) -> None:
    """Written as test artifacts; at 360 px nothing may be wider than the screen."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": width, "height": 900})
    for rel in ("index.html", "ruling/RUL-COMET-LEAD.html", "rules.html", "preset/standard.html"):
        page.goto(_url(site, rel))
        page.locator(".stepper button[data-go=next]").first.click() if page.locator(".stepper").count() else None
        name = rel.replace("/", "-").removesuffix(".html")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"))
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{rel} is {overflow} px wider than a {width} px screen"
    page.close()


def test_a_points_game_extreme_steps_to_the_points_the_page_states(site: Path, browser: Any) -> None:
    """R-END-OUT: on a points game's extremes page (Red Nines: penalty points), a deal stepped to its end by
    Playwright's clicks shows, beside the chips (none change hands), the points the page states for it."""
    page = browser.new_page()
    errors: list[str] = []
    _watch(page, errors)
    page.goto(_url(site, "extremes/red_nines.html"))
    section = page.locator("section.extreme[data-file]").first
    section.locator("details.witness summary").click()
    section.locator("button[data-go=last]").click()
    shown = section.locator("output.points").first.get_attribute("data-points")
    assert shown is not None and json.loads(shown) == json.loads(
        str(section.locator("p.final").get_attribute("data-final"))
    )
    assert "penalty points" in section.locator("table caption").first.inner_text()
    page.close()
    assert errors == []
