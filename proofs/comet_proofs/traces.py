"""Multi-step witness traces: whole deals, found by Z3, that end in a chosen way (spec/proofs.md).

For each scenario (win on the Comet as a 9 after escalation, a loser caught with the Comet, a stuck run
in a deal that then ends, and the variants' own), Z3 unrolls the encoding's transition ``k`` steps from
an initial deal (``Init(s0) ∧ T(s0, a0, s1) ∧ ... ``; a finished deal stutters, so "within k steps") and
asks for a final state with the scenario's property (bounded model checking, k growing from the hand
size).  The first state is turned into a real deal (``concrete.concretise``, then ``engine.start_deal``);
each step is matched with the model's legal action whose successor abstracts to the next state, so the
model replays the whole deal; the deal is checked on the model's side too (``Scenario.holds``) and written
as an ITF trace (``comet.records.itf.deal_trace``, with the deal's record in ``#meta.record``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import z3
from comet import engine
from comet.presets import preset as preset_named
from comet.records.deal_record import JsonObject, record_from_state
from comet.records.itf import deal_trace
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of

from comet_proofs.bounds import dealt_size
from comet_proofs.concrete import concretise
from comet_proofs.encoding import Encoding
from comet_proofs.pinning import pin_readings, realism
from comet_proofs.registry import encoding_for, game_part
from comet_proofs.scenario import Scenario, deal_states
from comet_proofs.symbolic import NINE, AbstractState, SymAction, SymState

TIMEOUT_MS = 300_000


@dataclass(frozen=True, slots=True)
class WitnessDeal:
    """A whole deal of ``preset`` that ends as ``scenario`` says: its start and actions, how many steps Z3
    unrolled to find it (0 when found by sampling) and how it was found."""

    preset: str
    scenario: Scenario
    start: DealState
    actions: tuple[Action, ...]
    steps_unrolled: int  # 0 for a deal found by sampling
    method: str = "z3"


def scenarios_for(preset: str) -> tuple[Scenario, ...]:
    """The witness scenarios of ``preset``'s game (its folder's ``scenarios.SCENARIOS``; none if it has none)."""
    found = game_part(preset, "scenarios", "SCENARIOS")
    return tuple(s for s in found if isinstance(s, Scenario)) if isinstance(found, tuple) else ()


def trace_players(preset: str) -> int:
    """The player count with the smallest hands (the shortest deals) for ``preset``: its game folder's
    ``scenarios.TRACE_PLAYERS``, else the encoding's largest player count."""
    found = game_part(preset, "scenarios", "TRACE_PLAYERS")
    return found if isinstance(found, int) else max(encoding_for(preset).player_counts)


def find_deal(preset: str, scenario: Scenario, players: int, steps: int) -> WitnessDeal | None:
    """A whole deal of ``preset`` within ``steps`` actions ending as ``scenario`` says (None if Z3 finds none
    in that many steps, or none the model replays)."""
    enc = encoding_for(preset)
    base = preset_named(preset).rules
    start_value = variant_of(base).comet_value
    rd = enc.fresh_readings()
    states = [enc.fresh_state(f"s{i}", players) for i in range(steps + 1)]
    acts = [SymAction.fresh(f"a{i}") for i in range(steps)]
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    solver.add(enc.initial(states[0], rd), *pin_readings(enc, rd, base, (), free=False))
    solver.add(*realism(enc, preset, states[0], scenario.escalated))
    for i in range(steps):
        s, a, t = states[i], acts[i], states[i + 1]
        solver.add(z3.If(enc.terminal(s), t.equals(s), enc.transition(s, a, t, rd)))
    solver.add(enc.terminal(states[-1]), scenario.final(enc, states[-1], start_value))
    if scenario.step is not None:
        step = scenario.step
        solver.add(
            z3.Or(
                [
                    z3.And(z3.Not(enc.terminal(states[i])), step(enc, states[i], acts[i], states[i + 1]))
                    for i in range(steps)
                ]
            )
        )
    for _ in range(4):
        if solver.check() != z3.sat:
            return None
        m = solver.model()
        first = states[0].evaluate(m)
        deal = _replay(enc, base, first, [t.evaluate(m) for t in states[1:]])
        if deal is not None:
            start, actions = deal
            final = deal_states(start, actions)[-1]
            if scenario.holds(final, actions, start_value) and step_ok(scenario, start, actions):
                return WitnessDeal(preset, scenario, start, actions, steps)
        solver.add(z3.Not(states[0].equals(SymState.const(first))))
    return None


