"""Every reading in plain words: the label a reader sees instead of ``field = value``.

Taken from the rulings' own text (``spec/rulings.md``, ``spec/rulings-variants.md``): under each ruling's
**Readings.** heading, one bullet per reading, ``- `field = "value"` (default): what it says.``; the label is
the bullet's first sentence.  One source, so a label cannot drift from the ruling it names.
"""

from __future__ import annotations

import re
from pathlib import Path

#: The spec files that hold the rulings (``comet.commands.rules`` reads the same list from here).
RULING_FILES = ("rulings.md", "rulings-variants.md")

BULLET = re.compile(r'^- `([a-z0-9_]+) = "?([^"`]+)"?`(?: \(default\))?: (.+)$')


def first_sentence(text: str, limit: int = 160) -> str:
    """The text up to its first full stop followed by a space (or the whole), cut at a word near ``limit``."""
    m = re.search(r"\.\s", text + " ")
    out = text[: m.start()] if m else text
    out = out.rstrip(".")
    if len(out) > limit:
        out = out[:limit].rsplit(" ", 1)[0] + " …"
    return out


def reading_labels(spec: Path) -> dict[str, dict[str, str]]:
    """Field -> reading (as ``--ruling`` spells it) -> its plain label (empty if the spec folder is absent)."""
    out: dict[str, dict[str, str]] = {}
    for name in RULING_FILES:
        path = spec / name
        if not path.exists():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = BULLET.match(line.strip())
            if m:
                # a bullet wrapped over several lines: its indented continuation lines belong to it
                rest = []
                for more in lines[i + 1 :]:
                    if not more.startswith("  ") or not more.strip():
                        break
                    rest.append(more.strip())
                text = " ".join([m.group(3), *rest])
                out.setdefault(m.group(1), {}).setdefault(m.group(2).lower(), first_sentence(text))
    return out


def label_of(labels: dict[str, dict[str, str]], field: str, value: object) -> str:
    """The plain label of ``field = value``, or ``field = value`` itself where the rulings give none."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return labels.get(field, {}).get(text, f"{field} = {text}")
