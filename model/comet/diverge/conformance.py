"""Discriminating conformance vectors: each stored deal witness replayed under each of its two readings.

``divergence_files()`` yields ``(path, kind, text)`` for ``comet vectors`` (kind ``divergence``)::

    <preset>/divergence/<field>/<reading>.json   {"record", "expected", "exit", "reading", "witness_of"}

``record`` carries the reading in its ``rulings``; ``expected`` is what ``comet replay`` answers (exit 0
legal, 1 illegal) or, for a deal one reading refuses, ``{"kind": ...}`` (exit 2); in a points game
``"points"`` lists each seat's points (the deal's, or those scored so far while it goes on).  An
implementation that ignores the reading gets the pair's vectors wrong (``tests/test_diverge_vectors.py``).
A witness that is a whole game, or a shuffle dealt differently (``dealt``), cannot be written as a deal
record.  ``write_divergence_vectors(out_dir)`` writes the files and returns their ``index.json`` entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from comet.diverge.pairs import value_text
from comet.diverge.store import load, pair_for
from comet.engine import apply, deal_points, explicit_deal
from comet.errors import IllegalAction, RecordError
from comet.record import DealRecord, JsonObject, JsonValue, Verdict, parse_record, replay_record
from comet.ruleset import Ruleset
from comet.state import DealState


def with_rulings(record: JsonObject, rules: Ruleset, preset_rules: Ruleset) -> JsonObject:
    """``record`` with its ``rulings`` set to how ``rules`` differ from the preset's."""
    diff = rules.differences(preset_rules)
    rulings: dict[str, JsonValue] = {}
    for k in sorted(diff):
        v = diff[k]
        assert isinstance(v, bool | int | str)
        rulings[k] = v
    return {**record, "rulings": rulings}


def verdict(record: JsonObject, rules: Ruleset | None = None) -> tuple[JsonObject, int]:
    """(expected output, exit code) of replaying ``record``, under its own rulings or under ``rules``."""
    try:
        rec = parse_record(record)
        if rules is None:
            start = rec.start()
        else:
            start = explicit_deal(rules, rec.players, rec.dealer, rec.hands, rec.dead, rec.comet_value)
        v = replay_record(rec) if rules is None else _replay_from(rec, start)
    except RecordError as e:
        return {"kind": e.kind}, 2
    out = v.to_json()
    if v.legal and v.final.terminal and any(deal_points(v.final)):
        out["points"] = list(deal_points(v.final))
    elif v.legal and not v.final.terminal and any(v.final.scores):
        out["points"] = list(v.final.scores)
    return out, 0 if v.legal else 1


def _replay_from(rec: DealRecord, start: DealState) -> Verdict:
    """``replay_record`` from a given start (the record's deal under other rules)."""
    s = start
    for i, a in enumerate(rec.actions):
        try:
            s = apply(s, a)
        except IllegalAction as e:
            return Verdict(rec, start, s, i, e)
    return Verdict(rec, start, s, len(rec.actions))


def divergence_cases(presets: Sequence[str] | None = None) -> Iterator[tuple[str, str, str, JsonObject]]:
    """(preset, field, reading name, case) for both readings of every stored deal witness with a record."""
    from comet.presets import preset

    for key, e in sorted(load().items()):
        if not e.get("found") or e.get("level") != "deal" or e.get("kind") == "dealt":
            continue
        if presets is not None and e.get("preset") not in presets:
            continue
        pair = pair_for(e)
        base = preset(pair.preset).rules
        rec = e["record"]
        assert isinstance(rec, dict)
        for rules, value in ((pair.a, pair.value_a), (pair.b, pair.value_b)):
            r = with_rulings(rec, rules, base)
            expected, code = verdict(r)
            reading = f"{pair.field}={value_text(value)}"
            case: JsonObject = {"record": r, "expected": expected, "exit": code, "reading": reading, "witness_of": key}
            yield pair.preset, pair.field, reading, case


def divergence_files(presets: Sequence[str] | None = None) -> Iterator[tuple[str, str, str]]:
    """(relative path, kind, text) of every divergence vector (for ``comet vectors``)."""
    from comet.vectors import case_text

    for preset_name, field, reading, case in divergence_cases(presets):
        yield f"{preset_name}/divergence/{field}/{reading}.json", "divergence", case_text(case)


def write_divergence_vectors(out_dir: Path, presets: Sequence[str] | None = None) -> list[JsonObject]:
    """Write every divergence vector under ``out_dir``; the ``index.json`` entries for them (kind
    ``divergence``), for ``comet.vectors.write_vectors`` to append to its index."""
    from comet.vectors import case_text

    entries: list[JsonObject] = []
    for preset_name, field, reading, case in divergence_cases(presets):
        rel = f"{preset_name}/divergence/{field}/{reading}.json"
        data = case_text(case).encode("utf-8")
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        expected = case["expected"]
        assert isinstance(expected, dict)
        error = expected.get("error")
        rules: list[JsonValue] = [error["rule"]] if isinstance(error, dict) and "rule" in error else []
        entries.append(
            {
                "path": rel,
                "kind": "divergence",
                "sha256": hashlib.sha256(data).hexdigest(),
                "preset": preset_name,
                "reading": reading,
                "rules": rules,
                "description": f"the witness where {case['witness_of']} parts from the default, replayed under {reading}",
            }
        )
    return entries
