"""Interactions: pairs of rulings of one preset whose effects depend on each other.

Ruling f's divergence *depends on* ruling g when f's two readings part ways under one reading of g and
not under the other.  Whether they part under g's other reading is decided by a **fresh search** under it
(``witness.search``), never by the stored witness alone:

* a pair with a stored witness: the witness is first replayed with g switched (cheap); if the readings
  still part ways on it (at its step or earlier), f still matters there and nothing is reported.  Otherwise a witness is
  searched afresh with g switched; only if none is found within the bound is the dependence reported
  (``witness-vanishes``: f matters under the defaults, and no difference is found with g switched);
* a pair with no stored witness is searched afresh with g switched: a witness there is reported
  (``witness-appears``: f matters only together with g, as the Opera draw needs the Opera); the reading
  the pair's stored proof says it needs (``witness.needs``, Z3 where an encoding reads the field) counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comet.diverge.labels import claimed_difference
from comet.diverge.pairs import Pair, pairs_for, value_text
from comet.diverge.records import Bound, Witness
from comet.diverge.store import load, pair_for, proof_of, witness_of
from comet.diverge.witness import search
from comet.errors import RecordError
from comet.presets import preset
from comet.records.deal_record import JsonObject
from comet.ruleset import Ruleset

QUICK = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)


@dataclass(frozen=True, slots=True)
class Interaction:
    preset: str
    key: str  # the reading pair (``Pair.key``) whose divergence depends ...
    field: str
    other: str  # ... on this ruling's reading
    other_value: object
    how: str  # "witness-vanishes" | "witness-appears"
    witness: Witness | None
    text: str


def _still_differs(e: JsonObject, a: Ruleset, b: Ruleset) -> bool:
    """Do ``a`` and ``b`` still part ways somewhere on the stored witness of ``e`` (at its step or before)?"""
    w = witness_of(e)
    if w is None or w.level != "deal":
        return False
    pair = Pair(str(e["preset"]), str(e["field"]), a, b)
    try:
        claimed_difference(pair, w)
    except (ValueError, RecordError):
        return False
    return True


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
    fresh = Pair(pair.preset, pair.field, a2, b2)

    def found(kind: str, witness: Witness | None, text: str) -> Interaction:
        return Interaction(pair.preset, pair.key, pair.field, g.field, g.value_b, kind, witness, text)

    if e.get("found"):
        if e.get("level") != "deal" or e.get("kind") == "dealt" or _still_differs(e, a2, b2):
            return None
        res = search(fresh, bound)
        if res.witness is not None:
            return None
        return found(
            "witness-vanishes",
            None,
            f"with `{label}`, `{pair.label_b()}` no longer makes a difference: none found afresh "
            f"({res.deals_tried} deals, {res.games_tried} games searched; {res.bound})",
        )
    proof = proof_of(e)
    if proof is not None and proof.method == "inert" and proof.needs == label:
        # the witness search under each other reading already found this one (``witness.needs``)
        return found(
            "witness-appears",
            None,
            f"`{pair.label_b()}` makes no difference under the defaults but does with `{label}`: "
            + proof.text.split("(with it, ", 1)[-1].rstrip(")"),
        )
    # a ruling g that never changes a deal leaves every deal as it was: only games can differ
    g_entry = (load() if stored is None else stored).get(g.key, {})
    g_in_deals = bool(g_entry.get("found")) and g_entry.get("level") == "deal"
    res = search(fresh, bound, deals=g_in_deals)
    if res.witness is None:
        return None
    w = res.witness
    size = f"{len(w.actions)} action(s)" if w.level == "deal" else "a game"
    return found(
        "witness-appears",
        w,
        f"`{pair.label_b()}` makes no difference under the defaults but does with `{label}` "
        f"({w.kind}, {size}, {w.players} players: {w.detail})",
    )


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
