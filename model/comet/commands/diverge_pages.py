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
import re
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


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def published_lines(
    field: str, divergence: Path, presets: Sequence[str] = (), width: int = 100, limit: int = 40
) -> list[str] | None:
    """What ``comet diverge RULING`` prints by default: the plain answer read from the published report in
    ``divergence`` (spec/divergence/): the ruling's question, per preset the answer at the game's usual player
    count (``RUL-ID.md``'s answer table; the first count where it was not measured there), how sure (the
    index's row), the answers that rest on weaker players, and the run it comes from; at most ``limit`` lines of
    ``width`` columns.  None if the report has no page for the ruling, or the page no answer (for ``presets``)."""
    from comet.presets import PRESETS
    from comet.variant import variant_of

    rid = RULING_OF.get(field, "")
    page = divergence / f"{rid}.md"
    if not rid or not page.is_file():
        return None
    text = page.read_text(encoding="utf-8").splitlines()
    title = text[0].removeprefix("# ") if text and text[0].startswith("# ") else rid
    start = next((i for i, x in enumerate(text) if x.startswith("## The answer, per preset")), None)
    if start is None:
        return None
    rows: dict[tuple[str, str], list[list[str]]] = {}
    weaker: list[str] = []
    for line in text[start + 1 :]:
        if line.startswith("## "):
            break
        cells = _cells(line) if line.startswith("| ") else []
        if len(cells) == 5 and cells[2].isdigit() and (not presets or cells[0] in presets):
            rows.setdefault((cells[0], cells[1]), []).append(cells)
        elif line.startswith("- ") and line[2:].split(",", 1)[0] in (presets or PRESETS):
            weaker.append(line[2:])
    if not rows:
        return None
    index = divergence / "README.md"
    index_text = index.read_text(encoding="utf-8").splitlines() if index.is_file() else []
    run = next((x for x in index_text if x.startswith("Generated by")), "")
    sure = next(
        (_cells(x) for x in index_text if x.startswith("| <a id=") and f"[{rid}]({rid}.md)" in x and x.count("|") >= 7),
        None,
    )
    lines = textwrap.wrap(title, width)
    for (name, b), found in rows.items():
        usual = variant_of(PRESETS[name].rules).default_players if name in PRESETS else 0
        row = next((c for c in found if int(c[2]) == usual), found[0])
        head = f"- {name}, B = {b.strip('`')}: "
        lines += textwrap.wrap(f"{head}{row[4]} ({row[2]} players, {row[3]})", width, subsequent_indent="  ")
    if sure is not None:
        where = re.sub(r" \(\+\d+ more presets?\)$", "", sure[5])
        lines += textwrap.wrap(f"How sure ({where}): {sure[4]}.", width, subsequent_indent="  ")
    if weaker:
        lines += textwrap.wrap("Resting on weaker players: " + " ".join(weaker), width, subsequent_indent="  ")
    # a ruling folded in since (the per-ruling mode) carries its own date on the index's UPDATED line
    alone = re.search(
        rf"\b{re.escape(rid)} \((\d{{4}}-\d\d-\d\d \d\d:\d\d UTC)\)",
        next((x for x in index_text if x.startswith(UPDATED)), ""),
    )
    when = alone or re.search(r" on (\d{4}-\d\d-\d\d \d\d:\d\d UTC)", run)
    tail = textwrap.wrap(
        f"From the published report, {Path(divergence.parent.name) / divergence.name / page.name}"
        + (f" (measured {when.group(1)})" if when else "")
        + ". Every player count and player: --full; measure afresh: --measure; the words: method.md.",
        width,
    )
    if len(lines) + len(tail) > limit:
        cut = limit - len(tail) - 1
        lines = [*lines[:cut], f"... {len(lines) - cut} more lines: --full"]
    return [*lines, *tail]


#: the index line that lists the rulings measured on their own since the whole report was generated
UPDATED = "Measured on their own since, by `comet diverge RULING --out` with the same parameters:"


def _table_end(lines: list[str]) -> int:
    """The index just after the first Markdown table of ``lines`` (the end of ``lines`` if it has none)."""
    i = next((i for i, x in enumerate(lines) if x.startswith("| ")), len(lines))
    while i < len(lines) and lines[i].startswith("|"):
        i += 1
    return i


