"""The Markdown page ``comet diverge`` writes: the headline text, the summary table, the placebo and
contradiction sections, each ruling's section (``comet.diverge.report``), the field-by-field breakdown of
house rules and the pointer to larger runs."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from comet.diverge.measure import Paired
from comet.diverge.multiplicity import FLAG, Row, multiplicity, multiplicity_lines
from comet.diverge.pairs import Pair
from comet.diverge.records import Bound
from comet.diverge.report import PairReport, field_section
from comet.diverge.witness import search
from comet.ruleset import RULING_OF


def contradiction_lines(presets: list[str]) -> list[str]:
    """The 'Defaults contradicted' section: each declared rejected outcome checked under each preset's defaults."""
    from comet.diverge.contradictions import REJECTED, describe, find

    lines: list[str] = []
    for name in presets:
        for rejected in REJECTED:
            c = find(name, rejected)
            if c is not None:
                lines += describe(c)
    if not lines:
        return []
    return [
        "## Defaults contradicted by other defaults",
        "",
        "Outcomes a ruling's *Default and why* rejects (declared in `comet.diverge.contradictions.REJECTED`), "
        "looked for in play under each preset's default rules:",
        "",
        *lines,
        "",
    ]


def headline_rows(reports: list[PairReport]) -> dict[tuple[str, int], Row]:
    """The summary's deal-level rows, by (pair, player count): the headline player's paired sums."""
    from comet.diverge.impact_report import headline, unit_of
    from comet.variant import variant_of

    rows: dict[tuple[str, int], Row] = {}
    for r in reports:
        unit = unit_of(variant_of(r.pair.a).scoring != "chips")
        for m in r.impact:
            if m.deals:
                pol = headline(m)[0]
                label = f"`{r.pair.label_b()}` ({r.pair.preset}), {m.players} players, {pol}"
                rows[(r.pair.key, m.players)] = Row(label, m.deals[pol], unit)
    return rows


def placebo_family(reports: list[PairReport]) -> int:
    """How many measurements the placebo check judges as one family (every player count and player of every
    placebo pair, except the identity checks, which cannot fail: ``identical``); each placebo answer anywhere
    in the report is judged with it."""
    from comet.diverge.placebo import placebo_reason

    return sum(
        1
        for r in reports
        if placebo_reason(r.pair) is not None
        for m in r.impact
        for t in m.deals.values()
        if not identical(t)
    )


def identical(t: Paired) -> bool:
    """Whether every deal was the same under both readings (an identity check: it cannot fail, so it is listed
    apart from the placebo family)."""
    return t.deals > 0 and t.classes[0] == t.deals


