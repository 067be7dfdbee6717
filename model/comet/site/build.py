"""``comet site OUT_DIR``: the whole rulebook as a static, offline site.

Pages: the rules (each citation quoted in its seed line, linked to the line), one page per ruling
(sources side by side, readings, default and why, the switch, the witness deals stepped through under
both readings, the measured impact with its plots), one page per preset, the seed texts (000 and 003
side by side, line for line), and a search page over a prebuilt index.  Everything is read from the
checkout's ``spec/``, ``seeds/`` and ``comet/diverge/witnesses.json`` and computed by the model at build
time; the assets ship in this package (``comet/site/assets``), so the site opens from ``file://``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from comet.cards import card_text
from comet.diverge.store import load as load_witnesses
from comet.engine import deal_sizes, packs_in_rotation, shuffled_deal
from comet.game import play_deal
from comet.notation import narrate, seat_name
from comet.presets import PRESETS, Preset
from comet.records.deal_record import JsonObject, JsonValue
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.site.divergence import Impact, read_reports
from comet.site.html import card, esc, json_script, page
from comet.site.markdown import github_slug, render
from comet.site.sources import (
    CITATION,
    RULE_FILES,
    RULING_FILES,
    SEED_NAMES,
    Citation,
    Section,
    SpecFile,
    normalise,
    read_seeds,
    read_spec,
)
from comet.site.witness import record_with, stepper_data
from comet.variant import applies

ASSETS = Path(__file__).with_name("assets")
SPEC_PAGES = {"rules.md": "rules.html", "rules-variants.md": "rules-variants.html"}
EXAMPLE_SEED = 1
CONTEXT = 160  # characters of the seed line shown either side of a quote
DIFF_CLASS = ' class="diff"'
DIFFERS_CLASS = ' class="differs"'
PAGE_TOC = (
    '<li><a href="#switch">The switch</a></li><li><a href="#witness">Witness deals</a></li>'
    '<li><a href="#impact">Measured impact</a></li>'
)


@dataclass
class Site:
    """What the pages are made from, and where every id lives."""

    root: Path  # the checkout (holding spec/ and seeds/)
    out: Path
    rules: list[SpecFile]
    rulings: list[SpecFile]
    seeds: dict[str, list[str]]
    impacts: list[Impact]
    witnesses: dict[str, JsonObject]
    where: dict[str, str] = field(default_factory=dict)  # id -> url from the top folder
    slugs: dict[str, str] = field(default_factory=dict)  # "file.md#slug" -> url from the top folder
    index: list[dict[str, str]] = field(default_factory=list)
    pages: int = 0

    # ------------------------------------------------------------------ links
    def seed_url(self, seed: str, line: int) -> str:
        folder = "seeds/000-003.html" if seed in ("000", "003") and self.aligned() else f"seeds/{seed}.html"
        return f"{folder}#s{seed}-L{line}"

    def aligned(self) -> bool:
        """003 renders 000 line for line (seeds/README.md): shown side by side when the counts agree."""
        return "000" in self.seeds and "003" in self.seeds and len(self.seeds["000"]) == len(self.seeds["003"])

    def resolver(self, prefix: str, here: str = "") -> Callable[[str], str | None]:
        """Map a link of a spec Markdown file to a page of the site (None: the site has no page for it)."""

        def resolve(href: str) -> str | None:
            if re.match(r"^[a-z]+:", href):
                return None  # no network: the site is offline
            path, _, anchor = href.partition("#")
            name = path.rsplit("/", 1)[-1]
            if path == "" and anchor:
                return f"#{anchor}"
            if "divergence/" in path or (path == "README.md" and "divergence" in here):
                m = re.match(r"(rul-[a-z0-9-]+?)-([a-z0-9_]+)$", anchor)
                if m:
                    rid = m.group(1).upper()
                    if rid in self.where:
                        return prefix + self.where[rid].split("#")[0] + f"#impact-{m.group(2)}"
                return None
            if name in SPEC_PAGES or name in ("rulings.md", "rulings-variants.md"):
                key = f"{name}#{anchor}"
                if anchor and key in self.slugs:
                    return prefix + self.slugs[key]
                if name in SPEC_PAGES:
                    return prefix + SPEC_PAGES[name]
                return prefix + "rulings.html"
            if name == "comparison-000-003.md":
                return prefix + "seeds/comparison.html"
            if path.endswith("seeds/README.md") or path.endswith("seeds/"):
                return prefix + "seeds/index.html"
            return None

        return resolve

    def ids(self, prefix: str) -> Callable[[str], str | None]:
        def find(i: str) -> str | None:
            return prefix + self.where[i] if i in self.where else None

        return find

    def md(self, text: str, prefix: str, here: str = "") -> str:
        return render(text, self.resolver(prefix, here), self.ids(prefix))

    def write(self, rel: str, text: str) -> None:
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.pages += 1


# ---------------------------------------------------------------------- the pieces


def citation_html(site: Site, c: Citation, prefix: str) -> str:
    """A citation: the quote, then the whole seed line(s) it sits in with the quote marked, and a link."""
    lines = site.seeds.get(c.seed, [])
    context = " ".join(lines[i - 1] for i in range(c.first, c.last + 1) if 0 < i <= len(lines))
    flat, quote = normalise(context), normalise(c.quote)
    at = flat.find(quote)
    if at < 0:
        shown = esc(flat)
    else:
        before, after = flat[:at], flat[at + len(quote) :]
        if len(before) > CONTEXT:
            before = "…" + before[-CONTEXT:].split(" ", 1)[-1] + " "
        if len(after) > CONTEXT:
            after = " " + after[:CONTEXT].rsplit(" ", 1)[0] + "…"
        shown = f"{esc(before)}<mark>{esc(quote)}</mark>{esc(after)}"
    label = f"{c.seed}:{c.first}" + (f"-{c.last}" if c.last != c.first else "")
    lang = ' lang="de"' if c.seed == "003" else ""
    note = f' <span class="gloss">{esc(c.note)}</span>' if c.note else ""
    return (
        f'<li><a class="cite" href="{prefix}{site.seed_url(c.seed, c.first)}">{esc(label)}</a> '
        f'<q{lang}>{esc(c.quote)}</q>{note}<div class="context"{lang}>{shown}</div></li>'
    )


def sources_html(site: Site, cites: list[Citation], prefix: str) -> str:
    """Citations grouped by seed, the groups side by side (000 | 003 | 002)."""
    order = [s for s in ("000", "003", "002") if any(c.seed == s for c in cites)]
    order += sorted({c.seed for c in cites} - set(order))
    cols = []
    for s in order:
        items = "".join(citation_html(site, c, prefix) for c in cites if c.seed == s)
        cols.append(f'<div class="source"><h4>{esc(SEED_NAMES.get(s, s))}</h4><ul class="cites">{items}</ul></div>')
    return f'<div class="sources">{"".join(cols)}</div>'


def body_html(site: Site, sec: Section, prefix: str) -> str:
    """A section's Markdown with every run of citation lines drawn as sources side by side."""
    out: list[str] = []
    text: list[str] = []
    cites: list[Citation] = []

    def flush_text() -> None:
        if any(x.strip() for x in text):
            out.append(site.md("\n".join(text), prefix))
        text.clear()

    def flush_cites() -> None:
        if cites:
            out.append(sources_html(site, list(cites), prefix))
        cites.clear()

    for line in sec.body:
        m = CITATION.match(line)
        if m:
            flush_text()
            first = int(m.group(2))
            cites.append(Citation(m.group(1), first, int(m.group(3) or first), m.group(4), m.group(5).strip()))
        elif line.strip() or not cites:
            flush_cites()
            text.append(line)
    flush_text()
    flush_cites()
    return "".join(out)


