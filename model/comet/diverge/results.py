"""Saved impact results, so ``comet diverge --all --out DIR`` is resumable and incremental.

Each reading pair is measured at each of its player counts as one *unit* (``comet.diverge.study.Job``
with one pair).  When a unit finishes, its ``Measured`` sums are written to
``DIR/results/<preset>--<field>=<value>-<n>p.json`` together with the unit's *key*: every parameter that
changes the figures (the pair, the player count, the deals per policy, the whole games, the policies and
the extra policies with their own number of deals, the engine that plays them, the PIMC player's samples
and engine, and a digest of the rule sets of both sides, so a ruling whose readings or defaults change is
measured afresh).  A later run with the same parameters reads the saved unit instead of playing it again;
a unit whose saved key differs (or whose file is missing or unreadable) is measured again and its file
rewritten.  The figures are integer sums (``comet.diverge.measure``), so a saved unit is exactly what the
same unit measured now would give; the report is rendered from all units of the run, saved or fresh.

Files are written whole under a temporary name and renamed, so an interrupted run leaves no partial file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

from comet.diverge.measure import GamePaired, Paired
from comet.diverge.pairs import Pair
from comet.diverge.study import Job, Measured
from comet.record import JsonObject, JsonValue
from comet.ruleset import Ruleset
from comet.variant import variant_of

#: bump when the meaning of a saved figure changes (a new field of ``Paired``, a changed policy...)
FORMAT = 3


def rules_digest(rules: Ruleset) -> str:
    """A short digest of the variant and every reading its family reads (``Variant.reads``).

    Fields the family does not read are at their defaults by construction (``Ruleset.with_overrides``
    refuses them) and cannot change its figures, so a ruling added for another game leaves this game's
    saved units valid, while a new field of this game, a changed default or a changed reading of a field
    it reads changes the digest."""
    names = ("variant", *sorted(variant_of(rules).reads))
    text = ";".join(f"{name}={getattr(rules, name)!r}" for name in names)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def unit_key(job: Job, engine: str) -> JsonObject:
    """The key of a one-pair job: every parameter that changes its figures (see the module note)."""
    from comet.diverge.pimc import SAMPLES

    if len(job.pairs) != 1:
        raise ValueError("a saved unit is one pair at one player count")
    (_, pair), deals, games, extra = job.pairs[0], job.deals[0], job.games[0], job.extra[0]
    key: JsonObject = {
        "format": FORMAT,
        "pair": pair.key,
        "players": job.players,
        "deals": deals,
        "games": games,
        "policies": list(job.policies),
        "extra": [[p, n] for p, n in extra],
        "engine": engine,
        "rules_a": rules_digest(pair.a),
        "rules_b": rules_digest(pair.b),
    }
    if any(p == "pimc" for p, _ in extra) or "pimc" in job.policies:
        from comet.diverge.study import fast_pimc_plays

        key["pimc_samples"] = SAMPLES
        key["pimc_engine"] = "fast" if engine == "fast" and fast_pimc_plays(pair) else "reference"
    return key


def unit_path(out_dir: Path, pair: Pair, players: int) -> Path:
    """``DIR/results/<preset>--<field>=<value>-<n>p.json``."""
    return out_dir / "results" / f"{pair.key.replace('/', '--')}-{players}p.json"


def _paired_json(p: Paired | GamePaired) -> JsonObject:
    out: JsonObject = {}
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def _ints(v: JsonValue) -> int | tuple[int, ...]:
    if isinstance(v, list):
        return tuple(int(x) for x in v if isinstance(x, int))
    if isinstance(v, int):
        return v
    raise ValueError("not an integer sum")


def _paired_of(d: JsonValue) -> Paired:
    if not isinstance(d, dict):
        raise ValueError("not a sum")
    return Paired(**{f.name: _ints(d[f.name]) for f in dataclasses.fields(Paired)})  # type: ignore[arg-type]


def _games_of(d: JsonValue) -> GamePaired:
    if not isinstance(d, dict):
        raise ValueError("not a sum")
    return GamePaired(**{f.name: _ints(d[f.name]) for f in dataclasses.fields(GamePaired)})  # type: ignore[arg-type]


def measured_json(m: Measured) -> JsonObject:
    return {
        "players": m.players,
        "engine": m.engine,
        "pimc_engine": m.pimc_engine,
        # lists of [policy, sums], not objects: the policies' order is the report's column order
        "deals": [[p, _paired_json(t)] for p, t in m.deals.items()],
        "games": [[p, _paired_json(g)] for p, g in m.games.items()],
    }


def measured_of(d: JsonObject) -> Measured:
    deals, games, players = d["deals"], d["games"], d["players"]
    if not isinstance(deals, list) or not isinstance(games, list) or not isinstance(players, int):
        raise ValueError("not a saved measurement")
    return Measured(
        players,
        {str(p): _paired_of(t) for p, t in _items(deals)},
        {str(p): _games_of(g) for p, g in _items(games)},
        str(d["engine"]),
        str(d.get("pimc_engine", "")),
    )


def _items(rows: list[JsonValue]) -> list[tuple[JsonValue, JsonValue]]:
    out = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 2:
            raise ValueError("not a [policy, sums] row")
        out.append((row[0], row[1]))
    return out


def save_unit(path: Path, key: JsonObject, m: Measured) -> None:
    """Write one unit's key and sums (whole, or not at all)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body: JsonObject = {"key": key, "measured": measured_json(m)}
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_unit(path: Path, key: JsonObject) -> Measured | None:
    """The saved sums at ``path`` if they were measured with exactly ``key``, else None."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(body, dict) or body.get("key") != key:
            return None
        m = body["measured"]
        return measured_of(m) if isinstance(m, dict) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_json(path: Path, key: JsonObject, value: JsonObject) -> None:
    """Any other saved result (the PIMC strength rows): its key and value, written whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"key": key, "value": value}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_json(path: Path, key: JsonObject) -> JsonObject | None:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict) or body.get("key") != key or not isinstance(body.get("value"), dict):
        return None
    value = body["value"]
    assert isinstance(value, dict)
    return value