def summary_table(reports: list[PairReport], out_dir: Path | None = None) -> list[str]:
    """One row per reading pair and player count: the witness and the headline player's verdict; then how
    many of the verdicts chance explains (``comet.diverge.multiplicity``), those it may explain marked.  A
    placebo reading's row is judged with the placebo check's family, and is left out of the multiplicity
    count (the placebo check is its family)."""
    from comet.diverge.impact_report import answers_of, competent, headline
    from comet.diverge.placebo import placebo_reason

    family = max(1, placebo_family(reports))
    placebo_keys = {r.pair.key for r in reports if placebo_reason(r.pair) is not None}
    rows = {k: row for k, row in headline_rows(reports).items() if k[0] not in placebo_keys}
    keys = list(rows)
    judged = multiplicity(list(rows.values()))
    doubtful = {keys[i] for i in judged.matters - judged.fdr}
    head = "| ruling | preset | B reading | players | witness | verdict (headline player, paired deals) |"
    lines = ["## Summary", "", head, "|---|---|---|---|---|---|"]
    for r in reports:
        p = r.pair
        rid = RULING_OF.get(p.field, "house")
        w = r.search.witness
        pr = r.search.proof
        if w is None and pr is not None and pr.method == "inert":
            shown = f"inert: needs `{pr.needs}`"
        elif w is None:
            shown = "none found"
        elif w.level == "game":
            shown = "game"
        else:
            shown = f"{w.kind}, {len(w.actions)} action(s), {w.players}p"
        if w is not None and pr is not None and pr.proved:
            # a Z3 proof over some player counts only proves the witness smallest among those deals
            shown += f" (smallest over {'/'.join(map(str, pr.within))}p deals)" if pr.within else " (smallest)"
        link = f"[{rid}]({rid}.md)" if p.field else rid
        if not any(m.deals or m.games for m in r.impact):
            # every pair has its row, measured or not (tests/test_diverge_summary.py)
            counts = ", ".join(str(m.players) for m in r.impact) or "-"
            lines.append(f"| {link} | {p.preset} | `{p.label_b()}` | {counts} | {shown} | not measured |")
        for m in r.impact:
            if not m.deals and not m.games:
                continue
            if not m.deals:
                from comet.diverge.impact_report import game_verdict

                for pol, g in list(m.games.items())[:1]:
                    lines.append(
                        f"| {link} | {p.preset} | `{p.label_b()}` | {m.players} | {shown} | {pol}, {g.played:,} games "
                        f"(the search player plays no whole games): {game_verdict(g)} |"
                    )
                continue
            pol = headline(m)[0]
            placebo = p.key in placebo_keys
            text = answers_of(m, p, family if placebo else 1, out_dir)[pol].sentence.replace("|", "/")
            if placebo:
                text += f" (placebo: judged with the placebo check's {family:,} measurements)"
            mark = f" {FLAG}" if (p.key, m.players) in doubtful else ""
            who = f"{pol}, {m.deals[pol].deals:,} deals"
            if pol != "pimc" and "pimc" in m.deals and competent(m) is False:
                who += " (pimc not measurably stronger than greedy here)"
            elif pol == "pimc" and competent(m) is None:
                who += " (strength not measured here)"
            lines.append(f"| {link} | {p.preset} | `{p.label_b()}` | {m.players} | {shown} | {who}: {text}{mark} |")
    lines.append("")
    if len(rows) > 1:
        lines += multiplicity_lines(
            list(rows.values()),
            judged,
            "deal-level rows of the summary (each the headline player's verdict; the placebo readings' rows are "
            "judged in the placebo check)",
        )
    return lines


IMPACT_NOTE = (
    "**How impact is measured.** Each seed is dealt and played under A and under B by the same player "
    "(policy) with *coupled play*: every choice made by chance is the option of highest priority, a number "
    "drawn once per deal for each seat and option and shared by both readings, so the two sides choose alike "
    "wherever they face the same options and a reading changes play only where its option is taken "
    "(`comet.diverge.policies`). `random` takes any option; `greedy` and `hoarder` are fixed strategies "
    "(ties by priority) that never stop early or pass a new run; `pimc`, where measured, searches "
    "(determinized Monte Carlo) and is the headline player wherever it is measurably stronger than `greedy` at "
    "that preset and player count (its seat's paired win-rate gain over a greedy seat, 95 % interval above "
    "zero: 'The competent player'); where it is not, `random` heads and the row says so. Each headline "
    "verdict in the summary gives its player and number of paired deals (fewer for `pimc` at the player "
    "counts other than the game's usual one, so wider intervals there). A ruling is measured at every player count "
    "where its readings can differ (derived from the deal set-up of each reading, `comet.diverge.study`); a count "
    "where they cannot part (the same deal under both, or a game's own account of the rule: `Variant.ruling_absent`) "
    "is left out and the pair's section says why. "
    "Every figure is a paired difference B − A with its 95 % interval (normal approximation on the "
    "deal-by-deal differences; 'every pair equal' where every paired difference is zero, so there is no spread "
    "to give a width); a share is given with its Wilson interval, a zero as '0 of N (at most x %)'. "
    "Each answer looks at every seat's result and win rate, the deal length and the swing at once, with one "
    "interval per figure, the simultaneous (Bonferroni) 95 % one, also in the tables, so 'changes who gains' "
    "means a seat's result or win rate moved beyond what chance explains, and 'changes deals but no seat "
    "gains measurably' gives the bound it is known to. Where the readings deal different cards "
    "(`deal_order`, deal sizes) the deal-by-deal swing compares two different deals and only the signed "
    "means per seat speak for the rule. Rulings that act only between deals are measured over paired whole "
    "games, coupled the same way: each game's first dealer is drawn from one random stream and its deals are "
    "shuffled from another (`comet.diverge.measure.deal_stream`), so deal k gets the same seed under both "
    "readings however many cards the draw took (under `first_dealer_tie = redraw` a tie draws again; with one "
    "stream for both, every later deal of such a game would be shuffled differently and the figure would "
    "measure the shuffle). Every other seeded game (`comet game`, game records, vectors) keeps one stream. "
    "The placebo readings (`comet.diverge.placebo`) cannot change play "
    "or payments and must read 'no seat gains measurably'.",
    "",
)


