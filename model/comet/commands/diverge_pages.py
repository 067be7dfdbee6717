"""The divergence report as pages people can open (``comet diverge --out DIR``), and the plain answer
``comet diverge RULING`` prints.

- ``README.md``: the index, one row per ruling: its question in words, the one-sentence answer of the headline
  player at the game's usual player count (the ruling's own page has every preset, player count and player),
  how sure, and a link to the page;
- ``RUL-ID.md``: one page per ruling: the answer per preset and player count, then each reading pair's section
  (witness, every player's answer, tables and plots; ``comet.diverge.report``);
- ``method.md``: the method once (in plain words first, then the statistics), the glossary, the placebo check,
  the competent player's strength and the other report-wide sections;
- ``summary.md``: every reading pair and player count in one table, with how many answers chance explains.

``tests/test_diverge_pages.py`` keeps every page's size bounded and every link between them resolving.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.commands.diverge_page import (
    _slug_link,
    header_lines,
    larger_runs,
    placebo_family,
    placebo_lines,
    spec_link,
    summary_table,
)
from comet.commands.reading_labels import label_of, reading_labels
from comet.diverge.glossary import glossary_lines
from comet.diverge.pairs import Pair
from comet.diverge.report import PairReport, field_section
from comet.diverge.study import Measured
from comet.ruleset import RULING_OF

#: the largest a page may be (bytes; the index far below it): code hosts stop rendering larger Markdown files
PAGE_LIMIT = 200_000
INDEX_LIMIT = 100_000

PLAIN_WORDS = [
    "## In plain words",
    "",
    "For each ruling the rules leave open, the report plays the same deals twice, once under each reading, "
    "with the same player making the same choice wherever both readings offer the same options. Whatever "
    "differs between the two plays comes from the ruling. It then says, for each player: how often the case "
    "arises, who gains (oriented so that 'gains' is good for that seat: in Red Nines, fewer penalty points), "
    "how much where it arises, and how sure it is. Where the two readings allow exactly the same play and "
    "only the payment differs, the same actions are replayed under both, and the effect is given exactly.",
    "",
    "The answer that leads is the search player's (pimc) where it is measurably stronger than greedy; the "
    "weaker players' answers are shown beside it, because the answer depends on how people play: a player "
    "that never passes, for example, never meets a ruling about passing (a zero by design).",
    "",
]


@dataclass(frozen=True, slots=True)
class RulingAnswer:
    """A ruling's one-line answer: what, how sure, and where it was measured (preset, players, player)."""

    text: str
    sure: str
    where: str


def usual_measured(r: PairReport) -> tuple[int, str] | None:
    """The index of the measurement a ruling's answer is read from (the game's usual player count if measured
    there, else the first measured) and its headline player; None if nothing was measured."""
    from comet.diverge.impact_report import headline
    from comet.variant import variant_of

    usual = variant_of(r.pair.a).default_players
    measured = [i for i, m in enumerate(r.impact) if m.deals or m.games]
    if not measured:
        return None
    i = next((i for i in measured if r.impact[i].players == usual), measured[0])
    m = r.impact[i]
    return i, headline(m)[0] if m.deals else next(iter(m.games))


#: why a whole-game answer rests on weaker players (item 7 of issue 33 is not done: see ``weaker_reason``)
WHOLE_GAMES_WEAKER = (
    "answered by whole games, which random, greedy and hoarder play and the search player (pimc) does not: it "
    "plays single deals on the fast engine, and whole games run on the reference engine"
)


def weaker_reason(m: Measured) -> str:
    """Why the headline answer of measurement ``m`` rests on a weaker player than the search player (pimc):
    whole games (which it does not play), pimc not measured, or not measurably stronger than greedy there;
    "" where pimc answers (or nothing was measured)."""
    from comet.diverge.impact_report import competent, headline

    if not m.deals:
        return WHOLE_GAMES_WEAKER if m.games else ""
    pol = headline(m)[0]
    if pol == "pimc":
        return ""
    if "pimc" not in m.deals:
        return f"the search player (pimc) was not measured here, so {pol} answers"
    if competent(m) is False:
        return f"the search player (pimc) is not measurably stronger than greedy here, so {pol} answers"
    return f"{pol} answers"


#: the index's list of answers that rest on weaker players opens with this
WEAKER_INTRO = (
    "## Answers that rest on weaker players",
    "",
    "Every answer above is the search player's (pimc), which plays well, except for these rulings: their "
    "answers come from players that choose by a fixed rule (random, greedy, hoarder), and people who play "
    "well may see another effect.",
    "",
)


def weaker_index_lines(fields: dict[str, list[PairReport]]) -> list[str]:
    """The index's list of rulings whose answer (the row above: ``usual_measured`` of its first pair) rests on
    a weaker player, one line each with the reason (``weaker_reason``); empty if there is none."""
    lines = []
    for f, rs in fields.items():
        rid = RULING_OF.get(f, "")
        ordered = sorted(rs, key=lambda r: r.pair.preset != "standard")
        r = next((r for r in ordered if usual_measured(r) is not None), None)
        if not rid or r is None:
            continue
        got = usual_measured(r)
        assert got is not None
        m = r.impact[got[0]]
        why = weaker_reason(m)
        if why:
            lines.append(f"- [{rid}]({rid}.md) ({r.pair.preset}, {m.players} players): {why}.")
    if not lines:
        return []
    return [*WEAKER_INTRO, *lines, ""]