def plain(lines: tuple[str, ...] | list[str]) -> str:
    """Searchable plain text of Markdown lines."""
    return normalise(re.sub(r"[`*\[\]]|\]\([^)]*\)", " ", " ".join(lines)))


# ---------------------------------------------------------------------- pages


def build_index(site: Site) -> None:
    n_rules = sum(len(f.sections) for f in site.rules)
    n_rulings = sum(len(f.sections) for f in site.rulings)
    body = f"""<h1>The rules of Comet, with their sources</h1>
<p>Comet is the 18th-century French stops card game; its relatives in our sources are Opera, two-player
Comet, Old Comet (1718), Commit (two different games under one name) and Red Nines. This rulebook is
generated from the executable, formally checked specification: every rule is quoted from the sources it
rests on, every point where the sources disagree is a <em>ruling</em> with its readings, and every
example deal was played by the model.</p>
<ul class="tiles">
<li><a href="rules.html"><strong>Rules</strong></a>: the standard game, rule by rule ({n_rules} rules in all, with the
<a href="rules-variants.html">variants</a>).</li>
<li><a href="rulings.html"><strong>Rulings</strong></a>: {n_rulings} points the sources leave open, each with the sources
side by side, the readings, our default and why, a witness deal to step through and the measured impact.</li>
<li><a href="presets.html"><strong>Presets</strong></a>: the {len(PRESETS)} games the model plays and how each differs
from the standard game.</li>
<li><a href="seeds/index.html"><strong>Sources</strong></a>: the three source texts, line by line; the English rules
and their German rendering side by side.</li>
<li><a href="search.html"><strong>Search</strong></a> rules, rulings and sources by id or by word.</li>
</ul>"""
    site.write("index.html", page("Home", body, "", "index.html"))


