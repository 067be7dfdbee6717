"""``comet bench``: one table, measured side by side in one run on one core.

Rows: complete reference deals/s and fast-engine deals/s for every preset and player count
(fast: where the fast engine plays the preset), ``replay_record`` records/s, oracle ``apply``
requests/s over a pipe, and ``comet verify``'s wall time.  In-process figures are per CPU
second of this process (``time.process_time``), so that a machine shared with other work
distorts them less; the oracle and ``comet verify`` run as child processes and are timed by
the wall clock.  Every fast deal of a sample (``--check all``: every one) is replayed
through the reference engine; a disagreement fails the run (exit 1).  Then each goal of
issue 10 is reported met, or by how much it falls short, and the two ratios of issue 21 against the
naive yardstick of ``bench/naive.py`` (in a checkout) are measured side by side and reported.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from comet.errors import RecordError

#: The goals of issue 10 (``what``, preset, players, per second), with their wording.
BASELINE_REPLAY = 319.0  # replay_record records/s measured when issue 10 was filed
GOALS: tuple[tuple[str, str, int, float, str], ...] = (
    ("fast-deals", "standard", 4, 100_000.0, "fast engine: 100,000 complete random 4-player standard deals/s"),
    ("reference-deals", "standard", 4, 2_500.0, "reference: 2,500 complete random 4-player standard deals/s"),
    ("replay-records", "standard", 4, 3 * BASELINE_REPLAY, "replay_record: 3x the 319 records/s of issue 10"),
    ("oracle-apply", "standard", 4, 10_000.0, "oracle: 10,000 apply requests/s over a pipe"),
)


#: Issue 21's goals against the naive yardstick of ``bench/naive.py`` (row ``what``, least ratio, wording).
YARDSTICK_GOALS: tuple[tuple[str, float, str], ...] = (
    ("yardstick-deals", 2.0, "reference: 2x the naive yardstick's actions/s in random 4-player standard deals"),
    ("yardstick-replay", 0.6, "replay_record: 0.6x the naive yardstick's records/s"),
)


@dataclass(frozen=True, slots=True)
class Row:
    what: str
    preset: str
    players: int
    per_s: float
    note: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "what": self.what,
            "preset": self.preset,
            "players": self.players,
            "per_s": round(self.per_s, 1),
        }
        if self.note:
            out["note"] = self.note
        return out


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "bench",
        help="measure reference and fast-engine deals/s, replay, oracle and verify speed, against the goals",
        description="Measure, side by side in one run on one core: complete reference deals/s and fast-engine "
        "deals/s for every preset and player count (random legal play), replay_record records/s, oracle apply "
        "requests/s over a pipe, steps/s through the OpenSpiel, PettingZoo and Gymnasium wrappers beside the engine's "
        "own rate (those installed), and the wall time of comet verify; replay fast deals through the reference "
        "engine; then say for each goal of issue 10 whether it is met or by how much it falls short.  "
        "Figures are per CPU second of this process (child processes: wall clock).",
    )
    p.add_argument("--quick", action="store_true", help="short measurements, and skip comet verify")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the rows as a JSON list to FILE")
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help="CPU seconds per row (default 0.3 with --quick, else 2)",
    )
    p.add_argument(
        "--check",
        choices=("sample", "all"),
        default="sample",
        help="replay a sample of the fast engine's deals through the reference (default) or all of them",
    )
    p.add_argument("--no-verify", action="store_true", help="do not time comet verify")
    p.add_argument(
        "--preset",
        action="append",
        default=None,
        metavar="P",
        help="measure deals of this preset only (repeatable; default: every preset)",
    )
    p.set_defaults(run=run)


# --------------------------------------------------------------------- measurements


def cpu_rate(work: Callable[[], int], seconds: float) -> float:
    """Items per CPU second of ``work`` (which returns how many items it did), run for about ``seconds``."""
    n = 0
    t0 = time.process_time()
    while True:
        n += work()
        dt = time.process_time() - t0
        if dt >= seconds:
            return n / dt


def reference_deals(preset_name: str, players: int, seconds: float) -> float:
    """Complete deals/s of the reference engine: shuffle, random legal play to the end, settle."""
    from comet.engine import apply, legal_actions, returns, shuffled_deal
    from comet.presets import preset

    rules = preset(preset_name).rules
    count = [0]

    def work() -> int:
        n = count[0]
        rng = random.Random(n)
        s = shuffled_deal(rules, players, n % players, n)
        while not s.terminal:
            legal = legal_actions(s)
            s = apply(s, legal[rng.randrange(len(legal))], legal=legal)  # checked against the list just chosen from
        returns(s)
        count[0] += 1
        return 1

    return cpu_rate(work, seconds)


def fast_deals(
    preset_name: str, players: int, seconds: float, check: str, sample_size: int = 50
) -> tuple[float, int, int, list[str]]:
    """Fast-engine deals/s (random policy); then replay a sample (or all) through the reference.

    Returns (rate, deals played, deals replayed, mismatch messages)."""
    import numpy as np

    from comet.fast import play_deals
    from comet.fast.check import check_deals
    from comet.presets import preset

    rules = preset(preset_name).rules
    play_deals(rules, players, np.arange(64))  # compile or load the kernel outside the clock
    start = [0]
    batch = 20_000

    def work() -> int:
        seeds = np.arange(start[0], start[0] + batch, dtype=np.int64)
        play_deals(rules, players, seeds)
        start[0] += batch
        return batch

    rate = cpu_rate(work, seconds)
    played = start[0]
    sample = range(played) if check == "all" else range(0, played, max(1, played // sample_size))
    problems = check_deals(rules, players, list(sample))
    return rate, played, len(sample), [str(p) for p in problems]


def sample_records(players: int, count: int) -> list[Any]:
    """``count`` complete standard deals as parsed records (seeded shuffles, seeded random play)."""
    from comet.engine import apply, legal_actions, shuffled_deal
    from comet.presets import preset
    from comet.records.deal_record import record_from_state

    rules = preset("standard").rules
    out = []
    for i in range(count):
        start = shuffled_deal(rules, players, i % players, 100_003 + i)
        rng = random.Random(i)
        s = start
        actions = []
        while not s.terminal:
            legal = legal_actions(s)
            a = legal[rng.randrange(len(legal))]
            actions.append(a)
            s = apply(s, a)
        out.append(record_from_state(start, "standard", actions))
    return out


def replay_records(records: list[Any], seconds: float) -> float:
    from comet.records.deal_record import replay_record

    def work() -> int:
        for rec in records:
            if replay_record(rec).error is not None:
                raise RuntimeError("a sample record did not replay")
        return len(records)

    return cpu_rate(work, seconds)


def oracle_apply(records: list[Any], seconds: float) -> tuple[float, str]:
    """``apply`` requests/s answered by ``comet oracle`` over a pipe (wall clock).

    The incremental deal session (``comet.oracle.bench.measure_oracle_apply``: ``new`` once per
    deal, then one ``apply`` per action, requests streamed) when it exists; otherwise the stateless
    ``apply``, where every request carries its record prefix (answered in order, one at a time)."""
    try:
        from comet.oracle.bench import measure_oracle_apply
    except ImportError:
        return stateless_oracle_apply(records, seconds), "stateless: each request replays its record prefix"
    return measure_oracle_apply(seconds), "incremental session ops (new, apply by deal id), streamed"


def stateless_oracle_apply(records: list[Any], seconds: float) -> float:
    """The stateless ``apply`` of ``comet oracle``, one request at a time, each with its record prefix."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "comet.cli", "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for rec in records:
                body = rec.to_json()
                actions = body["actions"]
                for i, a in enumerate(actions):
                    body["actions"] = actions[:i]
                    proc.stdin.write(json.dumps({"op": "apply", "record": body, "action": a}) + "\n")
                    proc.stdin.flush()
                    if not json.loads(proc.stdout.readline()).get("ok"):
                        raise RuntimeError(f"the oracle refused apply {a!r}")
                    n += 1
                if time.perf_counter() - t0 >= seconds:
                    break
        return n / (time.perf_counter() - t0)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def reference_profile(top: int = 5) -> str:
    """The ``top`` functions by own time over 0.3 CPU seconds of complete reference deals (cProfile), as one line."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    reference_deals("standard", 4, 0.3)
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    ranked = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    return ", ".join(f"{fn[2]} {100 * v[2] / total:.0f}%" for fn, v in ranked)


def verify_seconds() -> tuple[float, int]:
    """The wall time and exit code of ``comet verify`` (run as a child process)."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "comet.cli", "verify"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    return time.perf_counter() - t0, done.returncode


