"""Witness search within one deal: the deals to try (seeded shuffles, planted hands, straights), the
breadth-first search over action sequences with both rule sets stepped together, playouts by several
policies, and the shrinking of a long divergence (``comet.diverge.witness`` drives it)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence

from comet.cards import KING, Card, Pack, rank_of
from comet.diverge.lockstep import describe, legal_split, step_both
from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.diverge.records import DEAL_MODES, Bound, Witness
from comet.engine import (
    deal_sizes,
    distribute,
    explicit_deal,
    legal_actions,
    packs_in_rotation,
    player_counts,
    start_deal,
)
from comet.errors import RecordError
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of

# --------------------------------------------------------------------- deals to try


def plant(hands: list[list[Card]], dead: list[Card], seat: int, wanted: Sequence[Card], rng: random.Random) -> None:
    """Swap cards so that ``seat`` holds ``wanted`` (as far as its hand size allows)."""
    mine = hands[seat]
    for c in wanted:
        if c in mine:
            continue
        spare = [i for i, x in enumerate(mine) if x not in wanted]
        if not spare:
            return
        i = spare[rng.randrange(len(spare))]
        for h in (*hands, dead):
            if c in h and h is not mine:
                h[h.index(c)] = mine[i]
                mine[i] = c
                break


def straight(cards: Sequence[Card], size: int, rng: random.Random, avoid: Sequence[Card]) -> list[Card]:
    """One card of each rank from as low as a ``size``-card straight to the King allows, up to the King."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if c not in avoid:
            by_rank.setdefault(rank_of(c), []).append(c)
    low = max(min(by_rank), KING - size + 1)
    return [rng.choice(by_rank[r]) for r in range(low, KING + 1) if r in by_rank]


