"""Placebo readings: readings that provably cannot change play or payments, so the impact study must find
no measurable effect for them (a check on the study itself: coupled play, the statistics, the verdict).

- ``deal_order = blocks``: the pack is shuffled uniformly before it is dealt, so every way of handing the
  shuffled cards out (one at a time round the table, or in blocks) gives every seat a uniformly random
  hand of the same size from the same pack: the deals have the same distribution under both readings.
  The cards dealt from one seed differ, so deal by deal the two readings play different deals; only the
  means per seat can show an effect, and they must not.
- ``packs = black_only``: a deal is dealt from the first pack in rotation, which is the black pack under
  both readings; the red pack only comes in on the second deal of a game.  A single deal is therefore
  identical under both readings (and across a game, the red pack is the black pack with its suits
  renamed, and no rule reads a suit).
"""

from __future__ import annotations

from comet.diverge.pairs import Pair, value_text

#: (field, reading) -> why it cannot change play or payments
PLACEBOS: dict[tuple[str, str], str] = {
    ("deal_order", "blocks"): "a uniformly shuffled pack dealt in blocks gives every seat a hand with the same "
    "distribution as dealing round the table",
    ("packs", "black_only"): "a deal is dealt from the first pack in rotation, the black pack under both readings "
    "(the red pack is the black one with its suits renamed, and no rule of these games reads a suit)",
}


def placebo_reason(pair: Pair) -> str | None:
    """Why ``pair`` is a placebo (None: it is not one)."""
    if not pair.field:
        return None
    return PLACEBOS.get((pair.field, value_text(pair.value_b)))
