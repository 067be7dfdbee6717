"""The extremal deals shipped beside the witness deals: ``witnesses/extremes.json`` lists one deal per preset,
player count and quantity (``witnesses/extremes/<preset>/<slug>-<n>p.itf.json``, an ITF trace with the deal's
record in its meta), each the best the search (``search.climb``) found; ``shipped`` replays every one by the
model and reads its value off the end, so a stored number is never trusted.  ``improve`` runs the search for
some rows and keeps a deal only where it beats the shipped one (``comet bounds --search``)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from comet.records.deal_record import parse_record, record_from_state, replay_record
from comet.records.itf import deal_trace
from comet.state import Action, DealState

from comet_proofs.bounds.quantities import SLUGS, quantities
from comet_proofs.bounds.search import Played, climb, quantities_of

INDEX = "extremes.json"
# The rows of the bounds table (spec/proofs.md, "Bounds"): the presets at the player counts it reports, then more.
ROWS: tuple[tuple[str, int], ...] = (
    ("standard", 2),
    ("standard", 3),
    ("standard", 4),
    ("standard", 5),
    ("opera", 3),
    ("old_comet", 3),
    ("old_comet", 5),
    ("two_player", 2),
    ("red_nines", 5),
    ("commit_hoyle", 3),
    ("commit_cats", 3),
    # beyond the table of spec/proofs.md (issue 37: every player count, as far as done)
    ("old_comet", 2),
    ("old_comet", 4),
    ("commit_hoyle", 4),
    ("commit_hoyle", 5),
    ("opera", 4),
    ("opera", 5),
    ("red_nines", 4),
)


@dataclass(frozen=True, slots=True)
class Shipped:
    """One shipped extremal deal, replayed by the model now: its index entry's fields and the value the
    model's deal reaches (``claimed``: the value the index states, which the test compares)."""

    file: str
    preset: str
    players: int
    quantity: str
    value: int
    claimed: int
    start: DealState
    actions: tuple[Action, ...]


def witnesses_root() -> Path:
    return Path(str(resources.files("comet_proofs") / "witnesses"))


def entries(root: Path | None = None) -> list[dict[str, object]]:
    """The index of shipped extremal deals (empty when there is none)."""
    path = (root or witnesses_root()) / INDEX
    if not path.exists():
        return []
    found = json.loads(path.read_text(encoding="utf-8"))["deals"]
    assert isinstance(found, list)
    return found


def replay(root: Path, entry: dict[str, object]) -> Shipped:
    """One index entry's deal replayed by the model from its record, its quantity read off the end."""
    trace = json.loads((root / str(entry["file"])).read_text(encoding="utf-8"))
    record = parse_record(trace["#meta"]["record"])
    verdict = replay_record(record)
    quantity = str(entry["quantity"])
    final = verdict.final
    value = quantities(final, len(record.actions))[quantity] if verdict.legal and final.terminal else -1
    return Shipped(
        str(entry["file"]),
        str(entry["preset"]),
        int(str(entry["players"])),
        quantity,
        value,
        int(str(entry["value"])),
        verdict.start,
        record.actions,
    )


def shipped(preset: str | None = None, players: int | None = None, root: Path | None = None) -> list[Shipped]:
    """Every shipped extremal deal (of ``preset`` at ``players`` where given), replayed by the model."""
    base = root or witnesses_root()
    return [
        replay(base, e)
        for e in entries(base)
        if (preset is None or e["preset"] == preset) and (players is None or e["players"] == players)
    ]


def write(root: Path, preset: str, players: int, quantity: str, played: Played, how: str) -> str:
    """Write ``played`` as the shipped deal of its row (replacing the entry of the same file)."""
    rel = f"extremes/{preset}/{SLUGS[quantity]}-{players}p.itf.json"
    description = f"{preset} witness: {quantity}, {played.value}, for {players} players"
    trace = deal_trace(played.start, played.actions, "comet bounds --search", description)
    meta = trace["#meta"]
    assert isinstance(meta, dict)
    meta["record"] = record_from_state(played.start, preset, played.actions).to_json()
    meta["quantity"] = quantity
    meta["found_by"] = how
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(trace, indent=1) + "\n", encoding="utf-8")
    entry: dict[str, object] = {
        "file": rel,
        "preset": preset,
        "players": players,
        "quantity": quantity,
        "value": played.value,
        "actions": len(played.actions),
        "found_by": how,
    }
    kept = [e for e in entries(root) if e["file"] != rel] + [entry]
    kept.sort(key=lambda e: (str(e["preset"]), int(str(e["players"])), str(e["quantity"])))
    (root / INDEX).write_text(json.dumps({"deals": kept}, indent=1) + "\n", encoding="utf-8")
    return rel