def placebo_lines(reports: list[PairReport]) -> list[str]:
    """The placebo check: each reading that cannot change play or payments, why, and what was measured; the
    identity checks (every deal identical under both readings: they cannot fail) listed apart."""
    from comet.diverge.impact_report import scale_of
    from comet.diverge.placebo import placebo_reason
    from comet.diverge.verdicts import answer

    placebos = [r for r in reports if placebo_reason(r.pair) is not None]
    family = placebo_family(reports)
    lines: list[str] = []
    same: list[str] = []
    alone = 0  # answers that would read "changes who gains" judged one at a time
    for r in placebos:
        scale = scale_of(r.pair)
        checked: list[str] = []
        for m in r.impact:
            for pol, t in m.deals.items():
                if identical(t):
                    same.append(f"{r.pair.preset} {m.players}p {pol}")
                    continue
                alone += answer(t, scale, placebo=True).gains
                a = answer(t, scale, family, placebo=True)
                checked.append(
                    f"  - {m.players} players, {pol}: "
                    + ("**EFFECT FOUND: the study is wrong**" if a.gains else a.sentence)
                )
        lines.append(f"- `{r.pair.label_b()}` ({r.pair.preset}): inert because {placebo_reason(r.pair)}.")
        lines += checked or ["  - every measurement an identity check (below)"]
    if not lines:
        return []
    out = [
        "## Placebo check",
        "",
        "Readings that provably cannot change play or payments; each must read 'no seat gains measurably' "
        "(`comet.diverge.placebo`, tests/test_diverge_placebo.py). The check judges its "
        f"{family:,} measurements that can fail as one family: every bound below holds for all of them at once "
        "(95 %, Bonferroni over every figure of every measurement), so a single effect found would mean the "
        f"study is wrong. Judged one at a time, {alone} of the {family:,} would read 'changes who gains' (about "
        f"{0.05 * family:.0f} are expected by chance at 95 % each).",
        "",
        *lines,
        "",
    ]
    if same:
        out += [
            f"Identity checks, not counted in the family: {len(same)} measurements in which every deal is "
            "identical under both readings (the same cards, actions and payments), so they cannot fail: "
            + ", ".join(same)
            + ".",
            "",
        ]
    return out


