"""Where a row of the extremes keeps a gap, the proof that the gap is real in the encoding: a state the encoding
admits, with every fact proved for that row, at exactly the proved value (issue 37).

A proved bound is the optimum of an objective over formulas (``optimum.Problem``: ``Inv`` and the row's
lemmas, or the termination proof's ranking over the dealt states).  Z3's model of those formulas with the
objective at the bound is a satisfying assignment anyone can check by evaluating the formulas on it
(``certificates.fits``): so the formulas admit the value, and no argument from these facts alone gives a
smaller bound.  Closing such a gap needs a new fact (one about the order cards left the hands, say), not a
longer search of the same formulas.  The model says nothing about real deals: whether one reaches the value is
the other half of the row (the shipped deals), and the page's prose says for each row why the state is not
one a real deal is known to reach.

The models are stored in ``certified/admitted.json`` (written by ``comet bounds --page``, which finds one for
each row it calls a gap) with the names of the facts they were found with, so the check rebuilds the same
formulas from the current encoding and evaluates them on the stored model (milliseconds), and needs no
lemma proved again: ``problems`` says, for each gap row, whether its stored model still fits the formulas and
gives the objective the bound the proof gives now.  The facts named are the ones the bound was proved with,
or more (a lemma proved for the row but not needed for its bound): a model of more formulas is a model of
fewer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import z3
from comet.cards import rank_text
from comet.presets import preset as preset_named
from comet.variant import variant_of

from comet_proofs.abstraction import describe_action, ranks_text
from comet_proofs.bounds.forced import candidate_lemmas, proved_lemmas, winner_problems
from comet_proofs.bounds.lemmas import dealt_size, long_deal_lemma_holds, run_played, run_played_lemma_holds
from comet_proofs.bounds.optimum import TIMEOUT_MS, Problem
from comet_proofs.bounds.page import NAMES, SAYS
from comet_proofs.bounds.proved import (
    FORCED_RUNS,
    LONG_DEAL_OUT_OF_BUDGET,
    WINNER_MOST,
    long_deal_problem,
    ranking_problem,
    start_of,
)
from comet_proofs.bounds.quantities import ACTIONS, DEAL_GAIN, DEAL_LOSS, GAIN, Bound
from comet_proofs.bounds.stops import counting_stops_problem, last_step_problem, suit_runs_refutation
from comet_proofs.certificates import FOLDER, Values, fits, model_of, value_on, values_of
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import SuitedEncoding
from comet_proofs.registry import encoding_for
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import COMET_DEAD, COMET_PLAYED, Readings

FORMAT = 1
FILE = FOLDER / "admitted.json"
# The facts a row's formulas are named by (the first name says which optimum; the winner's lemmas follow it)
RANKING = "ranking"  # the termination proof's ranking over the dealt states (``proved.ranking_problem``)
LONG_DEAL = "long_deal"  # ``lemmas.long_deal`` over finished deals (``proved.long_deal_problem``)
FORCED = "forced_runs"  # the last step with ``stops.forced_runs`` (``stops.last_step_problem``)
SUITED = "suit_runs"  # ``Inv`` with ``stops.suit_runs`` over finished deals (``stops.counting_stops_problem``)
WINNER = "winner"  # ``forced.winner_problems``, then the names of its lemmas (``forced.candidate_lemmas``)
RUN_PLAYED = "run_played"
WHAT = {
    RANKING: "the termination proof's ranking at its largest over the deals dealt (every action lowers it by one "
    "at least); the lemma that counts the passes after each play (`lemmas.long_deal`) is not proved for this "
    "preset in the budget",
    LONG_DEAL: "a finished deal under the count of the passes each play allows (`lemmas.long_deal`) and the hand sizes",
    FORCED: "the deal's last step, `Inv` and the hand sizes before it, the forced runs (`stops.forced_runs`) on "
    "both sides of it",
    SUITED: "a finished deal under `Inv`, the hand sizes, the stops charged (`lemmas.long_stops`) and the runs "
    "in suit (`stops.suit_runs`)",
    WINNER: "a finished deal under `Inv`, the hand sizes and the lemmas proved for the winner's most (`bounds.forced`)",
}


@dataclass(frozen=True, slots=True)
class Admitted:
    """One gap row's model: the formulas named by ``facts`` admit ``bound`` (``values``: Z3's model, its zeros
    and falses left out, as in ``certificates``)."""

    preset: str
    players: int
    quantity: str
    bound: int
    facts: tuple[str, ...]
    values: Values

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.preset, self.players, self.quantity)


def _setting(preset: str, players: int) -> tuple[Encoding, Readings, int, int]:
    enc = encoding_for(preset)
    rules = preset_named(preset).rules
    rd = enc.readings_of(rules)
    return enc, rd, dealt_size(enc, players, rd), variant_of(rules).comet_value


def problem(preset: str, players: int, quantity: str, facts: Sequence[str]) -> Problem:
    """The formulas named by ``facts`` for the row (built now from the encoding: nothing is proved here)."""
    enc, rd, size, start = _setting(preset, players)
    kind, *more = facts
    if kind == RANKING:
        return ranking_problem(enc, players, rd, start)
    if kind == LONG_DEAL:
        return long_deal_problem(enc, players, size)
    if kind == FORCED:
        return last_step_problem(enc, players, rd, size)
    if kind == SUITED:
        return counting_stops_problem(enc, players, rd, size, suited=True)
    if kind == WINNER:
        fixed = start_of(enc, preset_named(preset).rules)
        candidates = candidate_lemmas(enc, players, rd, size)
        named = [n for n in more if n != LONG_DEAL]
        lemmas = [(lambda x: run_played(enc, x)) if n == RUN_PLAYED else candidates[n][0] for n in named]
        collect, won = winner_problems(enc, players, rd, size, fixed, lemmas, long_ok=LONG_DEAL in more)
        return won if quantity == DEAL_GAIN else collect
    raise ValueError(f"no formulas named {kind!r} (one of: {', '.join(WHAT)})")


def facts_of(preset: str, players: int, quantity: str) -> tuple[str, ...] | None:
    """The facts the row's bound is proved with (``proved.proved_bounds_in_value``'s choice for the rows that can
    keep a gap), the lemmas proved again here; None where the row's bound is another kind of optimum."""
    enc, rd, size, _ = _setting(preset, players)
    if quantity == ACTIONS:
        if preset in LONG_DEAL_OUT_OF_BUDGET:
            return (RANKING,)
        if players in FORCED_RUNS.get(preset, ()):
            return (FORCED,)
        if isinstance(enc, SuitedEncoding) and suit_runs_refutation(enc, players, rd, size) is None:
            return (SUITED,)
        return (LONG_DEAL,)
    if quantity in (GAIN, DEAL_GAIN) and players in WINNER_MOST.get(preset, ()):
        fixed = start_of(enc, preset_named(preset).rules)
        before = run_played_lemma_holds(enc, players, rd, size)
        known = [lambda x: run_played(enc, x)] if before else []
        names = proved_lemmas(enc, players, rd, size, fixed, known)
        long_ok = preset not in LONG_DEAL_OUT_OF_BUDGET and long_deal_lemma_holds(enc, players, rd, size)
        return (WINNER, *([RUN_PLAYED] if before else []), *names, *([LONG_DEAL] if long_ok else []))
    return None


