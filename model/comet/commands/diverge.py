"""``comet diverge``: where two readings part ways (a witness), and how much it matters (paired impact)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from comet.diverge.impact import BATCH_BACKENDS, Tally, impact
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.policies import POLICY_NAMES
from comet.diverge.report import PairReport, field_section
from comet.diverge.store import entry, load, save, search_of
from comet.diverge.witness import Bound, search
from comet.presets import PRESETS, preset
from comet.ruleset import APPLIES_TO, RULING_FIELDS
from comet.rulesfile import resolve


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "diverge",
        help="find where two readings of a ruling part ways and measure how much it matters",
        description="For a ruling (a Ruleset field or RUL- id), every preset it applies to: the smallest deal "
        "(or game) where its readings differ, narrated side by side, and the paired impact over seeded deals "
        "and games. --all covers every ruling; --rules A --against B compares two rule sets.",
    )
    p.add_argument("ruling", nargs="?", default=None, help="a ruling field (comet_lead) or ruling id (RUL-COMET-LEAD)")
    p.add_argument("--all", action="store_true", help="every ruling of every preset")
    p.add_argument("--preset", action="append", default=[], metavar="P", help="only these presets (repeatable)")
    p.add_argument("--rules", default=None, metavar="A", help="rule set A: a preset name or a TOML rule-set file")
    p.add_argument("--against", default=None, metavar="B", help="rule set B: a preset name or a TOML rule-set file")
    p.add_argument(
        "--ruling",
        dest="ruling_a",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override a reading in rule set A (repeatable)",
    )
    p.add_argument(
        "--against-ruling",
        dest="ruling_b",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override a reading in rule set B (repeatable)",
    )
    p.add_argument("--deals", type=int, default=200, metavar="N", help="paired deals per policy (default 200)")
    p.add_argument("--games", type=int, default=10, metavar="G", help="paired whole games per policy (default 10)")
    p.add_argument(
        "--policies",
        default=",".join(POLICY_NAMES),
        metavar="LIST",
        help=f"comma-separated policies (default {','.join(POLICY_NAMES)})",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="players in the impact study (default: the preset's usual)",
    )
    p.add_argument(
        "--workers", type=int, default=1, metavar="W", help="processes for the impact study (same numbers for any W)"
    )
    p.add_argument(
        "--seconds", type=float, default=8.0, metavar="S", help="witness search budget per pair and phase (default 8)"
    )
    p.add_argument("--search", action="store_true", help="search for witnesses afresh instead of using the stored ones")
    p.add_argument("--update", action="store_true", help="store the witnesses searched (comet/diverge/witnesses.json)")
    p.add_argument(
        "--backend",
        default="reference",
        metavar="NAME",
        help="the engine that plays the impact deals (registered in comet.diverge.impact.BACKENDS; a backend other "
        "than 'reference' is first checked against the reference engine on a sample of seeds)",
    )
    p.add_argument(
        "--interactions",
        action="store_true",
        help="also find, per preset, the rulings whose divergence depends on another ruling's reading",
    )
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="write README.md and a PNG per pair into DIR")
    p.set_defaults(run=run)


def field_of(name: str) -> str:
    """A field name, or the field of a ruling id; ValueError naming the choices."""
    if name in RULING_FIELDS:
        return name
    for f, (rid, _) in APPLIES_TO.items():
        if rid == name.upper():
            return f
    raise ValueError(f"unknown ruling {name!r}; give a field ({', '.join(RULING_FIELDS)}) or its RUL- id")


def chosen_pairs(args: argparse.Namespace) -> list[Pair]:
    for name in args.preset:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    presets = args.preset or None
    if args.rules is not None or args.against is not None:
        if args.rules is None or args.against is None:
            raise ValueError("--rules A and --against B go together")
        a = resolve(args.rules, args.ruling_a)
        b = resolve(args.against, args.ruling_b)
        if a.rules.variant != b.rules.variant:
            raise ValueError(
                f"{a.label} plays the {a.rules.variant} game and {b.label} the {b.rules.variant} game; "
                "only rule sets of one game can be compared deal by deal"
            )
        return [Pair(a.preset, "", a.rules, b.rules)]
    if args.all:
        return list(all_pairs(presets))
    if args.ruling is None:
        raise ValueError("name a ruling, or give --all, or --rules A --against B")
    pairs = list(pairs_for(field_of(args.ruling), presets))
    if not pairs:
        raise ValueError(f"ruling {args.ruling!r} applies to none of the presets asked for")
    return pairs


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    if args.deals < 0 or args.games < 0 or args.workers < 1:
        raise ValueError("--deals and --games must not be negative, --workers at least 1")
    policies = [x.strip() for x in args.policies.split(",") if x.strip()]
    for pol in policies:
        if pol not in (*POLICY_NAMES, "simple"):
            raise ValueError(f"unknown policy {pol!r}; choose from {', '.join((*POLICY_NAMES, 'simple'))}")
    pairs = chosen_pairs(args)
    check_backend_args(args.backend, pairs, policies, args.players)
    stored = load()
    bound = Bound(seconds=args.seconds)
    reports: list[PairReport] = []
    per_pair = len(policies) * (args.deals + args.games)
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("diverge", total=len(pairs) * (per_pair + 1))
        for pair in pairs:
            progress.update(task, description=f"{pair.key}: witness")
            found = stored.get(pair.key)
            if found is not None and not args.search and pair.field:
                res = search_of(pair, found)
            else:
                res = search(pair, bound)
                if args.update and pair.field:
                    stored[pair.key] = entry(res)
                    save(stored)
            progress.advance(task)
            progress.update(task, description=f"{pair.key}: impact")
            tallies: dict[str, Tally] = impact(
                pair,
                args.deals,
                args.games,
                policies,
                args.players,
                args.workers,
                chunk=BATCH_CHUNK if args.backend in BATCH_BACKENDS else 200,
                backend=args.backend,
                on_done=lambda k: progress.advance(task, k),
            )
            reports.append(PairReport(pair, res, tallies))
        contradictions: list[str] = []
        if args.interactions:
            reports = with_interactions(reports, progress, task)
            contradictions = contradiction_lines(sorted({r.pair.preset for r in reports if r.pair.field}))
    text = render(pairs, reports, args, contradictions)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "README.md").write_text(text, encoding="utf-8")
        console.print(f"wrote {args.out / 'README.md'} and {len(reports)} plot(s)")
    return 0


def check_backend_args(name: str, pairs: list[Pair], policies: list[str], players: int | None) -> None:
    """ValueError for an unknown backend, or one that disagrees with the reference on a sample."""
    from comet.diverge.impact import BACKENDS, check_backend, check_batch
    from comet.variants.base import variant_of

    if name == "fast" and name not in BACKENDS:  # the compiled engine registers itself on first use
        from comet.fast.diverge import register

        register()
    if name not in BACKENDS and name not in BATCH_BACKENDS:
        known = sorted({*BACKENDS, *BATCH_BACKENDS})
        raise ValueError(f"unknown backend {name!r}; registered: {', '.join(known)}")
    if name == "reference":
        return
    for pair in pairs:
        n = variant_of(pair.a).default_players if players is None else players
        for pol in policies:
            if name in BACKENDS:
                for rules in (pair.a, pair.b):
                    bad = check_backend(name, rules, n, range(SAMPLE), pol)
                    if bad:
                        raise ValueError(
                            f"backend {name!r} disagrees with the reference engine on {pair.key}, seed {bad[0]}"
                        )
            if name in BATCH_BACKENDS:
                why = check_batch(name, pair, n, range(SAMPLE), pol)
                if why is not None:
                    raise ValueError(why)


SAMPLE = 20
#: seeds per kernel call when the backend plays in batch (the tally is the same for any chunk size)
BATCH_CHUNK = 50_000


def with_interactions(reports: list[PairReport], progress: Any, task: Any) -> list[PairReport]:
    """The reports with, for each pair, the interactions found in its preset (``diverge.interactions``)."""
    from comet.diverge.interactions import interactions
    from comet.diverge.narrate import narrate_witness

    found: dict[str, list[str]] = {}
    by_key = {r.pair.key: r.pair for r in reports}
    for name in sorted({r.pair.preset for r in reports if r.pair.field}):
        for x in interactions(name, on_pair=lambda text: progress.update(task, description=f"interactions {text}")):
            lines = found.setdefault(x.key, [])
            lines.append(x.text)
            if x.witness is not None:
                a = preset(x.preset).rules.with_overrides({x.other: x.other_value})
                value = by_key[x.key].value_b if x.key in by_key else getattr(a, x.field)
                pair = Pair(x.preset, x.field, a, a.with_overrides({x.field: value}))
                lines += ["", *["  " + line for line in narrate_witness(pair, x.witness)], ""]
    return [PairReport(r.pair, r.search, r.impact, tuple(found.get(r.pair.key, ()))) for r in reports]


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


def summary_table(reports: list[PairReport]) -> list[str]:
    """One row per reading pair: the witness (level, kind, size) and the headline impact per policy."""
    from comet.diverge.impact import figures

    pols = list(reports[0].impact)
    head = "| ruling | preset | B reading | witness | " + " | ".join(f"chips change ({p})" for p in pols) + " |"
    lines = ["## Summary", "", head, "|---|---|---|---|" + "---|" * len(pols)]
    for r in reports:
        p = r.pair
        rid = APPLIES_TO[p.field][0] if p.field in APPLIES_TO else "house"
        w = r.search.witness
        if w is None:
            shown = "none in bound"
        elif w.level == "game":
            shown = "game"
        else:
            shown = f"{w.kind}, {len(w.actions)} action(s), {w.players}p"
        cells = [f"{100 * figures(t)['chips_changed']:.1f}%" for t in r.impact.values()]
        link = f"[{rid}](#{rid.lower()}-{p.field})" if p.field else rid
        lines.append(f"| {link} | {p.preset} | `{p.label_b()}` | {shown} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def render(
    pairs: list[Pair], reports: list[PairReport], args: argparse.Namespace, contradictions: Sequence[str] = ()
) -> str:
    from comet.commands.rules import default_spec_dir, ruling_sources, ruling_titles

    titles = ruling_titles(default_spec_dir())
    sources = ruling_sources(default_spec_dir())
    out_dir: Path | None = args.out
    lines = ["# Where the readings part ways", ""]
    cmd = "comet diverge " + (" ".join(sys.argv[2:]) if len(sys.argv) > 2 else "")
    run_on = ""
    if args.backend != "reference":
        from datetime import UTC, datetime

        run_on = (
            f" on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with the `{args.backend}` backend (checked against the "
            f"reference engine on seeds 0..{SAMPLE - 1} of every pair and policy before the study ran)"
        )
    lines += [
        f"Generated by `{cmd.strip()}`{run_on}: {args.deals} paired deals and {args.games} paired whole games per policy "
        f"({args.policies}), seeds 0.. under both readings. A is the preset's default reading, B the other. "
        "A witness is the smallest deal found (fewest actions, then players, then cards played) where the "
        "readings allow different actions or move different chips; `>>` marks the first point of difference. "
        "Witnesses come from `comet/diverge/witnesses.json` (`--search` looks afresh); a search is bounded by "
        "counts (seeds, depth, states) and by a time cap, so on a loaded machine it may try fewer deals (the "
        "number tried is given with each search that found nothing). The impact figures are exact for the "
        "seeds played: the same on one core or many.",
        "",
    ]
    fields: dict[str, list[PairReport]] = {}
    for r in reports:
        fields.setdefault(r.pair.field, []).append(r)
    if len(reports) > 1:
        lines += summary_table(reports)
    for f, rs in fields.items():
        rid = APPLIES_TO[f][0] if f in APPLIES_TO else ""
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
            lines += field_section("", "", "", "", rs, out_dir, args.deals, args.games)[2:]
            continue
        lines += field_section(
            f, rid, question, _slug_link(source), rs, out_dir, args.deals, args.games, sources.get(rid, [])
        )
    lines += contradictions
    lines += larger_runs(out_dir)
    return "\n".join(lines) + "\n"


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
