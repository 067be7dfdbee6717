"""``comet diverge``: where two readings part ways (a witness), and how much it matters (paired impact)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from comet.commands.diverge_page import render
from comet.commands.diverge_pages import pages, plain_lines
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.policies import POLICY_NAMES
from comet.diverge.records import Bound
from comet.diverge.study import (
    fast_plays,
)
from comet.presets import PRESETS
from comet.records.rules_file import resolve
from comet.ruleset import RULING_FIELDS, RULING_OF


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "diverge",
        help="find where two readings of a ruling part ways and measure how much it matters",
        description="For a ruling (a Ruleset field or RUL- id): its plain answer (how often, who gains, how much, "
        "how sure) read from the published report in spec/divergence/. With --measure, every preset it applies "
        "to is measured afresh: the smallest deal (or game) where its readings differ, narrated side by side, and "
        "the paired impact over seeded deals and games. --all covers every ruling; --rules A --against B compares "
        "two rule sets; --out DIR writes the report as pages.",
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
    p.add_argument(
        "--deals", type=int, default=200, metavar="N", help="paired deals per policy and player count (default 200)"
    )
    p.add_argument(
        "--games",
        type=int,
        default=10,
        metavar="G",
        help="paired whole games per policy, for rulings that act between deals (default 10)",
    )
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
        help="players in the impact study (default: every player count the ruling applies to)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="W",
        help="processes for the impact study, one preset and player count each (the same figures for any W)",
    )
    p.add_argument(
        "--pimc-deals",
        type=int,
        default=0,
        metavar="N",
        help="also measure the PIMC player (the headline) over N paired deals at the game's usual player count "
        "(or, for a ruling not measured there, at its first player count)",
    )
    p.add_argument(
        "--pimc-deals-other",
        type=int,
        default=None,
        metavar="N",
        help="with --pimc-deals: the PIMC player's paired deals at every other player count the ruling is measured "
        "at (default: a quarter of --pimc-deals; 0: only at the usual count)",
    )
    p.add_argument(
        "--pimc-preset",
        action="append",
        default=[],
        metavar="P",
        help="presets whose pairs the PIMC player measures (repeatable; default: every preset it plays on the "
        "fast engine, which is every preset; a game without a fast PIMC player only when named, on the "
        "reference engine, about a hundred times slower)",
    )
    p.add_argument(
        "--seconds", type=float, default=8.0, metavar="S", help="witness search budget per pair and phase (default 8)"
    )
    p.add_argument(
        "--game-seeds",
        type=int,
        default=Bound().game_seeds,
        metavar="N",
        help=f"with --search: seeds tried per game length, player count and policy in the whole-game search "
        f"(default {Bound().game_seeds}; more where a ruling shows only in rare games)",
    )
    p.add_argument("--search", action="store_true", help="search for witnesses afresh instead of using the stored ones")
    p.add_argument(
        "--no-proof",
        action="store_true",
        help="with --search: skip the Z3 proof that each witness is the smallest (comet_proofs.smallest)",
    )
    p.add_argument(
        "--prove-rlimit",
        type=int,
        default=None,
        metavar="N",
        help="with --search: Z3's budget per pair for the smallest-witness proof, in millions of its resource "
        "units (rlimit: counted work, so the verdicts do not depend on the machine's load; default 1000)",
    )
    p.add_argument("--update", action="store_true", help="store the witnesses searched (comet/diverge/witnesses.json)")
    p.add_argument(
        "--backend",
        default="auto",
        metavar="NAME",
        help="the engine that plays the impact deals: reference, fast, or auto (default: fast where it plays both "
        "rule sets, else reference); the fast engine is first checked against the reference on a sample of seeds",
    )
    p.add_argument(
        "--interactions",
        action="store_true",
        help="also find, per preset, the rulings whose divergence depends on another ruling's reading",
    )
    p.add_argument(
        "--policy-deals",
        action="append",
        default=[],
        metavar="POLICY=N",
        help="paired deals for one policy on the fast engine, instead of --deals (repeatable)",
    )
    p.add_argument(
        "--reference-deals",
        type=int,
        default=None,
        metavar="N",
        help="paired deals per policy and player count for pairs the fast engine does not play (default: --deals)",
    )
    p.add_argument(
        "--strength",
        type=int,
        default=0,
        metavar="N",
        help="also measure the PIMC player's strength over N deals against each other policy, in each preset of "
        "the run it measures (the standard game if none), at the game's usual player count and at every other count "
        "where it measures a ruling, and report it",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write the report as pages (README.md the index, a page per ruling, method.md, summary.md) and a PNG "
        "per pair into DIR, and each pair's measured figures into DIR/results as it finishes: a later run with the "
        "same parameters measures only the pairs not saved yet.  For a named ruling (not --all) and a report in "
        "pages already in DIR: the per-ruling mode, which rewrites that ruling's page and its rows of the index and "
        "summary.md and leaves every other page as it is",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="with --out: measure every pair again, ignoring (and overwriting) the results saved in DIR/results",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="measure the impact units on the Dask distributed cluster whose scheduler is at ADDRESS (e.g. "
        "tcp://host:8786; extra [study]); the same figures as a local run",
    )
    p.add_argument(
        "--full",
        action="store_true",
        help="without --out: print the whole Markdown report (witness, every player's figures) instead of the plain "
        "answer (the published ruling page, or with --measure the one just measured)",
    )
    p.add_argument(
        "--measure",
        action="store_true",
        help="measure the ruling afresh (by default a ruling's answer is read from the published report, "
        "spec/divergence/, in a second); the options that set what is measured (--deals, --games, --policies...) "
        "apply only then, or with --out, --all, --rules or --search",
    )
    p.set_defaults(run=run, measuring_defaults={name: p.get_default(name) for name in MEASURING})


#: the options that only say what is measured: given without --measure (or another measuring mode), an error
MEASURING = (
    "deals",
    "games",
    "policies",
    "players",
    "workers",
    "pimc_deals",
    "pimc_deals_other",
    "pimc_preset",
    "seconds",
    "game_seeds",
    "no_proof",
    "prove_rlimit",
    "update",
    "backend",
    "interactions",
    "policy_deals",
    "reference_deals",
    "strength",
    "fresh",
    "scheduler",
    "ruling_a",
    "ruling_b",
)


def measuring(args: argparse.Namespace) -> bool:
    """Whether the command measures (``--measure``, ``--out``, ``--all``, ``--rules``/``--against`` or
    ``--search``); otherwise a ruling's answer is read from the published report."""
    return bool(
        getattr(args, "measure", True)
        or args.out is not None
        or args.all
        or args.rules is not None
        or args.against is not None
        or args.search
    )