# --------------------------------------------------------------------- the command


def goal_lines(rows: list[Row]) -> list[tuple[bool, str]]:
    """For each goal: met?, and a sentence saying so or by how much it falls short."""
    out = []
    for what, preset_name, players, target, text in GOALS:
        row = next((r for r in rows if (r.what, r.preset, r.players) == (what, preset_name, players)), None)
        if row is None:
            out.append((False, f"{text}: not measured"))
        elif row.per_s >= target:
            out.append((True, f"{text}: met ({row.per_s:,.0f}/s, {row.per_s / target:.1f}x the goal)"))
        else:
            short = 100 * (1 - row.per_s / target)
            needs = f"needs {target / row.per_s:.1f}x" if row.per_s > 0 else "nothing measured"
            out.append((False, f"{text}: NOT met ({row.per_s:,.0f}/s, {short:.0f}% short; {needs})"))
    return out


def yardstick_module() -> ModuleType | None:
    """``bench/yardstick.py`` of the checkout this package runs from; None when installed from a wheel."""
    path = Path(__file__).resolve().parents[3] / "bench" / "yardstick.py"
    spec = importlib.util.spec_from_file_location("comet_bench_yardstick", path) if path.is_file() else None
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def yardstick_rows(seconds: float) -> list[Row]:
    """The two ratios against the naive yardstick, measured side by side (``bench/yardstick.py``)."""
    module = yardstick_module()
    if module is None:
        return []
    f = module.measure(seconds * 3, 4)
    deals = (
        f"reference {f['reference_actions_per_s']:,.0f} actions/s, naive {f['naive_actions_per_s']:,.0f} actions/s, "
        f"{f['deals_checked']:,.0f} deals checked"
    )
    records = f"replay_record {f['reference_records_per_s']:,.0f}/s, naive {f['naive_records_per_s']:,.0f}/s"
    return [
        Row("yardstick-deals", "standard", 4, float(f["actions_ratio"]), deals),
        Row("yardstick-replay", "standard", 4, float(f["replay_ratio"]), records),
    ]