def _replace_rows(old: list[str], new: list[str], gone: Sequence[str]) -> list[str]:
    """``old`` without the lines ``gone``, with ``new`` where the first of them stood, or at the end of the first
    table if none did."""
    drop = set(gone)
    at = next((i for i, x in enumerate(old) if x in drop), None)
    if at is None:
        end = _table_end(old)
        return [*old[:end], *new, *old[end:]]
    before = [x for x in old[:at] if x not in drop]
    return [*before, *new, *(x for x in old[at:] if x not in drop)]


def published_reason(answer: str, player: str, verdict: str) -> str:
    """``weaker_reason`` read back from a published row: its answer, its headline player and the summary's verdict
    cell for the same preset and player count (which notes "pimc not measurably stronger than greedy here")."""
    from comet.diverge.glossary import GAME_PHRASES

    if answer.startswith(("whole games:", *GAME_PHRASES)):
        return WHOLE_GAMES_WEAKER
    if player == "pimc" or not player:
        return ""
    if "not measurably stronger than greedy" in verdict:
        return f"the search player (pimc) is not measurably stronger than greedy here, so {player} answers"
    return f"the search player (pimc) was not measured here, so {player} answers"


def _summary_verdicts(summary: list[str]) -> dict[tuple[str, str, str, str], str]:
    """(ruling id, preset, B reading, players) -> the verdict cell of each summary row."""
    out = {}
    for line in summary:
        m = re.match(r"^\| \[(RUL-[A-Z0-9-]+)\]", line)
        cells = _cells(line)
        if m and len(cells) >= 6:
            out[(m.group(1), cells[1], cells[2], cells[3])] = cells[-1]
    return out


def _page_weaker(rid: str, page: list[str], verdicts: dict[tuple[str, str, str, str], str]) -> list[str]:
    """A published ruling page's "answers that rest on weaker players" lines, read back from its answer table
    (``weaker_page_lines``'s form)."""
    by: dict[tuple[str, str], list[str]] = {}
    for line in page:
        cells = _cells(line) if line.startswith("| ") else []
        if len(cells) == 5 and cells[2].isdigit():
            why = published_reason(cells[4], cells[3], verdicts.get((rid, cells[0], cells[1], cells[2]), ""))
            if why:
                by.setdefault((cells[0], why), []).append(cells[2])
    lines = [f"- {preset}, {', '.join(counts)} players: {why}." for (preset, why), counts in by.items()]
    return (
        ["**Answers that rest on weaker players** (not on the search player, pimc):", "", *lines, ""] if lines else []
    )


def other_rulings(out_dir: Path, rids: Sequence[str]) -> bool:
    """Whether ``out_dir`` holds a report in pages (an index and a method page) with rows of rulings other than
    ``rids``: then ``comet diverge RULING --out DIR`` folds its ruling in (``merged_pages``); otherwise it writes
    the pages whole (a report of this ruling alone, written again)."""
    index, method = out_dir / "README.md", out_dir / "method.md"
    if not index.is_file() or not method.is_file():
        return False
    held = set(re.findall(r"^\| <a id=\"[^\"]*\"></a>\[(RUL-[A-Z0-9-]+)\]", index.read_text(encoding="utf-8"), re.M))
    return bool(held - set(rids))