def find(b: Bound, budget_ms: int = 6 * TIMEOUT_MS) -> Admitted | str:
    """The model of ``b``'s row at its proved bound, or why there is none: the facts admit less (then the bound
    can be lowered: a fault of the bounds), or Z3 gives no answer in ``budget_ms``."""
    if b.upper is None:
        return f"{b.preset} {b.players}p {b.quantity}: no proved bound"
    facts = facts_of(b.preset, b.players, b.quantity)
    if facts is None:
        return f"{b.preset} {b.players}p {b.quantity}: the bound is not one optimum this module rebuilds"
    p = problem(b.preset, b.players, b.quantity, facts)
    solved = solve_alone([*p.constraints, p.objective == b.upper], budget_ms)
    if solved.model is None:
        verdict = "admit no state at" if solved.verdict == z3.unsat else "gave Z3 no answer in time at"
        return f"{b.preset} {b.players}p {b.quantity}: the formulas {verdict} the bound {b.upper}"
    values = values_of(solved.model)
    if values is None:
        return f"{b.preset} {b.players}p {b.quantity}: Z3's model is not one of constants"
    return Admitted(b.preset, b.players, b.quantity, b.upper, facts, values)


def problem_with(a: Admitted) -> str | None:
    """Why ``a`` is not a model of its row's formulas at its bound now (None: it is)."""
    p = problem(a.preset, a.players, a.quantity, a.facts)
    model = model_of(a.values)
    if not fits(model, list(p.constraints)):
        return "its model no longer satisfies the formulas (the encoding or a lemma changed)"
    got = value_on(model, p.objective)
    if got != a.bound:
        return f"its model gives the objective {got}, not {a.bound}"
    return None


def words(a: Admitted) -> str:
    """The model read back as the game's states: each seat's cards, the dead hand, the pile, and the value the
    objective has there (the actions so far, the chips, or the ranking of a deal dealt)."""
    p = problem(a.preset, a.players, a.quantity, a.facts)
    model = model_of(a.values)
    name = preset_named(a.preset).variant.wild_name
    wild = f" + the {name}"
    lines: list[str] = []
    for i, (label, s) in enumerate(p.shown):
        if i and p.action is not None:
            kind, rank = value_on(model, p.action.kind) or 0, value_on(model, p.action.rank) or 0
            lines.append(f"then: {describe_action(kind, rank)}")
        x = s.evaluate(model)
        lines.append(f"{label}:")
        for seat, row in enumerate(x.hands):
            mark = " (the winner)" if x.winner == seat else " (to move)" if x.winner < 0 and x.to_move == seat else ""
            comet = wild if x.comet == seat else ""
            lines.append(f"  seat {seat}{mark}: {ranks_text(row, x.ranks, x.labels)}{comet}")
        dead = wild if x.comet == COMET_DEAD else ""
        pile = wild if x.comet == COMET_PLAYED else ""
        lines.append(f"  face down: {ranks_text(x.dead, x.ranks, x.labels)}{dead}")
        lines.append(f"  played: {ranks_text(x.played, x.ranks, x.labels)}{pile}")
        if x.out_wild_as:
            lines.append(f"  the last card was the {name} standing for {rank_text(x.out_wild_as)}")
        if a.quantity in (DEAL_GAIN, DEAL_LOSS):  # the settlement's rows leave the chips of play free
            lines.append(f"  chips moved in play so far: {' '.join(f'{c:+d}' for c in x.chips)}")
        other = [f"{field} {value}" for field, value in x.extra if not field.startswith("loc.")]
        if other:  # a card-level encoding's ``loc.<card>`` fields are the rows above, card by card
            lines.append(f"  the encoding's other fields: {', '.join(other)}")
    objective = "ranking" if a.facts[0] == RANKING else "actions" if a.quantity == ACTIONS else "chips"
    lines.append(f"{objective} at the bound: {value_on(model, p.objective)}")
    return "\n".join(lines)


