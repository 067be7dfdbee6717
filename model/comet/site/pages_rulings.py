"""The rulings: the index and one page per ruling (sources, the switch, witness deals stepped through
under both readings, the measured impact)."""

from __future__ import annotations

import json
import shutil

from comet.notation import seat_name
from comet.presets import PRESETS
from comet.records.deal_record import JsonObject, JsonValue
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.site.core import DIFF_CLASS, Site, _val, body_html, plain
from comet.site.divergence import Impact
from comet.site.html import card, esc, json_script, page
from comet.site.plain import label
from comet.site.sources import Section
from comet.site.summary import answer, detail_words, origin_words, paragraph, premise_words, sources_quoted
from comet.site.witness import record_with, stepper_data
from comet.variant import applies

PAGE_TOC = (
    '<li><a href="#switch">The switch</a></li><li><a href="#witness">Witness deals</a></li>'
    '<li><a href="#impact">Measured impact</a></li>'
)


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

    la, lb = label(site.labels, field_name, data["a"]), label(site.labels, field_name, data["b"])
    data = {**data, "a_label": la, "b_label": lb}
    play = json.dumps({"preset": data["preset"], "record": record, "rulings": {}, "b": {field_name: data["b"]}})
    return f"""<div class="stepper" id="{wid}" data-data="{wid}-data">
<p class="about"><strong>{esc(data["preset"])}</strong>. Reading A (this game's): {esc(la)}
(<code>{esc(field_name)} = {esc(a)}</code>). Reading B: {esc(lb)} (<code>{esc(field_name)} = {esc(b)}</code>).
Where they part: {esc(detail_words(str(data["detail"])))}.
<span class="origin">This deal was {esc(origin_words(str(data["origin"])))}.</span> The deal is played on to
its end under each reading by the simple players, so you see how it finishes.</p>
<p class="play-witness"><button type="button" class="play-it" data-play="{esc(play)}" data-reading="a">Play this deal yourself under A</button>
<button type="button" class="play-it" data-play="{esc(play)}" data-reading="b">… under B</button> (opens the
<a href="{pre_of(site)}play.html">play page</a>; it needs the site served, not opened as a file)</p>
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
<section class="side" data-side="0" aria-label="Reading A: {esc(la)}"></section>
<section class="side" data-side="1" aria-label="Reading B: {esc(lb)}"></section>
</div>
{json_script(wid + "-data", data)}
</div>"""


def pre_of(site: Site) -> str:
    return "../"  # every ruling page sits in ruling/


def records_html(record: JsonObject, name: str, b: JsonValue) -> str:
    """The witness as deal records (spec/record.md) an implementer can replay: A's as stored, B's with the ruling."""
    out = []
    sides: tuple[tuple[str, JsonValue], ...] = (("A (the preset's default)", None), (f"B ({name} = {_val(b)})", b))
    for who, value in sides:
        rec = record_with(record, name, value)
        text = json.dumps(rec, ensure_ascii=False, sort_keys=True)
        out.append(f"<p>{esc(who)}: <code>comet replay FILE</code> with FILE holding</p><pre>{esc(text)}</pre>")
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
        f"only over a whole game: {esc(detail_words(str(e.get('detail', ''))))}. This game was "
        f"{esc(origin_words(str(e.get('origin', ''))))}.{how}</p></div>"
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
            f'<figure><a href="{prefix}{rel}"><img src="{prefix}{rel}" alt="{esc(words)}" loading="lazy" width="900"></a>'
            f'<figcaption>{esc(words)}<span class="plot-note">On a small screen the table above gives the same '
            "figures; tap the plot to open it full size.</span></figcaption></figure>"
        )
    report = f"the <code>spec/divergence/{esc(imp.report)}</code> study" if imp.report else "the main report"
    return (
        f'<div class="impact"><h4>{esc(imp.preset)}: <code>{esc(imp.field)} = {esc(imp.a)}</code> against '
        f"<code>{esc(imp.b)}</code> ({report})</h4>"
        f'<p class="run">{esc(imp.heading)}</p>{site.md(chr(10).join(imp.markdown), prefix)}{"".join(plots)}</div>'
    )


def ruling_line(site: Site, sec: Section, prefix: str) -> str:
    """One ruling in a line: the question (linked), the answer, who speaks to it, the readings, the impact."""
    m = site.measured.get(sec.id)
    readings = [label(site.labels, f, v) for f in sec.fields if f in RULING_FIELDS for v in (field_readings(f) or ())]
    meta = f"Sources quoted: {esc(sources_quoted(sec))}"
    if readings:
        meta += " · Readings: " + esc(" / ".join(readings))
    if m is not None and m.total:
        meta += f" · Measured: {esc(m.words())}"
    ans = answer(sec)
    return (
        f'<li><a href="{prefix}{esc(site.where[sec.id])}">{esc(sec.title)}</a> <span class="rid">{esc(sec.id)}</span>'
        + (
            f'<span class="answer">{site.md(ans, prefix).removeprefix("<p>").removesuffix(chr(10)).removesuffix("</p>")}</span>'
            if ans
            else ""
        )
        + f'<span class="meta">{meta}</span></li>'
    )


