"""The divergence report: per ruling (field), per preset and reading pair, the question, sources, the
witness narrated side by side, and the paired impact per player count (``impact_report.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.diverge.impact_report import impact_lines
from comet.diverge.narrate import narrate_witness
from comet.diverge.pairs import Pair, value_text
from comet.diverge.records import Search, cards_played
from comet.diverge.study import Measured
from comet.variant import variant_of


@dataclass(frozen=True, slots=True)
class PairReport:
    pair: Pair
    search: Search
    impact: list[Measured]  # one per player count measured
    interactions: tuple[str, ...] = ()


def proof_line(s: Search) -> str:
    """The witness's size claim: proved smallest within a stated bound, inert, or not proved."""
    pr = s.proof
    if pr is None:
        return "Smallest: not proved (searched before size proofs were kept)."
    if pr.method == "inert":
        return f"**{pr.text[0].upper()}{pr.text[1:]}.**"
    if pr.proved:
        claim = f"Proved {pr.text}" if pr.text.startswith("smallest") else f"Proved: {pr.text}"
        where = (
            f"every deal of {', '.join(map(str, pr.within))} players only" if pr.within else "every deal of the game's player counts"
        )
        how = f"by Z3 over {where} (`comet_proofs.smallest`)" if pr.method == "z3" else "by construction"
        return f"{claim}; {how}."
    if pr.text.startswith("not proved"):
        return f"Smallest: {pr.text}."
    return f"Smallest: not proved; {pr.text}."


def witness_section(r: PairReport) -> list[str]:
    s = r.search
    w = s.witness
    if w is None:
        note = "; ".join(s.notes) or "none found"
        if s.proof is not None and s.proof.method == "inert":
            return [proof_line(s), "", f"Under the preset's own readings: no witness ({note})."]
        proved = f" {proof_line(s)}" if s.proof is not None and s.proof.proved else ""
        return [
            f"**No witness** within the bound ({note}). Searched: {s.bound}; "
            f"{s.deals_tried} deals and {s.games_tried} games tried.{proved}",
        ]
    size = (
        f"{len(w.actions)} action(s), {w.players} players, {cards_played(w)} card(s) played"
        if w.level == "deal"
        else f"a game of {w.game_deals if w.game_deals > 0 else 'the default number of'} deal(s), {w.players} players"
    )
    lines = [f"**Witness** ({w.level}, {w.kind}; {size}; found by: {w.origin}). {proof_line(s)}", ""]
    lines += narrate_witness(r.pair, w)
    if s.notes:
        lines += ["", "Note: " + "; ".join(s.notes) + "."]
    return lines


def pair_section(
    r: PairReport, out_dir: Path | None, deals: int, games: int, title: str = "", placebo_family: int = 1
) -> list[str]:
    """One pair's section.  ``placebo_family``: the placebo check's number of measurements; a placebo pair's
    verdicts are judged with that family, as the placebo check judges them (``comet.diverge.placebo``)."""
    from comet.diverge.placebo import placebo_reason
    from comet.diverge.study import unmeasured

    p = r.pair
    heading = title or f"{p.preset}: `{p.label_a()}` (A) against `{p.label_b()}` (B)"
    lines = [f"### {heading}", ""]
    lines += witness_section(r)
    name = f"{p.field or 'house'}-{p.preset}-{value_text(p.value_b) if p.field else 'b'}"
    points = variant_of(p.a).scoring != "chips"
    together = max(1, placebo_family) if placebo_reason(p) is not None else 1
    title_b = f"{p.preset}: {p.label_a()} (A) vs {p.label_b()} (B)"
    absent = unmeasured(p) if r.impact else ()
    lines += ["", *impact_lines(r.impact, points, out_dir, name, title_b, together, absent, p)]
    if r.interactions:
        lines += ["", "**Interactions** (another ruling's reading changes whether this one makes a difference):", ""]
        # an item's narration follows it indented (a nested block of the list item), not as items of its own
        lines += [x if not x or x.startswith("  ") else f"- {x}" for x in r.interactions]
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
    title: str = "",
    placebo_family: int = 1,
) -> list[str]:
    lines = [f"## {ruling}: `{field}`" if field else "## House rules", ""]
    if question:
        lines += [f"**Question.** {question}", ""]
    if source:
        lines.append(f"**Sources.** (the ruling: [{ruling}]({source}))")
        lines += [f"- {c}" for c in citations]
    lines.append("")
    for r in reports:
        lines += pair_section(r, out_dir, deals, games, title, placebo_family)
    return lines
