"""The rulings: the index and one page per ruling (sources, the switch, witness deals stepped through
under both readings, the measured impact)."""

from __future__ import annotations

import json
import shutil

from comet.notation import seat_name
from comet.presets import PRESETS
from comet.records.deal_record import JsonObject, JsonValue
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.site.core import DIFF_CLASS, Site, _val, body_html, chapter_intro, plain
from comet.site.divergence import Impact
from comet.site.html import card, esc, json_script, page
from comet.site.sources import Section
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
