"""Conformance vectors: files another implementation replays to test itself against this model.

``write_vectors(out_dir)`` writes, for every preset and every reading of every
deal-level ruling (``spec/vectors.md``)::

    OUT/index.json                                   every file, its kind and SHA-256
    OUT/<preset>/<reading>/replay/<case>.json        record + expected `comet replay` output
    OUT/<preset>/<reading>/trace/<case>.itf.json     ITF trace: the state after every action
    OUT/<preset>/<reading>/illegal/<case>.json       record whose last action is illegal + expected rule id
    OUT/<preset>/<reading>/malformed/<case>.json     input text + expected error kind (reading ``default`` only)
    OUT/<preset>/<reading>/golden/<case>.txt         the deal narrated in the sources' words

``<reading>`` is ``default`` or ``FIELD=VALUE`` (VALUE as in ``--ruling``).
Everything is derived from seeds with no clock or environment input, so the
same version writes byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.cards import KING, rank_of
from comet.contract import FORMAT
from comet.coverage import deal_rules, transition_rules
from comet.engine import apply, legal_actions, packs_in_rotation, player_counts, settlement, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.game import play_deal
from comet.gamevectors import all_game_readings, reading_game_vectors
from comet.itf import deal_trace
from comet.notation import narrate
from comet.policy import random_policy, simple_policy
from comet.presets import PRESETS, preset
from comet.record import (
    JsonObject,
    JsonValue,
    loads_record,
    record_from_state,
    replay_record,
)
from comet.ruleset import GAME_LEVEL_FIELDS, RULING_FIELDS, RULING_OF, Ruleset, applies, field_readings
from comet.state import PASS, Action, DealState
from comet.variant import variant_of

FORMAT_VERSION = FORMAT  # comet.contract: the contract's version (spec/CHANGELOG.md)
REPLAY_CASES = 4
TRACE_CASES = 1
ILLEGAL_CASES = 8
GOLDEN_CASES = 1
MAX_PLAYERS_PROBED = 8


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of the rules: a preset with at most one ruling changed from its default."""

    preset: str
    name: str
    rules: Ruleset


def reading_value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def undocumented_rulings() -> list[str]:
    """Deal-level ruling fields missing from ``comet.ruleset.RULING_OF``: they get no vectors."""
    return [
        f for f in RULING_FIELDS if f not in RULING_OF and f not in GAME_LEVEL_FIELDS and field_readings(f) is not None
    ]


def readings(preset_name: str) -> tuple[Reading, ...]:
    """``default`` then every other reading of every deal-level ruling that applies to the preset."""
    base = preset(preset_name).rules
    out = [Reading(preset_name, "default", base)]
    for field in RULING_FIELDS:
        if field in GAME_LEVEL_FIELDS or field not in RULING_OF:
            continue
        if not applies(field, base.variant):
            continue  # the ruling does not apply to this preset's game (its family does not read the field)
        values = field_readings(field)
        if values is None:
            continue
        for value in values:
            if value == getattr(base, field):
                continue
            out.append(
                Reading(preset_name, f"{field}={reading_value_text(value)}", base.with_overrides({field: value}))
            )
    return tuple(out)


