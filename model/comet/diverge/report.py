"""The divergence report: per ruling (field), per preset and reading pair, the question, sources, the
witness narrated side by side, the paired impact table and a plot (``plot.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.diverge.impact import Tally, figures
from comet.diverge.narrate import narrate_witness
from comet.diverge.pairs import Pair, value_text
from comet.diverge.plot import plot_pair
from comet.diverge.witness import Search, cards_that_matter


@dataclass(frozen=True, slots=True)
class PairReport:
    pair: Pair
    search: Search
    impact: dict[str, Tally]
    interactions: tuple[str, ...] = ()


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


ROWS: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("winner_changed", "deals whose winner changes", pct),
    ("chips_changed", "deals whose chips change", pct),
    ("diff_mean", "chip difference per deal, mean", lambda x: f"{x:.2f}"),
    ("diff_ci", "  95% interval (+/-)", lambda x: f"{x:.2f}"),
    ("diff_max", "chip difference per deal, largest", lambda x: f"{x:.0f}"),
    ("game_winners_changed", "games whose winners change", pct),
    ("game_chips_changed", "games whose net chips change", pct),
)
SIDE_ROWS: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("first_wins", "first player wins", pct),
    ("dealer_wins", "dealer wins", pct),
    ("first_chips", "first player's mean chips", lambda x: f"{x:+.2f}"),
    ("dealer_chips", "dealer's mean chips", lambda x: f"{x:+.2f}"),
    ("balance", "balance (1 - win-share spread)", lambda x: f"{x:.3f}"),
    ("decisive", "decisive (someone goes out)", pct),
    ("length", "deal length (actions)", lambda x: f"{x:.1f}"),
    ("drawn", "drawn deals", pct),
    ("stuck", "stuck deals", pct),
    ("game_decisive", "games with one winner", pct),
    ("game_deals", "deals per game", lambda x: f"{x:.1f}"),
)


def impact_table(impact: dict[str, Tally]) -> list[str]:
    pols = list(impact)
    figs = {p: figures(t) for p, t in impact.items()}
    head = "| measure | " + " | ".join(pols) + " |"
    lines = [head, "|---|" + "---|" * len(pols)]
    for key, label, fmt in ROWS:
        lines.append(f"| {label} | " + " | ".join(fmt(figs[p].get(key, 0.0)) for p in pols) + " |")
    for key, label, fmt in SIDE_ROWS:
        cells = []
        for p in pols:
            a, b = figs[p].get(f"a_{key}"), figs[p].get(f"b_{key}")
            cells.append("" if a is None or b is None else f"{fmt(a)} → {fmt(b)}")
        lines.append(f"| {label} (A → B) | " + " | ".join(cells) + " |")
    refused = [
        f"{p}: A {figs[p]['game_refused_a']:.0f}, B {figs[p]['game_refused_b']:.0f}"
        for p in pols
        if figs[p]["game_refused_a"] or figs[p]["game_refused_b"]
    ]
    if refused:
        lines.append("")
        lines.append("Games refused (the rule set does not allow the default game length): " + "; ".join(refused))
    return lines


def witness_section(r: PairReport) -> list[str]:
    s = r.search
    w = s.witness
    if w is None:
        note = "; ".join(s.notes) or "none found"
        return [
            f"**No witness** within the bound ({note}). Searched: {s.bound}; "
            f"{s.deals_tried} deals and {s.games_tried} games tried.",
        ]
    size = (
        f"{len(w.actions)} action(s), {w.players} players, {len(cards_that_matter(w))} card(s) played"
        if w.level == "deal"
        else f"a game, {w.players} players"
    )
    lines = [f"**Witness** ({w.level}, {w.kind}; {size}; found in: {w.origin}).", ""]
    lines += narrate_witness(r.pair, w)
    if s.notes:
        lines += ["", "Note: " + "; ".join(s.notes) + "."]
    return lines


def pair_section(r: PairReport, out_dir: Path | None, deals: int, games: int) -> list[str]:
    p = r.pair
    lines = [f"### {p.preset}: `{p.label_a()}` (A) against `{p.label_b()}` (B)", ""]
    lines += witness_section(r)
    lines += [
        "",
        f"**Impact** over {deals} paired deals and {games} paired games per policy "
        "(the same seeds under A and B; `comet diverge`):",
        "",
    ]
    lines += impact_table(r.impact)
    changed = any(t.chips_changed or t.winner_changed for t in r.impact.values())
    if out_dir is not None and not changed:
        lines += ["", "(No paired deal changed under any policy: no plot.)"]
    if out_dir is not None and changed:
        name = f"{p.field or 'house'}-{p.preset}-{value_text(p.value_b) if p.field else 'b'}.png"
        total = Tally()
        for t in r.impact.values():
            total = total.merge(t)
        plot_pair(
            f"{p.preset}: {p.label_a()} (A) vs {p.label_b()} (B), all policies",
            p.label_a(),
            p.label_b(),
            total,
            out_dir / name,
        )
        lines += ["", f"![chip differences and seat advantage]({name})"]
    if r.interactions:
        lines += ["", "**Interactions** (another ruling's reading changes whether this one makes a difference):", ""]
        lines += [f"- {x}" for x in r.interactions]
    return [*lines, ""]


def field_section(
    field: str,
    ruling: str,
    question: str,
    source: str,
    reports: Sequence[PairReport],
    out_dir: Path | None,
    deals: int,
    games: int,
    citations: Sequence[str] = (),
) -> list[str]:
    lines = [f"## {ruling}: `{field}`" if field else "## House rules", ""]
    if question:
        lines += [f"**Question.** {question}", ""]
    if source:
        lines.append(f"**Sources.** (the ruling: [{ruling}]({source}))")
        lines += [f"- {c}" for c in citations]
    lines.append("")
    for r in reports:
        lines += pair_section(r, out_dir, deals, games)
    return lines
