"""The home page and the rules pages (``rules.html``, ``rules-variants.html``)."""

from __future__ import annotations

from comet.presets import PRESETS
from comet.site.core import SPEC_PAGES, Site, body_html, chapter_intro, plain
from comet.site.html import esc, page
from comet.site.markdown import github_slug


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
