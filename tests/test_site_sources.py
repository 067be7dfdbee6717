"""Which sources speak to each ruling, as the site shows it (issue 35 item 2): every ruling of
spec/rulings*.md names the same sources on the rulings index and in its page's "In short", and its page
quotes every line it cites, linked to that line of the seed.  The sources are read here from the spec's
Markdown on its own (not with the site's parser), so a slip in the site's reading shows."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULING = re.compile(r"^### (RUL-[A-Z0-9-]+):")
CITED = re.compile(r"^\s*- (\d{3}):(\d+)(?:-(\d+))? \"")
ORDER = ("000", "003", "002")


def cited_lines() -> dict[str, dict[str, set[int]]]:
    """Ruling id -> seed -> the first lines it cites, from spec/rulings.md and spec/rulings-variants.md."""
    out: dict[str, dict[str, set[int]]] = {}
    for name in ("rulings.md", "rulings-variants.md"):
        current: dict[str, set[int]] | None = None
        for line in (ROOT / "spec" / name).read_text(encoding="utf-8").splitlines():
            m = RULING.match(line)
            if m:
                current = out.setdefault(m.group(1), {})
            elif line.startswith("## ") or line.startswith("### "):
                current = None
            elif current is not None and (c := CITED.match(line)):
                current.setdefault(c.group(1), set()).add(int(c.group(2)))
    return out


def shown(seeds: dict[str, set[int]]) -> str:
    named = [s for s in ORDER if s in seeds] + sorted(set(seeds) - set(ORDER))
    return ", ".join(named) if named else "no source speaks to it"


def source_problems(site: Path) -> list[str]:
    """Every ruling whose sources the site shows wrongly, in words."""
    problems: list[str] = []
    index = (site / "rulings.html").read_text(encoding="utf-8")
    lines = {
        m.group(1): html.unescape(m.group(2)).strip()
        for m in re.finditer(r'<li><a href="ruling/(RUL-[A-Z0-9-]+)\.html">.*?Sources quoted: ([^·<]*)', index)
    }
    for rid, seeds in sorted(cited_lines().items()):
        want = shown(seeds)
        if lines.get(rid) != want:
            problems.append(f"rulings.html: {rid} shows sources {lines.get(rid)!r}, its spec text quotes {want!r}")
        page_path = site / "ruling" / f"{rid}.html"
        if not page_path.exists():
            problems.append(f"{rid} has no page")
            continue
        page = page_path.read_text(encoding="utf-8")
        m = re.search(r"<dt>Sources quoted</dt><dd>([^<]*)</dd>", page)
        got = html.unescape(m.group(1)) if m else None
        if got != want:
            problems.append(f"ruling/{rid}.html: 'In short' shows sources {got!r}, its spec text quotes {want!r}")
        linked = {(s, int(n)) for s, n in re.findall(r'href="[^"]*#s(\d{3})-L(\d+)"', page)}
        for seed, firsts in sorted(seeds.items()):
            for first in sorted(firsts):
                if (seed, first) not in linked:
                    problems.append(f"ruling/{rid}.html does not quote {seed}:{first} (its spec text cites it)")
    return problems


def test_every_ruling_shows_the_sources_it_quotes(built_site: Path) -> None:
    """Each ruling: the same sources on the index line and in 'In short', each cited line quoted and linked."""
    assert len(cited_lines()) >= 70, "the rulings were not found in spec/rulings*.md"
    problems = source_problems(built_site)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("where", ["index", "page", "quote"])
def test_a_missing_source_is_caught(built_site: Path, tmp_path: Path, where: str) -> None:
    """Planted: one ruling that loses a source (on the index line, in 'In short', or a quote of its page)."""
    site = tmp_path / "site"
    site.mkdir()
    shutil.copyfile(built_site / "rulings.html", site / "rulings.html")
    shutil.copytree(built_site / "ruling", site / "ruling")
    rid = "RUL-COMET-LEAD"
    assert shown(cited_lines()[rid]) == "000, 003, 002"
    if where == "index":
        path = site / "rulings.html"
        text = path.read_text(encoding="utf-8")
        start = text.index(f'<li><a href="ruling/{rid}.html">')
        text = text[:start] + text[start:].replace("Sources quoted: 000, 003, 002", "Sources quoted: 000, 003", 1)
    else:
        path = site / "ruling" / f"{rid}.html"
        text = path.read_text(encoding="utf-8")
        if where == "page":
            text = text.replace("<dd>000, 003, 002</dd>", "<dd>000, 003</dd>")
        else:
            text = re.sub(r'href="[^"]*#s002-L20"', 'href="#gone"', text)
    path.write_text(text, encoding="utf-8")
    problems = source_problems(site)
    assert problems and all(rid in p for p in problems), problems