def build_rulings(site: Site) -> None:
    listing = []
    n = 0
    order = [sec for f in site.rulings for sec in f.sections]
    for f in site.rulings:
        title = f.title.removeprefix("Comet: ")
        listing.append(f"<h2>{esc(title[:1].upper() + title[1:])}</h2>")
        chapter = None
        items: list[str] = []
        for sec in f.sections:
            if sec.chapter != chapter:
                if items:
                    listing.append(f'<ul class="rulings">{"".join(items)}</ul>')
                    items = []
                chapter = sec.chapter
                listing.append(f"<h3>{esc(chapter)}</h3>")
            items.append(ruling_line(site, sec, ""))
            n = build_ruling(site, sec, n, order)
        if items:
            listing.append(f'<ul class="rulings">{"".join(items)}</ul>')
    intro = (
        '<h1>Rulings</h1><p class="lead">Where the sources disagree, contradict themselves or say nothing, '
        "the rulebook has to decide. Each line below is one such point: the question, our answer, which "
        "sources speak to it (000: the English rules; 003: their German rendering; 002: the CatsAtCards "
        "article), its readings, and how much the choice changes play when measured. Each page has the "
        "sources side by side and a deal that shows the difference. How rulings are written: "
        '<a href="dev/rulings-format.html">for implementers</a>.</p>'
    )
    site.write("rulings.html", page("Rulings", intro + "".join(listing), "", "rulings.html"))
    dev = "".join(site.md(chr(10).join(f.intro), "../") for f in site.rulings)
    site.write(
        "dev/rulings-format.html",
        page("How the rulings are written", "<h1>How the rulings are written</h1>" + dev, "../", "implementers.html"),
    )


def build_ruling(site: Site, sec: Section, n: int, order: list[Section]) -> int:
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
        prev_next(site, sec, order, pre),
        in_short(site, sec, fields, pre),
        '<nav aria-label="On this page" class="toc"><ul><li><a href="#ruling">The sources and the argument</a></li>'
        + (PAGE_TOC if fields else "")
        + "</ul></nav>",
        f'<section id="ruling" aria-labelledby="ruling-h"><h2 id="ruling-h">The sources and the argument</h2>'
        f"{body_html(site, sec, pre, 3)}</section>",
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
    parts.append(prev_next(site, sec, order, pre, "Previous and next ruling (end of page)"))
    site.write(rel, page(f"{sec.id}: {sec.title}", "".join(parts), pre, "rulings.html"))
    return n


def prev_next(site: Site, sec: Section, order: list[Section], pre: str, name: str = "Previous and next ruling") -> str:
    i = order.index(sec)
    links = []
    if i > 0:
        p = order[i - 1]
        links.append(f'<a rel="prev" href="{pre}{esc(site.where[p.id])}">← {esc(p.id)}: {esc(p.title)}</a>')
    if i + 1 < len(order):
        x = order[i + 1]
        links.append(f'<a rel="next" href="{pre}{esc(site.where[x.id])}">{esc(x.id)}: {esc(x.title)} →</a>')
    return f'<nav class="prevnext" aria-label="{esc(name)}">{"".join(links)}</nav>'


def in_short(site: Site, sec: Section, fields: list[str], pre: str) -> str:
    """The ruling in a few lines: the answer, the sources, the readings in words, the premise, the impact."""
    rows = []
    ans = answer(sec)
    if ans:
        rows.append(f"<dt>Our answer</dt><dd>{site.md(ans, pre)}</dd>")
    rows.append(f"<dt>Sources quoted</dt><dd>{esc(sources_quoted(sec))}</dd>")
    for f in fields:
        readings = field_readings(f) or ()
        mine = [getattr(PRESETS[p].rules, f) for p in ("standard",) if p in PRESETS]
        items = "".join(
            f"<li>{esc(label(site.labels, f, v))}{' (the standard game)' if mine and mine[0] == v else ''}</li>"
            for v in readings
        )
        if items:
            rows.append(f"<dt>Readings</dt><dd><ul>{items}</ul></dd>")
    premise = paragraph(sec, "Premise")
    if premise:
        rows.append(f"<dt>Premise</dt><dd>{esc(premise_words(premise.split('(`')[0]))}</dd>")
    m = site.measured.get(sec.id)
    if m is not None and m.total:
        rows.append(
            f'<dt>How much it matters</dt><dd>{esc(m.words())}: see <a href="#impact">the measured impact</a>.</dd>'
        )
    return f'<section aria-labelledby="short-h"><h2 id="short-h">In short</h2><dl class="facts">{"".join(rows)}</dl></section>'
