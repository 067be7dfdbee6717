"""The record contract per preset (spec/record.md, "The record contract per preset"; issue 34 point 14):
every pack name, legal action form, illegal-action rule id and payment rule id that the vectors show is
defined in the spec's table for its preset, the default Comet value is the model's, and every rule id the
vectors name has a section in spec/ (R-REC-ILLEGAL-PRECEDENCE, R-REC-PAYMENTS, R-PACK-BLACK,
R-PACK-RED, R-RED9-DECK, R-COMMIT-C-DECK)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from comet.presets import PRESETS, preset
from comet.variant import variant_of

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
RECORD_MD = (ROOT / "spec" / "record.md").read_text(encoding="utf-8")


@cache
def table() -> dict[str, dict[str, str]]:
    """preset -> column -> cell, with 'as `standard`' resolved."""
    body = RECORD_MD.split("<!-- presets:begin -->")[1].split("<!-- presets:end -->")[0].strip().splitlines()
    names = ["preset", "packs", "comet_value", "forms", "illegal", "payments"]
    rows: dict[str, dict[str, str]] = {}
    for line in body[2:]:
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        row = dict(zip(names, cells, strict=True))
        for k, v in row.items():
            m = re.fullmatch(r"as `(\w+)`", v)
            if m:
                row[k] = rows[m.group(1)][k]
        rows[row["preset"].strip("`")] = row
    return rows


def ids(cell: str) -> set[str]:
    return set(re.findall(r"R-[A-Z0-9-]+", cell))


def forms(cell: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", cell))


def form_of(action: str) -> str:
    """An action's form: pass, play CARD, play CARD as RANK, play CARD CARD…, play CARD CARD… as RANK."""
    if action == "pass":
        return "pass"
    words = action.split()[1:]
    with_as = len(words) >= 2 and words[-2] == "as"
    cards = words[:-2] if with_as else words
    return ("play CARD" if len(cards) == 1 else "play CARD CARD…") + (" as RANK" if with_as else "")


def _walk(value: Any, key: str) -> Iterator[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from _walk(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v, key)


@cache
def vector_files() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    index = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    out = []
    for entry in index["files"]:
        if entry["kind"] in ("replay", "illegal", "game"):
            out.append((entry, json.loads((VECTORS / entry["path"]).read_text(encoding="utf-8"))))
    return out


def test_every_preset_has_a_row() -> None:
    assert set(table()) == set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_default_comet_value_is_the_models(name: str) -> None:
    assert int(table()[name]["comet_value"]) == variant_of(preset(name).rules).comet_value


def problems() -> list[str]:
    """Everything the vectors show that the table does not define."""
    out: set[str] = set()
    for entry, case in vector_files():
        row = table()[entry["preset"]]
        pattern = re.compile(row["packs"].strip("`"))
        expected = case.get("expected", {})
        for key in ("deck", "pack"):
            for name in _walk(expected, key):
                if isinstance(name, str) and not pattern.fullmatch(name):
                    out.add(f"{entry['path']}: pack {name!r} is not a {entry['preset']} pack name in spec/record.md")
        allowed = forms(row["forms"])
        records = [case["record"]] if "record" in case and "deals" not in case["record"] else []
        if "record" in case and "deals" in case["record"]:
            records = [d["record"] for d in case["record"]["deals"] if "record" in d]
        for rec in records:
            actions = rec["actions"][:-1] if entry["kind"] == "illegal" else rec["actions"]
            for a in [*actions, *_legal(expected)]:
                if form_of(a) not in allowed:
                    out.add(f"{entry['path']}: {a!r} ({form_of(a)}) is not a {entry['preset']} form")
        error = expected.get("error")
        wrong = isinstance(error, dict) and error["rule"] not in ids(row["illegal"])
        if entry["kind"] == "illegal" and wrong:
            out.add(f"{entry['path']}: illegal action rule {error['rule']} not listed for {entry['preset']}")
        for payments in _walk(expected, "payments"):
            for p in payments:
                if p["rule"] not in ids(row["payments"]):
                    out.add(f"{entry['path']}: payment rule {p['rule']} not listed for {entry['preset']}")
    return sorted(out)


def _legal(expected: Any) -> list[str]:
    legal = expected.get("legal_actions") if isinstance(expected, dict) else None
    return list(legal) if isinstance(legal, list) else []


def test_the_vectors_follow_from_the_table() -> None:
    found = problems()
    assert not found, "\n".join(found[:30])


def test_every_rule_id_in_the_vectors_has_a_section() -> None:
    """Every rule id a vector names (errors, payments, rules lists) has a '### R-…' section in spec/."""
    spec = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "spec").glob("rules*.md"))
    defined = set(re.findall(r"^### (R-[A-Z0-9-]+)", spec, re.MULTILINE))
    named: set[str] = set()
    for entry, case in vector_files():
        named |= set(entry["rules"])
        named |= ids(json.dumps(case.get("expected", {})))
    assert named - defined == set()


def test_a_pack_name_missing_from_the_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: red_nines' pattern without the extra suits; the vectors of 5+ players are reported."""
    rows = {k: dict(v) for k, v in table().items()}
    rows["red_nines"]["packs"] = "`^deck52$`"
    monkeypatch.setattr(__import__(__name__), "table", lambda: rows)
    assert any("deck52+H" in p for p in problems())
