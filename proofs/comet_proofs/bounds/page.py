"""spec/extremes.md, the extremes of every game as facts a player can quote: written from the bounds table
(``table.bounds``: the proved bound, and the most a shipped deal reaches, replayed by the model), and
checked against it (``page_problems``: every row the page calls exact must be proved and reached now)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from comet_proofs.bounds.quantities import ACTIONS, DEAL_GAIN, DEAL_LOSS, GAIN, LOSS, POINTS, Bound

WITNESS_LINK = "../proofs/comet_proofs/witnesses/"
NAMES = {
    "standard": "standard Comet",
    "opera": "Comet with the Opera",
    "old_comet": "Old Comet",
    "two_player": "two-player Comet",
    "red_nines": "Red Nines",
    "commit_hoyle": "000's Commit",
    "commit_cats": "002's Commit",
}
SAYS = {
    ACTIONS: ("the longest deal", "actions (plays and passes)"),
    LOSS: ("the most one player can pay at the settlement of a deal", "chips"),
    GAIN: ("the most the winner can collect at the settlement of a deal", "chips"),
    DEAL_LOSS: ("the most one player can lose in a whole deal (play and settlement)", "chips"),
    DEAL_GAIN: ("the most one player can win in a whole deal (play and settlement)", "chips"),
    POINTS: ("the most points one player can score in a deal", "points"),
}


def status(b: Bound) -> str:
    """ "exact", "gap", or "no bound" (the encoding does not bound it)."""
    if b.upper is None:
        return "no bound"
    return "exact" if b.exact else "gap"


def sentence(b: Bound) -> str:
    """One row in plain words."""
    what, unit = SAYS[b.quantity]
    game = f"{b.players}-player {NAMES.get(b.preset, b.preset)}"
    link = f"[this deal]({WITNESS_LINK}{b.witness_file})" if b.witness_file else ""
    if b.exact:
        return f"In {game}, {what} is **{b.upper} {unit}**: proved, and {link} does it."
    if b.witness is None:
        known = f"no shipped deal yet (the best sampled deal reaches {b.sampled})"
    else:
        known = f"the best deal known reaches {b.witness} ({link})"
    if b.upper is None:
        return f"In {game}, {what} has no proved bound; {known}."
    return (
        f"In {game}, {what} is at most {b.upper} {unit} (proved); {known}, a gap of {b.upper - b.best} (the state"
        f" the proof admits at {b.upper} is shown below)."
    )


def row(b: Bound) -> str:
    witness = "none" if b.witness is None else f"{b.witness}"
    link = f"[{b.witness_file}]({WITNESS_LINK}{b.witness_file})" if b.witness_file else ""
    upper = "-" if b.upper is None else str(b.upper)
    return f"| {b.preset} | {b.players} | {b.quantity} | {upper} | {witness} | {status(b)} | {link} |"


HEADER = "| preset | players | quantity | proved ≤ | a shipped deal reaches | status | the deal |"


def markdown(bounds: Sequence[Bound], intro: str, outro: str = "", admitted: str = "") -> str:
    """The page: ``intro``, then per preset and player count the sentences, ``outro`` and ``admitted`` (the gap
    rows' models, ``admitted.section``), then the whole table."""
    lines = [intro.rstrip(), ""]
    exact = sum(b.exact for b in bounds)
    lines += [f"{exact} of the {len(bounds)} rows below are exact (proved and reached by a shipped deal).", ""]
    seen: list[tuple[str, int]] = []
    for b in bounds:
        if (b.preset, b.players) not in seen:
            seen.append((b.preset, b.players))
    for preset, players in seen:
        lines += [f"### {NAMES.get(preset, preset)}, {players} players", ""]
        lines += [f"- {sentence(b)}" for b in bounds if (b.preset, b.players) == (preset, players)]
        lines.append("")
    if outro:
        lines += [outro.rstrip(), ""]
    if admitted:
        lines += [admitted.rstrip(), ""]
    lines += ["## The table", "", HEADER, "|---|---|---|---|---|---|---|"]
    lines += [row(b) for b in bounds]
    return "\n".join(lines) + "\n"


ROW = re.compile(r"^\| (\w+) \| (\d+) \| ([^|]+?) \| (-|\d+) \| (none|\d+) \| (exact|gap|no bound) \|")


def page_problems(text: str, bounds: Sequence[Bound]) -> list[str]:
    """Every way the page's table disagrees with ``bounds`` (recomputed now: the proved bound, and the shipped
    deals replayed by the model), one readable line each: a row called exact must be proved and reached by
    a shipped deal at exactly the stated number, and every stated number must be the table's."""
    found = {(b.preset, b.players, b.quantity): b for b in bounds}
    problems: list[str] = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m is None:
            continue
        preset, players, quantity, upper, witness, state = m.groups()
        key = (preset, int(players), quantity)
        b = found.get(key)
        if b is None:
            continue
        where = f"{preset} {players}p {quantity}"
        if upper != ("-" if b.upper is None else str(b.upper)):
            problems.append(f"{where}: the page says proved ≤ {upper}, the proof gives {b.upper}")
        if witness != ("none" if b.witness is None else str(b.witness)):
            problems.append(f"{where}: the page says a shipped deal reaches {witness}, the replayed deals {b.witness}")
        if state == "exact" and not b.exact:
            problems.append(
                f"{where}: the page says exact, but the proved bound is {b.upper} and the best replayed "
                f"shipped deal reaches {b.witness}"
            )
        if state != status(b):
            problems.append(f"{where}: the page says {state}, the table {status(b)}")
    return problems