def deal_candidates(pair: Pair, bound: Bound) -> Iterator[tuple[str, DealState, list[Card]]]:
    """(origin, start under A, the shuffled order) for every deal tried, fewest players first."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    for seed in range(bound.seeds):
        for players in counts:
            packs = packs_in_rotation(pair.a, players)
            for pack_index, pack in enumerate(packs):
                for mode in DEAL_MODES:
                    if mode in ("wild", "sets") and not pack.wild:
                        continue
                    rng = random.Random(f"{seed}:{mode}:{pack_index}")
                    order = list(pack.cards)
                    rng.shuffle(order)
                    dealer = seed % players
                    size, _ = deal_sizes(pair.a, players, len(pack.cards))
                    hands_t, dead_t = distribute(pair.a, order, players, dealer, size)
                    hands = [list(h) for h in hands_t]
                    dead = list(dead_t)
                    first = (dealer + 1) % players
                    if mode == "wild":
                        plant(hands, dead, first, pack.wild, rng)
                    elif mode == "sets":
                        # the wild card with every natural card of its rank (odd seeds: Kings, Queens, ...)
                        rank = rank_of(pack.wild[0]) if seed % 2 == 0 else KING - (seed // 2) % 12
                        same = [c for c in pack.cards if rank_of(c) == rank and c not in pack.wild]
                        plant(hands, dead, first, [*pack.wild[:1], *same][: max(1, size - 1)], rng)
                    elif mode == "straights":
                        plant(hands, dead, first, straight(pack.cards, size, rng, pack.wild), rng)
                        if players > 1:
                            taken = hands[first]
                            plant(hands, dead, dealer, straight(pack.cards, size, rng, (*pack.wild, *taken)), rng)
                    value = variant_of(pair.a).comet_value
                    if seed % 3 == 2 and value and variant_of(pair.a).comet_escalates:
                        value += 2
                    start = start_deal(pair.a, pack, players, dealer, hands, dead, value)
                    yield f"{players} players, seed {seed}, {pack.name} pack, {mode} deal", start, order


def deal_witness(start: DealState, kind: str, detail: str, origin: str, actions: tuple[Action, ...] = ()) -> Witness:
    """A deal-level witness: the deal ``start`` under rule set A and ``actions`` played from it, the last
    being where the rule sets part ways (none: the deal itself, refused under B or dealt differently)."""
    return Witness(
        "deal",
        kind,
        detail,
        start.players,
        start.dealer,
        start.pack,
        start.comet_value,
        start.hands,
        start.dead,
        actions,
        len(actions) - 1,
        origin,
    )


def deal_difference(pair: Pair, start: DealState, order: list[Card], origin: str) -> Witness | None:
    """The deal itself differs: refused under B as a record, or the same shuffle dealt differently."""
    try:
        explicit_deal(pair.b, start.players, start.dealer, start.hands, start.dead, start.comet_value)
    except RecordError as e:
        return deal_witness(start, "refused", f"B refuses this deal [{e.kind}]: {short(str(e))}", origin)
    if "shuffled" in origin:
        detail = dealt_detail(pair, start.players, start.pack)
        if detail is None:
            return None
        try:
            pack = next(p for p in packs_in_rotation(pair.a, start.players) if p.name == start.pack)
            size_b, _ = deal_sizes(pair.b, start.players, len(pack.cards))
            hands_b, dead_b = distribute(pair.b, order, start.players, start.dealer, size_b)
        except RecordError:
            return None
        if detail.startswith("B deals this deal from") or hands_b != start.hands or dead_b != start.dead:
            return deal_witness(start, "dealt", detail, origin)
    return None


def pack_under_b(pair: Pair, players: int, pack_name: str) -> tuple[Pack, Pack]:
    """(A's pack named ``pack_name``, the pack B deals the same deal from): the deal at the same place in
    the rotation (R-PACK-ALTERNATE; a variant's own rotation, such as R-COMMIT-C-DECK, likewise).  A deal
    of A's ``i``-th pack is the ``i``-th deal of a game, which B deals from its own ``i``-th pack (counting
    round its rotation).  A single deal is the first of a game: the first pack of each rotation."""
    packs_a = packs_in_rotation(pair.a, players)
    packs_b = packs_in_rotation(pair.b, players)
    i = next(k for k, p in enumerate(packs_a) if p.name == pack_name)
    return packs_a[i], packs_b[i % len(packs_b)]


def dealt_detail(pair: Pair, players: int, pack_name: str) -> str | None:
    """What differs when the same shuffle of A's pack ``pack_name`` is dealt under B (None: nothing, or
    the deal is refused, which ``deal_difference`` reports first): B deals that deal from another pack
    (``pack_under_b``), or the same pack with other deal sizes or another deal order (R-DEAL-SIZES,
    R-DEAL-ORDER).  A witness of kind ``dealt`` carries this text, and ``labels.claimed_difference``
    recomputes it, so a label claiming a difference the deal does not show is caught."""
    try:
        pa, pb = pack_under_b(pair, players, pack_name)
        if (pa.cards, pa.wild) != (pb.cards, pb.wild):
            return f"B deals this deal from the {pb.name} pack, A from the {pa.name} pack"
        if deal_sizes(pair.a, players, len(pa.cards)) != deal_sizes(pair.b, players, len(pa.cards)):
            return "the same shuffled pack is dealt into different hands under B"
    except (RecordError, StopIteration):
        return None
    if pair.a.deal_order != pair.b.deal_order:
        return "the same shuffled pack is dealt into different hands under B"
    return None


# --------------------------------------------------------------------- searching one deal


def breadth_first(pair: Pair, sa0: DealState, depth: int, nodes: int) -> tuple[tuple[Action, ...], str, str] | None:
    """The shortest action sequence (at most ``depth`` + 1 actions) after which the two rule sets differ."""
    sb0 = as_b(pair, sa0)
    frontier: list[tuple[tuple[Action, ...], DealState, DealState]] = [((), sa0, sb0)]
    seen: set[tuple[DealState, DealState]] = set()
    expanded = 0
    for _ in range(depth + 1):
        nxt: list[tuple[tuple[Action, ...], DealState, DealState]] = []
        for path, sa, sb in frontier:
            if sa.terminal:
                continue
            split = legal_split(sa, sb)
            if split is not None:
                return (*path, split), "legal", describe("legal", sa, sb, split)
            for a in legal_actions(sa):
                na, nb, kind = step_both(sa, sb, a)
                if kind is not None:
                    return (*path, a), kind, describe(kind, na, nb, a)
                key = (na, nb)
                if key not in seen:
                    seen.add(key)
                    nxt.append(((*path, a), na, nb))
            expanded += 1
            if expanded >= nodes:
                return None
        frontier = nxt
    return None


def as_b(pair: Pair, sa: DealState) -> DealState:
    return start_deal(pair.b, _pack_of(pair.b, sa), sa.players, sa.dealer, sa.hands, sa.dead, sa.comet_value)


def _pack_of(rules: Ruleset, s: DealState):  # type: ignore[no-untyped-def]
    for p in packs_in_rotation(rules, s.players):
        if p.name == s.pack:
            return p
    return packs_in_rotation(rules, s.players)[0]


def playout(
    pair: Pair, sa0: DealState, choices: Sequence[int], policy: str, seed: int, limit: int
) -> tuple[tuple[Action, ...], str, str, list[int]] | None:
    """Play in lockstep: ``choices`` (indices into the legal actions) first, then ``policy``; the record to
    the first difference, its kind, a description and the choice indices that led there."""
    choose = make_policy(policy, seed)
    sa, sb = sa0, as_b(pair, sa0)
    path: list[Action] = []
    idx: list[int] = []
    while not sa.terminal and len(path) < limit:
        split = legal_split(sa, sb)
        if split is not None:
            return (*path, split), "legal", describe("legal", sa, sb, split), idx
        legal = legal_actions(sa)
        i = len(path)
        a = legal[choices[i] % len(legal)] if i < len(choices) else choose(sa, legal)
        idx.append(legal.index(a))
        path.append(a)
        sa, sb, kind = step_both(sa, sb, a)
        if kind is not None:
            return tuple(path), kind, describe(kind, sa, sb, a), idx
    return None


def shrink(
    pair: Pair, sa0: DealState, found: tuple[tuple[Action, ...], str, str, list[int]], policy: str, deadline: float
) -> tuple[tuple[Action, ...], str, str, list[int]]:
    """Replace choices by earlier legal actions while the deals still part ways no later (Hypothesis-style)."""
    best = found
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        i = 0
        while i < len(best[3]) and not improved:
            for c in range(best[3][i]):
                trial = playout(pair, sa0, [*best[3][:i], c], policy, 0, len(best[0]))
                if trial is not None and (len(trial[0]), trial[3]) < (len(best[0]), best[3]):
                    best = trial
                    improved = True
                    break
            if time.monotonic() >= deadline:
                break
            i += 1
    return best


def short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------- proofs of size


def differs_before_play(pair: Pair, players: int) -> bool:
    """Can a deal of ``players`` differ before any action (a 0-action witness)?  B refuses a deal of A, or
    deals a shuffle differently (``dealt_detail``: another pack at the same place in the rotation, other
    deal sizes or another deal order).  Whether ``explicit_deal`` accepts a deal reads only the cards of
    the whole deal (one of the packs in rotation) and the hand sizes, the same for every deal of a player
    count, so one deal per pack decides it for all.  Packs that differ only beyond A's own rotation (A
    deals one pack, B takes several in turn: RUL-COMMIT-C-REMOVED at 2 players) change later deals of a
    game, not any single deal: that is a game-level difference, not counted here."""
    try:
        packs_a = packs_in_rotation(pair.a, players)
        packs_in_rotation(pair.b, players)
    except RecordError:
        return True
    for pack in packs_a:
        if dealt_detail(pair, players, pack.name) is not None:
            return True
        try:
            sizes = deal_sizes(pair.a, players, len(pack.cards))
            hands, dead = distribute(pair.a, pack.cards, players, 0, sizes[0])
            explicit_deal(pair.b, players, 0, hands, dead, None)
        except RecordError:
            return True
    return False


def before_play_witness(pair: Pair, players: int) -> Witness | None:
    """A deal of ``players`` that differs before any action (``differs_before_play`` says one exists):
    seeded shuffles of each pack in rotation, dealt under A, until one is refused or dealt otherwise."""
    for seed in range(20):
        for pack in packs_in_rotation(pair.a, players):
            order = list(pack.cards)
            random.Random(f"{seed}:before:{pack.name}").shuffle(order)
            size, _ = deal_sizes(pair.a, players, len(pack.cards))
            hands, dead = distribute(pair.a, order, players, 0, size)
            start = start_deal(pair.a, pack, players, 0, hands, dead, variant_of(pair.a).comet_value)
            origin = f"{players} players, seed {seed}, {pack.name} pack, shuffled deal"
            w = deal_difference(pair, start, order, origin)
            if w is not None:
                return w
    return None
