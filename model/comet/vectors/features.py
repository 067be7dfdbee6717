"""What a case exercises (its rule ids and features, a one-line description) and the search of a pool of
seeded deals for the features no fixed case reaches."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from comet.checks.coverage import deal_rules, transition_rules
from comet.engine import apply, legal_actions, packs_in_rotation, player_counts, settlement
from comet.fuzz import EXTREMES, make_deal
from comet.game import play_deal
from comet.policy import random_policy, simple_policy
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState
from comet.variant import variant_of

#: The record contract's ids that a case exercises only when it is of the right kind (malformed,
#: illegal, or unfinished with a choice); the coverage classifier counts them for every deal.
CONTRACT_CASE_IDS = frozenset({"R-REC-NUMBERS", "R-REC-FAULTS", "R-REC-ILLEGAL-PRECEDENCE", "R-REC-ACTION-ORDER"})


def deal_case_rules(start: DealState, actions: Sequence[Action]) -> set[str]:
    """The rule ids a replay (or trace) of ``actions`` from ``start`` exercises, judged by the
    coverage classifier (``comet.checks.coverage``) step by step, plus the record contract's own."""
    hits = set(deal_rules(start))
    s = start
    for a in actions:
        after = apply(s, a)
        hits |= transition_rules(s, a, after)
        s = after
    hits -= CONTRACT_CASE_IDS
    hits.add("R-REC-STATE")
    if s.payments or settlement(s):
        hits.add("R-REC-PAYMENTS")
    if len(legal_actions(s)) > 1:
        hits.add("R-REC-ACTION-ORDER")
    if start.pack != packs_in_rotation(start.rules, start.players)[0].name:
        hits.add("R-PACK-ALTERNATE")  # the second pack in rotation is in play
    if start.comet_value > variant_of(start.rules).comet_value:
        hits.add("R-COMET-ESCALATE")  # a Comet worth more after a deal in the dead hand
    return hits


def deal_features(start: DealState, actions: Sequence[Action]) -> set[str]:
    """Tags for the situations a deal shows that a rule id alone does not name (spec/vectors.md)."""
    tags = {f"players={start.players}", f"pack={start.pack}"}
    s = start
    for a in actions:
        after = apply(s, a)
        wild = [c for c in a.cards if c in s.wild]
        if wild:
            if len(a.cards) > 1:
                tags.add("three-nines-with-comet")
            else:
                tags.add("comet-led" if s.need == 0 else "comet-continued")
            if after.terminal:
                tags.add("comet-last-as-9" if a.as_rank == 9 else "comet-last-not-9")
        elif len(a.cards) == 4:
            tags.add("four-of-a-kind")
        elif len(a.cards) == 3:
            tags.add("three-nines")
        if a.is_pass and s.run and not after.run and not after.terminal:
            tags.add("stuck-run")
        s = after
    if s.winner >= 0 and any(c in s.wild for seat, h in enumerate(s.hands) if seat != s.winner for c in h):
        tags.add("comet-caught")
    if s.drawn:
        tags.add("drawn")
    return tags


def describe_deal(start: DealState, actions: Sequence[Action], tags: Iterable[str] = ()) -> str:
    """One line: players, pack, Comet value, how it ends, and the notable situations."""
    s = start
    for a in actions:
        s = apply(s, a)
    if s.drawn:
        end = "drawn"
    elif s.winner >= 0:
        end = f"seat {s.winner} goes out after {len(actions)} actions"
    else:
        end = f"unfinished after {len(actions)} actions, seat {s.to_move} to move with {len(legal_actions(s))} choices"
    notable = sorted(t for t in tags if not t.startswith(("players=", "pack=")))
    extra = f"; {', '.join(notable)}" if notable else ""
    return f"{start.players} players, {start.pack} pack, Comet worth {start.comet_value}: {end}{extra}"


# --------------------------------------------------------------------- the search for deals with features


def _comet_first(state: DealState, legal: Sequence[Action]) -> Action:
    """Play the wild card whenever allowed (as a 9 where it may), else naturally."""
    wild = [a for a in legal if a.as_rank]
    if wild:
        return next((a for a in wild if a.as_rank == 9), wild[0])
    return simple_policy(state, legal)


def _comet_kept(state: DealState, legal: Sequence[Action]) -> Action:
    """Play naturally; keep the wild card to the end and go out on it as a 9 where it may."""
    natural = [a for a in legal if not a.as_rank and not a.is_pass]
    if natural:
        return simple_policy(state, natural)
    nine = [a for a in legal if a.as_rank == 9 and len(a.cards) == len(state.hands[state.to_move])]
    if nine:
        return nine[0]
    return PASS if PASS in legal else simple_policy(state, legal)


POOL_SIZE = 200
MAX_FEATURE_CASES = 14


def pool_deal(rules: Ruleset, index: int) -> tuple[DealState, tuple[Action, ...]]:
    """The ``index``-th deal of the feature search: a seeded draw of player count (in turn), pack,
    hand shape (``comet.fuzz.EXTREMES``), an escalated Comet now and then, and a policy."""
    rng = random.Random(7000 + index)
    counts = player_counts(rules)
    players = counts[index % len(counts)]
    packs = len(packs_in_rotation(rules, players))
    kind = EXTREMES[rng.randrange(len(EXTREMES))]
    pack_index = rng.randrange(packs)
    base = variant_of(rules).comet_value
    value = base + 2 if base > 0 and rng.random() < 0.2 else base
    start = make_deal(
        rules, players, rng.randrange(players), rng.getrandbits(32), pack_index, value, kind, rng.randrange(players)
    )
    policies = (simple_policy, random_policy(random.Random(index)), _comet_first, _comet_kept, _comet_kept)
    _, actions = play_deal(start, policies[rng.randrange(len(policies))])
    return start, actions


@dataclass(frozen=True, slots=True)
class Pick:
    start: DealState
    actions: tuple[Action, ...]
    rules: frozenset[str]
    tags: frozenset[str]


def feature_deals(rules: Ruleset) -> list[Pick]:
    """Deals chosen greedily from the search pool until every rule id and feature tag seen in the pool
    is shown by some chosen deal (at most ``MAX_FEATURE_CASES``); each player count at least once."""
    pool = []
    for i in range(POOL_SIZE):
        start, actions = pool_deal(rules, i)
        pool.append(
            Pick(start, actions, frozenset(deal_case_rules(start, actions)), frozenset(deal_features(start, actions)))
        )
    wanted = set().union(*(p.rules | p.tags for p in pool))
    chosen: list[Pick] = []
    while wanted and len(chosen) < MAX_FEATURE_CASES:
        best = max(pool, key=lambda p: (len((p.rules | p.tags) & wanted), -len(p.actions)))
        gain = (best.rules | best.tags) & wanted
        if not gain:
            break
        chosen.append(best)
        wanted -= gain
    return chosen


def unfinished_prefix(start: DealState, actions: Sequence[Action]) -> tuple[Action, ...]:
    """A prefix of a deal after which the player to move has the most choices (ties: the earliest past the
    middle), so the expected ``legal_actions`` are long and in the canonical order."""
    s = start
    best = (0, 0)
    for i, a in enumerate(actions):
        n = len(legal_actions(s))
        if i >= len(actions) // 3 and n > best[0]:
            best = (n, i)
        s = apply(s, a)
    return tuple(actions[: best[1]])
