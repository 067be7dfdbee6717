"""The sources (each seed line by line, 000 and 003 side by side) and the search page with its index."""

from __future__ import annotations

import json

from comet.site.core import Site
from comet.site.html import esc, page
from comet.site.sources import SEED_NAMES


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
<form class="search" role="search" aria-label="Search on this page" action="search.html" method="get">
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