def published(args: argparse.Namespace, divergence: Path) -> str:
    """The text ``comet diverge RULING`` prints without measuring: the plain answer from the published report
    in ``divergence`` (``diverge_published.published_lines``), or with ``--full`` the ruling's published page.
    ValueError for a measuring option given without ``--measure``, an unknown ruling or preset, and a ruling
    the report has no figures for (saying how to measure it)."""
    from comet.commands.diverge_published import published_lines

    defaults: dict[str, object] = getattr(args, "measuring_defaults", {})
    given = [name for name, value in defaults.items() if getattr(args, name) != value]
    if given:
        flag = "--" + given[0].replace("_", "-").replace("ruling-a", "ruling").replace("ruling-b", "against-ruling")
        raise ValueError(f"{flag} sets what is measured: add --measure to measure afresh (or --out DIR)")
    if args.ruling is None:
        raise ValueError("name a ruling, or give --all, or --rules A --against B")
    field = field_of(args.ruling)
    for name in args.preset:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    if not pairs_for(field, args.preset or None):
        raise ValueError(f"ruling {args.ruling!r} applies to none of the presets asked for")
    rid = RULING_OF[field]
    lines = published_lines(field, divergence, args.preset)
    if lines is None:
        where = f" for {', '.join(args.preset)}" if args.preset else ""
        raise ValueError(
            f"{rid} has no published figures{where} in {divergence} (the report was generated before it, or the "
            f"ruling's page is missing); measure it with: comet diverge {field} --measure"
        )
    if args.full:
        return (divergence / f"{rid}.md").read_text(encoding="utf-8")
    return "\n".join(lines) + "\n"


