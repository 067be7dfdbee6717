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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from comet.diverge.conformance import write_divergence_vectors
from comet.notation import narrate
from comet.presets import PRESETS
from comet.records.contract import FORMAT
from comet.records.deal_record import (
    JsonObject,
    JsonValue,
    loads_record,
    record_from_state,
    replay_record,
)
from comet.records.itf import deal_trace
from comet.vectors.features import deal_case_rules, deal_features, describe_deal, feature_deals, unfinished_prefix
from comet.vectors.format import VectorFile, case_text, dump_itf
from comet.vectors.games import all_game_readings, reading_game_vectors
from comet.vectors.negative import MALFORMED_RULES, illegal_search, malformed_cases
from comet.vectors.perft_json import PERFT_FILE, perft_json
from comet.vectors.readings import (
    FORMAT_VERSION,
    GOLDEN_CASES,
    ILLEGAL_CASES,
    REPLAY_CASES,
    Reading,
    all_readings,
    case_deal,
    undocumented_rulings,
)


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
        yield from extreme_vectors(reading.preset, base)
    search = deals if reading.name == "default" else deals[:1]
    found = illegal_search(search)
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
            if name.startswith("limit-"):
                extra = (*extra, "R-REC-LIMITS")
            if name.startswith("format-"):
                extra = (*extra, "R-REC-FORMAT")
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


def extreme_entries(preset_name: str) -> list[JsonObject]:
    """The extremal deals of one preset (``comet_proofs/witnesses/extremes.json``, written by ``comet bounds``:
    the longest deal, the most paid, collected, lost, won or scored, per player count; spec/extremes.md), each
    with its record."""
    import importlib.resources

    root = importlib.resources.files("comet_proofs") / "witnesses"
    index = root / "extremes.json"
    if not index.is_file():
        return []
    out: list[JsonObject] = []
    for e in json.loads(index.read_text(encoding="utf-8"))["deals"]:
        if e["preset"] != preset_name:
            continue
        trace = json.loads((root / str(e["file"])).read_text(encoding="utf-8"))
        out.append({**e, "record": trace["#meta"]["record"]})
    return out


def extreme_vectors(preset_name: str, base: str) -> Iterator[VectorFile]:
    """The extremal deals as a replay case and an ITF trace each (issue 37: the deals that reach the bounds
    become vectors): ``replay/extreme-<file>.json`` and ``trace/extreme-<file>.itf.json``, named after the
    shipped file (e.g. ``longest-3p``)."""
    for e in extreme_entries(preset_name):
        name = str(e["file"]).rsplit("/", 1)[-1].removesuffix(".itf.json")
        rec = loads_record(json.dumps(e["record"]))
        start = rec.start()
        actions = rec.actions
        rules = tuple(sorted(deal_case_rules(start, actions)))
        desc = f"extremal deal, {e['quantity']} {e['value']} at {e['players']} players ({e['found_by']})"
        yield VectorFile(
            f"{base}/replay/extreme-{name}.json",
            "replay",
            case_text({"record": rec.to_json(), "expected": replay_record(rec).to_json(), "exit": 0}),
            rules,
            desc,
        )
        trace = deal_trace(start, actions, "comet vectors", f"{preset_name} extremal deal {name}")
        trace_meta = trace["#meta"]
        assert isinstance(trace_meta, dict)
        trace_meta["record"] = rec.to_json()
        yield VectorFile(f"{base}/trace/extreme-{name}.itf.json", "trace", dump_itf(trace), rules, desc)


def _put(out_dir: Path, f: VectorFile, preset: str, reading: str) -> JsonObject:
    """Write one vector file under ``out_dir``; its ``index.json`` entry."""
    path = out_dir / f.path
    path.parent.mkdir(parents=True, exist_ok=True)
    data = f.text.encode("utf-8")
    path.write_bytes(data)
    return {
        "path": f.path,
        "kind": f.kind,
        "sha256": hashlib.sha256(data).hexdigest(),
        "preset": preset,
        "reading": reading,
        "rules": list(f.rules),
        "description": f.description,
    }


def write_vectors(
    out_dir: Path, presets: Sequence[str] | None = None, on_reading: Callable[[Reading], None] | None = None
) -> list[str]:
    """Write every vector file and ``index.json`` under ``out_dir``; returns the relative paths written."""
    index: list[JsonValue] = []
    written: list[str] = []
    for reading in all_readings(presets):
        for f in reading_vectors(reading):
            index.append(_put(out_dir, f, reading.preset, reading.name))
            written.append(f.path)
        if on_reading is not None:
            on_reading(reading)
    for game_reading in all_game_readings(None if presets is None else list(presets)):
        for g in reading_game_vectors(game_reading):
            index.append(_put(out_dir, g, game_reading.preset, game_reading.name))
            written.append(g.path)
        if on_reading is not None:
            on_reading(Reading(game_reading.preset, f"{game_reading.name} (games)", game_reading.rules))
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
    remove_stale(out_dir, sorted(PRESETS) if presets is None else sorted(presets), set(written))
    return written


def remove_stale(out_dir: Path, presets: Sequence[str], written: set[str]) -> list[str]:
    """Delete the files under the presets' folders of ``out_dir`` that this run did not write (a reading or
    case no longer produced), then the folders left empty; returns the relative paths deleted.  Other
    presets' folders and files outside the preset folders are left alone."""
    removed: list[str] = []
    for name in presets:
        folder = out_dir / name
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(out_dir).as_posix()
            if path.is_file() and rel not in written:
                path.unlink()
                removed.append(rel)
        for path in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
            if not any(path.iterdir()):
                path.rmdir()
    return removed