def build_rules(site: Site) -> None:
    for f in site.rules:
        rel = SPEC_PAGES[f.name]
        toc, parts = [], []
        chapter = None
        for sec in f.sections:
            if sec.chapter != chapter:
                chapter = sec.chapter
                cid = "ch-" + github_slug(chapter)
                toc.append(f'<li><a href="#{cid}">{esc(chapter)}</a></li>')
                parts.append(f'<h2 id="{cid}">{esc(chapter)}</h2>{chapter_intro(site, f, chapter, "")}')
            parts.append(
                f'<section class="rule" id="{esc(sec.id)}" aria-labelledby="h-{esc(sec.id)}">'
                f'<h3 id="h-{esc(sec.id)}"><span class="rid">{esc(sec.id)}</span> {esc(sec.title)}</h3>'
                f"{body_html(site, sec, '')}</section>"
            )
            site.index.append(
                {"id": sec.id, "kind": "rule", "title": sec.title, "url": f"{rel}#{sec.id}", "text": plain(sec.body)}
            )
        intro = site.md("\n".join(f.intro), "")
        body = (
            f'<h1>{esc(f.title)}</h1>{intro}<nav aria-label="Chapters" class="toc"><ul>{"".join(toc)}</ul></nav>'
            + "".join(parts)
        )
        site.write(rel, page(f.title, body, "", rel))


def chapter_intro(site: Site, f: SpecFile, chapter: str, prefix: str) -> str:
    """The text a ``## `` chapter has before its first rule or ruling (empty if none)."""
    lines = dict(f.chapters).get(chapter, ())
    return site.md("\n".join(lines), prefix) if any(x.strip() for x in lines) else ""


def field_switch(site: Site, name: str, prefix: str) -> str:
    """The ``Ruleset`` field: its readings, and the default in each preset it applies to."""
    readings = field_readings(name)
    shown = "a whole number" if readings is None else ", ".join(f"<code>{esc(_val(r))}</code>" for r in readings)
    rows = []
    for p in sorted(PRESETS):
        pr = PRESETS[p]
        if applies(name, pr.rules.variant):
            rows.append(
                f'<tr><td><a href="{prefix}preset/{esc(p)}.html">{esc(p)}</a></td>'
                f"<td><code>{esc(_val(getattr(pr.rules, name)))}</code></td></tr>"
            )
    example = "x" if readings is None else _val(readings[-1])
    return (
        f'<div class="switch"><p><code>Ruleset.{esc(name)}</code>: readings {shown}. On the command line: '
        f"<code>comet deal --ruling {esc(name)}={esc(example)}</code>; in a record: "
        f'<code>"rulings": {{"{esc(name)}": {esc(json.dumps(readings[-1] if readings else 0))}}}</code>.</p>'
        f'<table><caption>Default reading by preset</caption><thead><tr><th scope="col">preset</th>'
        f'<th scope="col">default</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
    )


