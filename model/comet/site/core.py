"""What every page is made from: the ``Site`` (the texts read, where every id lives, the search index)
and the pieces shared by the pages (a citation in its seed line, sources side by side, a section's body)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from comet.records.deal_record import JsonObject
from comet.site.divergence import Impact
from comet.site.html import esc
from comet.site.markdown import render
from comet.site.sources import CITATION, SEED_NAMES, Citation, Section, SpecFile, normalise
from comet.site.summary import Measured

ASSETS = Path(__file__).with_name("assets")
SPEC_PAGES = {"rules.md": "rules.html", "rules-variants.md": "rules-variants.html"}
# The spec's documents for implementers and researchers, each shown as a page of its own.
DEV_DOCS = {
    "record.md": "dev/record.html",
    "implementing.md": "dev/implementing.html",
    "vectors.md": "dev/vectors.html",
    "perft.md": "dev/perft.html",
    "proofs.md": "dev/proofs.html",
    "CHANGELOG.md": "dev/changelog.html",
    "frameworks.md": "dev/frameworks.html",
}
CONTEXT = 160  # characters of the seed line shown either side of a quote
DIFF_CLASS = ' class="diff"'
DIFFERS_CLASS = ' class="differs"'


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
    labels: dict[tuple[str, str], str] = field(default_factory=dict)  # (field, JSON value) -> reading in words
    measured: dict[str, Measured] = field(default_factory=dict)  # ruling -> how much it matters
    views: list[str] = field(default_factory=list)  # links to the 000 | 002 views (seeds/index.html)
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
            if name in DEV_DOCS and "/" not in path.replace("spec/", "").lstrip("./"):
                return prefix + DEV_DOCS[name]  # the rendered documents carry no heading anchors
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


def sources_html(site: Site, cites: list[Citation], prefix: str, level: int = 4) -> str:
    """Citations grouped by seed, the groups side by side (000 | 003 | 002)."""
    order = [s for s in ("000", "003", "002") if any(c.seed == s for c in cites)]
    order += sorted({c.seed for c in cites} - set(order))
    cols = []
    for s in order:
        items = "".join(citation_html(site, c, prefix) for c in cites if c.seed == s)
        cols.append(
            f'<div class="source"><h{level}>{esc(SEED_NAMES.get(s, s))}</h{level}><ul class="cites">{items}</ul></div>'
        )
    return f'<div class="sources">{"".join(cols)}</div>'


def body_html(site: Site, sec: Section, prefix: str, level: int = 4) -> str:
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
            out.append(sources_html(site, list(cites), prefix, level))
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
    text = re.sub(r"\]\([^)]*\)", " ", " ".join(lines))  # link targets first, then the marks
    return normalise(re.sub(r"[`*\[\]]", " ", text))


def chapter_intro(site: Site, f: SpecFile, chapter: str, prefix: str) -> str:
    """The text a ``## `` chapter has before its first rule or ruling (empty if none)."""
    lines = dict(f.chapters).get(chapter, ())
    return site.md("\n".join(lines), prefix) if any(x.strip() for x in lines) else ""


def _val(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _fmt(v: object) -> str:
    if isinstance(v, tuple):
        return ", ".join(map(str, v))
    return _val(v)
