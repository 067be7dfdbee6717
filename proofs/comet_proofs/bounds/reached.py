"""What real deals reach: seeded deals of the model, and the shipped witness deals replayed by it."""

from __future__ import annotations

import random

from comet import engine
from comet.presets import preset as preset_named
from comet.state import Action, DealState
from comet.variant import variant_of

from comet_proofs.bounds.quantities import SLUGS, quantities


def long_policy(state: DealState, rng: random.Random) -> Action:
    """Pass whenever allowed (long deals, full hands), else a random legal action."""
    acts = engine.legal_actions(state)
    passes = [a for a in acts if a.is_pass]
    return passes[0] if passes else acts[rng.randrange(len(acts))]


def reached_values(preset: str, players: int, deals: int, seed: int) -> dict[str, tuple[int, int, int]]:
    """Best value met per quantity over ``deals`` seeded deals: (value, seed of the deal, its actions)."""
    rules = preset_named(preset).rules
    best: dict[str, tuple[int, int, int]] = {}
    for i in range(deals):
        deal_seed = seed * 100_003 + i
        rng = random.Random(deal_seed)
        state = engine.shuffled_deal(rules, players, rng.randrange(players), deal_seed)
        steps = 0
        while not state.terminal:
            policy = long_policy if i % 2 == 0 else random_policy
            state = engine.apply(state, policy(state, rng))
            steps += 1
        for name, value in quantities(state, steps).items():
            if name not in best or value > best[name][0]:
                best[name] = (value, deal_seed, steps)
    return best


def shipped_witnesses(
    preset: str, players: int, extremes: bool = True
) -> list[tuple[DealState, tuple[Action, ...], DealState, str]]:
    """The shipped witness deals of ``preset`` for ``players`` seats (``witnesses/index.json``: the scenarios'
    and the bound-settlement deals; ``witnesses/extremes.json``: the extremal deals) with the Comet at its
    starting value, each replayed by the model now from its record: (start, actions, final state, file);
    ``extremes``: with the extremal deals."""
    import json
    from importlib import resources

    from comet.records.deal_record import parse_record, replay_record

    root = resources.files("comet_proofs") / "witnesses"
    listed = [json.loads((root / "index.json").read_text(encoding="utf-8"))["traces"]]
    if extremes and (root / "extremes.json").is_file():
        listed.append(json.loads((root / "extremes.json").read_text(encoding="utf-8"))["deals"])
    out: list[tuple[DealState, tuple[Action, ...], DealState, str]] = []
    for index in listed:
        for entry in index:
            if entry["preset"] != preset or entry["players"] != players:
                continue
            trace = json.loads((root / entry["file"]).read_text(encoding="utf-8"))
            record = parse_record(trace["#meta"]["record"])
            verdict = replay_record(record)
            final = verdict.final
            # the bounds are at the Comet's starting value: a deal with an escalated Comet is not comparable
            if not verdict.legal or not final.terminal or final.comet_value != variant_of(final.rules).comet_value:
                continue
            out.append((verdict.start, record.actions, final, str(entry["file"])))
    return out


def witness_values(preset: str, players: int) -> dict[str, tuple[int, str]]:
    """The most each quantity reaches in the shipped witness deals of ``preset`` for ``players`` seats with
    the Comet at its starting value, each replayed by the model now from its record: (value, file)."""
    best: dict[str, tuple[int, str]] = {}
    for _, actions, final, file in shipped_witnesses(preset, players):
        for name, value in quantities(final, len(actions)).items():
            # on a tie, the quantity's own extremal deal is the one named
            own = file.split("/")[-1].startswith(f"{SLUGS[name]}-")
            if name not in best or value > best[name][0] or (value == best[name][0] and own):
                best[name] = (value, file)
    return best


def random_policy(state: DealState, rng: random.Random) -> Action:
    acts = engine.legal_actions(state)
    return acts[rng.randrange(len(acts))]