def header_lines(args: argparse.Namespace, house: bool, sample: int) -> list[str]:
    """The report's title, the command it was generated by and what a witness is, and how impact is measured."""
    lines = ["# Where the house rules part ways" if house else "# Where the readings part ways", ""]
    cmd = "comet diverge " + (" ".join(sys.argv[2:]) if len(sys.argv) > 2 else "")
    run_on = ""
    if args.backend != "reference":
        from datetime import UTC, datetime

        run_on = (
            f" on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with the `{args.backend}` backend (the fast engine's paired "
            f"sums checked equal to the reference engine's on seeds 0..{sample - 1} of every pair it plays, at its "
            "first player count and policy, before the study ran)"
        )
    lines += [
        f"Generated by `{cmd.strip()}`{run_on}: {args.deals} paired deals and {args.games} paired whole games per policy "
        f"({args.policies}), seeds 0.. under both {'rule sets' if house else 'readings'}. "
        + (
            f"A is `{args.rules}`{_with(args.ruling_a)}, B is `{args.against}`{_with(args.ruling_b)}. "
            if house
            else "A is the preset's default reading, B the other. "
        )
        + "A witness is a deal (or a whole game) where A and B allow different actions, move different chips "
        "or end differently; `>>` marks the first point of difference, and each witness's label (where and "
        "what differs) is checked by replaying it under both (`tests/test_diverge_labels.py`). Deals are "
        "compared by fewest actions, then players, then cards played; games by fewest deals, then players, then "
        "actions before the difference. Each witness says in which of these it is proved smallest, and how: "
        "*by Z3* over every deal of the game's player counts, or of those it names (`comet_proofs.smallest` over the proofs' "
        "encodings, within a stated budget of Z3 resource units), *by construction* (0 actions, or 1 action "
        "where no deal differs before play, with the fewest players; a game of the fewest deals and players the "
        "rule sets allow), or *not proved*, with the reason. A ruling that can make no difference until another ruling "
        "is changed says which (*inert: needs ...*, found by searching under each other reading). Witnesses "
        "come from `comet/diverge/witnesses.json` (`--search` looks afresh). The impact figures are exact for "
        "the seeds played: the same on one core or many.",
        "",
        *IMPACT_NOTE,
    ]
    return lines


def render(
    pairs: list[Pair],
    reports: list[PairReport],
    args: argparse.Namespace,
    contradictions: Sequence[str] = (),
    sample: int = 12,
) -> str:
    """The page; ``sample`` is how many seeds the fast engine's sums were checked on against the reference's."""
    from comet.commands.rules import default_spec_dir, ruling_sources, ruling_titles

    titles = ruling_titles(default_spec_dir())
    sources = ruling_sources(default_spec_dir())
    out_dir: Path | None = args.out
    house = any(not r.pair.field for r in reports)
    lines = header_lines(args, house, sample)
    fields: dict[str, list[PairReport]] = {}
    for r in reports:
        fields.setdefault(r.pair.field, []).append(r)
    if len(reports) > 1:
        lines += summary_table(reports)
    lines += placebo_lines(reports)
    for f, rs in fields.items():
        rid = RULING_OF.get(f, "")
        question, where = titles.get(rid, ("", ""))
        source = f"{spec_link(where, out_dir)}#{rid.lower()}-{question.lower()}" if where else ""
        if not f:
            diff = rs[0].pair.b.differences(rs[0].pair.a)
            lines += [
                "## House rules",
                "",
                f"Rule set A: `{args.rules}` {' '.join(args.ruling_a)}; rule set B: "
                f"`{args.against}` {' '.join(args.ruling_b)}.",
                "",
                "Fields that differ (A → B):",
                "",
            ]
            lines += [f"- `{k}`: {getattr(rs[0].pair.a, k)} → {v}" for k, v in sorted(diff.items())] or ["- none"]
            lines.append("")
            title = f"`{args.rules}`{_with(args.ruling_a)} against `{args.against}`{_with(args.ruling_b)}"
            lines += field_section("", "", "", "", rs, out_dir, args.deals, args.games, title=title)[2:]
            if len(diff) > 1:
                lines += field_breakdown(rs[0].pair, diff, args.deals, args.games)
            continue
        lines += field_section(
            f,
            rid,
            question,
            _slug_link(source),
            rs,
            out_dir,
            args.deals,
            args.games,
            sources.get(rid, []),
            placebo_family=placebo_family(reports),
        )
    lines += contradictions
    lines += larger_runs(out_dir)
    return "\n".join(lines) + "\n"


def _with(overrides: Sequence[str]) -> str:
    return f" with {', '.join(f'`{o}`' for o in overrides)}" if overrides else ""