def _replay(
    enc: Encoding, base: Ruleset, first: AbstractState, nexts: list[AbstractState]
) -> tuple[DealState, tuple[Action, ...]] | None:
    """The model's deal for an unrolled run of the encoding: the first state dealt for real, then at each
    step the legal action whose successor abstracts to the next state."""
    try:
        rough = concretise(enc, first, base)
    except ValueError:
        return None
    pack = engine.packs_in_rotation(rough.rules, rough.players)[0]
    start = engine.start_deal(
        rough.rules, pack, rough.players, rough.dealer, rough.hands, rough.dead, rough.comet_value
    )
    if enc.abstract(start) != first:
        return None
    state = start
    actions: list[Action] = []
    for target in nexts:
        if state.terminal:
            break
        step = next((a for a in engine.legal_actions(state) if enc.abstract(engine.apply(state, a)) == target), None)
        if step is None:
            return None
        actions.append(step)
        state = engine.apply(state, step)
    return (start, tuple(actions)) if state.terminal else None


def step_ok(scenario: Scenario, start: DealState, actions: Sequence[Action]) -> bool:
    """The model's deal has the step the scenario asks for (judged on the model's states)."""
    if scenario.step is None or scenario.step_holds is None:
        return True
    return scenario.step_holds(start, actions)


def keep_wild_policy(state: DealState, rng: random.Random) -> Action:
    """A random legal action, except that a wild card is kept until it is the mover's last card (then played
    as a 9 when it may be): the Comet endings come up far more often than under uniform play."""
    acts = engine.legal_actions(state)
    hand = state.hands[state.to_move]
    if len(hand) == 1 and hand[0] in state.wild:
        as_nine = [a for a in acts if a.as_rank == NINE]
        if as_nine:
            return as_nine[0]
    tame = [a for a in acts if not any(c in state.wild for c in a.cards)]
    pool = tame or acts
    return pool[rng.randrange(len(pool))]


def sample(preset: str, scenario: Scenario, players: int, deals: int = 3000, seed: int = 0) -> WitnessDeal | None:
    """The first of ``deals`` seeded random deals of the model that ends as ``scenario`` says (its ``holds``;
    for a stuck run, a restart and then the end).  Half the deals are uniform random play, half keep the
    wild card to the end (``keep_wild_policy``); an escalated scenario deals the Comet at its start value + 2."""
    from comet.presets import preset as named

    rules = named(preset).rules
    start_value = variant_of(rules).comet_value
    value = start_value + 2 if scenario.escalated else start_value
    for i in range(deals):
        rng = random.Random(seed * 1_000_003 + i)
        start = engine.shuffled_deal(rules, players, rng.randrange(players), rng.getrandbits(32), None, value)
        state, actions = start, []
        while not state.terminal:
            if i % 2:
                act = keep_wild_policy(state, rng)
            else:
                acts = engine.legal_actions(state)
                act = acts[rng.randrange(len(acts))]
            actions.append(act)
            state = engine.apply(state, act)
        ok = scenario.holds(state, actions, start_value) and step_ok(scenario, start, actions)
        if ok:
            return WitnessDeal(preset, scenario, start, tuple(actions), 0, "sample")
    return None


# Z3 unrolling is tried up to this hand size (two players hold 18, four players of two packs 13: their deals come from
# sampling, since unrolling that many steps does not finish in minutes on this machine).
UNROLL_HAND_LIMIT = 12


def search(preset: str, scenario: Scenario, players: int | None = None, extra_steps: int = 12) -> WitnessDeal | None:
    """Bounded model checking with a growing bound, from the hand size up to ``extra_steps`` more (or, for a
    ``sample`` scenario or when Z3 finds nothing, seeded random deals of the model)."""

    n = players or trace_players(preset)
    enc = encoding_for(preset)
    rd = enc.readings_of(preset_named(preset).rules)
    size = dealt_size(enc, n, rd)
    if scenario.method == "sample" or size > UNROLL_HAND_LIMIT:
        return sample(preset, scenario, n)
    for k in range(size, size + extra_steps + 1, 2):
        found = find_deal(preset, scenario, n, k)
        if found is not None:
            return found
    return sample(preset, scenario, n)


