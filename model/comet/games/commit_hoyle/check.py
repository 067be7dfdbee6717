"""The commit hoyle game's independent recomputation for the one invariant checker (``comet.checks``): written from
the seeds' words and the readings of the rulings, never calling the rules in ``rules.py``."""

from __future__ import annotations

from collections import Counter

from comet.cards import DIAMONDS, KING, card, rank_of
from comet.checks.game import (
    chip_economy,
    chip_game_end,
)
from comet.checks.recompute import (
    Expected,
    added_payments,
    from_each_other,
    table_text,
)
from comet.checks.registry import GameCheck, register_check
from comet.state import Action, DealState, GameState

_NINE_D = card(9, DIAMONDS)


# 000:86 "the 9♦ 2 counters", "whoever is caught with the 9♦ pays 2 to each": 2, whatever the deal's
# ``comet_value`` (a record may carry another; it plays no part in 000's Commit).
_COMMIT_NINE = 2


def commit_hoyle_recomputed(state: DealState) -> Expected:
    """000's Commit (000:86): "The first player out wins the pool" (each other player's stake,
    RUL-COMMIT-H-STAKE); "whoever is caught with the 9♦ pays 2 to each" (2 whatever the deal's
    ``comet_value``); "each King left in a hand costs 1 counter
    to each other player" (RUL-COMMIT-H-KINGS-HELD: paid by its holder, or to it)."""
    out: Counter[tuple[int, int]] = Counter()
    if state.winner < 0:
        return Expected({})
    n = state.players
    for seat in range(n):
        if seat != state.winner:
            out[(seat, state.winner)] += state.rules.commit_stake
    for seat, hand in enumerate(state.hands):
        for c in hand:
            for other in range(n):
                if other == seat:
                    continue
                if c == _NINE_D:
                    out[(seat, other)] += _COMMIT_NINE
                if rank_of(c) == KING:
                    pair = (seat, other) if state.rules.commit_king_payer == "holder" else (other, seat)
                    out[pair] += 1
    return Expected({k: v for k, v in out.items() if v})


def commit_hoyle_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """000:86 "A player who plays a King collects 1 counter from each other player, the 9♦ 2 counters"
    (2 whatever the deal's ``comet_value``)."""
    want: Counter[tuple[int, int]] = Counter()
    for c in action.cards:
        if c == _NINE_D:
            want.update(from_each_other(before.players, before.to_move, _COMMIT_NINE))
        elif rank_of(c) == KING:
            want.update(from_each_other(before.players, before.to_move, 1))
    got = added_payments(before, after)
    if got != dict(want):
        return [f"{action} paid {table_text(got)}; 000's Commit pays {table_text(dict(want))}"]
    return []


def commit_hoyle_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """000:86 "the 9♦ 2 counters": the 9♦ is worth 2 in every deal."""
    return chip_economy(before, final, after, 2, "9♦")


CHECK = register_check(
    "commit_hoyle",
    GameCheck(settlement=commit_hoyle_recomputed, step=commit_hoyle_step, economy=commit_hoyle_economy, end=chip_game_end),
)
