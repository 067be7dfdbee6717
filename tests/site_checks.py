"""Checks of a built ``comet site``: every internal link and anchor resolves, nothing reaches the network.

Plain functions returning a list of problems (one readable line each), shared by ``test_site.py`` (over
the files) and ``test_site_browser.py`` (over what the browser's DOM holds, scripts included).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from html.parser import HTMLParser
from pathlib import Path


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        for key in ("href", "src"):
            if a.get(key) and tag != "form":
                self.links.append(str(a[key]))
        if tag == "form" and a.get("action"):
            self.links.append(str(a["action"]))


def scan(site: Path) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """(ids by page, links by page) of every HTML file under ``site`` (paths relative to it, posix)."""
    ids: dict[str, set[str]] = {}
    links: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        c = _Collect()
        c.feed(path.read_text(encoding="utf-8"))
        ids[rel], links[rel] = c.ids, c.links
    return ids, links


def link_problems(
    files: Iterable[str], ids: Mapping[str, set[str]], links: Mapping[str, Iterable[str]]
) -> list[str]:
    """Links that leave the site, or point at a missing file or a missing anchor."""
    have = set(files)
    out: list[str] = []
    for page, hrefs in links.items():
        for href in hrefs:
            if "://" in href or href.startswith("//") or href.startswith("mailto:"):
                out.append(f"{page}: {href!r} leaves the site (it must work offline)")
                continue
            path, _, anchor = href.partition("#")
            path = path.split("?", 1)[0]
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
            if target not in have:
                out.append(f"{page}: {href!r} points at {target}, which the site does not hold")
            elif anchor and target.endswith(".html") and anchor not in ids.get(target, set()):
                out.append(f"{page}: {href!r}: {target} has no element with id {anchor!r}")
    return out


def site_files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