def _val(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def stepper_html(site: Site, data: JsonObject, n: int) -> str:
    wid = f"w{n}"
    field_name, a, b = str(data["field"]), _val(data["a"]), _val(data["b"])
    record = data["record"]
    assert isinstance(record, dict)
    actions = record.get("actions") or []
    assert isinstance(actions, list)
    diff = data["diff_step"]
    items = (
        "".join("<li" + (DIFF_CLASS if i + 1 == diff else "") + f">{esc(t)}</li>" for i, t in enumerate(actions))
        or "<li>(no action: the readings part ways at the deal itself)</li>"
    )
    sides = data["sides"]
    assert isinstance(sides, list)
    wild = frozenset(str(c) for s in sides if isinstance(s, dict) for c in (s.get("wild") or []))  # type: ignore[union-attr]
    hands = record.get("hands") or []
    assert isinstance(hands, list)
    start = "".join(
        f'<li><span class="seat">{esc(seat_name(i))}</span> <span class="hand">{"".join(card(str(c), wild, str(data.get("wild_name") or "Comet")) for c in h)}</span></li>'
        for i, h in enumerate(hands)
        if isinstance(h, list)
    )
    dead = record.get("dead") or []
    if isinstance(dead, list) and dead:
        start += f'<li><span class="seat">dead hand</span> <span class="hand">{"".join(card(str(c), wild, str(data.get("wild_name") or "Comet")) for c in dead)}</span></li>'

    return f"""<div class="stepper" id="{wid}" data-data="{wid}-data">
<p class="about"><strong>{esc(data["preset"])}</strong>: A is <code>{esc(field_name)} = {esc(a)}</code> (the preset's
default), B is <code>{esc(field_name)} = {esc(b)}</code>. Where they part: {esc(data["detail"])}.
<span class="origin">Found in: {esc(data["origin"])}.</span></p>
<div class="static"><p>The deal ({len(hands)} players):</p><ul class="hands">{start}</ul>
<p>The actions of the record{" (the highlighted one is where the readings part ways)" if actions else ""}:</p>
<ol class="actions">{items}</ol>
<details class="record"><summary>The record under each reading, for <code>comet replay</code></summary>
{records_html(record, field_name, data["b"])}</details></div>
<div class="controls" role="group" aria-label="Step through the witness deal">
<button type="button" data-go="first">First</button>
<button type="button" data-go="prev">Previous</button>
<button type="button" data-go="next">Next action</button>
<button type="button" data-go="last">Last</button>
<span class="status" role="status" aria-live="polite"></span>
</div>
<div class="sides" hidden>
<section class="side" data-side="0" aria-label="Reading A: {esc(field_name)} = {esc(a)}"></section>
<section class="side" data-side="1" aria-label="Reading B: {esc(field_name)} = {esc(b)}"></section>
</div>
{json_script(wid + "-data", data)}
</div>"""


def records_html(record: JsonObject, name: str, b: JsonValue) -> str:
    """The witness as deal records (spec/record.md) an implementer can replay: A's as stored, B's with the ruling."""
    out = []
    sides: tuple[tuple[str, JsonValue], ...] = (("A (the preset's default)", None), (f"B ({name} = {_val(b)})", b))
    for label, value in sides:
        rec = record_with(record, name, value)
        text = json.dumps(rec, ensure_ascii=False, sort_keys=True)
        out.append(f"<p>{esc(label)}: <code>comet replay FILE</code> with FILE holding</p><pre>{esc(text)}</pre>")
    return "".join(out)


def game_witness_html(e: JsonObject, name: str, title: str) -> str:
    """A witness that is a whole seeded game (the readings never differ within a deal in the bound)."""
    g = e.get("game")
    how = ""
    if isinstance(g, dict):
        cmd = (
            f"comet game --preset {e.get('preset')} --players {g.get('players')} --deals {g.get('deals')} "
            f"--seed {g.get('seed')} --ruling {name}={_val(e.get('b'))}"
        )
        how = (
            f" Play it again: <code>{esc(cmd)}</code> against the same command without <code>--ruling</code>."
            if g.get("policy") == "simple"
            else f" (Played by the {esc(g.get('policy'))} policy, game seed {esc(g.get('seed'))}.)"
        )
    return (
        f'<div class="witness game" data-key="{esc(e["key"])}"><h4>{esc(title)}</h4><p>The readings part ways '
        f"only over a whole game: {esc(e.get('detail', ''))} (found in: {esc(e.get('origin', ''))}).{how}</p></div>"
    )


def impact_html(site: Site, imp: Impact, prefix: str) -> str:
    folder = imp.report or "main"
    plots = []
    for alt, src in imp.plots:
        if not src.exists():
            continue
        rel = f"plots/{folder}/{src.name}"
        dest = site.out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
        words = f"{alt}: {imp.ruling}, {imp.preset}, {imp.field} = {imp.a} against {imp.b}"
        plots.append(
            f'<figure><img src="{prefix}{rel}" alt="{esc(words)}" loading="lazy" width="900">'
            f"<figcaption>{esc(words)}</figcaption></figure>"
        )
    report = f"the <code>spec/divergence/{esc(imp.report)}</code> study" if imp.report else "the main report"
    return (
        f'<div class="impact"><h4>{esc(imp.preset)}: <code>{esc(imp.field)} = {esc(imp.a)}</code> against '
        f"<code>{esc(imp.b)}</code> ({report})</h4>"
        f'<p class="run">{esc(imp.heading)}</p>{site.md(chr(10).join(imp.markdown), prefix)}{"".join(plots)}</div>'
    )


def build_rulings(site: Site) -> None:
    listing = []
    n = 0
    for f in site.rulings:
        listing.append(f"<h2>{esc(f.title)}</h2>{site.md(chr(10).join(f.intro), '') if f.name == 'rulings.md' else ''}")
        chapter = None
        items: list[str] = []
        for sec in f.sections:
            if sec.chapter != chapter:
                if items:
                    listing.append(f'<ul class="rulings">{"".join(items)}</ul>')
                    items = []
                chapter = sec.chapter
                listing.append(f"<h3>{esc(chapter)}</h3>{chapter_intro(site, f, chapter, '')}")
            url = site.where[sec.id]
            items.append(f'<li><a href="{url}"><span class="rid">{esc(sec.id)}</span></a> {esc(sec.title)}</li>')
            n = build_ruling(site, sec, n)
        if items:
            listing.append(f'<ul class="rulings">{"".join(items)}</ul>')
    site.write("rulings.html", page("Rulings", "<h1>Rulings</h1>" + "".join(listing), "", "rulings.html"))


def build_ruling(site: Site, sec: Section, n: int) -> int:
    pre = "../"
    rel = site.where[sec.id]
    fields = [f for f in sec.fields if f in RULING_FIELDS]
    for name, rid in RULING_OF.items():
        if rid == sec.id and name not in fields:
            fields.append(name)
    parts = [
        f'<p class="where">{esc(sec.id)} · <a href="{pre}rulings.html">{esc(sec.chapter)}</a> · '
        f"<code>spec/{esc(sec.file)}</code></p>",
        f'<h1><span class="rid">{esc(sec.id)}</span> {esc(sec.title)}</h1>',
        '<nav aria-label="On this page" class="toc"><ul><li><a href="#ruling">The ruling</a></li>'
        + (PAGE_TOC if fields else "")
        + "</ul></nav>",
        f'<section id="ruling" aria-label="The ruling">{body_html(site, sec, pre)}</section>',
    ]
    if fields:
        parts.append('<section id="switch"><h2>The switch</h2>')
        parts += [field_switch(site, f, pre) for f in fields]
        parts.append("</section>")
        parts.append(
            '<section id="witness"><h2>Witness deals</h2><p>For each preset the ruling applies to, '
            "the smallest deal found where the two readings part ways, played by the model under both "
            "readings. Step through it: the first point of difference is highlighted, and payments "
            "are shown as they happen.</p>"
        )
        for f in fields:
            parts.append(f'<h3 id="witness-{esc(f)}"><code>{esc(f)}</code></h3>')
            entries = [e for e in site.witnesses.values() if e.get("field") == f]
            if not entries:
                parts.append('<p class="none">No witness is stored for this field.</p>')
            entries.sort(key=lambda e: (e.get("preset") != "standard", str(e.get("key"))))
            for e in entries:
                data = stepper_data(e)
                title = f"{e.get('preset')}: {f} = {_val(e.get('a'))} against {_val(e.get('b'))}"
                if data is not None:
                    n += 1
                    parts.append(
                        f'<details class="witness" data-key="{esc(e["key"])}"{" open" if e is entries[0] else ""}>'
                        f"<summary>{esc(title)}</summary>{stepper_html(site, data, n)}</details>"
                    )
                elif e.get("found"):
                    parts.append(game_witness_html(e, f, title))
                else:
                    notes = e.get("notes") or []
                    assert isinstance(notes, list)
                    parts.append(
                        f'<div class="witness none" data-key="{esc(e["key"])}"><h4>{esc(title)}</h4><p>No witness within '
                        f"the bound searched: {esc('; '.join(map(str, notes)))} ({esc(e.get('bound', ''))}).</p></div>"
                    )
        parts.append("</section>")
        parts.append('<section id="impact"><h2>Measured impact</h2>')
        for f in fields:
            parts.append(f'<h3 id="impact-{esc(f)}"><code>{esc(f)}</code></h3>')
            found = [i for i in site.impacts if i.field == f and i.ruling == sec.id]
            if not found:
                parts.append('<p class="none">The divergence report holds no impact study for this field.</p>')
            parts += [impact_html(site, i, pre) for i in found]
        parts.append("</section>")
    site.index.append({"id": sec.id, "kind": "ruling", "title": sec.title, "url": rel, "text": plain(sec.body)})
    site.write(rel, page(f"{sec.id}: {sec.title}", "".join(parts), pre, "rulings.html"))
    return n


def own_rules(site: Site, pr: Preset) -> list[Section]:
    """The variant rules whose citations fall in the preset's own source lines."""
    spans = []
    for s in pr.sources:
        m = re.match(r"(\d{3}):(\d+)(?:-(\d+))?$", s)
        if m:
            spans.append((m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))))
    out = []
    for f in site.rules:
        if f.name == "rules.md":
            continue
        for sec in f.sections:
            if any(c.seed == s and c.first <= hi and c.last >= lo for c in sec.citations for s, lo, hi in spans):
                out.append(sec)
    return out


