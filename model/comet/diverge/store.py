"""Witnesses as JSON: written by ``comet diverge --all --update``, read by ``comet vectors`` and the tests.

The file ``comet/diverge/witnesses.json`` keeps, per reading pair, the witness found (as a deal record
under reading A, or the seeded game), the bound searched and what was tried.  Replaying a stored witness
is cheap, so the vectors and the tests never search; ``tests/test_diverge_vectors.py`` checks every
stored witness still parts the readings and that every pair of every preset has an entry.
"""

from __future__ import annotations

import json
from pathlib import Path

from comet.diverge.pairs import Pair, all_pairs
from comet.diverge.records import Proof, Search, Witness
from comet.presets import preset
from comet.records.deal_record import DealRecord, JsonObject, JsonValue, parse_record, record_from_state
from comet.ruleset import Ruleset

STORE = Path(__file__).with_name("witnesses.json")


def entry(search: Search) -> JsonObject:
    """One pair's search result as JSON."""
    p = search.pair
    out: JsonObject = {
        "key": p.key,
        "preset": p.preset,
        "field": p.field,
        "a": _jsonable(p.value_a),
        "b": _jsonable(p.value_b),
        "found": search.witness is not None,
        "bound": search.bound,
        "deals_tried": search.deals_tried,
        "games_tried": search.games_tried,
        "notes": list(search.notes),
    }
    if search.proof is not None:
        pr = search.proof
        proof: JsonObject = {
            "method": pr.method,
            "proved": pr.proved,
            "text": pr.text,
            "needs": pr.needs,
            "size": list(pr.size),
            "over": list(pr.over),
        }
        if pr.within:
            proof["within"] = list(pr.within)
        out["proof"] = proof
    w = search.witness
    if w is None:
        return out
    out.update({"level": w.level, "kind": w.kind, "detail": w.detail, "origin": w.origin})
    if w.level == "deal":
        start = w.start(p.a)
        out["step"] = w.step
        out["record"] = record_from_state(start, p.preset, w.actions).to_json()
    else:
        game: JsonObject = {"players": w.players, "deals": w.game_deals, "seed": w.game_seed, "policy": w.game_policy}
        if w.game_record:
            built = json.loads(w.game_record)
            assert isinstance(built, dict)
            game["record"] = built
        out["game"] = game
    return out


def _jsonable(value: object) -> JsonValue:
    assert isinstance(value, bool | int | str) or value is None
    return value


def witness_of(e: JsonObject) -> Witness | None:
    """The stored witness (None when none was found)."""
    if not e.get("found"):
        return None
    level = str(e["level"])
    if level == "deal":
        rec = parse_record(e["record"])
        step = e["step"]
        assert isinstance(step, int)
        return Witness(
            "deal",
            str(e["kind"]),
            str(e["detail"]),
            rec.players,
            rec.dealer,
            _pack_name(rec),
            rec.comet_value or 0,
            rec.hands,
            rec.dead,
            rec.actions,
            step,
            str(e["origin"]),
        )
    g = e["game"]
    assert isinstance(g, dict)
    players, deals, seed = g["players"], g["deals"], g["seed"]
    assert isinstance(players, int) and isinstance(deals, int) and isinstance(seed, int)
    return Witness(
        "game",
        str(e["kind"]),
        str(e["detail"]),
        players,
        origin=str(e["origin"]),
        game_seed=seed,
        game_deals=deals,
        game_policy=str(g["policy"]),
        game_record=json.dumps(g["record"], sort_keys=True) if "record" in g else "",
    )


def _pack_name(rec: object) -> str:
    assert isinstance(rec, DealRecord)
    try:
        return rec.start().pack
    except ValueError:
        return ""


def load(path: Path = STORE) -> dict[str, JsonObject]:
    """Stored entries by pair key (empty if the file does not exist)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    entries = data["entries"]
    assert isinstance(entries, list)
    return {str(e["key"]): e for e in entries if isinstance(e, dict)}


def save(entries: dict[str, JsonObject], path: Path = STORE) -> None:
    """Write the entries sorted by key, one per line group (deterministic)."""
    body: JsonObject = {
        "format": 1,
        "generator": "comet diverge --all --update",
        "entries": [entries[k] for k in sorted(entries)],
    }
    path.write_text(json.dumps(body, indent=1, sort_keys=True, ensure_ascii=True) + "\n", encoding="utf-8")


def pair_for(e: JsonObject) -> Pair:
    """The reading pair an entry was made for (the preset's default against the stored reading)."""
    base: Ruleset = preset(str(e["preset"])).rules
    field = str(e["field"])
    return Pair(str(e["preset"]), field, base, base.with_overrides({field: e["b"]}))


def missing(entries: dict[str, JsonObject]) -> list[str]:
    """Keys of reading pairs (of every field, in every preset it applies to) without a stored entry."""
    return [p.key for p in all_pairs() if p.key not in entries]


def search_of(pair: Pair, e: JsonObject) -> Search:
    """The stored search result of ``pair`` (as ``witness.search`` would return it)."""
    notes = e.get("notes", [])
    deals, games = e.get("deals_tried", 0), e.get("games_tried", 0)
    return Search(
        pair,
        witness_of(e),
        str(e.get("bound", "")),
        deals if isinstance(deals, int) else 0,
        games if isinstance(games, int) else 0,
        0.0,
        tuple(str(n) for n in notes) if isinstance(notes, list) else (),
        proof_of(e),
    )


def proof_of(e: JsonObject) -> Proof | None:
    """The stored proof of the witness's size ("not proved" for an entry stored before proofs were kept)."""
    pr = e.get("proof")
    if not isinstance(pr, dict):
        # an entry searched before sizes were proved claims nothing about its size
        return Proof("none", False, "not proved (searched before size proofs were kept; `--search` proves afresh)")
    size = pr.get("size", [0, 0, 0])
    parts = [x for x in size if isinstance(x, int)] if isinstance(size, list) else []
    three = (parts[0], parts[1], parts[2]) if len(parts) == 3 else (0, 0, 0)
    over = pr.get("over", [])
    within = pr.get("within", [])
    return Proof(
        str(pr.get("method", "none")),
        bool(pr.get("proved")),
        str(pr.get("text", "")),
        str(pr.get("needs", "")),
        three,
        tuple(str(x) for x in over) if isinstance(over, list) else (),
        tuple(x for x in within if isinstance(x, int)) if isinstance(within, list) else (),
    )