def settlement_scenario(preset: str, players: int, target: int) -> Scenario:
    """The ending "seat 0 pays at least ``target`` at settlement" (a bound of ``bounds.proved_bounds``), for
    ``search``."""
    rd = encoding_for(preset).readings_of(preset_named(preset).rules)

    def final(e: Encoding, s: SymState, start: int) -> z3.BoolRef:
        return z3.And(s.winner >= 0, s.chips[0] - e.deal_returns(s, rd)[0] >= target)

    def holds(s: DealState, actions: Sequence[Action], start: int) -> bool:
        return s.winner >= 0 and s.chips()[0] - engine.returns(s)[0] >= target

    return Scenario(
        f"bound-settlement-{players}p",
        f"seat 0 pays {target} chips at settlement, the most the encoding allows for {players} players",
        final,
        holds,
    )


def settlement_loss_deal(preset: str, players: int, target: int, extra_steps: int = 4) -> WitnessDeal | None:
    """A whole deal (bounded unrolling of the encoding, as for the witness traces) in which seat 0 pays at
    least ``target`` at settlement, replayed by the model; None if none within the hand size + ``extra_steps``
    (how the shipped ``witnesses/standard/bound-settlement-Np.itf.json`` were found)."""
    return search(preset, settlement_scenario(preset, players, target), players=players, extra_steps=extra_steps)


def trace_json(w: WitnessDeal) -> JsonObject:
    """The ITF trace of a witness deal, with its record (replayable by ``comet replay``) in the meta."""
    meta = f"{w.preset} witness: {w.scenario.description}"
    trace = deal_trace(w.start, w.actions, "comet prove --witness-traces", meta)
    trace_meta = trace["#meta"]
    assert isinstance(trace_meta, dict)
    trace_meta["record"] = record_from_state(w.start, w.preset, w.actions).to_json()
    trace_meta["scenario"] = w.scenario.slug
    trace_meta["found_by"] = "z3 bounded unrolling" if w.method == "z3" else "seeded random deals of the model"
    return trace


def index_entry(w: WitnessDeal, rel: str) -> dict[str, object]:
    return {
        "file": rel,
        "preset": w.preset,
        "scenario": w.scenario.slug,
        "description": w.scenario.description,
        "players": w.start.players,
        "actions": len(w.actions),
        "found_by": "z3 bounded unrolling" if w.method == "z3" else "seeded random deals of the model",
        "steps_unrolled": w.steps_unrolled,
    }


def add_trace(out: Path, w: WitnessDeal, **extra: object) -> str:
    """Write one witness deal under ``out/<preset>/<scenario>.itf.json`` and put it in ``out/index.json``
    (replacing an entry for the same file); ``extra`` goes into its index entry."""
    rel = f"{w.preset}/{w.scenario.slug}.itf.json"
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(trace_json(w), indent=1) + "\n")
    entries = json.loads((out / "index.json").read_text())["traces"] if (out / "index.json").exists() else []
    entries = [e for e in entries if e["file"] != rel] + [{**index_entry(w, rel), **extra}]
    entries.sort(key=lambda e: (str(e["preset"]), str(e["scenario"])))
    (out / "index.json").write_text(json.dumps({"traces": entries}, indent=1) + "\n")
    return rel


def write_traces(
    out: Path, presets: Sequence[str], progress: Callable[[str], None] | None = None, keep: bool = False
) -> tuple[list[str], list[str]]:
    """Find and write every scenario's trace for ``presets`` under ``out/<preset>/<scenario>.itf.json``, each
    listed in ``out/index.json`` (``keep``: leave a trace already there); returns (files, scenarios without
    a deal)."""
    written: list[str] = []
    missing: list[str] = []
    for preset in presets:
        for scenario in scenarios_for(preset):
            if progress is not None:
                progress(f"{preset}: {scenario.description}")
            rel = f"{preset}/{scenario.slug}.itf.json"
            if keep and (out / rel).exists():
                written.append(rel)
                continue
            w = search(preset, scenario)
            if w is None:
                missing.append(f"{preset}: {scenario.description}")
                continue
            written.append(add_trace(out, w))
    return written, missing


def shipped_deals(presets: Sequence[str]) -> list[tuple[DealState, tuple[Action, ...]]]:
    """The witness deals shipped in ``comet_proofs/witnesses/`` for ``presets``: (start, actions) each, read
    from the record in the trace's meta (for ``comet verify``'s directed deals)."""
    from importlib import resources

    from comet.records.deal_record import parse_record

    root = resources.files("comet_proofs") / "witnesses"
    out: list[tuple[DealState, tuple[Action, ...]]] = []
    for entry in json.loads((root / "index.json").read_text(encoding="utf-8"))["traces"]:
        if entry["preset"] in presets:
            record = parse_record(json.loads((root / entry["file"]).read_text(encoding="utf-8"))["#meta"]["record"])
            out.append((record.start(), record.actions))
    return out