def merged_pages(out_dir: Path, written: dict[str, str], rids: Sequence[str], when: str) -> dict[str, str]:
    """One ruling's pages folded into the report in pages already in ``out_dir`` (the per-ruling mode of
    ``comet diverge RULING --out DIR``): the rulings ``rids`` get their pages anew, their rows of the index and
    of ``summary.md`` are replaced (or added at the end of the table), and the index says they were measured on
    their own on ``when``; every other ruling's figures, and the method page, are left as they are.  The index's
    list of answers that rest on weaker players is rebuilt for every ruling, and a published ruling page without
    that list gets it, both read back from the published rows (``published_reason``), so a report generated
    before the list existed says it too.  Only the pages that change are returned."""
    out = {f"{rid}.md": written[f"{rid}.md"] for rid in rids if f"{rid}.md" in written}

    def own(line: str) -> bool:
        return any(f"[{rid}]({rid}.md)" in line for rid in rids)

    summary_path = out_dir / "summary.md"
    summary = summary_path.read_text(encoding="utf-8").splitlines() if summary_path.is_file() else []
    if summary and "summary.md" in written:
        new_rows = [x for x in written["summary.md"].splitlines() if x.startswith("| [RUL-") and own(x)]
        summary = _replace_rows(summary, new_rows, [x for x in summary if x.startswith("| [RUL-") and own(x)])
        out["summary.md"] = "\n".join(summary) + "\n"
    verdicts = _summary_verdicts(summary)
    for page in sorted(out_dir.glob("RUL-*.md")):
        rid = page.stem
        text = page.read_text(encoding="utf-8").splitlines()
        if rid in rids or "**Answers that rest on weaker players** (not on the search player, pimc):" in text:
            continue
        extra = _page_weaker(rid, text, verdicts)
        start = next((i for i, x in enumerate(text) if x.startswith("## The answer, per preset")), None)
        if extra and start is not None:
            end = _table_end(text[start:]) + start
            at = end + 1 if end < len(text) and not text[end].strip() else end
            out[page.name] = "\n".join([*text[:at], *extra, *text[at:]]) + "\n"
    index = (out_dir / "README.md").read_text(encoding="utf-8").splitlines()
    new_index = written["README.md"].splitlines()
    rows = [x for x in new_index if x.startswith("| <a id=") and own(x)]
    index = _replace_rows(index, rows, [x for x in index if x.startswith("| <a id=") and own(x)])
    heading = WEAKER_INTRO[0]
    if heading in index:  # rebuilt below
        at = index.index(heading)
        end = next((i for i in range(at + 1, len(index)) if index[i].startswith("## ")), len(index))
        index = [*index[:at], *index[end:]]
    fresh = {x.split("]", 1)[0].removeprefix("- ["): x for x in new_index if x.startswith("- [RUL-") and own(x)}
    weak = []
    for line in index:
        cells = _cells(line) if line.startswith("| <a id=") else []
        m = re.search(r"\[(RUL-[A-Z0-9-]+)\]", cells[0]) if cells else None
        if m is None or len(cells) < 6:
            continue
        rid = m.group(1)
        if rid in rids:
            weak += [fresh[rid]] if rid in fresh else []
            continue
        where = re.match(r"^(\w+), (\d+) players, (\w+)", cells[5])
        if where is None:
            continue
        preset, n, player = where.groups()
        verdict = next((v for k, v in verdicts.items() if k[0] == rid and k[1] == preset and k[3] == n), "")
        why = published_reason(cells[3], player, verdict)
        if why:
            weak.append(f"- [{rid}]({rid}.md) ({preset}, {n} players): {why}.")
    while index and not index[-1].strip():
        index.pop()
    if weak:
        index = [*index, "", *WEAKER_INTRO, *weak]
    stamp = {x.split(" (", 1)[0]: x for x in _updated_entries(index)}
    for rid in rids:
        stamp[rid] = f"{rid} ({when})"
    line = f"{UPDATED} " + ", ".join(stamp[k] for k in sorted(stamp)) + "."
    old_line = next((i for i, x in enumerate(index) if x.startswith(UPDATED)), None)
    if old_line is not None:
        index[old_line] = line
    else:
        gen = next((i for i, x in enumerate(index) if x.startswith("Generated by")), 1)
        index = [*index[: gen + 1], "", line, *index[gen + 1 :]]
    out["README.md"] = "\n".join(index) + "\n"
    method = out_dir / "method.md"
    if method.is_file():  # the glossary is not a figure: the method page gets the words the folded pages use
        text = method.read_text(encoding="utf-8").splitlines()
        if "## Words" in text:
            at = text.index("## Words")
            end = next((i for i in range(at + 1, len(text)) if text[i].startswith("## ")), len(text))
            words = ["## Words", "", *glossary_lines(), ""]
            if text[at:end] != words:
                out["method.md"] = "\n".join([*text[:at], *words, *text[end:]]) + "\n"
    return out


def _updated_entries(index: list[str]) -> list[str]:
    """The ``RUL-ID (date)`` entries of the index's ``UPDATED`` line."""
    line = next((x for x in index if x.startswith(UPDATED)), "")
    body = line.removeprefix(UPDATED).strip().removesuffix(".")
    return [x.strip() for x in re.split(r",\s*(?=RUL-)", body) if x.strip()]
