"""The conformance suite as requests: every vector, random and fault-planted deals and games, hostile
texts.  Each case is one request to the implementation; the model answers the same request in process."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from comet.engine import apply, legal_actions, player_counts, shuffled_deal
from comet.errors import IllegalAction
from comet.policy import random_policy
from comet.presets import preset
from comet.records.answers import vector_request
from comet.records.deal_record import JsonObject, JsonValue, record_from_state
from comet.records.json_text import MAX_INT
from comet.ruleset import RULING_FIELDS, Ruleset, field_readings
from comet.state import Action, DealState

#: The kinds of vector file sent to the implementation (golden narrations, traces and perft are not
#: protocol answers).
VECTOR_KINDS = ("replay", "illegal", "malformed", "game")
#: The most actions a random deal plays (a cap for variants whose deals run long).
MAX_ACTIONS = 400


@dataclass(frozen=True, slots=True)
class Case:
    """One request: its name, where it comes from, the rule ids it exercises (coverage), and the record
    (a JSON object, None for texts that are not one) that ``shrink`` may cut down."""

    name: str
    source: str
    request: JsonObject
    rules: tuple[str, ...] = ()
    record: JsonObject | None = None
    game: bool = False


def replay_request(record: JsonObject | None = None, text: str | None = None, op: str = "replay") -> JsonObject:
    """A stateless request carrying the record as text (so that the implementation parses it)."""
    return {"op": op, "record_text": text if text is not None else json.dumps(record)}


def _is_game_text(text: str) -> bool:
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) and "deals" in value


def vector_cases(root: Path, presets: set[str] | None, games: bool) -> Iterator[Case]:
    """Every replay, illegal, malformed and game vector of ``root`` (``vectors/``), in index order."""
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    for entry in index["files"]:
        if entry["kind"] not in VECTOR_KINDS or (presets is not None and entry["preset"] not in presets):
            continue
        case = json.loads((root / entry["path"]).read_text(encoding="utf-8"))
        record = case.get("record")
        request = vector_request(case)
        text = request["record_text"]
        assert isinstance(text, str)
        game = entry["kind"] == "game" or _is_game_text(text)
        if game and not games:
            continue
        rules = tuple(map(str, entry.get("rules", ())))
        yield Case(f"vectors/{entry['path']}", "vectors", request, rules, record, game)


def random_rules(rng: random.Random, name: str) -> Ruleset:
    """The preset's rules with up to four rulings at random readings (those the preset takes).  Few
    draws (how many, then which), so that Hypothesis (``explore``) can shrink them to none."""
    base = preset(name).rules
    fields = [f for f in RULING_FIELDS if field_readings(f) is not None]
    for _ in range(20):
        changes: dict[str, object] = {}
        for _k in range(rng.randrange(5)):
            field = fields[rng.randrange(len(fields))]
            readings = field_readings(field)
            assert readings is not None
            changes[field] = list(readings)[rng.randrange(len(readings))]
        try:
            return base.with_overrides(changes)
        except ValueError:
            continue
    return base


def _rulings(rules: Ruleset, name: str) -> dict[str, JsonValue]:
    diff = rules.differences(preset(name).rules)
    return {k: v for k, v in sorted(diff.items()) if isinstance(v, bool | int | str)}


def random_deal(rng: random.Random, name: str, index: int) -> Case:
    """A random deal under random readings, played by random legal actions, sometimes cut short
    (``legal`` asks for the actions then), sometimes with a planted illegal action or malformed field."""
    rules = random_rules(rng, name)
    players = rng.choice(player_counts(rules))
    start = shuffled_deal(rules, players, rng.randrange(players), rng.randrange(2**31))
    policy = random_policy(rng)
    cut = rng.randrange(1, 40) if rng.random() < 0.25 else MAX_ACTIONS
    s = start
    actions: list[Action] = []
    while not s.terminal and len(actions) < cut:
        a = policy(s, legal_actions(s))
        actions.append(a)
        s = apply(s, a)
    record = record_from_state(start, name, actions).to_json()
    record["rulings"] = dict(_rulings(rules, name))
    op = "legal" if cut < MAX_ACTIONS else "replay"
    roll = rng.random()
    label = "deal"
    if roll < 0.3 and actions:
        record = _plant_illegal(rng, record, start, actions)
        label = "deal-illegal"
    elif roll < 0.4:
        return _plant_malformed(rng, record, name, index)
    return Case(f"random/{name}/{label}/{index}", "random", replay_request(record, op=op), (), record)


def _plant_illegal(rng: random.Random, record: JsonObject, start: DealState, actions: list[Action]) -> JsonObject:
    """Replace one action with an action the position does not allow (the rest of the record is kept)."""
    from comet.vectors.negative import candidate_actions

    k = rng.randrange(len(actions))
    s = start
    for a in actions[:k]:
        s = apply(s, a)
    legal = set(legal_actions(s))
    wrong = [a for a in candidate_actions(s) if a not in legal]
    if not wrong:
        return record
    out = copy.deepcopy(record)
    texts = out["actions"]
    assert isinstance(texts, list)
    texts[k] = str(rng.choice(wrong))
    return out


def _plant_malformed(rng: random.Random, record: JsonObject, name: str, index: int) -> Case:
    from comet.vectors.negative import mutations

    label, text = rng.choice(mutations(record))
    return Case(f"random/{name}/malformed-{label}/{index}", "random", replay_request(text=text))


def random_game(rng: random.Random, name: str, index: int) -> Case:
    """A random game (one round of deals, random legal play), half of them with one planted fault of the
    game vectors' kinds (wrong standings, dealer, value, winners, a deal after the end, ...)."""
    from comet.records.game_write import record_game
    from comet.vectors.games import FAULTS

    rules = random_rules(rng, name)
    players = rng.choice(player_counts(rules))
    try:
        game = record_game(rules, name, players, players, rng.randrange(2**31), random_policy(rng))
    except (ValueError, IllegalAction):
        game = record_game(preset(name).rules, name, players, players, rng.randrange(2**31), random_policy(rng))
    record = game.to_json()
    label = "game"
    if rng.random() < 0.5:
        fault, mutate = rng.choice(FAULTS)
        planted = copy.deepcopy(record)
        try:
            mutate(planted)
            record, label = planted, f"game-{fault}"
        except (AssertionError, IndexError, KeyError, StopIteration):
            pass
    return Case(f"random/{name}/{label}/{index}", "random", replay_request(record), (), record, True)


