"""The sources (each seed line by line, 000 and 003 side by side) and the search page with its index."""

from __future__ import annotations

import json
import re
from pathlib import Path

from comet.presets import PRESETS
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
    build_views(site)
    links += site.views
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
        differs = differences(comp)
        rows = "".join(
            "<tr" + (' class="differs"' if i in differs else "") + f'><th scope="row">{i}</th>'
            f'<td id="s000-L{i}">{esc(a)}</td><td id="s003-L{i}" lang="de">{esc(b)}'
            + (diff_note(site, differs[i], pre) if i in differs else "")
            + "</td></tr>"
            for i, (a, b) in enumerate(zip(site.seeds["000"], site.seeds["003"], strict=True), 1)
        )
        n_rules = sum(1 for d in differs.values() if any(r != "No" for _, r in d))
        body = (
            "<h1>000 and 003, line by line</h1><p>Seed 003 is a German rendering of seed 000, aligned with it line "
            f"for line. The {len(differs)} lines where 003 says something differently are marked, with what differs "
            f'({n_rules} of them touch a rule, marginally or more; see <a href="comparison.html">the comparison</a>).</p>'
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


COMPARISON_ROW = re.compile(r"^\|\s*(\d+)\s*\|(.*)\|\s*$")


def differences(comp: Path) -> dict[int, list[tuple[str, str]]]:
    """Line -> (what differs, does it touch a rule) from the comparison's line-by-line tables (§3 on)."""
    out: dict[int, list[tuple[str, str]]] = {}
    if not comp.exists():
        return out
    for line in comp.read_text(encoding="utf-8").splitlines():
        m = COMPARISON_ROW.match(line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split(" | ")]
        if len(cells) >= 5:
            out.setdefault(int(m.group(1)), []).append((cells[-2], cells[-1].strip("* ")))
    return out


def diff_note(site: Site, items: list[tuple[str, str]], pre: str) -> str:
    parts = "".join(
        f"<li>{site.md(text, pre).removeprefix('<p>').removesuffix(chr(10)).removesuffix('</p>')}"
        + (f" <strong>(rules: {esc(rules.lower())})</strong>" if rules != "No" else "")
        + "</li>"
        for text, rules in items
    )
    return f'<div class="differs-note" lang="en"><span class="tag">003 differs:</span><ul>{parts}</ul></div>'


def build_views(site: Site) -> None:
    """000 and 002 side by side where both describe one game (they are not aligned line for line)."""
    pre = "../"
    views = [
        (
            "commit",
            "Commit",
            "commit_hoyle",
            "commit_cats",
            "Two different games share the name: 000 gives, in one line, an American game of the "
            "19th century; 002 describes another at length. The rulebook plays both: presets commit_hoyle and "
            "commit_cats.",
        ),
        ("opera", "Opera", "opera", "opera", "Both sources add the Opera to the standard game."),
    ]
    links = []
    for slug, name, left, right, note in views:
        if left not in PRESETS or right not in PRESETS:
            continue
        cols = []
        for seed, pr in (("000", PRESETS[left]), ("002", PRESETS[right])):
            rows = []
            for src in pr.sources:
                m = re.match(r"(\d{3}):(\d+)(?:-(\d+))?$", src)
                if not m or m.group(1) != seed:
                    continue
                lines = site.seeds.get(seed, [])
                for i in range(int(m.group(2)), int(m.group(3) or m.group(2)) + 1):
                    if 0 < i <= len(lines) and lines[i - 1].strip():
                        rows.append(
                            f'<li><a class="cite" href="{pre}{site.seed_url(seed, i)}">{seed}:{i}</a> {esc(lines[i - 1])}</li>'
                        )
            cols.append(
                f'<div class="source"><h2>{esc(SEED_NAMES.get(seed, seed))}</h2><ul class="cites">{"".join(rows)}</ul></div>'
            )
        body = (
            f"<h1>{esc(name)}: 000 and 002 side by side</h1><p>{esc(note)}</p>"
            f'<div class="sources">{"".join(cols)}</div>'
        )
        site.write(f"seeds/{slug}-000-002.html", page(f"{name}: 000 and 002", body, pre, "seeds/index.html"))
        links.append(f'<li><a href="{slug}-000-002.html">{esc(name)}: 000 and 002 side by side</a></li>')
    site.views = links


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
