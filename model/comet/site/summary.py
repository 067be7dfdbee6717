"""A ruling in one line, for readers: its question, the sources it quotes, the answer we take, how much it
matters (counted from the divergence report's summary table, read defensively: a report that is missing,
or whose table has another shape, gives no figure rather than an error), and its witnesses in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from comet.notation import seat_name
from comet.site.sources import Section, normalise

ROW = re.compile(r"^\|\s*(?:<a id=\"[^\"]*\"></a>)?\[(RUL-[A-Z0-9-]+)\]\([^)]*\)\s*\|(.*)\|\s*$")
#: The index's answers that say a reading changes what someone gets (spec/divergence/README.md, issue 33).
GAINS = re.compile(r"^\s*(changes who gains|exact effect)\b")
LABELLED = re.compile(r"^\*\*([A-Z][A-Za-z ]+)\.\*\*\s*(.*)$")
SEEDS = {"000": "the English rules (000)", "003": "the German rendering (003)", "002": "the CatsAtCards article (002)"}


@dataclass(frozen=True, slots=True)
class Measured:
    matters: int  # measurements (preset, players) whose verdict is that the reading matters
    total: int

    def words(self) -> str:
        if not self.total:
            return ""
        if not self.matters:
            return f"no measurable effect in any of {self.total} measurements"
        return f"matters in {self.matters} of {self.total} measurements (game and number of players)"


def measured(readme: Path) -> dict[str, Measured]:
    """Per ruling, how many rows of the report's summary table say the reading matters."""
    try:
        lines = readme.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    counts: dict[str, list[int]] = {}
    for line in lines:
        m = ROW.match(line)
        if not m:
            continue
        cells = m.group(2).split("|")
        verdict = cells[-1]
        answer = cells[2] if len(cells) > 2 else ""
        c = counts.setdefault(m.group(1), [0, 0])
        c[1] += 1
        if re.search(r":\s*matters\b", verdict) or GAINS.match(answer):
            c[0] += 1
    return {k: Measured(a, b) for k, (a, b) in counts.items()}


def paragraph(sec: Section, name: str) -> str:
    """The text of a ``**Name.**`` paragraph of the section (empty if it has none)."""
    out: list[str] = []
    inside = False
    for line in sec.body:
        m = LABELLED.match(line)
        if m:
            if inside:
                break
            if m.group(1) == name:
                inside = True
                out.append(m.group(2))
            continue
        if inside:
            if not line.strip():
                break
            out.append(line.strip())
    return normalise(" ".join(out))


def first_sentence(text: str) -> str:
    text = re.sub(r"\*\*[^*]+\*\*:?", "", text).strip()
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return (m.group(1) if m else text).strip()


def answer(sec: Section) -> str:
    """The one-sentence answer: the first sentence of the ruling's "Default and why"."""
    return first_sentence(paragraph(sec, "Default and why"))


def sources_quoted(sec: Section) -> str:
    seeds = [s for s in ("000", "003", "002") if any(c.seed == s for c in sec.citations)]
    if not seeds:
        return "no source speaks to it"
    return ", ".join(seeds)


def seat_list(values: str, signed: bool) -> str:
    nums = [int(x) for x in re.findall(r"-?\d+", values)]
    if signed:
        return ", ".join(f"{seat_name(i)} {v:+d}" for i, v in enumerate(nums))
    return " and ".join(seat_name(v) for v in nums)


def detail_words(detail: str) -> str:
    """A witness's difference in words: a move allowed under one reading only, or chips per player by name."""
    m = re.match(r"^'(.+)': (A|B) allows it, (A|B) does not$", detail)
    if m:
        return f"the move “{m.group(1)}” is allowed under reading {m.group(2)} and not under reading {m.group(3)}"
    text = re.sub(r"winners \[([-\d, ]+)\]", lambda x: "the winners are " + seat_list(x.group(1), False), detail)
    return re.sub(r"\[(-?\d+(?:, -?\d+)*)\]", lambda x: "(" + seat_list(x.group(1), True) + ")", text)


def origin_words(origin: str) -> str:
    """How the witness was found, explained."""
    if origin.startswith("Z3"):
        rest = origin.removeprefix("Z3").strip(", ")
        return (
            f"found by the Z3 solver, which searched every possible deal ({rest}) for the shortest one "
            "where the two readings part ways"
        )
    if origin.startswith("built"):
        return "built for this ruling: " + origin.removeprefix("built").strip(": ")
    if origin.startswith("game seed"):
        return f"found by playing whole seeded games ({origin})"
    return origin


def premise_words(text: str) -> str:
    """A ``**Premise.**`` line (``premise => conclusion = answer``) in words."""
    m = re.match(r"^(.+?)\s*=>\s*(.+?)\s*=\s*(yes|no)\b", text)
    if not m:
        return text
    a, b = m.group(1).replace("-", " "), m.group(2).replace("-", " ")
    return f"This answer rests on a premise: “{a}”. From it we conclude: {b}? {m.group(3)}."
