"""Packs and the deal: the player counts, the packs in rotation, the deal sizes and order, and the state
before the first action (shuffled, or given card by card).

Part of the rules engine (``comet.engine`` re-exports every name here, the public API); each function names
the rule ids of ``spec/rules.md`` it implements with ``@rule``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from comet.cards import Card, Pack, black_pack, card_text, red_pack
from comet.errors import RecordError
from comet.ruleset import Ruleset
from comet.state import DealState
from comet.trace import rule
from comet.variant import variant_of

PLAYER_COUNTS = (2, 3, 4, 5)
DEAL_TABLE = {2: (18, 12), 3: (12, 12), 4: (10, 8), 5: (9, 3)}


@rule("R-PLAYERS")
def check_players(players: int, rules: Ruleset | None = None) -> None:
    """The standard game is for two to five players (a variant may allow other counts)."""
    counts = PLAYER_COUNTS if rules is None else variant_of(rules).player_counts
    if players not in counts:
        game = "Comet" if rules is None else variant_of(rules).display
        contiguous = counts == tuple(range(counts[0], counts[-1] + 1))
        shown = f"{counts[0]} to {counts[-1]}" if contiguous else ", ".join(str(n) for n in counts)
        if len(counts) == 1:
            shown = str(counts[0])
        raise RecordError("players", f"{game} is played by {shown} players, not {players}")


def player_counts(rules: Ruleset) -> tuple[int, ...]:
    """The player counts these rules are dealt for: the game family's counts at which a deal can be dealt
    under the rules' readings (probed, so no table of counts lives outside the family)."""
    counts = []
    for n in variant_of(rules).player_counts:
        try:
            shuffled_deal(rules, n, n - 1, 0)
        except (RecordError, ValueError, KeyError):
            continue
        counts.append(n)
    return tuple(counts)


@rule("R-PACK-ALTERNATE")
def packs_in_rotation(rules: Ruleset, players: int | None = None) -> tuple[Pack, ...]:
    """The packs taken in turn, one per deal (RUL-PACKS); a variant may supply its own."""
    hook = variant_of(rules).packs
    if hook is not None:
        return hook(rules, players)
    if rules.packs == "black_only":
        return (black_pack(),)
    return (black_pack(), red_pack())


@rule("R-DEAL-SIZES")
def deal_sizes(rules: Ruleset, players: int, pack_size: int = 48) -> tuple[int, int]:
    """(cards per player, cards in the dead hand) (RUL-DEAL-SIZES)."""
    check_players(players, rules)
    hook = variant_of(rules).deal_sizes
    if hook is not None:
        return hook(rules, players, pack_size)
    if rules.deal_sizes == "table":
        return DEAL_TABLE[players]
    each = pack_size // players
    return each, pack_size - each * players


@rule("R-DEAL-ORDER")
def distribute(
    rules: Ruleset, order: Sequence[Card], players: int, dealer: int, hand_size: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal ``order`` (top card first) clockwise from the dealer's left (RUL-DEAL-ORDER): one card at a time
    (the dealer's left neighbour gets the 1st, 1st + players-th, ... card), or each player a block of cards."""
    hands: list[tuple[Card, ...]] = [()] * players
    dealt = players * hand_size
    for i in range(players):  # the i-th player from the dealer's left
        if rules.deal_order == "round_robin":
            cards = order[i:dealt:players]
        else:
            cards = order[i * hand_size : (i + 1) * hand_size]
        hands[(dealer + 1 + i) % players] = tuple(sorted(cards))
    return tuple(hands), tuple(sorted(order[dealt:]))


@rule("R-DEAD-HAND", "R-LEAD-FIRST")
def start_deal(
    rules: Ruleset,
    pack: Pack,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    comet_value: int | None = None,
) -> DealState:
    """The state before the first action: the dealer's left neighbour is to move.

    ``comet_value`` defaults to the variant's starting value of the wild card."""
    if comet_value is None:
        comet_value = variant_of(rules).comet_value
    if not 0 <= dealer < players:
        raise RecordError("dealer", f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    if comet_value < 0:
        raise RecordError("field", f"comet_value must not be negative, not {comet_value}")
    return DealState(
        rules=rules,
        players=players,
        dealer=dealer,
        pack=pack.name,
        wild=pack.wild,
        comet_value=comet_value,
        hands=tuple(tuple(sorted(h)) for h in hands),
        dead=tuple(sorted(dead)),
        played=(),
        run=(),
        to_move=(dealer + 1) % players,
        turn_played=False,
        last_player=-1,
        turn=0,
        steps=0,
        payments=(),
    )


def shuffled_deal(
    rules: Ruleset, players: int, dealer: int, seed: int, pack: Pack | None = None, comet_value: int | None = None
) -> DealState:
    """Shuffle ``pack`` (default: the first pack in rotation) with ``seed`` and deal it."""
    check_players(players, rules)
    p = pack if pack is not None else packs_in_rotation(rules, players)[0]
    order = list(p.cards)
    random.Random(seed).shuffle(order)
    size, _ = deal_sizes(rules, players, len(p.cards))
    hands, dead = distribute(rules, order, players, dealer, size)
    return start_deal(rules, p, players, dealer, hands, dead, comet_value)


def explicit_deal(
    rules: Ruleset,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    comet_value: int | None = None,
) -> DealState:
    """A deal given card by card; checks it is exactly one pack of the variant with its deal sizes."""
    check_players(players, rules)
    if len(hands) != players:
        raise RecordError("hand-size", f"expected {players} hands, got {len(hands)}")
    everything = sorted([c for h in hands for c in h] + list(dead))  # a multiset, as a sorted list
    packs = packs_in_rotation(rules, players)
    pack = next((p for p in packs if sorted(p.cards) == everything), None)
    if pack is None:
        names = " or ".join(p.name for p in packs)
        diff = pack_diff(Counter(everything), rules, players)
        raise RecordError("pack", f"the hands and dead hand are not exactly one {names} pack{diff}")
    size, dead_size = deal_sizes(rules, players, len(pack.cards))
    for seat, h in enumerate(hands):
        if len(h) != size:
            raise RecordError("hand-size", f"seat {seat} holds {len(h)} cards; {players} players get {size} each")
    if len(dead) != dead_size:
        raise RecordError("hand-size", f"the dead hand holds {len(dead)} cards; it should hold {dead_size}")
    return start_deal(rules, pack, players, dealer, hands, dead, comet_value)


def pack_diff(have: Counter[Card], rules: Ruleset, players: int | None = None) -> str:
    """A short description of how ``have`` differs from the nearest pack."""
    best = min(
        packs_in_rotation(rules, players), key=lambda p: sum(((p.counts() - have) + (have - p.counts())).values())
    )
    extra = sorted((have - best.counts()).elements())
    missing = sorted((best.counts() - have).elements())
    parts = []
    if extra:
        parts.append("extra: " + " ".join(card_text(c) for c in extra))
    if missing:
        parts.append("missing: " + " ".join(card_text(c) for c in missing))
    return f" ({best.name} pack; {'; '.join(parts)})" if parts else ""
