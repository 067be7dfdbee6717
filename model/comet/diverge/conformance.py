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
a deal's points once it is finished (``deal_points``, 0 before, spec/record.md): a witness that differs
only in points scored during an unfinished deal (``commit_comet_king``'s single action) is written as its
vector played on to the deal's end (``played_on``: the same actions under both readings, chosen by
``simple_policy`` among those both allow), where its points show.  A witness that is a whole game, or a
shuffle dealt differently (``dealt``), cannot be written as a deal record.  ``write_divergence_vectors(out_dir)`` writes the files and returns their
``index.json`` entries.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.diverge.pairs import Pair, value_text
from comet.diverge.store import load, pair_for
from comet.engine import apply, deal_points, explicit_deal, legal_actions
from comet.errors import RecordError
from comet.policy import simple_policy
from comet.presets import preset
from comet.records.deal_record import JsonObject, JsonValue, Verdict, parse_record, replay_from, state_summary
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


#: the most actions ``played_on`` adds (a deal of eight players holds fewer than 500 cards)
PLAY_ON_LIMIT = 2_000


def played_on(pair: Pair, record: JsonObject) -> tuple[JsonObject, int]:
    """``record`` (a deal record under reading A) as the pair's vector, and the actions added to it.

    Unchanged where the two readings' replay outputs differ.  Where they agree although the witness parts
    the readings (only the points scored during play differ, which the output shows once the deal is
    finished: spec/record.md, ``points``), the deal is played on: at each step ``simple_policy`` chooses
    among the actions both readings allow, until a replay output differs (at the latest when the deal
    ends and its points are settled) or the readings allow nothing in common.  The record returned may
    still replay alike under both (then ``divergence_cases`` flags it ``points_only``)."""
    base = preset(pair.preset).rules
    ra, rb = with_rulings(record, pair.a, base), with_rulings(record, pair.b, base)
    va, vb = _replay(ra, None), _replay(rb, None)
    if not isinstance(va, Verdict) or not isinstance(vb, Verdict) or not (va.legal and vb.legal):
        return record, 0
    sa, sb = va.final, vb.final
    added: list[str] = []
    while state_summary(sa) == state_summary(sb) and not sa.terminal and len(added) < PLAY_ON_LIMIT:
        allowed_b = set(legal_actions(sb))
        both = [a for a in legal_actions(sa) if a in allowed_b]
        if not both:
            break
        a = simple_policy(sa, both)
        sa, sb = apply(sa, a), apply(sb, a)
        added.append(str(a))
    if not added:
        return record, 0
    actions = record["actions"]
    assert isinstance(actions, list)
    return {**record, "actions": [*actions, *added]}, len(added)


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
    played_on: int = 0  # actions added after the witness's own (``played_on``)

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
        assert isinstance(e["record"], dict)
        rec, added = played_on(pair, e["record"])
        name = f"divergence-{pair.field}={value_text(pair.value_b)}"
        verdicts = {}
        for side, rules in (("a", pair.a), ("b", pair.b)):
            r = with_rulings(rec, rules, base)
            verdicts[side] = (r, *verdict(r))
        points_only = verdicts["a"][1:] == verdicts["b"][1:]
        for side, reading in (("a", "default"), ("b", f"{pair.field}={value_text(pair.value_b)}")):
            r, expected, code = verdicts[side]
            yield Case(pair.preset, pair.field, reading, key, name, r, expected, code, points_only, added)


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
        played = (
            f", played on by {case.played_on} action(s) to where the replay outputs differ (the witness alone "
            "differs only in points scored during play)"
            if case.played_on
            else ""
        )
        entries.append(
            {
                "path": case.path,
                "kind": case.kind,
                "sha256": hashlib.sha256(data).hexdigest(),
                "preset": case.preset,
                "reading": case.reading,
                "rules": rules,
                "description": f"divergence witness ({case.witness_of}): a deal where this reading and {other} "
                f"part ways, replayed under this reading{played}",
            }
        )
    return entries
