"""Pages for implementers (the record contract, the spec's documents, where each rule is implemented) and
for AI researchers (the OpenSpiel and PettingZoo games).  The player's pages carry none of this."""

from __future__ import annotations

import re

from comet.site.core import DEV_DOCS, Site, body_html, plain
from comet.site.html import esc, page
from comet.site.plain import is_contract

DOC_TITLES = {
    "record.md": "The record format (deal and game records, replay output)",
    "implementing.md": "Implementing Comet: the conformance contract",
    "vectors.md": "The conformance vectors: layout and how to run them",
    "perft.md": "Perft: counting the legal move tree",
    "proofs.md": "The proofs (Z3) and what they check",
    "CHANGELOG.md": "Changelog of the spec",
    "frameworks.md": "Comet in OpenSpiel, PettingZoo and Gymnasium",
}
# A wide table of the spec's documents scrolls inside its own box, which the keyboard can reach.
WIDE = '<div class="scroll" tabindex="0" role="region" aria-label="Table {n} (scrolls sideways)"><table>'
IMPLEMENTED = re.compile(r"^\*\*Implemented by\.\*\*\s*(.*)$")
# A picture a spec document shows or links beside it (``spec/cfr-tiny.svg``): copied next to its page.
PICTURE = re.compile(r"\]\(([A-Za-z0-9_.-]+\.(?:svg|png))\)")


def build_dev(site: Site) -> None:
    pre = "../"
    spec = site.root / "spec"
    docs = []
    for name, rel in DEV_DOCS.items():
        path = spec / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        title = DOC_TITLES.get(name, name)
        parts = site.md(text, pre, "spec").split("<table>")
        html = parts[0] + "".join(WIDE.format(n=n) + x for n, x in enumerate(parts[1:], 1))
        html = html.replace("</table>", "</table></div>")
        site.write(rel, page(title, html, pre, "implementers.html"))
        for picture in sorted(set(PICTURE.findall(text))):
            if (spec / picture).is_file():
                target = site.out / rel.rsplit("/", 1)[0] / picture
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes((spec / picture).read_bytes())
        site.index.append(
            {"id": name, "kind": "implementers", "title": title, "url": rel, "text": plain(text.splitlines()[:40])}
        )
        if name != "frameworks.md":
            docs.append(f'<li><a href="{rel}">{esc(title)}</a> (<code>spec/{esc(name)}</code>)</li>')
    contract = [sec for f in site.rules for sec in f.sections if is_contract(sec)]
    parts = [
        f'<section class="rule" id="{esc(sec.id)}" aria-labelledby="h-{esc(sec.id)}">'
        f'<h2 id="h-{esc(sec.id)}"><span class="rid">{esc(sec.id)}</span> {esc(sec.title)}</h2>'
        f"{body_html(site, sec, pre, 3)}</section>"
        for sec in contract
    ]
    for sec in contract:
        site.index.append(
            {"id": sec.id, "kind": "rule", "title": sec.title, "url": site.where[sec.id], "text": plain(sec.body)}
        )
    site.write(
        "dev/contract.html",
        page(
            "The record contract",
            '<h1>The record contract</h1><p class="lead">What a deal record and a replay show where the sources are '
            "silent: the order of legal actions, which rule an illegal action breaks, the payment list, the state "
            "after each action, numbers and malformed records. These rules are ours, not the game's; a conformance "
            "vector exercises each one.</p>" + "".join(parts),
            pre,
            "implementers.html",
        ),
    )
    rows = []
    for f in site.rules:
        for sec in f.sections:
            for line in sec.body:
                m = IMPLEMENTED.match(line)
                if m:
                    rows.append(
                        f'<tr><td><a href="{esc(site.where[sec.id])}">{esc(sec.id)}</a></td><td>{site.md(m.group(1), "").removeprefix("<p>").removesuffix("</p>" + chr(10))}</td></tr>'
                    )
    schemas = sorted(p.name for p in (spec / "schemas").glob("*.json")) if (spec / "schemas").is_dir() else []
    body = f"""<h1>For implementers</h1>
<p class="lead">Writing your own Comet, or checking one? The model is the reference: every record it writes
can be replayed, every illegal action is named by its rule, and a set of conformance vectors fixes the
answers. <a href="check.html">Check a record in the page</a>, without installing anything.</p>
<h2>The contract and the documents</h2>
<ul class="tiles"><li><a href="dev/contract.html">The record contract</a>: the rules a record follows where the
sources are silent.</li>{"".join(docs)}</ul>
<h2>The schemas</h2>
<p>JSON Schemas in <code>spec/schemas/</code> of the repository: {", ".join(f"<code>{esc(s)}</code>" for s in schemas) or "none"}.</p>
<h2>Commands</h2>
<ul><li><code>comet replay FILE</code>: replay a deal or game record; the verdict names the rule an illegal action breaks.</li>
<li><code>comet vectors</code> and <code>comet conform</code>: the conformance vectors, and running another engine against them through the oracle protocol.</li>
<li><code>comet perft</code>: count the legal move tree to a depth, to compare move generators.</li></ul>
<h2>Where each rule is implemented</h2>
<p>Each rule of the model carries a <code>@rule("R-…")</code> mark on the functions that implement it; a test checks that every rule has one.</p>
<table><thead><tr><th scope="col">rule</th><th scope="col">implemented by</th></tr></thead><tbody>{"".join(rows)}</tbody></table>"""
    site.write("implementers.html", page("For implementers", body, "", "implementers.html"))
    research = f"""<h1>For AI researchers</h1>
<p class="lead">Comet is an imperfect-information game for two to eight players with a wild card, forced moves
and a dead hand nobody sees. The model runs unchanged inside the frameworks game and reinforcement-learning
researchers use.</p>
<ul class="tiles"><li><a href="{DEV_DOCS["frameworks.md"]}">{esc(DOC_TITLES["frameworks.md"])}</a>: the
OpenSpiel game <code>python_comet</code>, the PettingZoo AEC environment and the Gymnasium single-agent
environment, their parameters, observations and how to run a bot.</li>
<li><a href="presets.html">The presets</a>: the seven games, each a parameter of the environments.</li>
<li><a href="rulings.html">The rulings</a>: every reading is a parameter too, so an agent can be trained
under either reading of a disputed rule.</li></ul>"""
    site.write("researchers.html", page("For AI researchers", research, "", "implementers.html"))
