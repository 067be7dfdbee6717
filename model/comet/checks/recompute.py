"""The shapes shared by every game's independent recomputation (``comet/games/<name>/check.py``): what a
finished deal should have paid or scored, and small helpers over payment tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from comet.state import Action, DealState, GameState, Payment


@dataclass(frozen=True, slots=True)
class Expected:
    """A finished deal recomputed: the settlement's payments ``{(payer, payee): amount}`` and, in a
    points game, each seat's points for the deal (``None`` in chip games)."""

    chips: Mapping[tuple[int, int], int]
    points: tuple[int, ...] | None = None


def chips_only(recompute: Callable[[DealState], dict[tuple[int, int], int]]) -> Recomputation:
    def run(state: DealState) -> Expected:
        return Expected(recompute(state))

    run.__name__ = recompute.__name__
    return run


Recomputation = Callable[[DealState], Expected | None]


def payments_table(payments: Sequence[Payment]) -> dict[tuple[int, int], int]:
    table: Counter[tuple[int, int]] = Counter()
    for p in payments:
        table[(p.payer, p.payee)] += p.amount
    return {k: v for k, v in table.items() if v}


def table_text(t: dict[tuple[int, int], int]) -> str:
    if not t:
        return "{nothing}"
    return "{" + ", ".join(f"seat {a} pays seat {b} {v}" for (a, b), v in sorted(t.items())) + "}"


def from_each_other(players: int, seat: int, amount: int) -> dict[tuple[int, int], int]:
    return {(p, seat): amount for p in range(players) if p != seat and amount}


def added_payments(before: DealState, after: DealState) -> dict[tuple[int, int], int]:
    return payments_table(after.payments[len(before.payments) :])


def no_chips_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """Points games move no chips in play (000:84 "The Comet is not paid for when played"; the
    other points families score points only)."""
    added = added_payments(before, after)
    return [f"{action} moved chips {table_text(added)} in a points game"] if added else []


StepCheck = Callable[[DealState, Action, DealState], list[str]]


GameEconomy = Callable[[GameState, DealState, DealState, GameState], list[str]]