def known_best(preset: str, players: int, quantity: str, root: Path) -> Played | None:
    """The best deal already shipped for this row: its own extremal deal, or any witness deal of the preset
    and player count (the scenarios' and the bound-settlement deals), whichever reaches more (another
    quantity's extremal deal does not count, so each quantity gets a file of its own)."""
    from comet_proofs.bounds.reached import shipped_witnesses

    best: Played | None = None
    for s in shipped(preset, players, root):
        if s.quantity == quantity and (best is None or s.value > best.value):
            best = Played(s.value, s.start, s.actions)
    for start, actions, final, _ in shipped_witnesses(preset, players, extremes=False):
        got = quantities(final, len(actions)).get(quantity)
        if got is not None and (best is None or got > best.value):
            best = Played(got, start, actions)
    return best


def improve(
    rows: Sequence[tuple[str, int]],
    seconds: float,
    root: Path | None = None,
    seed: int = 0,
    only: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
) -> list[tuple[str, int, str, int | None, int]]:
    """Search each quantity of each row for ``seconds`` of CPU from the best shipped deal, and ship the deal
    found where it beats that (``only``: these quantities).  Returns (preset, players, quantity, value before,
    value after) per quantity."""
    base = root or witnesses_root()
    out: list[tuple[str, int, str, int | None, int]] = []
    for preset, players in rows:
        for quantity in quantities_of(preset):
            if only and quantity not in only:
                continue
            if progress is not None:
                progress(f"{preset} {players}p: {quantity}")
            before = known_best(preset, players, quantity, base)
            started = time.process_time()
            found = climb(preset, players, quantity, seconds, seed, first=before)
            spent = time.process_time() - started
            if found is None:
                continue
            latest = known_best(preset, players, quantity, base)  # another run may have shipped a better deal
            if latest is None or found.value > latest.value:
                how = f"hill climbing over deals, beam search over play ({spent:.0f} CPU s, seed {seed})"
                write(base, preset, players, quantity, found, how)
            out.append((preset, players, quantity, None if before is None else before.value, found.value))
    return out


def ship_built(
    rows: Sequence[tuple[str, int]], root: Path | None = None
) -> list[tuple[str, int, str, int | None, int]]:
    """Deal and play every built shape (``build.SHAPES``) of ``rows`` by the model, and ship each quantity's
    deal where it beats the shipped one.  Returns (preset, players, quantity, value before, value built)."""
    from comet_proofs.bounds.build import built_deals

    base = root or witnesses_root()
    out: list[tuple[str, int, str, int | None, int]] = []
    for preset, players in rows:
        for shape, played in built_deals(preset, players):
            for quantity, deal in played.items():
                before = known_best(preset, players, quantity, base)
                if before is None or deal.value > before.value:
                    write(base, preset, players, quantity, deal, f"built by hand: {shape.why}")
                out.append((preset, players, quantity, None if before is None else before.value, deal.value))
    return out


def transferred(source: str, target: str, players: int, quantity: str, root: Path | None = None) -> Played | None:
    """``source``'s shipped extremal deal of ``quantity`` dealt again under ``target``'s rules (same pack, same
    hands) and played with the same actions, where every one of them is legal there and the deal ends (the
    Opera plays as the standard game does, so a long standard deal is a long Opera deal); None otherwise."""
    from comet import engine
    from comet.errors import IllegalAction, RecordError
    from comet.presets import preset as preset_named

    own = [s for s in shipped(source, players, root) if s.quantity == quantity]
    if not own:
        return None
    start, actions = own[0].start, own[0].actions
    rules = preset_named(target).rules
    pack = next((p for p in engine.packs_in_rotation(rules, players) if p.name == start.pack), None)
    if pack is None:
        return None
    try:
        again = engine.start_deal(rules, pack, players, start.dealer, start.hands, start.dead)
        final = engine.replay(again, actions)
    except (IllegalAction, RecordError):
        return None
    if not final.terminal:
        return None
    return Played(quantities(final, len(actions))[quantity], again, actions)


# Presets whose deals play alike (the same pack, deal and legal actions; only the scoring differs), so one's
# extremal deal is tried as the other's
ALIKE: dict[str, tuple[str, ...]] = {"opera": ("standard",), "standard": ("opera",), "two_player": ("standard",)}


def ship_transferred(
    rows: Sequence[tuple[str, int]], root: Path | None = None
) -> list[tuple[str, int, str, int | None, int]]:
    """For each row, every alike preset's shipped extremal deals played under the row's rules
    (``transferred``), shipped where they beat the row's best.  Returns (preset, players, quantity, value
    before, value now) for each deal shipped."""
    base = root or witnesses_root()
    out: list[tuple[str, int, str, int | None, int]] = []
    for preset, players in rows:
        for source in ALIKE.get(preset, ()):
            for quantity in quantities_of(preset):
                if quantity not in quantities_of(source):
                    continue
                deal = transferred(source, preset, players, quantity, base)
                before = known_best(preset, players, quantity, base)
                if deal is not None and (before is None or deal.value > before.value):
                    write(base, preset, players, quantity, deal, f"{source}'s extremal deal, played under {preset}")
                    out.append((preset, players, quantity, None if before is None else before.value, deal.value))
    return out
