"""The home page and the rules pages (``rules.html``, ``rules-variants.html``)."""

from __future__ import annotations

import dataclasses

from comet.presets import PRESETS
from comet.site.core import SPEC_PAGES, Site, body_html, chapter_intro, plain
from comet.site.html import esc, page
from comet.site.markdown import github_slug
from comet.site.plain import is_contract
from comet.site.sources import Section


def build_index(site: Site) -> None:
    n_rules = sum(len(f.sections) for f in site.rules)
    n_rulings = sum(len(f.sections) for f in site.rulings)
    body = f"""<h1>Comet: the rules, with their sources</h1>
<p class="lead">Comet is an 18th-century French card game for two to five players: build runs up one rank
at a time, get rid of your cards first, and use the Comet, a wild card, well. This rulebook teaches it,
shows where every rule comes from, and plays it with you.</p>
<h2>For players</h2>
<ul class="tiles">
<li><a href="how-to-play.html"><strong>How to play</strong></a>: the whole game in one page, with a worked deal.</li>
<li><a href="glossary.html"><strong>Glossary</strong></a>: run, stop, "without", dead hand, natural card, caught, manille…</li>
<li><a href="rules.html"><strong>Rules</strong></a>: the standard game rule by rule, each with its sources quoted
({n_rules} rules in all, with the <a href="rules-variants.html">variants</a>).</li>
<li><a href="compare.html"><strong>The presets compared</strong></a>: the {len(PRESETS)} games of the family side by
side (<a href="presets.html">one page each</a>).</li>
<li><a href="extremes.html"><strong>The extremes of Comet</strong></a>: the longest deal, the most one player can
lose or win in a deal, for every game, each with the deal that does it.</li>
</ul>
<h2>For historians</h2>
<ul class="tiles">
<li><a href="rulings.html"><strong>Rulings</strong></a>: {n_rulings} points where the sources disagree or say nothing,
each answered in one line, with the sources side by side and a deal that shows the difference.</li>
<li><a href="seeds/index.html"><strong>Sources</strong></a>: the three source texts, line by line; the English rules
and their German rendering side by side.</li>
</ul>
<h2>For implementers and researchers</h2>
<ul class="tiles">
<li><a href="implementers.html"><strong>Implementers</strong></a>: the record contract, schemas, conformance
vectors, the oracle protocol, perft and the changelog.</li>
<li><a href="researchers.html"><strong>AI researchers</strong></a>: the OpenSpiel game and the PettingZoo and
Gymnasium environments.</li>
<li><a href="search.html"><strong>Search</strong></a> rules, rulings and sources by id or by word.</li>
</ul>"""
    site.write("index.html", page("Home", body, "", "index.html"))


PLAYER_INTRO = {
    "rules.md": "The rules of the standard two-pack game, one by one, each in our words with the passages of the "
    "sources it rests on side by side: the English rules page (000), its German rendering (003) and the "
    "CatsAtCards article (002). Where the sources disagree or say nothing, a rule names the "
    '<a href="rulings.html">ruling</a> that settles it. New to the game? Start with '
    '<a href="how-to-play.html">how to play</a>; the words are in the <a href="glossary.html">glossary</a>.',
    "rules-variants.md": "The games of the Comet family that change the standard rules: Opera, two-player "
    "Comet, Old Comet (1718), Commit (two games under one name) and Red Nines. Each rule names what it "
    'changes; <a href="compare.html">the presets compared</a> puts them side by side.',
}
DEV_LINES = ("**Implemented by.**", "**Termination.**")


def for_players(sec: Section) -> Section:
    """The section without the lines that name the code implementing it (those are on the implementers' page)."""
    return dataclasses.replace(sec, body=tuple(x for x in sec.body if not x.startswith(DEV_LINES)))


def build_rules(site: Site) -> None:
    for f in site.rules:
        rel = SPEC_PAGES[f.name]
        toc, parts = [], []
        chapter = None
        for whole in f.sections:
            if is_contract(whole):
                continue
            sec = for_players(whole)
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
        intro = f'<p class="lead">{PLAYER_INTRO[f.name]}</p>' if f.name in PLAYER_INTRO else ""
        body = (
            f'<h1>{esc(f.title.removeprefix("Comet: "))}</h1>{intro}<nav aria-label="Chapters" class="toc"><ul>{"".join(toc)}</ul></nav>'
            + "".join(parts)
        )
        site.write(rel, page(f.title, body, "", rel))