def build_presets(site: Site) -> None:
    std = PRESETS.get("standard", None)
    items = []
    for name in sorted(PRESETS):
        pr = PRESETS[name]
        items.append(
            f'<li><a href="preset/{esc(name)}.html"><strong>{esc(name)}</strong></a>: {esc(pr.description)}</li>'
        )
        build_preset(site, pr, std)
    body = "<h1>Presets</h1><p>Each preset is a game the model plays: a game family and a reading of every ruling.</p>"
    site.write("presets.html", page("Presets", body + f'<ul class="presets">{"".join(items)}</ul>', "", "presets.html"))


def build_preset(site: Site, pr: Preset, std: Preset | None) -> None:
    pre = "../"
    v = pr.variant
    rows = []
    for n in v.player_counts:
        packs = packs_in_rotation(pr.rules, n)
        cells = []
        for pk in packs:
            each, dead = deal_sizes(pr.rules, n, len(pk.cards))
            cells.append(f"{esc(pk.name)} ({len(pk.cards)} cards): {each} each, {dead} in the dead hand")
        rows.append(f'<tr><th scope="row">{n}</th><td>{"<br>".join(cells)}</td></tr>')
    data_diff = []
    if std is not None and std.name != pr.name:
        sv = std.variant
        for fl in dataclasses.fields(v):
            a, b = getattr(sv, fl.name), getattr(v, fl.name)
            if fl.name == "name":
                continue
            if callable(a) or callable(b):
                if (a is None) != (b is None) or (a is not None and a is not b):
                    data_diff.append(
                        f"<li>its own <code>{esc(fl.name)}</code> (a hook of the game family replaces the standard one)</li>"
                    )
                continue
            if a != b:
                data_diff.append(f"<li><code>{esc(fl.name)}</code>: {esc(_fmt(b))} (standard: {esc(_fmt(a))})</li>")
    ruling_rows = []
    for name in RULING_FIELDS:
        try:
            if not applies(name, pr.rules.variant):
                continue
        except KeyError:
            continue
        rid = RULING_OF.get(name, "")
        mine = getattr(pr.rules, name)
        other = getattr(std.rules, name) if std is not None and applies(name, std.rules.variant) else None
        differs = std is not None and std.name != pr.name and (other is None or other != mine)
        link = f'<a href="{pre}{site.where[rid]}">{esc(rid)}</a>' if rid in site.where else esc(rid)
        ruling_rows.append(
            "<tr" + (DIFFERS_CLASS if differs else "") + f"><td><code>{esc(name)}</code></td><td>{link}</td>"
            f"<td><code>{esc(_val(mine))}</code></td><td>{'' if other is None else '<code>' + esc(_val(other)) + '</code>'}"
            f"{' (differs)' if differs and other is not None else ''}"
            f"{'not in the standard game' if differs and other is None else ''}</td></tr>"
        )
    cites = []
    for s in pr.sources:
        m = re.match(r"(\d{3}):(\d+)(?:-(\d+))?$", s)
        if m:
            first = int(m.group(2))
            last = int(m.group(3) or first)
            text = " ".join(site.seeds.get(m.group(1), [])[first - 1 : min(last, first + 2)])
            short = text[:300] + ("…" if len(text) > 300 or last > first + 2 else "")
            cites.append(
                f'<li><a class="cite" href="{pre}{site.seed_url(m.group(1), first)}">{esc(s)}</a> '
                f"<span{' lang=de' if m.group(1) == '003' else ''}>{esc(short)}</span></li>"
            )
    own = own_rules(site, pr)
    own_html = "".join(
        f'<li><a href="{pre}{site.where[s.id]}">{esc(s.id)}</a> {esc(s.title)}</li>' for s in own if s.id in site.where
    )
    scoring = (
        "chips: every payment moves chips from one player to another (zero-sum)"
        if pr.scoring == "chips"
        else "points: each deal gives every player a score, summed over the game"
        + (" (the lowest total wins)" if v.lower_wins else "")
    )
    end = f"first to {v.target} points" if v.game_end == "target" else "a fixed number of deals"
    body = f"""<h1>Preset <code>{esc(pr.name)}</code></h1>
<p class="lead">{esc(pr.description)}.</p>
<dl class="facts"><dt>Game family</dt><dd><code>{esc(pr.rules.variant)}</code></dd>
<dt>Players</dt><dd>{", ".join(str(n) for n in v.player_counts)}</dd>
<dt>Scoring</dt><dd>{esc(scoring)}</dd><dt>End of the game</dt><dd>{esc(end)}</dd>
<dt>The wild card</dt><dd>the {esc(v.wild_name)}, worth {v.comet_value} in a first deal{", rising while it lies in the dead hand" if v.escalates_under(pr.rules) else ""}</dd></dl>
<h2>Sources</h2><ul class="cites">{"".join(cites)}</ul>
<h2>What differs from the standard game</h2>
{"<ul>" + "".join(data_diff) + "</ul>" if data_diff else "<p>Nothing in the game family: this is the standard game" + (" or differs only in its rulings." if pr.name != "standard" else ".") + "</p>"}
{"<p>Its own rules:</p><ul>" + own_html + "</ul>" if own_html else ""}
<h2>Deal table</h2>
<table><caption>Packs in turn, and cards per player by number of players</caption>
<thead><tr><th scope="col">players</th><th scope="col">pack: cards each, dead hand</th></tr></thead>
<tbody>{"".join(rows)}</tbody></table>
<h2>Rulings</h2>
<table class="readings"><caption>The reading of every ruling that applies (rows that differ from the standard game are marked)</caption>
<thead><tr><th scope="col">field</th><th scope="col">ruling</th><th scope="col">here</th><th scope="col">standard</th></tr></thead>
<tbody>{"".join(ruling_rows)}</tbody></table>
{example_deal_html(pr)}
<p>Play a whole game: <code>comet game --preset {esc(pr.name)} --seed 1</code>.</p>"""
    site.index.append(
        {"id": pr.name, "kind": "preset", "title": pr.description, "url": f"preset/{pr.name}.html", "text": ""}
    )
    site.write(f"preset/{pr.name}.html", page(f"Preset {pr.name}", body, pre, "presets.html"))


