"""Helpers for hand-made positions: build deals and mid-deal states from card codes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from comet.cards import Card, Pack, black_pack, parse_card
from comet.engine import start_deal
from comet.ruleset import Ruleset
from comet.state import DealState


def cards(text: str) -> tuple[Card, ...]:
    """``"5C 6S 9D"`` -> sorted card ints."""
    return tuple(sorted(parse_card(w) for w in text.split()))


def position(
    hands: Sequence[str],
    *,
    dead: str = "",
    dealer: int | None = None,
    to_move: int | None = None,
    run: Sequence[int] = (),
    rules: Ruleset | None = None,
    pack: Pack | None = None,
    comet_value: int = 2,
    last_player: int = -1,
    turn_played: bool = False,
) -> DealState:
    """A mid-deal state: the given hands and dead hand; every other card of the pack counts as played.

    Hand sizes are free here (this is a position, not a fresh deal), but the cards still have
    to be drawn from one pack, so card conservation holds.
    """
    p = pack if pack is not None else black_pack()
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    held = [cards(h) for h in hands]
    dead_cards = cards(dead)
    rest = Counter(p.cards) - Counter([c for h in held for c in h]) - Counter(dead_cards)
    used = Counter([c for h in held for c in h]) + Counter(dead_cards)
    if used - Counter(p.cards):
        raise ValueError(f"cards not in the {p.name} pack: {sorted((used - Counter(p.cards)).elements())}")
    s = start_deal(rules or Ruleset(), p, players, dealer, held, dead_cards, comet_value)
    return replace(
        s,
        played=tuple(sorted(rest.elements())),
        run=tuple(run),
        to_move=(dealer + 1) % players if to_move is None else to_move,
        last_player=last_player,
        turn_played=turn_played,
    )


def plant_option_hooks(
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    *,
    out_multiplier: Callable[[DealState, int], int] | None = None,
    caught_multiplier: Callable[[DealState, int, int], int] | None = None,
) -> None:
    """Plant a broken rule option: every registered game family that admits ``option`` gets a copy of it
    with the given hooks replaced (the engine reads options from the variant records, so this is what it runs)."""
    from comet.presets import PRESETS
    from comet.variant import REGISTRY, variant_of

    for p in PRESETS.values():
        variant_of(p.rules)  # every game family registered before the registry is read
    for name, v in list(REGISTRY.items()):
        if any(o.name == option for o in v.options):
            options = tuple(
                replace(
                    o,
                    out_multiplier=out_multiplier or o.out_multiplier,
                    caught_multiplier=caught_multiplier or o.caught_multiplier,
                )
                if o.name == option
                else o
                for o in v.options
            )
            monkeypatch.setitem(REGISTRY, name, replace(v, options=options))
