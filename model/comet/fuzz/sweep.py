"""Deterministic coverage: a small sweep meant to hit every rule id, and the rule ids given deals exercise."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from comet import game as game_module
from comet.checks.coverage import CallCounter, all_rule_ids, classified_ids
from comet.engine import player_counts
from comet.fuzz.check import Chooser, check_deal, check_game, game_length
from comet.fuzz.space import EXTREMES, make_deal, random_ruleset
from comet.policy import random_policy, simple_policy
from comet.presets import preset
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of


def wild_in_dead_seed(rules: Ruleset, players: int, tries: int = 200) -> int | None:
    """The first shuffle seed whose first deal of a game leaves a wild card in the dead hand."""
    game = game_module.new_game(rules, players, game_module.default_deals(rules, players), 0)
    for seed in range(tries):
        start = game_module.next_deal(game, seed)
        if any(c in start.wild for c in start.dead):
            return seed
    return None


def coverage_sweep(presets: Sequence[str], seed: int = 0) -> tuple[Counter[str], tuple[str, ...]]:
    """A small deterministic sweep meant to hit every rule id: every hand shape of ``EXTREMES``
    for every allowed player count under the preset's own rules (and one drawn count under one
    random ruleset), played naturally or at random, plus a short whole game under each.

    Returns (hits per rule id, failures).  Quick enough for CI (a few seconds per preset).
    """
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    failures: list[str] = []
    rng = random.Random(seed)
    with counter.active():
        for name in presets:
            for rules in (preset(name).rules, random_ruleset(name, rng)):
                counts = player_counts(rules)
                # every player count under the preset's own rules; one, drawn, under the random ones
                for n in counts if rules == preset(name).rules else (rng.choice(counts),):
                    for kind in EXTREMES:
                        start = make_deal(rules, n, n - 1, rng.getrandbits(32), 0, 2, kind, 0)
                        choose = simple_policy if rng.randrange(2) else random_policy(rng)
                        out = check_deal(start, choose, known, rng)
                        hits.update(out.hits)
                        if out.failure:
                            failures.append(f"[{name}] {out.failure}")
                game_hits: Counter[str] = Counter()
                n = player_counts(rules)[0]
                own_length = rules == preset(name).rules and variant_of(rules).game_end == "deals"
                length = game_module.default_deals(rules, n) if own_length else game_length(rules, n, rng)
                # One game opens with a wild card in the dead hand (when the deal has one), so that
                # the carry-over of its value between deals is met by design, not by luck.
                dead_wild = wild_in_dead_seed(rules, n)
                for first_seed in (None,) if dead_wild is None else (None, dead_wild):
                    out_game = check_game(rules, n, length, 0, rng, simple_policy, known, game_hits, first_seed)
                    for deal in out_game.deals:
                        hits.update(deal.hits)
                    if out_game.failure:
                        failures.append(f"[{name}] {out_game.failure}")
                hits.update(game_hits)
            text_hits, text_failures = record_text_hits(preset(name).rules, name)
            hits.update(text_hits)
            failures.extend(f"[{name}] {f}" for f in text_failures)
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return hits, tuple(failures)


#: The error kind each record-text mutation must be refused with (spec/rules.md R-REC-LIMITS, R-REC-FORMAT).
RECORD_TEXT_KINDS = {"limit-": "json", "format-": "field"}


def record_text_hits(rules: Ruleset, name: str) -> tuple[Counter[str], tuple[str, ...]]:
    """R-REC-LIMITS and R-REC-FORMAT, exercised where they apply: the text of one deal record of the preset,
    mutated past a limit or to an unread format (``comet.vectors.negative.mutations``, the malformed
    vectors' ``limit-*`` and ``format-*`` cases), must be refused with the kind the rule names; each refusal
    counts as a hit of its rule, anything else is a failure."""
    from comet.checks.coverage import RECORD_TEXT
    from comet.errors import RecordError
    from comet.records.deal_record import loads_record, record_from_state, replay_record
    from comet.vectors.negative import mutations

    n = player_counts(rules)[0]
    start = make_deal(rules, n, 0, 1, 0, 2, EXTREMES[0], 0)
    rec = record_from_state(start, name, []).to_json()
    hits: Counter[str] = Counter()
    failures: list[str] = []
    for label, text in mutations(rec):
        prefix = next((p for p in RECORD_TEXT if label.startswith(p)), None)
        if prefix is None:
            continue
        rid, want = RECORD_TEXT[prefix], RECORD_TEXT_KINDS[prefix]
        try:
            replay_record(loads_record(text))
        except RecordError as e:
            if e.kind == want:
                hits[rid] += 1
                continue
            failures.append(f"{rid}: the record text '{label}' is refused with kind {e.kind}, not {want}")
            continue
        failures.append(f"{rid}: the record text '{label}' is accepted; it must be refused with kind {want}")
    return hits, tuple(failures)


def directed_hits(deals: Sequence[tuple[DealState, Sequence[Action]]]) -> tuple[Counter[str], tuple[str, ...]]:
    """Deals chosen to meet what random play misses (``comet verify`` gives the proofs' witness deals: a
    loser caught with Commit's 9♦, ...), each played action by action under every check of ``check_deal``:
    (hits per rule id, failures)."""
    known = all_rule_ids()
    counter = CallCounter(known - classified_ids())
    hits: Counter[str] = Counter()
    failures: list[str] = []
    with counter.active():
        for start, actions in deals:
            out = check_deal(start, following(actions), known)
            hits.update(out.hits)
            if out.failure:
                failures.append(f"[directed deal] {out.failure}")
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return hits, tuple(failures)


def following(actions: Sequence[Action]) -> Chooser:
    """A chooser that plays ``actions`` in order (a recorded deal)."""
    script = iter(actions)
    return lambda _state, _legal: next(script)