def example_deal_html(pr: Preset) -> str:
    """One seeded deal of the preset played by the model's simple policy, narrated (what ``comet deal`` prints)."""
    v = pr.variant
    players = v.default_players
    start = shuffled_deal(pr.rules, players, players - 1, EXAMPLE_SEED, packs_in_rotation(pr.rules, players)[0])
    _, actions = play_deal(start)
    wild = frozenset(card_text(c) for c in start.wild)
    hands = "".join(
        f'<li><span class="seat">{esc(seat_name(i))}</span> '
        f'<span class="hand">{"".join(card(card_text(c), wild, v.wild_name) for c in h)}</span></li>'
        for i, h in enumerate(start.hands)
    )
    if start.dead:
        dead = "".join(card(card_text(c), wild, v.wild_name) for c in start.dead)
        hands += f'<li><span class="seat">dead hand</span> <span class="hand">{dead}</span></li>'
    story = "\n".join(narrate(start, actions))
    return (
        f"<h2>An example deal</h2><p>{players} players, seed {EXAMPLE_SEED}, played by the model's simple policy "
        f"(natural cards first, the {esc(v.wild_name)} only when stuck): "
        f"<code>comet deal --preset {esc(pr.name)} --seed {EXAMPLE_SEED}</code>.</p>"
        f'<ul class="hands">{hands}</ul><pre class="story">{esc(story)}</pre>'
    )