def field_breakdown(pair: Pair, diff: dict[str, object], deals: int = 0, games: int = 0) -> list[str]:
    """Which changed field causes which difference: each field of B switched alone in A, its smallest
    witness searched afresh (``witness.search`` with the size proof), the first difference it shows and,
    with ``deals`` (or ``games`` for a field that acts between deals), its impact alone: the ``random``
    player's verdict at the game's usual player count (or the first where the field can matter), measured
    by the same study code as every pair (``study.measure_pair``, ``effect.verdict``)."""
    from comet.diverge.effect import verdict
    from comet.diverge.impact_report import game_verdict
    from comet.diverge.pairs import value_text
    from comet.diverge.study import game_level, measure_pair, player_counts
    from comet.variant import variant_of

    unit = "points" if variant_of(pair.a).scoring != "chips" else "chips"
    lines = [
        "### Field by field",
        "",
        "Each field that differs, switched alone from A's reading to B's (a fresh witness search per field"
        + (
            f"; impact alone: the `random` player over {deals:,} paired deals, or {games:,} paired whole games for a "
            "field that acts between deals, at the game's usual player count where the field can matter there, "
            "else the first count where it can"
            if deals or games
            else ""
        )
        + "):",
        "",
        "| field alone | A → B | first difference | smallest? | what differs |"
        + (" impact alone |" if deals or games else ""),
        "|---|---|---|---|---|" + ("---|" if deals or games else ""),
    ]
    for k, v in sorted(diff.items()):
        alone = Pair(pair.preset, k, pair.a, pair.a.with_overrides({k: v}))
        res = search(alone, Bound(seconds=4.0), prove_size=True)
        w, pr = res.witness, res.proof
        if w is None:
            first = "none found" if pr is None or pr.method != "inert" else f"inert: needs `{pr.needs}`"
            what = "; ".join(res.notes)
        elif w.level == "game":
            first, what = f"a game, {w.players} players", w.detail
        else:
            first, what = f"{w.kind}, {len(w.actions)} action(s), {w.players} players", w.detail
        proved = "yes" if pr is not None and pr.proved and w is not None else "no"
        cells = [f"`{k}`", f"{value_text(getattr(pair.a, k))} → {value_text(v)}", first, proved, what.replace("|", "/")]
        if deals or games:
            counts = player_counts(alone)
            usual = variant_of(pair.a).default_players
            n = usual if usual in counts else counts[0]
            whole = game_level(alone)
            m = measure_pair(alone, n, 0 if whole else deals, games if whole else 0, ("random",))
            if whole:
                impact = game_verdict(m.games["random"]) if "random" in m.games else "not measured (no games asked)"
            else:
                impact = verdict(m.deals["random"], unit).text if "random" in m.deals else "not measured"
            cells.append(f"{n} players: {impact}".replace("|", "/"))
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def spec_link(where: str, out_dir: Path | None) -> str:
    """The link from the report in ``out_dir`` to ``where`` (``spec/rulings.md``): ``../rulings.md`` from
    ``spec/divergence``, ``../../rulings.md`` from a subdirectory of it."""
    from comet.commands.rules import default_spec_dir

    name = where.removeprefix("spec/")
    if out_dir is None:
        return f"../{name}"
    return os.path.relpath(default_spec_dir() / name, out_dir.resolve()).replace(os.sep, "/")


def larger_runs(out_dir: Path | None) -> list[str]:
    """Links to the reports in ``out_dir``'s subdirectories (larger studies, e.g. a million deals per
    reading with ``--backend fast``), so regenerating the main report keeps them linked."""
    if out_dir is None or not out_dir.is_dir():
        return []
    found = sorted(p.parent.name for p in out_dir.glob("*/README.md"))
    if not found:
        return []
    lines = ["## Larger runs", ""]
    for name in found:
        head = (out_dir / name / "README.md").read_text(encoding="utf-8").splitlines()
        gen = next((line for line in head if line.startswith("Generated by")), "")
        command = gen.split("`")[1] if gen.count("`") >= 2 else name
        lines.append(f"- [{name}]({name}/README.md): `{command}`")
    return [*lines, ""]


def _slug_link(link: str) -> str:
    """A GitHub-style heading anchor (lower case, spaces to dashes, punctuation dropped)."""
    if "#" not in link:
        return link
    path, frag = link.split("#", 1)
    keep = "".join(ch for ch in frag if ch.isalnum() or ch in " -_").replace(" ", "-")
    return f"{path}#{keep}"