def weaker_page_lines(rs: list[PairReport]) -> list[str]:
    """A ruling page's list of the preset and player counts whose answer rests on a weaker player, one line
    per preset and reason (``weaker_reason``); empty if there is none."""
    lines = []
    for r in rs:
        by_reason: dict[str, list[int]] = {}
        for m in r.impact:
            why = weaker_reason(m)
            if why:
                by_reason.setdefault(why, []).append(m.players)
        for why, counts in by_reason.items():
            lines.append(f"- {r.pair.preset}, {', '.join(map(str, counts))} players: {why}.")
    if not lines:
        return []
    return ["**Answers that rest on weaker players** (not on the search player, pimc):", "", *lines, ""]


def pair_answer(r: PairReport, out_dir: Path | None, family: int) -> RulingAnswer | None:
    """One reading pair's answer at its usual count (``usual_measured``)."""
    from comet.diverge.impact_report import answers_of, game_verdict
    from comet.diverge.placebo import placebo_reason

    got = usual_measured(r)
    if got is None:
        return None
    i, pol = got
    m = r.impact[i]
    where = f"{r.pair.preset}, {m.players} players, {pol}"
    if not m.deals:
        g = m.games[pol]
        return RulingAnswer(game_verdict(g), f"{g.played:,} paired games", where)
    together = family if placebo_reason(r.pair) is not None else 1
    a = answers_of(m, r.pair, together, out_dir)[pol]
    sure = a.sure.replace("simultaneous 95 % intervals over", "95 %,")
    return RulingAnswer(a.sentence, sure, where + f" ({m.deals[pol].deals:,} deals)")


def _run_line(generated: str) -> str:
    """The command and the date of the run, from the report's "Generated by" paragraph."""
    if not generated:
        return ""
    cut = generated.split(" with the `", 1)[0]
    return (cut if cut != generated else generated.split("`:", 1)[0] + "`") + "."


def index_lines(
    fields: dict[str, list[PairReport]],
    titles: dict[str, tuple[str, str]],
    out_dir: Path | None,
    family: int,
    labels: dict[str, dict[str, str]] | None = None,
) -> list[str]:
    """The index table: one row per ruling, reading B in plain words (``reading_labels``)."""
    labels = labels or {}
    lines = [
        "| ruling | question | B, the reading compared with the default | answer (headline player, the game's usual "
        "player count) | how sure | measured on |",
        "|---|---|---|---|---|---|",
    ]
    for f, rs in fields.items():
        rid = RULING_OF.get(f, "house")
        question = titles.get(rid, ("", ""))[0] or f"`{f}`"
        # the standard game's pair first where the ruling is one of the standard game's
        ordered = sorted(rs, key=lambda r: r.pair.preset != "standard")
        a = next((x for x in (pair_answer(r, out_dir, family) for r in ordered) if x is not None), None)
        more = f" (+{len(rs) - 1} more preset{'s' if len(rs) > 2 else ''})" if len(rs) > 1 else ""
        cells = ["not measured", "-", "-"] if a is None else [a.text, a.sure, a.where + more]
        cells = [c.replace("|", "/") for c in cells]
        # the anchor the rulings' "Divergence (witness and impact)" links name (the one-file report's heading)
        anchor = f'<a id="{rid.lower()}-{f}"></a>'
        b = label_of(labels, f, ordered[0].pair.value_b).replace("|", "/")
        lines.append(f"| {anchor}[{rid}]({rid}.md) | {question.replace('|', '/')} | {b} | " + " | ".join(cells) + " |")
    return lines


