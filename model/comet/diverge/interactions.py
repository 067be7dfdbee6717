"""Interactions: pairs of rulings of one preset whose effects depend on each other.

Ruling f's divergence *depends on* ruling g when there is a deal where f's two readings part ways under
one reading of g and not under the other.  Two checks, both cheap:

* f's stored witness replayed with g switched to its other reading: if f's readings no longer part
  there (or the deal is refused), the witness itself shows the dependence;
* a ruling with no witness under the preset's defaults is searched again (a short bound) with g
  switched: if a witness appears, f matters only together with g (as the Opera draw needs the Opera).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comet.diverge.conformance import verdict
from comet.diverge.pairs import Pair, pairs_for, value_text
from comet.diverge.store import load, pair_for
from comet.diverge.witness import Bound, Witness, search
from comet.presets import preset
from comet.record import JsonObject
from comet.ruleset import Ruleset

QUICK = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)


@dataclass(frozen=True, slots=True)
class Interaction:
    preset: str
    key: str  # the reading pair (``Pair.key``) whose divergence depends ...
    field: str
    other: str  # ... on this ruling's reading
    other_value: object
    how: str  # "witness-lost" | "witness-appears"
    witness: Witness | None
    text: str


def _lost(rec: JsonObject, a: Ruleset, b: Ruleset) -> bool:
    """Is ``rec`` a deal under both rule sets on which they nevertheless agree?"""
    va, vb = verdict(rec, a), verdict(rec, b)
    return va[1] != 2 and vb[1] != 2 and va == vb


def check(
    e: JsonObject, g: Pair, bound: Bound = QUICK, stored: dict[str, JsonObject] | None = None
) -> Interaction | None:
    """Does the divergence of the stored entry ``e`` depend on ``g``'s reading (``g.value_b``)?"""
    pair = pair_for(e)
    base = preset(pair.preset).rules
    try:
        a2 = base.with_overrides({g.field: g.value_b})
        b2 = a2.with_overrides({pair.field: pair.value_b})
    except ValueError:
        return None
    label = f"{g.field} = {value_text(g.value_b)}"
    if e.get("found") and e.get("level") == "deal" and e.get("kind") != "dealt":
        rec = e["record"]
        assert isinstance(rec, dict)
        if _lost(rec, a2, b2):
            return Interaction(
                pair.preset,
                pair.key,
                pair.field,
                g.field,
                g.value_b,
                "witness-lost",
                None,
                f"with `{label}` the witness of `{pair.label_b()}` no longer parts the readings",
            )
    elif not e.get("found"):
        # a ruling g that never changes a deal leaves every deal as it was: only games can differ
        g_entry = (load() if stored is None else stored).get(g.key, {})
        g_in_deals = bool(g_entry.get("found")) and g_entry.get("level") == "deal"
        res = search(Pair(pair.preset, pair.field, a2, b2), bound, deals=g_in_deals)
        if res.witness is not None:
            w = res.witness
            return Interaction(
                pair.preset,
                pair.key,
                pair.field,
                g.field,
                g.value_b,
                "witness-appears",
                w,
                f"`{pair.label_b()}` makes no difference under the defaults but does with `{label}` "
                f"({w.kind}, {len(w.actions)} action(s), {w.players} players: {w.detail})",
            )
    return None


def interactions(
    preset_name: str, bound: Bound = QUICK, on_pair: Callable[[str], None] | None = None
) -> list[Interaction]:
    """Every interacting (field, other) pair of the preset found by the two checks."""
    stored = load()
    entries = sorted((e for e in stored.values() if e.get("preset") == preset_name), key=lambda x: str(x["key"]))
    fields = sorted({str(e["field"]) for e in entries})
    out: list[Interaction] = []
    for e in entries:
        for other in fields:
            if other == e["field"]:
                continue
            for g in pairs_for(other, [preset_name]):
                if on_pair is not None:
                    on_pair(f"{e['key']} x {g.key}")
                found = check(e, g, bound, stored)
                if found is not None:
                    out.append(found)
    return out