def yardstick_lines(rows: list[Row]) -> list[tuple[bool, str]]:
    """For each ratio goal: met?, and a sentence saying so, or that it was not measured."""
    out = []
    for what, least, text in YARDSTICK_GOALS:
        row = next((r for r in rows if r.what == what), None)
        if row is None:
            out.append((False, f"{text}: not measured (bench/yardstick.py is in a checkout, not in the wheel)"))
        else:
            verdict = "met" if row.per_s >= least else "NOT met"
            out.append((row.per_s >= least, f"{text}: {verdict} ({row.per_s:.2f}x; {row.note})"))
    return out


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    from rich.table import Table

    from comet.engine import player_counts
    from comet.fast import supported_presets
    from comet.presets import PRESETS, preset

    if args.seconds is not None and args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 2.0)
    json_path = Path(args.json) if args.json else None
    if json_path is not None and not json_path.parent.exists():
        raise RecordError("io", f"cannot write {json_path}: no directory {json_path.parent}")
    fast_ok = set(supported_presets())
    names = sorted(PRESETS) if not args.preset else sorted(set(args.preset))
    for name in names:
        preset(name)
    plan: list[tuple[str, str, int]] = []
    for name in names:
        for n in player_counts(PRESETS[name].rules):
            plan.append(("reference-deals", name, n))
            if name in fast_ok:
                plan.append(("fast-deals", name, n))
    plan += [("replay-records", "standard", 4), ("oracle-apply", "standard", 4)]
    plan.append(("framework-steps", "standard", 4))  # issue 22: steps/s through each framework wrapper
    do_verify = not args.quick and not args.no_verify
    rows: list[Row] = []
    problems: list[str] = []
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("bench", total=len(plan) + (1 if do_verify else 0))
        records: list[Any] = []
        for what, name, n in plan:
            progress.update(task, description=f"{what} {name} {n}p")
            if what == "reference-deals":
                rows.append(Row(what, name, n, reference_deals(name, n, seconds)))
            elif what == "fast-deals":
                rate, played, checked, bad = fast_deals(name, n, seconds, args.check, 50 if args.quick else 200)
                problems += bad
                note = f"{checked} of {played} deals replayed through the reference" + (
                    f", {len(bad)} DISAGREE" if bad else ", all agree"
                )
                rows.append(Row(what, name, n, rate, note))
            elif what == "framework-steps":
                from comet.frameworks.bench import framework_rows

                rows += [Row(w, name, n, rate, note) for w, rate, note in framework_rows(name, n, seconds)]
            elif what == "replay-records":
                records = sample_records(4, 20 if args.quick else 80)
                rows.append(Row(what, name, n, replay_records(records, seconds), f"{len(records)} records"))
            else:
                # the oracle's figure counts its start-up too, so give it a few seconds
                rate, note = oracle_apply(records[:10], max(seconds, 3.0))
                rows.append(Row(what, name, n, rate, note + " (wall clock)"))
            progress.advance(task)
        progress.update(task, description="against the naive yardstick")
        rows += yardstick_rows(seconds)
        if do_verify:
            progress.update(task, description="comet verify")
            wall, code = verify_seconds()
            rows.append(Row("verify-seconds", "all", 0, wall, f"exit code {code} (wall clock, seconds)"))
            progress.advance(task)
    table = Table(title=f"comet bench{' --quick' if args.quick else ''} ({time.strftime('%Y-%m-%d')}, one core)")
    table.add_column("preset")
    table.add_column("players", justify="right")
    table.add_column("reference deals/s", justify="right")
    table.add_column("fast deals/s", justify="right")
    table.add_column("fast / reference", justify="right")
    by_key = {(r.what, r.preset, r.players): r for r in rows}
    for name in names:
        for n in player_counts(PRESETS[name].rules):
            ref = by_key[("reference-deals", name, n)]
            fast = by_key.get(("fast-deals", name, n))
            table.add_row(
                name,
                str(n),
                f"{ref.per_s:,.0f}",
                f"{fast.per_s:,.0f}" if fast else "not supported",
                f"{fast.per_s / ref.per_s:,.0f}x" if fast else "",
            )
    out = Console()
    out.print(table)
    other = Table(title="replay, oracle, framework wrappers, verify")
    for col in ("measure", "figure", "note"):
        other.add_column(col, justify="right" if col == "figure" else "left")
    for r in rows:
        if r.what in ("replay-records", "oracle-apply"):
            unit = "records/s" if r.what == "replay-records" else "requests/s"
            other.add_row(f"{r.what} ({r.preset}, {r.players}p)", f"{r.per_s:,.0f} {unit}", r.note)
        elif r.what == "verify-seconds":
            other.add_row("comet verify", f"{r.per_s:,.0f} s", r.note)
        elif r.what.endswith("-steps"):
            other.add_row(f"{r.what} ({r.preset}, {r.players}p)", f"{r.per_s:,.0f} steps/s", r.note)
    if not do_verify:
        other.add_row("comet verify", "skipped", "--quick or --no-verify")
    out.print(other)
    for r in rows:
        if r.what == "fast-deals" and (r.preset, r.players) == ("standard", 4):
            out.print(f"fast engine, standard, 4 players: {r.note}")
    for ok, text in goal_lines(rows) + yardstick_lines(rows):
        out.print(("[green]MET[/] " if ok else "[red]SHORT[/] ") + text)
        if not ok and text.startswith("reference"):
            out.print(
                "  what the profile shows is left (own time, random 4-player standard deals): " + reference_profile()
            )
    for text in problems[:5]:
        out.print("[bold red]DISAGREEMENT[/] " + escape(text), highlight=False)
    if json_path is not None:
        try:
            json_path.write_text(json.dumps([r.to_json() for r in rows], indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise RecordError("io", f"cannot write {json_path}: {e}") from None
    return 1 if problems else 0
