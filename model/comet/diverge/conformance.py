"""Discriminating conformance vectors: each stored deal witness replayed under each of its two readings.

The vectors use the layout and case format of ``comet.vectors`` (spec/vectors.md), so any consumer of
the replay, illegal and malformed vectors reads them unchanged::

    <preset>/<reading>/<kind>/divergence-<field>=<value>.json

``<reading>`` is ``default`` (reading A) or ``<field>=<value>`` (reading B), and the record's
``rulings`` select it; ``<kind>`` is ``replay`` (exit 0), ``illegal`` (exit 1) or ``malformed`` (exit 2:
the deal is not a legal deal under that reading); the case is ``{"record", "expected", "exit"}`` (or
``{"input", "expected": {"kind"}, "exit": 2}``) with what ``comet replay`` answers.  An implementation
that ignores the reading gets the pair's vectors wrong (``tests/test_diverge_vectors.py``); that holds for
readings that differ only in a points game's scores too, since the replay output carries ``points``
(``points_only`` would flag a pair whose verdicts agree, and the tests require there be none).  Those are
a deal's points once it is finished (``deal_points``, 0 before): a witness that differs only in points
scored during an unfinished deal could not be told apart, so such a pair keeps a whole-deal witness (as
``commit_comet_king`` does).  A witness that is a whole game, or a shuffle dealt differently (``dealt``), cannot be
written as a deal record.  ``write_divergence_vectors(out_dir)`` writes the files and returns their
``index.json`` entries.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.diverge.pairs import value_text
from comet.diverge.store import load, pair_for
from comet.engine import deal_points, explicit_deal
from comet.errors import RecordError
from comet.presets import preset
from comet.record import JsonObject, JsonValue, Verdict, parse_record, replay_from
from comet.ruleset import Ruleset
from comet.vectors.format import case_text

KIND_BY_EXIT = {0: "replay", 1: "illegal", 2: "malformed"}


def with_rulings(record: JsonObject, rules: Ruleset, preset_rules: Ruleset) -> JsonObject:
    """``record`` with its ``rulings`` set to how ``rules`` differ from the preset's."""
    diff = rules.differences(preset_rules)
    rulings: dict[str, JsonValue] = {}
    for k in sorted(diff):
        v = diff[k]
        assert isinstance(v, bool | int | str)
        rulings[k] = v
    return {**record, "rulings": rulings}


def _replay(record: JsonObject, rules: Ruleset | None) -> Verdict | RecordError:
    try:
        rec = parse_record(record)
        start = (
            rec.start()
            if rules is None
            else explicit_deal(rules, rec.players, rec.dealer, rec.hands, rec.dead, rec.comet_value)
        )
    except RecordError as e:
        return e
    return replay_from(rec, start)


def verdict(record: JsonObject, rules: Ruleset | None = None) -> tuple[JsonObject, int]:
    """(``comet replay``'s output, exit code) for ``record``, under its own rulings or under ``rules``."""
    v = _replay(record, rules)
    if isinstance(v, RecordError):
        return {"kind": v.kind}, 2
    return v.to_json(), 0 if v.legal else 1


def points(record: JsonObject, rules: Ruleset | None = None) -> tuple[int, ...]:
    """The points per seat after the record (a finished deal's points, or those scored so far)."""
    v = _replay(record, rules)
    if isinstance(v, RecordError) or not v.legal:
        return ()
    return deal_points(v.final) if v.final.terminal else v.final.scores


@dataclass(frozen=True, slots=True)
class Case:
    """One divergence vector."""

    preset: str
    field: str
    reading: str  # "default" or "field=value" (the directory of comet.vectors)
    witness_of: str  # the pair key, e.g. "standard/comet_lead=forbidden"
    name: str  # file name without extension: "divergence-field=value"
    record: JsonObject
    expected: JsonObject
    exit: int
    points_only: bool  # the two readings differ only in points the replay output does not show

    @property
    def kind(self) -> str:
        return KIND_BY_EXIT[self.exit]

    @property
    def path(self) -> str:
        return f"{self.preset}/{self.reading}/{self.kind}/{self.name}.json"

    def content(self) -> JsonObject:
        if self.exit == 2:
            return {"input": json.dumps(self.record), "expected": self.expected, "exit": 2}
        return {"record": self.record, "expected": self.expected, "exit": self.exit}


def divergence_cases(presets: Sequence[str] | None = None) -> Iterator[Case]:
    """Both readings' vectors of every stored deal witness that is a deal record."""
    for key, e in sorted(load().items()):
        if not e.get("found") or e.get("level") != "deal" or e.get("kind") == "dealt":
            continue
        if presets is not None and e.get("preset") not in presets:
            continue
        pair = pair_for(e)
        base = preset(pair.preset).rules
        rec = e["record"]
        assert isinstance(rec, dict)
        name = f"divergence-{pair.field}={value_text(pair.value_b)}"
        verdicts = {}
        for side, rules in (("a", pair.a), ("b", pair.b)):
            r = with_rulings(rec, rules, base)
            verdicts[side] = (r, *verdict(r))
        points_only = verdicts["a"][1:] == verdicts["b"][1:]
        for side, reading in (("a", "default"), ("b", f"{pair.field}={value_text(pair.value_b)}")):
            r, expected, code = verdicts[side]
            yield Case(pair.preset, pair.field, reading, key, name, r, expected, code, points_only)


def write_divergence_vectors(out_dir: Path, presets: Sequence[str] | None = None) -> list[JsonObject]:
    """Write every divergence vector under ``out_dir``; their ``index.json`` entries (``comet.vectors``)."""
    entries: list[JsonObject] = []
    for case in divergence_cases(presets):
        data = case_text(case.content()).encode("utf-8")
        path = out_dir / case.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        error = case.expected.get("error")
        rules: list[JsonValue] = [error["rule"]] if isinstance(error, dict) and "rule" in error else []
        other = "the default" if case.reading != "default" else case.name.removeprefix("divergence-")
        entries.append(
            {
                "path": case.path,
                "kind": case.kind,
                "sha256": hashlib.sha256(data).hexdigest(),
                "preset": case.preset,
                "reading": case.reading,
                "rules": rules,
                "description": f"divergence witness ({case.witness_of}): a deal where this reading and {other} "
                "part ways, replayed under this reading",
            }
        )
    return entries
