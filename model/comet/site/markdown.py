"""Markdown of the spec rendered to HTML (markdown-it-py), with every link made to point inside the site.

A link to another spec file, an anchor of it or the divergence report is mapped to the page that
shows it; a link the site has no page for keeps its text and loses the link, so the site never holds
a dead link.  Rule and ruling ids in the text (``R-PLAY-MUST``, ``RUL-COMET-LEAD``) link to their place.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from markdown_it import MarkdownIt

ID_IN_TEXT = re.compile(r"(?<![\w/#-])((?:RUL|R)-[A-Z0-9]+(?:-[A-Z0-9]+)*)(?![\w-])")
TAG = re.compile(r"(<[^>]+>)")

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def render(text: str, resolve: Callable[[str], str | None], ids: Callable[[str], str | None]) -> str:
    """HTML of ``text``: links through ``resolve`` (None drops the link), ids linked through ``ids``."""
    tokens = _MD.parse(text)
    for tok in tokens:
        if tok.children is None:
            continue
        dropped: list[bool] = []
        for child in tok.children:
            if child.type == "link_open":
                target = resolve(str(child.attrGet("href") or ""))
                dropped.append(target is None)
                if target is None:
                    child.tag = "span"
                    child.attrs = {}
                else:
                    child.attrSet("href", target)
            elif child.type == "link_close" and dropped and dropped.pop():
                child.tag = "span"
    out = _MD.renderer.render(tokens, _MD.options, {})
    return link_ids(out, ids)


def link_ids(markup: str, ids: Callable[[str], str | None]) -> str:
    """Link every rule/ruling id in the text parts of ``markup`` (never inside a link or a heading)."""
    parts = TAG.split(markup)
    depth = 0
    for i, part in enumerate(parts):
        if part.startswith("<"):
            name = part[1:].split(">")[0].split()[0].lower() if len(part) > 2 else ""
            if name in ("a", "h1", "h2", "h3", "h4"):
                depth += 1
            elif name in ("/a", "/h1", "/h2", "/h3", "/h4"):
                depth -= 1
            continue
        if depth:
            continue

        def sub(m: re.Match[str]) -> str:
            target = ids(m.group(1))
            return f'<a href="{html.escape(target)}">{m.group(1)}</a>' if target else m.group(1)

        parts[i] = ID_IN_TEXT.sub(sub, part)
    return "".join(parts)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading (lower case, punctuation dropped, spaces to hyphens)."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")