def hostile_cases(base: JsonObject) -> Iterator[Case]:
    """Texts at and past the limits of R-REC-LIMITS and requests that are not what they should be."""
    text = json.dumps(base)
    texts: list[tuple[str, str]] = [
        ("number-at-the-limit", json.dumps({**base, "comet_value": MAX_INT})),
        ("number-past-the-limit", json.dumps({**base, "comet_value": MAX_INT + 1})),
        ("number-1e300", text[:-1] + ', "comet_value": 1e300}'),
        ("duplicate-key", text[:-1] + ', "dealer": 0}'),
        ("byte-order-mark", "\ufeff" + text),
        ("nan", text[:-1] + ', "comet_value": NaN}'),
        ("deep-nesting", "[" * 200 + "]" * 200),
        ("long-list", json.dumps({**base, "actions": ["pass"] * 10_001})),
        ("empty", ""),
        ("not-an-object", "[]"),
        ("unicode", json.dumps({**base, "variant": "stándard"})),
        ("over-the-size", text + " " * 10_000_001),
    ]
    for name, t in texts:
        yield Case(f"hostile/{name}", "hostile", replay_request(text=t), ("R-REC-LIMITS", "R-REC-FAULTS"))
    requests: list[tuple[str, JsonObject]] = [
        ("no-record", {"op": "replay"}),
        ("record-text-not-a-string", {"op": "replay", "record_text": 5}),
        ("unknown-op", {"op": "no_such_op"}),
    ]
    for name, req in requests:
        yield Case(f"hostile/{name}", "hostile", req)