def stored(path: Path = FILE) -> dict[tuple[str, int, str], Admitted]:
    """The stored models by row (empty if the file is missing)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: format {data.get('format')!r}, this version reads {FORMAT}")
    out: dict[tuple[str, int, str], Admitted] = {}
    for e in data["rows"]:
        a = Admitted(e["preset"], e["players"], e["quantity"], e["bound"], tuple(e["facts"]), dict(e["values"]))
        out[a.key] = a
    return out


def store(found: Sequence[Admitted], path: Path = FILE) -> None:
    rows = [
        {"preset": a.preset, "players": a.players, "quantity": a.quantity, "bound": a.bound, "facts": list(a.facts)}
        | {"values": a.values}
        for a in sorted(found, key=lambda a: a.key)
    ]
    path.write_text(json.dumps({"format": FORMAT, "rows": rows}, indent=1) + "\n", encoding="utf-8")


def refresh(
    gaps: Sequence[Bound], path: Path = FILE, progress: Callable[[str], None] | None = None
) -> tuple[list[Admitted], list[str]]:
    """For each gap row, its stored model where it still checks at the row's bound, else one found now; the
    rows' models are stored (replacing the file's rows of the same presets and counts), and the reasons for the
    rows left without one returned."""
    kept = stored(path)
    found: list[Admitted] = []
    missing: list[str] = []
    for b in gaps:
        old = kept.get((b.preset, b.players, b.quantity))
        if old is not None and old.bound == b.upper and problem_with(old) is None:
            found.append(old)
            continue
        if progress is not None:
            progress(f"{b.preset} {b.players}p: {b.quantity}")
        got = find(b)
        if isinstance(got, str):
            missing.append(got)
        else:
            found.append(got)
    asked = {(b.preset, b.players) for b in gaps}
    others = [a for a in kept.values() if (a.preset, a.players) not in asked]
    store([*others, *found], path)
    return found, missing


def problems(bounds: Sequence[Bound], path: Path = FILE) -> list[str]:
    """One line per gap row of ``bounds`` whose stored model is missing, not at the bound proved now, or no
    longer a model of its formulas."""
    kept = stored(path)
    out: list[str] = []
    for b in bounds:
        if b.upper is None or b.exact:
            continue
        where = f"{b.preset} {b.players}p {b.quantity}"
        a = kept.get((b.preset, b.players, b.quantity))
        if a is None:
            out.append(f"{where}: a gap, and no model of its formulas is stored (comet bounds --page)")
        elif a.bound != b.upper:
            out.append(f"{where}: the stored model is at {a.bound}, the proof gives {b.upper}")
        else:
            why = problem_with(a)
            if why is not None:
                out.append(f"{where}: {why}")
    return out


HEADING = "### What the proofs admit at each gap"


def section(bounds: Sequence[Bound], found: Sequence[Admitted]) -> str:
    """spec/extremes.md's part on the gap rows' models: for each, in the table's order, the formulas and the
    state read back from the model."""
    by_row = {a.key: a for a in found}
    lines = [
        HEADING,
        "",
        "For each row above that keeps a gap, the formulas its bound is the optimum of admit a state at exactly the",
        "bound: Z3's model, stored in `proofs/comet_proofs/certified/admitted.json` and checked by evaluating the",
        "formulas on it whenever this page is checked. So the gap is real in the encoding: these facts cannot give",
        "a smaller number, and closing it needs a new fact (the bullets above say which the state breaks). The",
        "state is the encoding's, counted by rank (by card in the Commits); no real deal is known to reach it.",
        "",
    ]
    for b in bounds:
        a = by_row.get((b.preset, b.players, b.quantity))
        if a is None or b.exact:
            continue
        what, unit = SAYS[b.quantity]
        game = f"{b.players}-player {NAMES.get(b.preset, b.preset)}"
        lines.append(f"- **{game}, {what}: {a.bound} {unit}** over {WHAT[a.facts[0]]}.")
        lines += ["", "  ```text", *[f"  {line}" for line in words(a).splitlines()], "  ```", ""]
    return "\n".join(lines)
