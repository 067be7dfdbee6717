"""The fuzzers' search space: random rulesets (every field that applies to a preset), the hand-shaped
extreme deals (``EXTREMES``), arbitrary actions, and the policies a deal is played with.  The Hypothesis strategies
build from the same functions, so both search the same space."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

from comet import engine
from comet.cards import KING, Card, Pack, rank_of
from comet.engine import player_counts
from comet.policy import Policy, random_policy, simple_policy
from comet.presets import preset
from comet.ruleset import Ruleset, field_readings
from comet.state import Action, DealState
from comet.variant import applies

INT_RANGE = (0, 120)


def ruling_fields() -> tuple[str, ...]:
    """Every ``Ruleset`` field a fuzzer draws (all but ``variant``, which the preset fixes)."""
    return tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "variant")


def field_choices(name: str) -> tuple[object, ...] | tuple[int, int]:
    """The readings of a field, or the (low, high) range an integer field is drawn from."""
    readings = field_readings(name)
    return INT_RANGE if readings is None else readings


def ruleset_from_choices(base: Ruleset, values: dict[str, object]) -> Ruleset:
    """``base`` with the drawn readings (typed values, as ``field_readings`` gives them)."""
    return dataclasses.replace(base, **values)  # type: ignore[arg-type]


def preset_fields(preset_name: str) -> tuple[str, ...]:
    """The ruling fields that apply to the preset's variant (``comet.ruleset.applies``: its family declares them); the others
    keep their defaults, as ``Ruleset.with_overrides`` requires."""
    variant = preset(preset_name).rules.variant
    return tuple(name for name in ruling_fields() if applies(name, variant))


def random_ruleset(preset_name: str, rng: random.Random) -> Ruleset:
    values: dict[str, object] = {}
    for name in preset_fields(preset_name):
        readings = field_readings(name)
        values[name] = rng.randint(*INT_RANGE) if readings is None else rng.choice(readings)
    return ruleset_from_choices(preset(preset_name).rules, values)


def pack_count(rules: Ruleset, players: int) -> int:
    return len(engine.packs_in_rotation(rules, players))


def pack_at(rules: Ruleset, players: int, index: int) -> Pack:
    return engine.packs_in_rotation(rules, players)[index % pack_count(rules, players)]


# Hand-shaped extremes (issue 3): see ``shape_deal``.
EXTREMES = ("shuffled", "quartets", "comet_dead", "comet_in_hand", "one_turn_out", "comet_last", "kings")


def shape_deal(start: DealState, kind: str, seat: int, count: int) -> DealState:
    """Rearrange a dealt ``start`` into an extreme hand shape, keeping the pack and sizes.

    ``quartets``: seat holds every natural card of ``count`` ranks (four of a kind, or the
    three natural 9s); ``comet_dead``: the wild card(s) lie in the dead hand;
    ``comet_in_hand``: seat holds the wild card(s); ``one_turn_out``: the first player holds
    a run through the King and on, so they can go out in their first turn; ``comet_last``:
    the same, with the wild card in place of the run's last card, to go out on the Comet; ``kings``: seat
    holds all the Kings, then Queens and Jacks.  Unplaceable shapes return ``start``.
    """
    n = start.players
    seat %= n
    pool = [c for h in start.hands for c in h] + list(start.dead)
    naturals = Counter(rank_of(c) for c in pool if c not in start.wild)
    by_rank: dict[int, list[Card]] = {}
    for c in pool:
        if c not in start.wild:
            by_rank.setdefault(rank_of(c), []).append(c)
    size = len(start.hands[0])
    target = seat
    wanted: list[Card] = []
    if kind == "quartets":
        full = sorted(r for r, k in naturals.items() if k >= 3)
        if full:
            first = count % len(full)
            for r in (full[(first + i * 5) % len(full)] for i in range(max(1, count))):
                if r not in {rank_of(c) for c in wanted} and len(wanted) + naturals[r] <= size:
                    wanted.extend(by_rank[r])
    elif kind == "comet_dead":
        target = -1
        wanted = list(start.wild)[: len(start.dead)]
    elif kind == "comet_in_hand":
        wanted = list(start.wild)
    elif kind in ("one_turn_out", "comet_last"):
        target = (start.dealer + 1) % n
        lo = min(naturals) if naturals else 2
        ranks = list(range(lo, KING + 1))
        seq = ranks[max(0, len(ranks) - size) :]
        while len(seq) < size:
            seq.extend(ranks[: size - len(seq)])
        if kind == "comet_last":
            seq = seq[:-1]
            if not start.wild:
                return start
            wanted.append(start.wild[0])
        used: Counter[int] = Counter()
        for r in seq:
            if used[r] < len(by_rank.get(r, [])):
                wanted.append(by_rank[r][used[r]])
                used[r] += 1
    elif kind == "kings":
        for r in (KING, KING - 1, KING - 2):
            wanted.extend(by_rank.get(r, []))
    if not wanted:
        return start
    cap = len(start.dead) if target == -1 else size
    wanted = wanted[:cap]
    rest = list((Counter(pool) - Counter(wanted)).elements())
    random.Random(sum(pool) + seat).shuffle(rest)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == target:
            take = cap - len(wanted)
            hands.append(wanted + rest[:take])
            rest = rest[take:]
        else:
            hands.append(rest[:size])
            rest = rest[size:]
    dead = wanted + rest if target == -1 else rest
    return engine.explicit_deal(start.rules, n, start.dealer, hands, dead, start.comet_value)


def make_deal(
    rules: Ruleset, players: int, dealer: int, seed: int, pack_index: int, comet_value: int, kind: str, seat: int
) -> DealState:
    """A deal for the fuzzers: shuffled with ``seed`` from the pack in rotation, then shaped."""
    pack = pack_at(rules, players, pack_index)
    start = engine.shuffled_deal(rules, players, dealer % players, seed, pack, comet_value)
    return shape_deal(start, kind, seat, seed % 4) if kind != "shuffled" else start


def arbitrary_action(state: DealState, rng: random.Random) -> Action:
    """An arbitrary action, legal or not: pass, held or unheld cards, groups, wild ranks."""
    pool = sorted({c for h in state.hands for c in h} | set(state.played) | set(state.dead))
    hand = state.hands[state.to_move] if 0 <= state.to_move < state.players else ()
    kind = rng.randrange(5)
    if kind == 0 or not pool:
        return Action()
    if kind == 1 and hand:
        c = rng.choice(hand)
        return Action((c,), rng.choice((0, 0, rng.randint(0, 14))))
    if kind == 2 and hand:
        r = rank_of(rng.choice(hand))
        return Action(tuple(sorted(c for c in hand if rank_of(c) == r)))
    if kind == 3 and hand:
        return Action(tuple(sorted(rng.sample(hand, min(len(hand), rng.randint(2, 4))))))
    return Action((rng.choice(pool),), rng.choice((0, rng.randint(0, 14))))


def random_start(name: str, rng: random.Random) -> DealState:
    rules = random_ruleset(name, rng)
    counts = player_counts(rules)
    n = rng.choice(counts)
    kind = rng.choice(EXTREMES) if rng.randrange(3) == 0 else "shuffled"
    return make_deal(
        rules,
        n,
        rng.randrange(n),
        rng.getrandbits(32),
        rng.randrange(pack_count(rules, n)),
        rng.choice((0, 2, 2, 2, 4, 6, rng.randint(0, 30))),
        kind,
        rng.randrange(n),
    )


def mixed_policy(rng: random.Random) -> Policy:
    """Random legal actions, but half the steps played the natural way (``simple_policy``).

    Uniform random play spends the Comet at once (it has a dozen ranks to stand for, so it is
    most of the legal actions); mixing in natural play keeps it in hand longer, so deals where
    a loser is caught with it or the winner goes out on it are reached too.
    """
    uniform = random_policy(rng)

    def choose(state: DealState, legal: Sequence[Action]) -> Action:
        return uniform(state, legal) if rng.randrange(2) else simple_policy(state, legal)

    return choose


def pick_policy(rng: random.Random) -> Policy:
    """Half the deals uniformly random, a quarter mixed, a quarter natural play."""
    k = rng.randrange(4)
    return random_policy(rng) if k < 2 else mixed_policy(rng) if k == 2 else simple_policy
