"""Saved impact results, so ``comet diverge --all --out DIR`` is resumable and incremental.

Each reading pair is measured at each of its player counts as one *unit* (``comet.diverge.study.Job``
with one pair), and within it each player (policy) on its own: when a unit finishes, the sums of each of
its policies are written to ``DIR/results/<preset>--<field>=<value>-<n>p.json``, each with its *key*: every
parameter that changes that policy's figures (the pair, the player count, the policy, its paired deals, the
whole games and how a paired game is played (``comet.diverge.measure.GAME_PAIRING``), the engine that
plays it, the PIMC player's samples, and a digest of the rule sets of both
sides, so a ruling whose readings or defaults change is measured afresh).  A later run reads every policy
saved under the same key instead of playing it again and measures only the rest: an added policy, or a
policy with another number of deals (``--pimc-deals`` raised, say), costs only that policy.  A policy whose
saved key differs (or whose file is missing or unreadable) is measured again and its entry rewritten.  The
figures are integer sums (``comet.diverge.measure``), so a saved policy is exactly what the same policy
measured now would give; the report is rendered from all units of the run, saved or fresh.

Files written by the first version (one key for the whole unit) are read too, split by policy.  Files are
written whole under a temporary name and renamed, so an interrupted run leaves no partial file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

from comet.diverge.measure import GAME_PAIRING, GamePaired, Paired
from comet.diverge.pairs import Pair
from comet.diverge.study import Job, Measured
from comet.records.deal_record import JsonObject, JsonValue
from comet.ruleset import Ruleset
from comet.variant import variant_of

#: bump when the meaning of a saved figure changes (a new field of ``Paired``, a changed policy...)
FORMAT = 2


def rules_digest(rules: Ruleset) -> str:
    """A short digest of the variant and every reading its family reads (``Variant.reads``).

    Fields the family does not read are at their defaults by construction (``Ruleset.with_overrides``
    refuses them) and cannot change its figures, so a ruling added for another game leaves this game's
    saved units valid, while a new field of this game, a changed default or a changed reading of a field
    it reads changes the digest."""
    names = ("variant", *sorted(variant_of(rules).reads))
    text = ";".join(f"{name}={getattr(rules, name)!r}" for name in names)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _one(job: Job) -> tuple[Pair, int, int, tuple[tuple[str, int], ...]]:
    if len(job.pairs) != 1:
        raise ValueError("a saved unit is one pair at one player count")
    return job.pairs[0][1], job.deals[0], job.games[0], job.extra[0]


def policies_of(job: Job) -> list[tuple[str, int]]:
    """The policies of a one-pair job in the report's column order, each with its paired deals."""
    _, deals, _, extra = _one(job)
    return [*((p, deals) for p in job.policies), *extra]


def policy_key(pair: Pair, players: int, policy: str, deals: int, games: int, engine: str) -> JsonObject:
    """The key of one policy's figures in a unit (see the module note); ``engine`` plays the policy."""
    from comet.diverge.pimc import samples_for

    key: JsonObject = {
        "format": FORMAT,
        "pair": pair.key,
        "players": players,
        "policy": policy,
        "deals": deals,
        "games": games,
        "engine": engine,
        "rules_a": rules_digest(pair.a),
        "rules_b": rules_digest(pair.b),
    }
    if policy == "pimc":
        key["samples"] = samples_for(pair.a)  # a game's own number (GAME_SAMPLES) re-measures only its units
    if games:  # whole games are played only for a game-level ruling: its units, and no others, carry how
        key["game_pairing"] = GAME_PAIRING  # a paired game is played (a coupled deal stream since 2)
    return key


def policy_engine(pair: Pair, policy: str, engine: str) -> str:
    """The engine that plays ``policy`` in a unit whose plain policies ``engine`` plays."""
    from comet.diverge.study import fast_pimc_plays

    if policy == "pimc":
        return "fast" if engine == "fast" and fast_pimc_plays(pair) else "reference"
    return engine


def unit_keys(job: Job, engine: str) -> list[tuple[str, JsonObject]]:
    """Each policy of a one-pair job with its key, in the report's column order."""
    pair, _, games, _ = _one(job)
    return [
        (p, policy_key(pair, job.players, p, n, games, policy_engine(pair, p, engine))) for p, n in policies_of(job)
    ]


def unit_path(out_dir: Path, pair: Pair, players: int) -> Path:
    """``DIR/results/<preset>--<field>=<value>-<n>p.json``."""
    return out_dir / "results" / f"{pair.key.replace('/', '--')}-{players}p.json"


#: one saved policy: its key, and its paired deal sums and paired game sums (each may be absent)
Entry = tuple[JsonObject, Paired | None, GamePaired | None]


