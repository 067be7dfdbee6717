"""What a seat may know, as text: the public line of each action, the announcements, the end of a deal, the
observation and the table as the frameworks render them (spec/frameworks.md, "What a seat may know")."""

from __future__ import annotations

from collections.abc import Sequence

from comet import engine
from comet.cards import card_text, cards_text, rank_text
from comet.frameworks.table import Table
from comet.frameworks.utilities import utilities
from comet.state import Action, DealState


def run_text(state: DealState) -> str:
    if not state.run:
        return "new run"
    text = " ".join(rank_text(r) for r in state.run)
    if state.run_suit >= 0:
        text += " in " + "CDHS"[state.run_suit]
    if state.branch:
        text += " or " + card_text(state.branch)
    return text


def public_line(before: DealState, action: Action, after: DealState) -> str:
    """One action as every seat sees it: who did what, and what followed in public (the run, the next
    seat to move, payments made at once, the end of the deal)."""
    parts = [f"{before.to_move}: {action}", f"run {run_text(after)}"]
    paid = after.payments[len(before.payments) :]
    if paid:
        parts.append("paid " + ", ".join(f"{p.payer}>{p.payee} {p.amount}" for p in paid))
    if after.scores and after.scores != before.scores:
        parts.append("scores " + " ".join(str(s) for s in after.scores))
    if after.terminal:
        parts.append("drawn" if after.drawn else f"seat {after.winner} is out")
    else:
        parts.append(f"next {after.to_move}")
    return "; ".join(parts)


def announcement(state: DealState) -> str | None:
    """A fact the table learns at a decision whose legal actions depend on another seat's cards:
    under RUL-STUCK-RESTART = may, whether the left neighbour can start the run the player would
    pass on (``engine.may_pass_stuck_restart``), which that neighbour would say aloud."""
    if state.terminal or state.rules.stuck_restart != "may":
        return None
    if state.turn_played or state.last_player != state.to_move:
        return None
    can = engine.may_pass_stuck_restart(state)
    return f"{(state.to_move + 1) % state.players} {'can' if can else 'cannot'} start the run"


def end_text(state: DealState) -> str:
    """At the end of a deal the hands are shown to settle it, and the dead hand with them."""
    hands = " | ".join(cards_text(h) or "-" for h in state.hands)
    utils = " ".join(f"{u:g}" for u in utilities(state))
    return f"hands {hands}; dead {cards_text(state.dead) or '-'}; utilities {utils}"


def table_text(table: Table, state: DealState, seats: Sequence[int], *, reveal: bool = False) -> str:
    """The table as text for a render: the hands of ``seats`` by card name (every hand and the dead hand with
    ``reveal``, or once the deal is over), the other hands as their sizes, then the public state."""
    lines = []
    for s, h in enumerate(state.hands):
        if reveal or s in seats or state.terminal:
            lines.append(f"seat {s}: {cards_text(h) or '-'}")
        else:
            lines.append(f"seat {s}: {len(h)} cards")
    if reveal:
        lines.append(f"dead: {cards_text(state.dead) or '-'}")
    lines.append(observation_text(table, state, state.to_move, private=False))
    return "\n".join(lines)


def observation_text(table: Table, state: DealState, seat: int, *, private: bool = True, public: bool = True) -> str:
    """What ``seat`` sees now (no memory): its hand, and the table's public state."""
    parts: list[str] = []
    if private:
        parts.append(f"seat {seat}; hand {cards_text(state.hands[seat]) or '-'}")
    if public:
        parts.append(f"to move {state.to_move}" if not state.terminal else "deal over")
        parts.append(f"run {run_text(state)}")
        parts.append("played " + (cards_text(sorted(state.played)) or "-"))
        parts.append("held " + " ".join(str(len(h)) for h in state.hands))
        parts.append("chips " + " ".join(str(c) for c in state.chips()))
        if state.scores:
            parts.append("scores " + " ".join(str(s) for s in state.scores))
        parts.append(f"{table.pack.name} pack, wild worth {state.comet_value}")
        if state.terminal:
            parts.append(end_text(state))
    return "; ".join(parts)
