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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.cards import KING, rank_of
from comet.engine import apply, legal_actions, packs_in_rotation, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.game import play_deal
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
from comet.ruleset import APPLIES_TO, RULING_FIELDS, Ruleset, applies, field_readings
from comet.state import PASS, Action, DealState

FORMAT_VERSION = 1
#: Rulings that only matter between deals (a deal record cannot express them); ``comet game`` covers them.
GAME_LEVEL_FIELDS = frozenset(
    {"escalation", "comet_reset", "insolvency", "starting_chips", "deal_count", "game_tie", "first_dealer_tie"}
)
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
    """Deal-level ruling fields missing from ``comet.ruleset.APPLIES_TO``: they get no vectors."""
    return [
        f for f in RULING_FIELDS if f not in APPLIES_TO and f not in GAME_LEVEL_FIELDS and field_readings(f) is not None
    ]


def readings(preset_name: str) -> tuple[Reading, ...]:
    """``default`` then every other reading of every deal-level ruling that applies to the preset."""
    base = preset(preset_name).rules
    out = [Reading(preset_name, "default", base)]
    for field in RULING_FIELDS:
        if field in GAME_LEVEL_FIELDS or field not in APPLIES_TO:
            continue
        if not applies(field, base.variant):
            continue  # the ruling does not apply to this preset's game (comet.ruleset.APPLIES_TO)
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


def player_counts(rules: Ruleset) -> tuple[int, ...]:
    """The player counts the engine deals for these rules (probed, so new presets need no table here)."""
    counts = []
    for n in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            shuffled_deal(rules, n, n - 1, 0)
        except (RecordError, ValueError, KeyError):
            continue
        counts.append(n)
    return tuple(counts)


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


def illegal_cases(
    start: DealState, actions: Sequence[Action], limit: int
) -> list[tuple[tuple[Action, ...], IllegalAction]]:
    """Up to ``limit`` prefixes of a legal deal followed by one illegal action, one per rule id broken
    (the earliest place each rule can be broken), in rule-id order."""
    found: dict[str, tuple[tuple[Action, ...], IllegalAction]] = {}
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
                    found[e.rule] = ((*actions[:i], cand), e)
        if played is None:
            break
        s = apply(s, played)
    return [found[k] for k in sorted(found)][:limit]


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
    return [
        ("not-json", text[: len(text) // 2]),
        ("not-an-object", json.dumps([rec])),
        ("unknown-card", with_(hands=[["1Z", *first[1:]], *hands[1:]])),
        ("lower-case-card", with_(hands=[[str(first[0]).lower(), *first[1:]], *hands[1:]])),
        ("not-one-pack", with_(hands=dup)),
        ("wrong-hand-size", with_(hands=moved)),
        ("missing-hand", with_(hands=hands[:-1])),
        ("dealer-out-of-range", with_(dealer=players)),
        ("dealer-negative", with_(dealer=-1)),
        ("players-out-of-range", with_(players=99)),
        ("players-not-a-number", with_(players=str(players))),
        ("action-syntax", with_(actions=["jump 5H"])),
        ("action-double-space", with_(actions=["play  " + str(first[0])])),
        ("action-as-without-rank", with_(actions=[f"play {first[0]} as"])),
        ("action-not-a-string", with_(actions=[5])),
        ("unknown-variant", with_(variant="nonesuch")),
        ("unknown-ruling", with_(rulings={"no_such_ruling": True})),
        ("bad-ruling-reading", with_(rulings={"comet_lead": "sometimes"})),
        ("missing-field", without("hands")),
        ("unknown-field", with_(extra=1)),
        ("negative-comet-value", with_(comet_value=-2)),
    ]


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


def reading_files(reading: Reading) -> Iterator[tuple[str, str, str]]:
    """(relative path, kind, text) of every vector file of one reading."""
    base = f"{reading.preset}/{reading.name}"
    deals = [case_deal(reading, i) for i in range(REPLAY_CASES)]
    for i, (start, actions) in enumerate(deals):
        rec = record_from_state(start, reading.preset, actions)
        verdict = replay_record(rec)
        expected = verdict.to_json()
        yield (
            f"{base}/replay/{i:02d}.json",
            "replay",
            case_text({"record": rec.to_json(), "expected": expected, "exit": 0}),
        )
        if i < TRACE_CASES:
            meta = f"{reading.preset} {reading.name} case {i}"
            trace = deal_trace(start, actions, "comet vectors", meta)
            trace_meta = trace["#meta"]
            assert isinstance(trace_meta, dict)
            trace_meta["record"] = rec.to_json()
            yield f"{base}/trace/{i:02d}.itf.json", "trace", dump_itf(trace)
        if i < GOLDEN_CASES:
            yield f"{base}/golden/{i:02d}.txt", "golden", "\n".join(narrate(start, actions)) + "\n"
    start, actions = deals[0]
    for j, (prefix, err) in enumerate(illegal_cases(start, actions, ILLEGAL_CASES)):
        rec = record_from_state(start, reading.preset, prefix)
        illegal: JsonObject = {
            "legal": False,
            "error": {"index": len(prefix) - 1, "action": str(prefix[-1]), "rule": err.rule, "message": err.message},
            "applied": len(prefix) - 1,
        }
        yield (
            f"{base}/illegal/{j:02d}.json",
            "illegal",
            case_text({"record": rec.to_json(), "expected": illegal, "exit": 1}),
        )
    if reading.name == "default":
        rec_json = record_from_state(start, reading.preset, actions).to_json()
        for name, text, kind in malformed_cases(rec_json):
            case: JsonObject = {"input": text, "expected": {"kind": kind}, "exit": 2}
            yield f"{base}/malformed/{name}.json", "malformed", case_text(case)


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
        for rel, kind, text in reading_files(reading):
            path = out_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            data = text.encode("utf-8")
            path.write_bytes(data)
            index.append({"path": rel, "kind": kind, "sha256": hashlib.sha256(data).hexdigest()})
            written.append(rel)
        if on_reading is not None:
            on_reading(reading)
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