def split(job: Job, engine: str, saved: dict[str, Entry]) -> tuple[dict[str, Entry], Job | None]:
    """The policies of ``job`` saved under their keys, and the job that measures the others (None: none)."""
    have: dict[str, Entry] = {}
    missing: list[tuple[str, int]] = []
    for (p, key), (_, n) in zip(unit_keys(job, engine), policies_of(job), strict=True):
        got = saved.get(p)
        if got is not None and got[0] == key:
            have[p] = got
        else:
            missing.append((p, n))
    if not missing:
        return have, None
    common = tuple(p for p in job.policies if any(p == q for q, _ in missing))
    extra = tuple((p, n) for p, n in job.extra[0] if any(p == q for q, _ in missing))
    return have, dataclasses.replace(job, policies=common, extra=(extra,))


def entries_of(job: Job, engine: str, m: Measured) -> dict[str, Entry]:
    """The policies of ``job`` as saved entries, from ``m`` (what running ``job`` measured; a policy that
    plays nothing at this player count, a game-level ruling's deals say, is saved with no sums)."""
    return {p: (key, m.deals.get(p), m.games.get(p)) for p, key in unit_keys(job, engine)}


def merged(job: Job, engine: str, entries: dict[str, Entry]) -> Measured:
    """The unit's ``Measured`` from its policies' entries, in the report's column order."""
    deals: dict[str, Paired] = {}
    games: dict[str, GamePaired] = {}
    pimc_engine = ""
    for p, key in unit_keys(job, engine):
        e = entries.get(p)
        if e is None or e[0] != key:
            raise ValueError(f"policy {p} of the unit is neither saved nor measured")
        if e[1] is not None:
            deals[p] = e[1]
            if p == "pimc":
                pimc_engine = str(key["engine"])
        if e[2] is not None:
            games[p] = e[2]
    return Measured(job.players, deals, games, engine, pimc_engine)


def save_entries(path: Path, entries: dict[str, Entry]) -> None:
    """Write a unit's saved policies (whole, or not at all)."""
    rows: list[JsonValue] = []
    for p in sorted(entries):
        key, deals, games = entries[p]
        rows.append(
            {
                "key": key,
                "deals": None if deals is None else _paired_json(deals),
                "games": None if games is None else _paired_json(games),
            }
        )
    _write(path, {"format": FORMAT, "policies": rows})


def load_entries(path: Path) -> dict[str, Entry]:
    """A unit's saved policies by name (empty if missing or unreadable); reads the first version's files."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(body, dict):
            return {}
        if "policies" in body:
            out: dict[str, Entry] = {}
            rows = body["policies"]
            if not isinstance(rows, list):
                return {}
            for row in rows:
                if not isinstance(row, dict) or not isinstance(row.get("key"), dict):
                    continue
                key = row["key"]
                assert isinstance(key, dict)
                deals, games = row.get("deals"), row.get("games")
                out[str(key["policy"])] = (
                    key,
                    None if deals is None else _paired_of(deals),
                    None if games is None else _games_of(games),
                )
            return out
        return _first_version(body)
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _first_version(body: JsonObject) -> dict[str, Entry]:
    """Entries from a file of the first version: one key for the whole unit and its ``Measured``."""
    key, m = body.get("key"), body.get("measured")
    if not isinstance(key, dict) or not isinstance(m, dict):
        return {}
    measured = measured_of(m)
    deals, games, extra = key["deals"], key["games"], key["extra"]
    policies = key["policies"]
    if not isinstance(deals, int) or not isinstance(games, int):
        return {}
    sizes: dict[str, int] = {str(p): deals for p in policies} if isinstance(policies, list) else {}
    if isinstance(extra, list):
        for row in extra:
            if isinstance(row, list) and len(row) == 2 and isinstance(row[1], int):
                sizes[str(row[0])] = row[1]
    out: dict[str, Entry] = {}
    for p, n in sizes.items():
        if p not in measured.deals and p not in measured.games:
            continue
        engine = str(key.get("pimc_engine", "reference")) if p == "pimc" else str(key["engine"])
        new: JsonObject = {
            "format": key["format"],
            "pair": key["pair"],
            "players": key["players"],
            "policy": p,
            "deals": n,
            "games": games,
            "engine": engine,
            "rules_a": key["rules_a"],
            "rules_b": key["rules_b"],
        }
        if p == "pimc":
            new["samples"] = key.get("pimc_samples")
        out[p] = (new, measured.deals.get(p), measured.games.get(p))
    return out


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


def _write(path: Path, body: JsonObject) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def save_json(path: Path, key: JsonObject, value: JsonObject) -> None:
    """Any other saved result (the PIMC strength rows): its key and value, written whole."""
    _write(path, {"key": key, "value": value})


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