def _fmt(v: object) -> str:
    if isinstance(v, tuple):
        return ", ".join(map(str, v))
    return _val(v)


def build_seeds(site: Site) -> None:
    pre = "../"
    readme = site.root / "seeds" / "README.md"
    intro = site.md(readme.read_text(encoding="utf-8"), pre, "seeds") if readme.exists() else ""
    links = []
    if site.aligned():
        links.append('<li><a href="000-003.html">000 (English) and 003 (German) side by side</a></li>')
    for s in sorted(site.seeds):
        if not (site.aligned() and s in ("000", "003")):
            links.append(f'<li><a href="{s}.html">{esc(SEED_NAMES.get(s, s))}</a></li>')
    comp = site.root / "seeds" / "comparison-000-003.md"
    if comp.exists():
        links.append('<li><a href="comparison.html">How 003 differs from 000, line by line</a></li>')
        site.write(
            "seeds/comparison.html",
            page("003 against 000", site.md(comp.read_text(encoding="utf-8"), pre, "seeds"), pre, "seeds/index.html"),
        )
    body = f'<h1>The sources</h1><ul class="tiles">{"".join(links)}</ul>{intro}'
    site.write("seeds/index.html", page("Sources", body, pre, "seeds/index.html"))
    for s, lines in site.seeds.items():
        for i, text in enumerate(lines, 1):
            if text.strip():
                site.index.append(
                    {
                        "id": f"{s}:{i}",
                        "kind": "source",
                        "title": f"{SEED_NAMES.get(s, s)}, line {i}",
                        "url": site.seed_url(s, i),
                        "text": text,
                    }
                )
    if site.aligned():
        rows = "".join(
            f'<tr><th scope="row">{i}</th><td id="s000-L{i}">{esc(a)}</td><td id="s003-L{i}" lang="de">{esc(b)}</td></tr>'
            for i, (a, b) in enumerate(zip(site.seeds["000"], site.seeds["003"], strict=True), 1)
        )
        body = (
            "<h1>000 and 003, line by line</h1><p>Seed 003 is a German rendering of seed 000, aligned with it line "
            'for line (see <a href="comparison.html">the comparison</a>).</p>'
            '<table class="seed two"><thead><tr><th scope="col">line</th><th scope="col">000 (English)</th>'
            f'<th scope="col">003 (German)</th></tr></thead><tbody>{rows}</tbody></table>'
        )
        site.write("seeds/000-003.html", page("000 and 003", body, pre, "seeds/index.html"))
    for s, lines in site.seeds.items():
        if site.aligned() and s in ("000", "003"):
            continue
        rows = "".join(
            f'<tr><th scope="row">{i}</th><td id="s{s}-L{i}">{esc(t)}</td></tr>' for i, t in enumerate(lines, 1)
        )
        body = (
            f'<h1>{esc(SEED_NAMES.get(s, s))}</h1><table class="seed"><thead><tr><th scope="col">line</th>'
            f'<th scope="col">text</th></tr></thead><tbody>{rows}</tbody></table>'
        )
        site.write(f"seeds/{s}.html", page(f"Seed {s}", body, pre, "seeds/index.html"))