def case_deal(reading: Reading, index: int) -> tuple[DealState, tuple[Action, ...]]:
    """The ``index``-th deal of a reading: seeded shuffle, player count, pack and policy all from ``index``."""
    counts = player_counts(reading.rules)
    if not counts:
        raise RecordError("players", f"preset {reading.preset!r} deals to no player count from 1 to 8")
    players = counts[index % len(counts)]
    packs = packs_in_rotation(reading.rules, players)
    pack = packs[(index // len(counts)) % len(packs)]
    seed = 1000 + index
    start = shuffled_deal(reading.rules, players, index % players, seed, pack)
    if index % 3 == 2 and start.comet_value > 0:
        # an escalated Comet (as after a deal with the Comet in the dead hand)
        start = shuffled_deal(reading.rules, players, index % players, seed, pack, start.comet_value + 2)
    rng = random.Random(seed)
    policy = simple_policy if index % 2 == 0 else random_policy(rng)
    _, actions = play_deal(start, policy)
    return start, actions


# --------------------------------------------------------------------- negative cases


def candidate_actions(s: DealState) -> Iterator[Action]:
    """Actions worth trying in ``s``: every held card alone and with its rank-mates, the wild card as
    every rank, a card held by someone else, a natural card 'as' a rank, and pass."""
    hand = s.hands[s.to_move]
    yield PASS
    for c in sorted(set(hand)):
        yield Action((c,))
        if c in s.wild:
            for r in range(1, KING + 1):
                yield Action((c,), r)
        else:
            yield Action((c,), rank_of(c) % KING + 1)
            mates = tuple(x for x in hand if rank_of(x) == rank_of(c) and x not in s.wild)
            if len(mates) > 1:
                yield Action(mates)
    for seat, other in enumerate(s.hands):
        if seat != s.to_move:
            for c in sorted(set(other) - set(hand)):
                yield Action((c,))
                break
    naturals = sorted({c for c in hand if c not in s.wild})
    for w in sorted(set(hand) & set(s.wild)):
        if naturals:
            # the Comet together with another card (R-REC-ILLEGAL-PRECEDENCE: R-COMET-WILD)
            yield Action(tuple(sorted((w, naturals[0]))), rank_of(naturals[0]))
    single = [c for c in naturals if hand.count(c) == 1]
    if single:
        # a card named twice but held once (a multiset: R-PLAY-HELD)
        yield Action((single[0], single[0]))
    full = [c for c in naturals if sum(1 for x in hand if rank_of(x) == rank_of(c) and x not in s.wild) >= 3]
    if full and s.need and rank_of(full[0]) != s.need:
        # a complete set of the wrong rank (R-PLAY-CONTINUE)
        yield Action(tuple(x for x in hand if rank_of(x) == rank_of(full[0]) and x not in s.wild))


def _illegal_search(
    deals: Sequence[tuple[DealState, tuple[Action, ...]]],
) -> dict[str, tuple[DealState, tuple[Action, ...], IllegalAction]]:
    """For each rule id some candidate action breaks in these deals, the first (start, prefix + action)."""
    found: dict[str, tuple[DealState, tuple[Action, ...], IllegalAction]] = {}
    for start, actions in deals:
        s = start
        for i, played in enumerate((*actions, None)):
            legal = set(legal_actions(s))
            for cand in candidate_actions(s) if not s.terminal else iter((PASS,)):
                if cand in legal:
                    continue
                try:
                    apply(s, cand)
                except IllegalAction as e:
                    if e.rule not in found:
                        found[e.rule] = (start, (*actions[:i], cand), e)
            if played is None:
                break
            s = apply(s, played)
    return found


def _mutations(rec: JsonObject) -> list[tuple[str, str]]:
    """Named malformed variations of a valid record, as input text."""

    def with_(**changes: JsonValue) -> str:
        return json.dumps({**rec, **changes})

    def without(name: str) -> str:
        return json.dumps({k: v for k, v in rec.items() if k != name})

    hands = rec["hands"]
    assert isinstance(hands, list)
    first = hands[0]
    second = hands[1] if len(hands) > 1 else []
    assert isinstance(first, list) and isinstance(second, list)
    players = rec["players"]
    assert isinstance(players, int)
    moved = [first[1:], [*second, first[0]], *hands[2:]]
    dup = [[first[1], *first[1:]], *hands[1:]]
    text = json.dumps(rec)
    dead = rec["dead"]
    assert isinstance(dead, list)
    return [
        ("not-json", text[: len(text) // 2]),
        ("not-an-object", json.dumps([rec])),
        ("missing-field", without("hands")),
        ("unknown-field", with_(extra=1)),
        ("variant-not-a-string", with_(variant=7)),
        ("rulings-not-an-object", with_(rulings=[])),
        ("reading-null", with_(rulings={"comet_lead": None})),
        ("players-not-a-number", with_(players=str(players))),
        ("players-true", with_(players=True)),
        ("players-fraction", with_(players=players + 0.5)),
        ("dealer-null", with_(dealer=None)),
        ("negative-comet-value", with_(comet_value=-2)),
        ("hands-not-a-list", with_(hands={})),
        ("card-not-a-string", with_(hands=[[5, *first[1:]], *hands[1:]])),
        ("dead-not-a-list", with_(dead=str(dead[0]) if dead else "3C")),
        ("actions-not-a-list", with_(actions="pass")),
        ("action-not-a-string", with_(actions=[5])),
        ("unknown-variant", with_(variant="nonesuch")),
        ("unknown-card", with_(hands=[["1Z", *first[1:]], *hands[1:]])),
        ("lower-case-card", with_(hands=[[str(first[0]).lower(), *first[1:]], *hands[1:]])),
        ("action-syntax", with_(actions=["jump 5H"])),
        ("action-double-space", with_(actions=["play  " + str(first[0])])),
        ("action-as-without-rank", with_(actions=[f"play {first[0]} as"])),
        ("unknown-ruling", with_(rulings={"no_such_ruling": True})),
        ("bad-ruling-reading", with_(rulings={"comet_lead": "sometimes"})),
        ("reading-string-for-a-boolean", with_(rulings={"may_stop_early": "yes"})),
        ("reading-string-true", with_(rulings={"may_stop_early": "true"})),
        ("reading-number-for-a-boolean", with_(rulings={"may_stop_early": 1})),
        ("reading-string-for-a-number", with_(rulings={"starting_chips": "50"})),
        ("reading-negative-number", with_(rulings={"starting_chips": -5})),
        ("players-out-of-range", with_(players=99)),
        ("missing-hand", with_(hands=hands[:-1])),
        ("not-one-pack", with_(hands=dup)),
        ("wrong-hand-size", with_(hands=moved)),
        ("dealer-out-of-range", with_(dealer=players)),
        ("dealer-negative", with_(dealer=-1)),
    ]


#: The rule ids a malformed case exercises besides R-REC-FAULTS, by its expected kind / name.
MALFORMED_RULES = {"players": ("R-PLAYERS",), "hand-size": ("R-DEAL-SIZES",), "dealer": ("R-LEAD-FIRST",)}


def malformed_cases(rec: JsonObject) -> list[tuple[str, str, str]]:
    """(case name, input text, expected kind) for every mutation that the model rejects."""
    out = []
    for name, text in _mutations(rec):
        try:
            replay_record(loads_record(text))
        except RecordError as e:
            out.append((name, text, e.kind))
    return out


# --------------------------------------------------------------------- writing


def dump_itf(trace: JsonObject) -> str:
    """ITF text with one state per line (diff-friendly), otherwise compact."""
    states = trace["states"]
    assert isinstance(states, list)
    head = {k: v for k, v in trace.items() if k != "states"}
    lines = [json.dumps(st, separators=(",", ":"), ensure_ascii=True) for st in states]
    body = json.dumps(head, separators=(",", ":"), ensure_ascii=True)[:-1]
    return body + ',"states":[\n' + ",\n".join(lines) + "\n]}\n"


def compact(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def case_text(case: JsonObject) -> str:
    """A case file: one top-level key per line, each value compact (small, and diff-friendly)."""
    items = [f"{json.dumps(k)}:{compact(case[k])}" for k in sorted(case)]
    return "{\n" + ",\n".join(items) + "\n}\n"


# --------------------------------------------------------------------- what a case exercises

#: The record contract's ids that a case exercises only when it is of the right kind (malformed,
#: illegal, or unfinished with a choice); the coverage classifier counts them for every deal.
CONTRACT_CASE_IDS = frozenset({"R-REC-NUMBERS", "R-REC-FAULTS", "R-REC-ILLEGAL-PRECEDENCE", "R-REC-ACTION-ORDER"})


def deal_case_rules(start: DealState, actions: Sequence[Action]) -> set[str]:
    """The rule ids a replay (or trace) of ``actions`` from ``start`` exercises, judged by the
    coverage classifier (``comet.coverage``) step by step, plus the record contract's own."""
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
    from comet.fuzz import EXTREMES, make_deal

    rng = random.Random(7000 + index)
    counts = player_counts(rules)
    players = counts[index % len(counts)]
    packs = len(packs_in_rotation(rules, players))
    kind = EXTREMES[rng.randrange(len(EXTREMES))]
    pack_index = rng.randrange(packs)
    base = variant_of(rules).comet_value
    value = base + 2 if base > 0 and rng.random() < 0.2 else base
    start = make_deal(rules, players, rng.randrange(players), rng.getrandbits(32), pack_index, value, kind, rng.randrange(players))
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
        pool.append(Pick(start, actions, frozenset(deal_case_rules(start, actions)), frozenset(deal_features(start, actions))))
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


# --------------------------------------------------------------------- the files of one reading


@dataclass(frozen=True, slots=True)
class VectorFile:
    """One vector file: where it goes, its kind, its text, the rule ids it exercises and a description."""

    path: str
    kind: str
    text: str
    rules: tuple[str, ...]
    description: str


def reading_vectors(reading: Reading) -> Iterator[VectorFile]:
    """Every vector file of one reading, with the rule ids it exercises."""
    base = f"{reading.preset}/{reading.name}"
    deals = [case_deal(reading, i) for i in range(REPLAY_CASES)]
    if reading.name == "default":
        picks = feature_deals(reading.rules)
        deals += [(p.start, p.actions) for p in picks]
    # one trace per player count (the first deal of that count), golden for the first deal
    traced: set[int] = set()
    n = 0
    for start, actions in deals:
        rec = record_from_state(start, reading.preset, actions)
        rules = tuple(sorted(deal_case_rules(start, actions)))
        desc = describe_deal(start, actions, deal_features(start, actions))
        expected = replay_record(rec).to_json()
        yield VectorFile(
            f"{base}/replay/{n:02d}.json",
            "replay",
            case_text({"record": rec.to_json(), "expected": expected, "exit": 0}),
            rules,
            desc,
        )
        if start.players not in traced and (reading.name == "default" or not traced):
            traced.add(start.players)
            meta = f"{reading.preset} {reading.name} case {n}"
            trace = deal_trace(start, actions, "comet vectors", meta)
            trace_meta = trace["#meta"]
            assert isinstance(trace_meta, dict)
            trace_meta["record"] = rec.to_json()
            yield VectorFile(f"{base}/trace/{n:02d}.itf.json", "trace", dump_itf(trace), rules, desc)
        if n < GOLDEN_CASES:
            text = "\n".join(narrate(start, actions)) + "\n"
            yield VectorFile(f"{base}/golden/{n:02d}.txt", "golden", text, rules, "narration of " + desc)
        n += 1
    if reading.name == "default":
        # unfinished deals: one per player count, cut where the player to move has the most choices
        seen: set[int] = set()
        for start, actions in deals:
            if start.players in seen:
                continue
            seen.add(start.players)
            prefix = unfinished_prefix(start, actions)
            rec = record_from_state(start, reading.preset, prefix)
            expected = replay_record(rec).to_json()
            yield VectorFile(
                f"{base}/replay/{n:02d}.json",
                "replay",
                case_text({"record": rec.to_json(), "expected": expected, "exit": 0}),
                tuple(sorted(deal_case_rules(start, prefix))),
                describe_deal(start, prefix),
            )
            n += 1
        # whole numbers written with a fraction part (R-REC-NUMBERS): the record of the first deal
        start, actions = deals[0]
        obj = record_from_state(start, reading.preset, actions).to_json()
        obj["players"] = float(start.players)
        obj["dealer"] = float(start.dealer)
        expected = replay_record(record_from_state(start, reading.preset, actions)).to_json()
        yield VectorFile(
            f"{base}/replay/{n:02d}.json",
            "replay",
            case_text({"record": obj, "expected": expected, "exit": 0}),
            tuple(sorted(deal_case_rules(start, actions) | {"R-REC-NUMBERS"})),
            f"players and dealer written {float(start.players)} and {float(start.dealer)}: the same record as replay/00",
        )
    if reading.name == "default":
        yield from witness_vectors(reading.preset, base)
    search = deals if reading.name == "default" else deals[:1]
    found = _illegal_search(search)
    limit = len(found) if reading.name == "default" else ILLEGAL_CASES
    for j, rid in enumerate(sorted(found)[:limit]):
        start, prefix, err = found[rid]
        rec = record_from_state(start, reading.preset, prefix)
        illegal: JsonObject = {
            "format": FORMAT,
            "legal": False,
            "error": {"index": len(prefix) - 1, "action": str(prefix[-1]), "rule": err.rule, "message": err.message},
            "applied": len(prefix) - 1,
        }
        yield VectorFile(
            f"{base}/illegal/{j:02d}.json",
            "illegal",
            case_text({"record": rec.to_json(), "expected": illegal, "exit": 1}),
            tuple(sorted({err.rule, "R-REC-ILLEGAL-PRECEDENCE"})),
            f"{start.players} players: after {len(prefix) - 1} actions, '{prefix[-1]}' breaks {err.rule}",
        )
    if reading.name == "default":
        start, actions = deals[0]
        rec_json = record_from_state(start, reading.preset, actions).to_json()
        for name, text, kind in malformed_cases(rec_json):
            case: JsonObject = {"input": text, "expected": {"kind": kind}, "exit": 2}
            extra = MALFORMED_RULES.get(kind, ())
            if name.startswith(("players-true", "players-fraction", "players-not-a-number", "dealer-null")):
                extra = (*extra, "R-REC-NUMBERS")
            yield VectorFile(
                f"{base}/malformed/{name}.json",
                "malformed",
                case_text(case),
                tuple(sorted({"R-REC-FAULTS", *extra})),
                f"one fault ({name.replace('-', ' ')}): kind {kind}",
            )


def witness_entries(preset_name: str) -> list[JsonObject]:
    """The proofs' witness deals of one preset (``comet_proofs/witnesses/index.json``, found by Z3 bounded
    unrolling or a seeded search and written by ``comet prove --witness-traces``): each is a whole deal
    that ends in a rare way (the Comet as a 9 after escalation, a loser caught with it, a stuck run, ...)."""
    import importlib.resources

    root = importlib.resources.files("comet_proofs") / "witnesses"
    entries = json.loads((root / "index.json").read_text(encoding="utf-8"))["traces"]
    out: list[JsonObject] = []
    for e in entries:
        if e["preset"] != preset_name:
            continue
        trace = json.loads((root / str(e["file"])).read_text(encoding="utf-8"))
        out.append({**e, "record": trace["#meta"]["record"]})
    return out


def witness_vectors(preset_name: str, base: str) -> Iterator[VectorFile]:
    """The proofs' witness deals as a replay case and an ITF trace each (issue 8: the rare endings Z3 finds
    become vectors): ``replay/witness-<scenario>.json`` and ``trace/witness-<scenario>.itf.json``."""
    for e in witness_entries(preset_name):
        rec = loads_record(json.dumps(e["record"]))
        start = rec.start()
        actions = rec.actions
        rules = tuple(sorted(deal_case_rules(start, actions)))
        how = e.get("found_by") or ("z3 bounded unrolling" if e.get("steps_unrolled") else "a seeded search")
        desc = f"witness deal ({how}): {e['description']}"
        yield VectorFile(
            f"{base}/replay/witness-{e['scenario']}.json",
            "replay",
            case_text({"record": rec.to_json(), "expected": replay_record(rec).to_json(), "exit": 0}),
            rules,
            desc,
        )
        trace = deal_trace(start, actions, "comet vectors", f"{preset_name} witness {e['scenario']}")
        trace_meta = trace["#meta"]
        assert isinstance(trace_meta, dict)
        trace_meta["record"] = rec.to_json()
        yield VectorFile(f"{base}/trace/witness-{e['scenario']}.itf.json", "trace", dump_itf(trace), rules, desc)


def all_readings(presets: Sequence[str] | None = None) -> list[Reading]:
    names = sorted(PRESETS) if presets is None else list(presets)
    return [r for name in names for r in readings(name)]


def write_vectors(
    out_dir: Path, presets: Sequence[str] | None = None, on_reading: Callable[[Reading], None] | None = None
) -> list[str]:
    """Write every vector file and ``index.json`` under ``out_dir``; returns the relative paths written."""
    index: list[JsonValue] = []
    written: list[str] = []
    for reading in all_readings(presets):
        for f in reading_vectors(reading):
            path = out_dir / f.path
            path.parent.mkdir(parents=True, exist_ok=True)
            data = f.text.encode("utf-8")
            path.write_bytes(data)
            index.append(
                {
                    "path": f.path,
                    "kind": f.kind,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "preset": reading.preset,
                    "reading": reading.name,
                    "rules": list(f.rules),
                    "description": f.description,
                }
            )
            written.append(f.path)
        if on_reading is not None:
            on_reading(reading)
    for game_reading in all_game_readings(None if presets is None else list(presets)):
        for g in reading_game_vectors(game_reading):
            path = out_dir / g.path
            path.parent.mkdir(parents=True, exist_ok=True)
            data = g.text.encode("utf-8")
            path.write_bytes(data)
            index.append(
                {
                    "path": g.path,
                    "kind": g.kind,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "preset": game_reading.preset,
                    "reading": game_reading.name,
                    "rules": list(g.rules),
                    "description": g.description,
                }
            )
            written.append(g.path)
        if on_reading is not None:
            on_reading(Reading(game_reading.preset, f"{game_reading.name} (games)", game_reading.rules))
    from comet.diverge.conformance import write_divergence_vectors  # issue 9: each witness under both readings

    for entry in write_divergence_vectors(out_dir, presets):
        index.append(entry)
        written.append(str(entry["path"]))
    perft_text = perft_json(presets)
    (out_dir / PERFT_FILE).write_bytes(perft_text.encode("utf-8"))
    index.append(
        {
            "path": PERFT_FILE,
            "kind": "perft",
            "sha256": hashlib.sha256(perft_text.encode("utf-8")).hexdigest(),
            "preset": None,
            "reading": "default",
            "rules": ["R-REC-ACTION-ORDER"],
            "description": "perft counts (depths 1..5) from seeded deals, with each deal's record",
        }
    )
    written.append(PERFT_FILE)
    summary: JsonObject = {
        "format": FORMAT_VERSION,
        "generator": "comet vectors",
        "undocumented_rulings": [f for f in undocumented_rulings()],
        "presets": [name for name in (sorted(PRESETS) if presets is None else sorted(presets))],
        "files": index,
    }
    index_text = json.dumps(summary, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    (out_dir / "index.json").write_bytes(index_text.encode("utf-8"))
    written.append("index.json")
    return written


# --------------------------------------------------------------------- perft as JSON

PERFT_FILE = "perft.json"
PERFT_JSON_DEPTH = 5


def perft_rows_json(presets: Sequence[str] | None = None, depth: int = PERFT_JSON_DEPTH) -> list[JsonValue]:
    """Every reference perft row (spec/perft.md) with the seeded deal's record, to ``depth``."""
    from comet.perft import perft_counts, reference_rows, seeded_start

    rows: list[JsonValue] = []
    for name, players, seed in reference_rows():
        if presets is not None and name not in presets:
            continue
        rules = preset(name).rules
        start = seeded_start(rules, players, seed)
        counts: list[JsonValue] = [c for c in perft_counts(rules, players, seed, depth)]
        rows.append(
            {
                "preset": name,
                "players": players,
                "seed": seed,
                "record": record_from_state(start, name).to_json(),
                "counts": counts,
            }
        )
    return rows


def perft_json(presets: Sequence[str] | None = None) -> str:
    """``vectors/perft.json``: one object per line under ``rows``."""
    rows = perft_rows_json(presets)
    head = json.dumps({"format": FORMAT_VERSION, "depth": PERFT_JSON_DEPTH}, separators=(",", ":"))[:-1]
    return head + ',"rows":[\n' + ",\n".join(compact(r) for r in rows) + "\n]}\n"


# --------------------------------------------------------------------- the coverage table

TABLE_BEGIN = "<!-- coverage-table:begin (generated by `comet vectors vectors/ --update-spec spec/vectors.md`) -->"
TABLE_END = "<!-- coverage-table:end -->"


def vector_rule_ids() -> frozenset[str]:
    """Every rule id the table lists: every id named by an ``@rule`` in the model."""
    from comet.coverage import all_rule_ids

    return all_rule_ids()


def coverage_counts(index: JsonObject) -> dict[str, dict[str, int]]:
    """rule id -> preset -> number of default-reading vector files that exercise it."""
    out: dict[str, dict[str, int]] = {}
    files = index["files"]
    assert isinstance(files, list)
    for entry in files:
        assert isinstance(entry, dict)
        if entry.get("reading") != "default" or entry.get("kind") in ("golden", "perft"):
            continue
        rules = entry["rules"]
        assert isinstance(rules, list)
        for rid in rules:
            per = out.setdefault(str(rid), {})
            per[str(entry["preset"])] = per.get(str(entry["preset"]), 0) + 1
    return out


def coverage_markdown(index: JsonObject, rule_ids: Iterable[str]) -> str:
    """The table of spec/vectors.md: one row per rule id, the default-reading vectors per preset."""
    counts = coverage_counts(index)
    presets = index["presets"]
    assert isinstance(presets, list)
    names = [str(p) for p in presets]
    head = "| rule id | " + " | ".join(names) + " | total |"
    line = "|---|" + "---|" * (len(names) + 1)
    body = []
    for rid in sorted(rule_ids):
        per = counts.get(rid, {})
        total = sum(per.values())
        cells = [str(per.get(n, 0)) if per.get(n) else "·" for n in names]
        shown = f"{total}" if total else "**0**"
        body.append(f"| {rid} | " + " | ".join(cells) + f" | {shown} |")
    return "\n".join([head, line, *body]) + "\n"


def update_spec_table(text: str, table: str) -> str:
    """``text`` with the coverage table between its markers replaced; ValueError without markers."""
    begin = text.find(TABLE_BEGIN)
    end = text.find(TABLE_END)
    if begin < 0 or end < begin:
        raise ValueError("the file has no coverage table markers (see spec/vectors.md)")
    return text[: begin + len(TABLE_BEGIN)] + "\n" + table + text[end:]


def coverage_gaps(index: JsonObject) -> list[str]:
    """What the default-reading vectors fail to cover: a rule id with no vector at all (game-only ids
    aside), or a preset whose own rule ids (its classifiers in ``comet.coverage``; for games with the
    standard play, every standard id) have no vector in its default reading."""
    from comet.coverage import CLASSIFIED, option_classifiers, variant_classifiers

    counts = coverage_counts(index)
    problems = [f"{rid} has no vector" for rid in sorted(vector_rule_ids()) if rid not in counts]
    presets = index["presets"]
    assert isinstance(presets, list)
    for name in map(str, presets):
        rules = preset(name).rules
        v = variant_of(rules)
        own: set[str] = set()
        entry = variant_classifiers().get(rules.variant)
        if entry is not None:
            own |= entry.ids
        for flag, option in option_classifiers().items():
            if getattr(rules, flag):
                own |= option.ids
        if v.legal_actions is None and v.play is None and v.settlement is None:
            own |= CLASSIFIED
        for rid in sorted(own):
            if not counts.get(rid, {}).get(name):
                problems.append(f"{rid} has no vector in {name}/default")
    return problems
