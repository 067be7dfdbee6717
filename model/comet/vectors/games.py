"""Game vectors: whole games as conformance cases (spec/vectors.md, "Game vectors").

For every preset's default reading and every reading of every game-level ruling that applies to it,
``OUT/<preset>/<reading>/game/NN.json`` holds a game record with the expected ``comet replay`` output
(exit 0), chosen so that an implementation that plays the preset's default instead of the reading
fails it: the same record, read with the ruling at its default, gives another verdict.  The default
readings also get planted faults (exit 1), one per item a game record can get wrong, each naming its
rule id, and a few malformed game records (exit 2).

Everything is derived from seeds, so the same version writes byte-identical files; every game comes
from ``comet.game`` through ``comet.records.game_record``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from comet.checks.coverage import variant_classifiers
from comet.engine import packs_in_rotation
from comet.errors import RecordError
from comet.presets import preset
from comet.records.deal_record import JsonObject, JsonValue
from comet.records.game_record import GameRecord, parse_game_record, with_rulings
from comet.records.game_replay import replay_game
from comet.records.game_verdict import game_rule_ids
from comet.records.game_write import record_game
from comet.ruleset import GAME_LEVEL_FIELDS as RULESET_GAME_FIELDS
from comet.ruleset import RULING_FIELDS, Ruleset, field_readings
from comet.variant import applies, variant_of
from comet.vectors.features import deal_case_rules
from comet.vectors.format import VectorFile, case_text

#: Rulings that only matter between deals (``comet.ruleset.GAME_LEVEL_FIELDS``), in the field order.
GAME_LEVEL_FIELDS = tuple(f for f in RULING_FIELDS if f in RULESET_GAME_FIELDS)
#: Readings of the integer game-level rulings that get vectors (their fields have no finite readings).
INT_READINGS: dict[str, tuple[int, ...]] = {"starting_chips": (20,)}
#: How far the search for a game that tells a reading from the default goes.
SEARCH_SEEDS = 60
LENGTHS_IN_ROUNDS = (1, 3, 8)
#: A second, wider pass over the seeds, only where the first finds nothing (so every game the first pass
#: finds stays the one found): a game whose ties are rare, such as one with a Comet that never rises
#: (the toy game of ``tests/test_toy_game.py``: its first tie telling RUL-GAME-TIE apart is at seed 71).
WIDER_SEEDS = 400


@dataclass(frozen=True, slots=True)
class GameReading:
    preset: str
    name: str  # "default" or "FIELD=VALUE"
    field: str | None
    rules: Ruleset


def value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


#: Rulings that no game can tell apart under the preset's own readings, and the reading of another ruling
#: under which their vectors are played (so that the vector is a witness: a default-only implementation
#: fails it).  RUL-CREDITOR-ORDER orders the payments of a debtor who cannot pay in full, which happens only
#: under RUL-INSOLVENCY = pay_what_you_have or drop_out; under the presets' ``debt`` every payment is made
#: in full (``comet.diverge.witness.argued_inert`` says the same of the divergence study).
NEEDS: dict[str, tuple[str, object, object]] = {"creditor_order": ("insolvency", "debt", "pay_what_you_have")}


def needed(field: str, base: Ruleset) -> dict[str, object]:
    """The other reading ``field``'s vectors are played under (``NEEDS``), if the preset's own makes the
    field inert; else nothing."""
    if field not in NEEDS:
        return {}
    other, inert_value, value = NEEDS[field]
    return {other: value} if getattr(base, other) == inert_value else {}


def game_readings(preset_name: str) -> tuple[GameReading, ...]:
    """``default``, then every other reading of every game-level ruling that applies to the preset (played
    under the reading it needs where the preset's own make it inert: ``NEEDS``)."""
    base = preset(preset_name).rules
    out = [GameReading(preset_name, "default", None, base)]
    for field in GAME_LEVEL_FIELDS:
        if not applies(field, base.variant):
            continue
        finite = field_readings(field)
        values: tuple[object, ...] = tuple(finite) if finite is not None else INT_READINGS.get(field, ())
        for value in values:
            if value == getattr(base, field):
                continue
            rules = base.with_overrides({field: value, **needed(field, base)})
            out.append(GameReading(preset_name, f"{field}={value_text(value)}", field, rules))
    return tuple(out)


def output(rec: GameRecord) -> JsonObject:
    return replay_game(rec).to_json()


def default_reader_output(rec: GameRecord, field: str) -> JsonObject | str:
    """What an implementation that ignores ``field`` (plays its default) answers for ``rec``: the replay
    output of the record with the ruling dropped, or the kind of the fault it is refused with."""
    rulings = {k: v for k, v in rec.rulings if k != field}
    try:
        return output(with_rulings(rec, rulings))
    except RecordError as e:
        return f"malformed: {e.kind}"


def tells_apart(rec: GameRecord, field: str) -> bool:
    """Does a default-only implementation fail this record (another verdict than the reading's)?"""
    return default_reader_output(rec, field) != output(rec)


def player_choices(rules: Ruleset) -> tuple[int, ...]:
    from comet.engine import player_counts

    return player_counts(rules)


#: The rulings about the wild card's rising value (RUL-ESCALATION-PACKS, -RESET, -TRIGGER).
ESCALATION_FIELDS = ("escalation", "comet_reset", "escalate_on")


def inert(reading: GameReading) -> bool:
    """A reading no game can tell from the default: an escalation ruling of a preset whose wild card does
    not rise under its rules (Old Comet's manille with RUL-OLD-ESCALATION ``fixed``), or the order of a
    debtor's payments (RUL-CREDITOR-ORDER) under RUL-INSOLVENCY = debt, where every payment is paid in full."""
    if reading.field == "creditor_order":
        return reading.rules.insolvency == "debt"
    return reading.field in ESCALATION_FIELDS and not variant_of(reading.rules).escalates_under(reading.rules)


def find_game(reading: GameReading) -> GameRecord:
    """The first seeded game (over player counts, lengths and seeds, in that order of search; then the same
    over the wider seeds) that tells the reading from the default; for the default reading, the preset's usual game with seed 0."""
    rules = reading.rules
    v = variant_of(rules)
    if reading.field is None or inert(reading):
        return record_game(rules, reading.preset, v.default_players, None, 0)
    counts = player_choices(rules)
    ordered = sorted(counts, key=lambda n: (n != v.default_players, n))
    for first, last in ((0, SEARCH_SEEDS), (SEARCH_SEEDS, WIDER_SEEDS)):
        for rounds in LENGTHS_IN_ROUNDS:
            for seed in range(first, last):
                for players in ordered:
                    deals = _length(rules, players, rounds, reading.field)
                    try:
                        rec = record_game(rules, reading.preset, players, deals, seed)
                    except RecordError:
                        continue
                    if tells_apart(rec, reading.field):
                        return rec
    raise ValueError(f"no game of {reading.preset} {reading.name} within the search tells it from the default")


def _length(rules: Ruleset, players: int, rounds: int, field: str) -> int | None:
    v = variant_of(rules)
    if v.game_end == "target":
        return None
    if field == "deal_count":
        return players * rounds + 1  # a length only 'any' allows
    return players * rounds


# --------------------------------------------------------------------- what a game case exercises


def game_case_rules(rec: GameRecord) -> set[str]:
    """The rule ids a legal game record exercises: the game's own, and each deal's (``comet.vectors.features``)."""
    verdict = replay_game(rec)
    rules = rec.ruleset()
    v = variant_of(rules)
    standings_rule, end_rule = game_rule_ids(rules)
    hits = {"R-DEAL-DEALER", "R-GAME-DEALS", standings_rule, end_rule}
    if verdict.finished:
        hits.add("R-GAME-WINNER")
    if v.scoring == "chips":
        hits.add("R-GAME-CHIPS")
    entry = variant_classifiers().get(rules.variant)
    if entry is not None:
        hits |= entry.game
    if len({d.start.pack for d in verdict.deals}) > 1 or len(packs_in_rotation(rules, rec.players)) == 1:
        hits.add("R-PACK-ALTERNATE")
    for d in verdict.deals:
        hits |= deal_case_rules(d.start, d.verdict.record.actions[: d.verdict.applied])
        if d.after is not None and any(c != v.comet_value for c in d.after.comet_values):
            hits.add("R-COMET-ESCALATE")
    return hits


# --------------------------------------------------------------------- planted faults

Mutation = Callable[[JsonObject], None]


def _deals(obj: JsonObject) -> list[JsonObject]:
    deals = obj["deals"]
    assert isinstance(deals, list)
    out = []
    for d in deals:
        assert isinstance(d, dict)
        out.append(d)
    return out


def _sub(obj: JsonObject, *path: str | int) -> JsonObject:
    cur: JsonValue = obj
    for p in path:
        if isinstance(p, int):
            assert isinstance(cur, list)
            cur = cur[p]
        else:
            assert isinstance(cur, dict)
            cur = cur[p]
    assert isinstance(cur, dict)
    return cur


def _bump_standing(obj: JsonObject) -> None:
    after = _sub(obj, "deals", 0, "after")
    standings = after["standings"]
    assert isinstance(standings, list) and isinstance(standings[0], int)
    standings[0] += 1


def _bump_carried_value(obj: JsonObject) -> None:
    after = _sub(obj, "deals", 0, "after")
    values = after["comet_values"]
    assert isinstance(values, list) and isinstance(values[0], int)
    values[0] += 2


def _bump_deal_value(obj: JsonObject) -> None:
    rec = _sub(obj, "deals", 1, "record")
    value = rec.get("comet_value", 2)
    assert isinstance(value, int)
    rec["comet_value"] = value + 2


def _same_dealer_again(obj: JsonObject) -> None:
    first = _sub(obj, "deals", 0, "record")
    _sub(obj, "deals", 1, "record")["dealer"] = first["dealer"]


def _wrong_winners(obj: JsonObject) -> None:
    end = _sub(obj, "end")
    players = obj["players"]
    won = end["winners"]
    assert isinstance(players, int) and isinstance(won, list)
    end["winners"] = [s for s in range(players) if s not in won]


def _deal_after_the_end(obj: JsonObject) -> None:
    deals = obj["deals"]  # the list itself (``_deals`` returns a copy, so appending to it planted nothing)
    assert isinstance(deals, list)
    deals.append(copy.deepcopy(deals[0]))


def _end_too_early(obj: JsonObject) -> None:
    deals = _deals(obj)
    obj["deals"] = list(deals[:-1])


def _illegal_pass(obj: JsonObject) -> None:
    rec = _sub(obj, "deals", 1, "record")
    actions = rec["actions"]
    assert isinstance(actions, list)
    actions[0] = "pass"


def _wrong_length(obj: JsonObject) -> None:
    length = obj["length"]
    assert isinstance(length, int)
    obj["length"] = length + 1


def _undecided_draw(obj: JsonObject) -> None:
    """Seats 0 and 1 draw the two lowest cards of one rank: a tie the record leaves undecided."""
    from comet.cards import card_text, rank_of
    from comet.presets import preset as preset_of

    players = obj["players"]
    variant = obj["variant"]
    assert isinstance(players, int) and isinstance(variant, str)
    rulings = obj.get("rulings", {})
    assert isinstance(rulings, dict)
    rules = preset_of(variant).rules.with_overrides({str(k): v for k, v in rulings.items() if isinstance(v, str | int)})
    cards = sorted(packs_in_rotation(rules, players)[0].cards, key=rank_of)
    low = [c for c in cards if rank_of(c) == rank_of(cards[0])][:2]
    rest = [c for c in cards if rank_of(c) > rank_of(cards[0])]
    row: list[JsonValue] = [card_text(c) for c in (*low, *rest[: players - 2])]
    obj["draw"] = [row]


def _draw_card_not_in_pack(obj: JsonObject) -> None:
    """Every seat draws the same card: more copies than the pack holds (where it holds too few)."""
    draw = obj.get("draw")
    if isinstance(draw, list) and draw and isinstance(draw[0], list):
        row = draw[0]
        card = next(c for c in row if c is not None)
        draw[0] = [card if c is not None else None for c in row]


def _first_dealer_moved(obj: JsonObject) -> None:
    players, first = obj["players"], obj["first_dealer"]
    assert isinstance(players, int) and isinstance(first, int)
    obj["first_dealer"] = (first + 1) % players


def _cut_short(obj: JsonObject, i: int, keep_after: bool) -> None:
    d = _sub(obj, "deals", i)
    rec = _sub(d, "record")
    actions = rec["actions"]
    assert isinstance(actions, list)
    rec["actions"] = actions[:1]
    if not keep_after:
        d.pop("after", None)


def _other_pack(obj: JsonObject) -> None:
    """Deal 1 holds deal 0's cards: the pack whose turn it was not (where packs alternate)."""
    deals = _deals(obj)
    if len(deals) > 1:
        first, second = _sub(obj, "deals", 0, "record"), _sub(obj, "deals", 1, "record")
        second["hands"], second["dead"] = copy.deepcopy(first["hands"]), copy.deepcopy(first["dead"])
        second["actions"] = []


def _bump_final_standing(obj: JsonObject) -> None:
    end = _sub(obj, "end")
    standings = end["standings"]
    assert isinstance(standings, list) and isinstance(standings[0], int)
    standings[0] += 1


def _seed_deal(obj: JsonObject, i: int) -> None:
    """Deal ``i`` given by ``seed``: an unplayed, unfinished deal (so any deal after it is a fault)."""
    d = _sub(obj, "deals", i)
    d.clear()
    d["seed"] = 1


def _wrong_after_length(obj: JsonObject) -> None:
    after = _sub(obj, "deals", 0, "after")
    length, players = after["length"], obj["players"]
    assert isinstance(length, int) and isinstance(players, int)
    after["length"] = length + players


#: (case name, mutation) of the planted faults of the default readings.
FAULTS: tuple[tuple[str, Mutation], ...] = (
    ("wrong-standings", _bump_standing),
    ("wrong-carried-comet-value", _bump_carried_value),
    ("wrong-deal-comet-value", _bump_deal_value),
    ("same-dealer-twice", _same_dealer_again),
    ("wrong-winners", _wrong_winners),
    ("deal-after-the-end", _deal_after_the_end),
    ("end-too-early", _end_too_early),
    ("illegal-action-in-a-deal", _illegal_pass),
    ("length-not-a-multiple", _wrong_length),
    ("undecided-draw", _undecided_draw),
    # issue 34: every row of the game-fault table of spec/record.md has a vector
    ("draw-card-not-in-the-pack", _draw_card_not_in_pack),
    ("first-dealer-not-the-draws", _first_dealer_moved),
    ("deal-after-an-unfinished-deal", lambda o: _cut_short(o, 0, keep_after=False)),
    ("after-on-an-unfinished-deal", lambda o: _cut_short(o, len(_deals(o)) - 1, keep_after=True)),
    ("deal-from-the-wrong-pack", _other_pack),
    ("wrong-length-after-a-deal", _wrong_after_length),
    ("deal-given-by-seed-then-more", lambda o: _seed_deal(o, 0)),
    ("wrong-final-standings", _bump_final_standing),
)

#: Malformed game records: (case name, change of the JSON object).
MALFORMED: tuple[tuple[str, Mutation], ...] = (
    ("deals-not-a-list", lambda o: o.__setitem__("deals", {})),
    ("bad-card-in-a-deal", lambda o: _sub(o, "deals", 0, "record").__setitem__("dead", ["1Z"])),
    ("deal-of-another-game", lambda o: _sub(o, "deals", 0, "record").__setitem__("variant", "nonesuch")),
    ("record-and-seed", lambda o: _sub(o, "deals", 0).__setitem__("seed", 1)),
    ("unknown-field", lambda o: o.__setitem__("extra", 1)),
)


def reading_game_vectors(reading: GameReading) -> Iterator[VectorFile]:
    """The game vectors of one reading."""
    base = f"{reading.preset}/{reading.name}/game"
    rec = find_game(reading)
    obj = rec.to_json()
    out = output(rec)
    rules = tuple(sorted(game_case_rules(rec)))
    how = "" if reading.field is None else f"; read with {reading.field} at its default it gives another verdict"
    if reading.field is not None and needed(reading.field, preset(reading.preset).rules):
        under = ", ".join(f"{k} = {v}" for k, v in needed(reading.field, preset(reading.preset).rules).items())
        how += f" (played under {under}, which {reading.field} needs to change anything)"
    if inert(reading):
        how = (
            f"; {reading.field} changes nothing here: the wild card of {reading.preset} does not rise under these rules"
        )
    yield VectorFile(
        f"{base}/00.json",
        "game",
        case_text({"record": obj, "expected": out, "exit": 0}),
        rules,
        f"a {reading.preset} game of {len(rec.deals)} deals for {rec.players} players{how}",
    )
    if reading.field is not None:
        yield from _race_cut_vectors(reading, base, obj)
        return
    n = 1
    for name, mutate in FAULTS:
        bad = json.loads(json.dumps(obj))
        mutate(bad)
        try:
            verdict = replay_game(parse_game_record(bad)).to_json()
        except RecordError:
            continue
        error = verdict.get("error")
        if not isinstance(error, dict):
            continue  # the change makes no fault in this game (e.g. the length of a game to a target)
        rid = error["rule"]
        assert isinstance(rid, str)
        yield VectorFile(
            f"{base}/{n:02d}-{name}.json",
            "game",
            case_text({"record": bad, "expected": verdict, "exit": 1}),
            (rid,),
            f"game/00 with one fault ({name.replace('-', ' ')}): {error['item']} breaks {rid}",
        )
        n += 1
    if reading.preset != "standard":
        return
    for name, mutate in MALFORMED:
        bad = json.loads(json.dumps(obj))
        mutate(bad)
        try:
            replay_game(parse_game_record(bad))
        except RecordError as e:
            yield VectorFile(
                f"{reading.preset}/{reading.name}/malformed/game-{name}.json",
                "malformed",
                case_text({"input": json.dumps(bad), "expected": {"kind": e.kind}, "exit": 2}),
                ("R-REC-FAULTS",),
                f"a malformed game record ({name.replace('-', ' ')}): kind {e.kind}",
            )


def _race_cut_vectors(reading: GameReading, base: str, obj: JsonObject) -> Iterator[VectorFile]:
    """Under a race to the target (RUL-COMMIT-C-RACE = race) the deal in which the game is won stops at
    that action; one more action there is the race row of the game-fault table."""
    from comet.engine import legal_actions
    from comet.records.deal_record import parse_record, replay_record

    if variant_of(reading.rules).race_end is None:
        return
    bad = json.loads(json.dumps(obj))
    last = _sub(bad, "deals", len(_deals(bad)) - 1, "record")
    verdict = replay_record(parse_record(last))
    if verdict.final.terminal or not legal_actions(verdict.final):
        return
    actions = last["actions"]
    assert isinstance(actions, list)
    actions.append(str(legal_actions(verdict.final)[0]))
    out = replay_game(parse_game_record(bad)).to_json()
    error = out.get("error")
    if not isinstance(error, dict):
        return
    rid = str(error["rule"])
    yield VectorFile(
        f"{base}/01-action-after-the-race-was-won.json",
        "game",
        case_text({"record": bad, "expected": out, "exit": 1}),
        (rid,),
        f"game/00 with one action after the game was won inside the deal: {error['item']} breaks {rid}",
    )


def all_game_readings(presets: list[str] | None = None) -> list[GameReading]:
    from comet.presets import PRESETS

    names = sorted(PRESETS) if presets is None else sorted(presets)
    return [r for name in names for r in game_readings(name)]


def game_rule_id_set() -> frozenset[str]:
    """Every rule id about whole games: the standard game's and the variants' game rules."""
    ids = {"R-GAME-DEALS", "R-GAME-CHIPS", "R-GAME-WINNER", "R-DEAL-DEALER"}
    for entry in variant_classifiers().values():
        ids |= entry.game
    return frozenset(ids)


def game_coverage_gaps(index: JsonObject) -> list[str]:
    """What the game vectors of ``index`` (``vectors/index.json``) miss: a game rule id with no vector,
    or a game reading of a preset with no ``game/00.json``."""
    files = index["files"]
    assert isinstance(files, list)
    covered: set[str] = set()
    paths: set[str] = set()
    for entry in files:
        assert isinstance(entry, dict)
        if entry.get("kind") != "game":
            continue
        paths.add(str(entry["path"]))
        rules = entry["rules"]
        assert isinstance(rules, list)
        covered |= {str(r) for r in rules}
    problems = [f"{rid} has no game vector" for rid in sorted(game_rule_id_set() - covered)]
    presets = index["presets"]
    assert isinstance(presets, list)
    for reading in all_game_readings([str(p) for p in presets]):
        if f"{reading.preset}/{reading.name}/game/00.json" not in paths:
            problems.append(f"{reading.preset}/{reading.name} has no game vector")
    return problems