def build_search(site: Site) -> None:
    body = """<h1>Search</h1>
<form class="search" role="search" action="search.html" method="get">
<label for="q">Rule or ruling id, or any words</label>
<input id="q" name="q" type="search" autocomplete="off">
<button type="submit">Search</button>
</form>
<p id="count" role="status" aria-live="polite"></p>
<ol id="results" class="results"></ol>
<noscript><p>Search needs JavaScript; the <a href="rules.html">rules</a> and <a href="rulings.html">rulings</a>
pages list everything.</p></noscript>"""
    site.write("search.html", page("Search", body, "", "search.html", scripts=("assets/search-index.js",)))
    text = json.dumps(site.index, ensure_ascii=False, separators=(",", ":"))
    (site.out / "assets" / "search-index.js").write_text(f"window.COMET_INDEX = {text};\n", encoding="utf-8")


# ---------------------------------------------------------------------- the whole site


def locate(site: Site) -> None:
    for f in site.rules:
        for sec in f.sections:
            site.where[sec.id] = f"{SPEC_PAGES[f.name]}#{sec.id}"
            site.slugs[f"{f.name}#{github_slug(sec.id + ': ' + sec.title)}"] = site.where[sec.id]
    for f in site.rulings:
        for sec in f.sections:
            site.where[sec.id] = f"ruling/{sec.id}.html"
            site.slugs[f"{f.name}#{github_slug(sec.id + ': ' + sec.title)}"] = site.where[sec.id]


def steps() -> Iterator[tuple[str, Callable[[Site], None]]]:
    yield "home", build_index
    yield "rules", build_rules
    yield "rulings", build_rulings
    yield "presets", build_presets
    yield "sources", build_seeds
    yield "search", build_search


def build(root: Path, out: Path, progress: Callable[[str], None] | None = None) -> Site:
    """Write the site for the checkout at ``root`` into ``out`` (emptied first if it holds an old site)."""
    spec = root / "spec"
    site = Site(
        root,
        out,
        read_spec(spec, RULE_FILES),
        read_spec(spec, RULING_FILES),
        read_seeds(root / "seeds"),
        read_reports(spec / "divergence"),
        load_witnesses(),
    )
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file, not a folder")
    if out.exists():
        if not (out / "index.html").exists() and any(out.iterdir()):
            raise ValueError(f"{out} is not empty and holds no site; give an empty or new folder")
        shutil.rmtree(out)
    (out / "assets").mkdir(parents=True)
    for asset in ASSETS.iterdir():
        if asset.is_file():
            shutil.copyfile(asset, out / "assets" / asset.name)
    locate(site)
    for name, step in steps():
        if progress is not None:
            progress(name)
        step(site)
    return site