def field_of(name: str) -> str:
    """A field name, or the field of a ruling id; ValueError naming the choices."""
    if name in RULING_FIELDS:
        return name
    for f, rid in RULING_OF.items():
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

    from comet.commands.diverge_measure import SAMPLE, measure

    if not measuring(args):
        from comet.commands.rules import default_spec_dir

        sys.stdout.write(published(args, default_spec_dir() / "divergence"))
        return 0
    if args.prove_rlimit is not None and args.prove_rlimit <= 0:
        raise ValueError("--prove-rlimit must be positive")
    if args.game_seeds < 1:
        raise ValueError("--game-seeds must be at least 1")
    if args.deals < 0 or args.games < 0 or args.workers < 1 or args.strength < 0 or args.pimc_deals < 0:
        raise ValueError("--deals and --games must not be negative, --workers at least 1")
    if args.pimc_deals_other is not None and args.pimc_deals_other < 0:
        raise ValueError("--pimc-deals-other must not be negative")
    policies = [x.strip() for x in args.policies.split(",") if x.strip()]
    for pol in policies:
        if pol not in (*POLICY_NAMES, "simple", "pimc"):
            raise ValueError(f"unknown policy {pol!r}; choose from {', '.join((*POLICY_NAMES, 'simple', 'pimc'))}")
    pairs = chosen_pairs(args)
    if args.backend not in ("auto", "reference", "fast"):
        raise ValueError(f"unknown backend {args.backend!r}; choose auto, reference or fast")
    if args.backend == "fast":
        bad = [pair.key for pair in pairs if not fast_plays(pair)]
        if bad:
            raise ValueError(f"the fast engine does not play {bad[0]}; use --backend auto or reference")
    for name in args.pimc_preset:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} for --pimc-preset; known: {', '.join(sorted(PRESETS))}")
    if args.reference_deals is not None and args.reference_deals < 0:
        raise ValueError("--reference-deals must not be negative")
    console = Console(stderr=True)
    reports, contradictions = measure(args, pairs, policies)
    house = any(not r.pair.field for r in reports)
    if args.out is None:
        if args.full or house or args.all:
            sys.stdout.write(render(pairs, reports, args, contradictions, SAMPLE))
        else:
            sys.stdout.write("\n".join(plain_lines(reports)) + "\n")
    elif house:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "README.md").write_text(render(pairs, reports, args, contradictions, SAMPLE), encoding="utf-8")
        console.print(f"wrote {args.out / 'README.md'} and {len(reports)} plot(s)")
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        written = pages(pairs, reports, args, contradictions, SAMPLE)
        from comet.commands.diverge_published import merged_pages, other_rulings

        rids = sorted({RULING_OF[r.pair.field] for r in reports if r.pair.field in RULING_OF})
        # the per-ruling mode: this ruling's page and rows folded into a report of more rulings already in DIR
        folded = not args.all and other_rulings(args.out, rids)
        if folded:
            import datetime

            when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
            written = merged_pages(args.out, written, rids, when)
        for name, text in written.items():
            (args.out / name).write_text(text, encoding="utf-8")
        what = f"folded {', '.join(rids)} into the report in {args.out}: " if folded else ""
        console.print(
            f"{what}wrote {len(written)} pages in {args.out} (README.md the index) and {len(reports)} plot(s)"
        )
    return 0