def ruling_page(
    field: str,
    rs: list[PairReport],
    args: argparse.Namespace,
    titles: dict[str, tuple[str, str]],
    sources: dict[str, list[str]],
    family: int,
) -> str:
    """One ruling's page: its answer per preset and player count, then each pair's section."""
    from comet.commands.rules import default_spec_dir
    from comet.diverge.impact_report import answers_of, game_verdict, headline
    from comet.diverge.pairs import value_text
    from comet.diverge.placebo import placebo_reason

    out_dir: Path | None = args.out
    rid = RULING_OF.get(field, "")
    question, where = titles.get(rid, ("", ""))
    source = f"{spec_link(where, out_dir)}#{rid.lower()}-{question.lower()}" if where else ""
    lines = [
        f"# {rid}: {question or field}",
        "",
        "[All rulings](README.md) · [How this is measured, and the words it uses](method.md) · "
        "[Every pair and player count](summary.md)",
        "",
    ]
    labels = reading_labels(default_spec_dir())
    shown: set[str] = set()
    readings = []
    for r in rs:
        for v, role in ((r.pair.value_a, "A, the default"), (r.pair.value_b, "B")):
            key = f"{r.pair.field} = {value_text(v)}"
            if key not in shown:
                shown.add(key)
                readings.append(f"- {label_of(labels, field, v)} (`{key}`; {role})")
    lines += [
        "**Readings.**",
        "",
        *readings,
        "",
        "## The answer, per preset and player count",
        "",
        "A is the preset's default reading, B the other; every answer says what changes when B is played.",
        "",
        "| preset | B reading | players | headline player | answer |",
        "|---|---|---|---|---|",
    ]
    for r in rs:
        together = family if placebo_reason(r.pair) is not None else 1
        for m in r.impact:
            if m.deals:
                pol = headline(m)[0]
                text = answers_of(m, r.pair, together, out_dir)[pol].sentence
            elif m.games:
                pol = next(iter(m.games))
                text = game_verdict(m.games[pol])
            else:
                continue
            lines.append(f"| {r.pair.preset} | `{r.pair.label_b()}` | {m.players} | {pol} | {text.replace('|', '/')} |")
    lines += ["", *weaker_page_lines(rs)]
    lines += field_section(
        field,
        rid,
        question,
        _slug_link(source),
        rs,
        out_dir,
        args.deals,
        args.games,
        sources.get(rid, []),
        placebo_family=family,
    )
    return "\n".join(lines) + "\n"


def pages(
    pairs: list[Pair],
    reports: list[PairReport],
    args: argparse.Namespace,
    contradictions: Sequence[str] = (),
    sample: int = 12,
) -> dict[str, str]:
    """File name -> Markdown text of every page (see the module note)."""
    from comet.commands.rules import default_spec_dir, ruling_sources, ruling_titles

    titles = ruling_titles(default_spec_dir())
    sources = ruling_sources(default_spec_dir())
    out_dir: Path | None = args.out
    family = max(1, placebo_family(reports))
    fields: dict[str, list[PairReport]] = {}
    for r in reports:
        fields.setdefault(r.pair.field, []).append(r)
    header = header_lines(args, False, sample)
    generated = next((x for x in header if x.startswith("Generated by")), "")
    index = [
        "# Where the readings part ways",
        "",
        "For every ruling the sources leave open: how often its case arises, who gains and how much, and how "
        "sure we are, as the search player (or, where it is not measurably stronger, the random player) plays. "
        "Each ruling's page has the answer for every preset, player count and player, a witness deal narrated "
        "side by side, and the tables. [How it is measured, and what each word means](method.md); "
        "[every reading pair and player count in one table](summary.md).",
        "",
        _run_line(generated),
        "",
        *index_lines(fields, titles, out_dir, family, reading_labels(default_spec_dir())),
        "",
        *weaker_index_lines(fields),
    ]
    method = [
        "# How the divergence report is measured",
        "",
        "[All rulings](README.md) · [Every pair and player count](summary.md)",
        "",
        *PLAIN_WORDS,
        "## Words",
        "",
        *glossary_lines(),
        "",
        "## The statistics",
        "",
        *header[2:],
        *placebo_lines(reports),
        *[x.replace("](#", "](summary.md#") for x in contradictions],
        *larger_runs(out_dir),
    ]
    summary = [
        "# Every reading pair and player count",
        "",
        "[All rulings](README.md) · [How this is measured](method.md)",
        "",
        *summary_table(reports, out_dir),
    ]
    out = {
        "README.md": "\n".join(index) + "\n",
        "method.md": "\n".join(method) + "\n",
        "summary.md": "\n".join(summary) + "\n",
    }
    for f, rs in fields.items():
        rid = RULING_OF.get(f, "")
        if rid:
            out[f"{rid}.md"] = ruling_page(f, rs, args, titles, sources, family)
    return out


def plain_lines(reports: list[PairReport], out_dir: Path | None = None, width: int = 100, limit: int = 40) -> list[str]:
    """What ``comet diverge RULING`` prints by default: per ruling its question and, per preset, the headline
    player's answer at the usual player count, wrapped at ``width`` columns, at most ``limit`` lines."""
    from comet.commands.rules import default_spec_dir, ruling_titles

    titles = ruling_titles(default_spec_dir())
    family = max(1, placebo_family(reports))
    lines: list[str] = []
    seen: set[str] = set()
    for r in reports:
        rid = RULING_OF.get(r.pair.field, "house")
        if rid not in seen:
            seen.add(rid)
            question = titles.get(rid, ("", ""))[0]
            lines += textwrap.wrap(f"{rid}: {question}" if question else rid, width)
        a = pair_answer(r, out_dir, family)
        head = f"- {r.pair.preset}, B = {r.pair.label_b()}: "
        text = "not measured" if a is None else f"{a.text} ({a.where}; {a.sure})"
        lines += textwrap.wrap(head + text, width, subsequent_indent="  ")
    tail = textwrap.wrap(
        "Every player count and player, the witness and the tables: --full; the words: spec/divergence/method.md.",
        width,
    )
    if len(lines) + len(tail) > limit:
        cut = limit - len(tail) - 1
        lines = [*lines[:cut], f"... {len(lines) - cut} more lines: --full"]
    return [*lines, *tail]
