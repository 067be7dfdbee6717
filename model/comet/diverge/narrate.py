"""A witness told side by side: the deal narrated under reading A and under reading B (``comet.notation``),
the first point of difference marked, and the payments under each."""

from __future__ import annotations

from collections.abc import Sequence

from comet.diverge.game_search import game_outcome
from comet.diverge.pairs import Pair, value_text
from comet.diverge.records import Witness
from comet.engine import apply, settlement
from comet.errors import IllegalAction, RecordError
from comet.notation import narrate, seat_name
from comet.state import Action, DealState

MARK = ">>"


def _column(start: DealState, actions: Sequence[Action]) -> tuple[list[str], str]:
    """The narration of ``actions`` as far as they are legal, and what happens at the last one."""
    s = start
    for i, a in enumerate(actions):
        try:
            s = apply(s, a)
        except IllegalAction as e:
            lines = narrate(start, actions[:i])
            return lines, f"{seat_name(s.to_move)} may not play '{a}': illegal, {e.rule} ({e.message})"
    lines = narrate(start, actions)
    pays = s.payments + (settlement(s) if s.terminal else ())
    paid = "; ".join(f"{seat_name(p.payer)} pays {seat_name(p.payee)} {p.amount} ({p.rule})" for p in pays)
    tail = f"'{actions[-1]}' is legal" if actions else "the deal is dealt"
    return lines, f"{tail}. Payments: {paid or 'none'}"


def side_by_side(left: Sequence[str], right: Sequence[str], marked: int) -> list[str]:
    """Two columns as a Markdown table; the row ``marked`` (an index into the rows) carries the marker."""
    rows = max(len(left), len(right))
    out = ["| | A | B |", "|---|---|---|"]
    for i in range(rows):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        mark = MARK if i == marked else ""
        out.append(f"| {mark} | {_cell(a)} | {_cell(b)} |")
    return out


def _cell(text: str) -> str:
    return text.strip().replace("|", "/") or " "


def sides(pair: Pair) -> str:
    """Which reading is which: a ruling pair's field values, or for two house rule sets (``--rules A
    --against B``) the fields in which they differ, each side's values."""
    if pair.field:
        return f"A: `{pair.label_a()}`, B: `{pair.label_b()}`"
    diff = pair.a.differences(pair.b)
    if not diff:
        return "A and B are the same rule set"
    a = ", ".join(f"{f} = {value_text(v)}" for f, v in diff.items())
    b = ", ".join(f"{f} = {value_text(getattr(pair.b, f))}" for f in diff)
    return f"A has `{a}`, B has `{b}` (the fields in which the two rule sets differ)"


def narrate_witness(pair: Pair, w: Witness) -> list[str]:
    """Markdown lines telling the witness under both readings (the deal in a fenced block, the play as a
    two-column table, the first point of difference marked with ``>>``)."""
    if w.level == "game":
        return narrate_game(pair, w)
    head = [f"{sides(pair)}. First difference ({w.kind}): {w.detail}", ""]
    try:
        start_a = w.start(pair.a)
    except RecordError as e:
        return [*head, f"The deal is refused under A: {e}"]
    try:
        start_b = w.start(pair.b)
    except RecordError as e:
        lines, _ = _column(start_a, w.actions)
        return [*head, "```", *lines, "```", "", f"Under B this deal is not a legal deal at all [{e.kind}]: {e}"]
    if w.kind == "dealt":
        tail = (
            "Under B the same shuffle is dealt from another pack, so the hands differ (a deal record holds the hands, "
            "not the shuffle, so B's are not shown)."
            if w.detail.startswith("B deals this deal from")
            else "Under B the same shuffled pack is dealt into other hands."
        )
        return [*head, "```", *narrate(start_a, ()), "```", "", tail]
    la, ta = _column(start_a, w.actions)
    lb, tb = _column(start_b, w.actions)
    deal_lines = la[: 1 + start_a.players + 1]
    la, lb = la[len(deal_lines) :], lb[len(deal_lines) :]
    # the first point of difference is the record's last action: mark the row that says what it did
    rows = max(len(la), len(lb))
    la += [""] * (rows - len(la))
    lb += [""] * (rows - len(lb))
    body = side_by_side([*la, ta], [*lb, tb], rows)
    return [*head, "```", *deal_lines, "```", "", *body]


def narrate_game(pair: Pair, w: Witness) -> list[str]:
    """A game witness: each deal's net chips under A and B, and the end of the game."""
    deals = None if w.game_deals < 0 else w.game_deals
    oa = game_outcome(pair.a, w.players, deals, w.game_seed, w.game_policy, w.game_record)
    ob = game_outcome(pair.b, w.players, deals, w.game_seed, w.game_policy, w.game_record)
    length = "its default length" if deals is None else f"{deals} deal(s)"
    how = (
        "built deal by deal (its game record's deals replayed under each, `comet.diverge.game_search.recorded_game`)"
        if w.game_record
        else f"seed {w.game_seed}, {w.game_policy} policy (`comet.game.play_game`)"
    )
    lines = [f"{sides(pair)}. A game of {length}, {w.players} players, {how}.", ""]
    rows_a = _game_rows(oa)
    rows_b = _game_rows(ob)
    first = next(
        (i for i, (x, y) in enumerate(zip(rows_a, rows_b, strict=False)) if x != y), min(len(rows_a), len(rows_b))
    )
    lines += side_by_side(rows_a, rows_b, first)
    return lines


def _game_rows(o: tuple[object, ...]) -> list[str]:
    if o[0] == "refused":
        return [f"refused: {o[2]}"]
    kind, win, net, _, history = o
    assert isinstance(history, tuple) and isinstance(net, tuple)
    rows = [f"deal {i + 1}: net {list(h)}" for i, h in enumerate(history)]
    if kind == "stopped":  # a game built deal by deal whose next deal does not fit these rules
        rows.append(f"deal {len(history) + 1}: {win}")
        return rows
    assert isinstance(win, tuple)
    rows.append(f"end: winners {', '.join(seat_name(s) for s in win)}; net {list(net)}")
    return rows
