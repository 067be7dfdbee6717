"""Cross-check the encoding against the model on sampled concrete states.

For each sampled ``DealState`` s the set of abstract successors the encoding's
``T(abstract(s), a, s')`` allows is enumerated with Z3 (blocking each found s'
until unsat) and compared with ``{abstract(apply(s, a)) for a in legal_actions(s)}``.
Both directions count: a model successor that T forbids, and an abstract
successor T allows that no legal action reaches.  For finished deals the
encoding's settlement is compared with ``engine.returns`` and every settlement
payment must go to the winner; for every state the encoding's step bound is
compared with ``engine.step_bound``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import z3
from comet.engine import apply, deal_points, legal_actions, packs_in_rotation, returns, shuffled_deal, step_bound
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset, field_readings
from comet.state import DealState

from comet_proofs.abstraction import describe, describe_deal_state
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for, game_part
from comet_proofs.symbolic import PLAY_RULINGS, AbstractState, SymAction, SymState

# The base rules' play rulings plus the deal-shape ones (``sampled_fields`` gives every field
# the cross-check varies for an encoding: these and the rest of what applies to the preset).
SAMPLED_FIELDS: tuple[str, ...] = tuple(name for name, _ in PLAY_RULINGS) + ("deal_sizes", "deal_order")
# The values an integer ruling (a stake, starting chips) is drawn from.
INT_SAMPLES = (0, 1, 2, 5)
MAX_SUCCESSORS = 200


@dataclass(frozen=True, slots=True)
class CrossCheckResult:
    states: int
    successors: int
    mismatches: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def random_rules(rng: random.Random, base: Ruleset | None = None, fields: Sequence[str] = SAMPLED_FIELDS) -> Ruleset:
    """``base`` (default: the default ``Ruleset``) with a random reading of every ruling in ``fields``
    (an integer ruling from ``INT_SAMPLES``)."""
    changes: dict[str, object] = {}
    for name in fields:
        readings = field_readings(name) or INT_SAMPLES
        changes[name] = readings[rng.randrange(len(readings))]
    return (base or Ruleset()).with_overrides(changes)


def sampled_fields(enc: Encoding) -> tuple[str, ...]:
    """The rulings varied when sampling for ``enc``: every field that applies to its preset but those
    whose other readings lie outside the encoding (``Encoding.outside``), so a field that changes
    play without a Boolean in the encoding shows up as a mismatch."""
    return tuple(dict.fromkeys([name for name, _ in enc.rulings] + list(enc.unquantified)))


def coverage_problems(preset: str, enc: Encoding) -> list[str]:
    """Every ruling field that applies to ``preset`` is quantified by ``enc``, or listed as unquantified
    or outside; nothing is listed twice or listed for a preset it does not apply to."""
    from comet.ruleset import RULING_FIELDS
    from comet.variant import applies

    variant = preset_named(preset).rules.variant
    quantified = [name for name, _ in enc.rulings]
    lists = {"quantified": quantified, "unquantified": list(enc.unquantified), "outside": list(enc.outside)}
    out: list[str] = []
    for field in RULING_FIELDS:
        where = [k for k, names in lists.items() if field in names]
        if applies(field, variant) and not where:
            out.append(
                f"{preset}: ruling field {field!r} applies to the preset, but the {enc.name} encoding neither "
                "quantifies it nor lists it as unquantified or outside"
            )
        elif where and not applies(field, variant):
            out.append(f"{preset}: the {enc.name} encoding lists {field!r} ({where[0]}), which does not apply to it")
        elif len(where) > 1:
            out.append(f"{preset}: the {enc.name} encoding lists {field!r} as {' and '.join(where)}")
    return out


def sample_states(
    players: Sequence[int], deals: int, seed: int, per_deal: int = 12, preset: str = "standard"
) -> list[DealState]:
    """States met in ``deals`` random deals per player count of ``preset`` (random readings of every
    ruling that applies to the preset but those outside its encoding, ``sampled_fields``; random pack
    of the rotation, Comet value, uniformly random legal play), ``per_deal`` of them per deal plus the
    final state."""
    rng = random.Random(seed)
    base = preset_named(preset).rules
    fields = sampled_fields(encoding_for(preset))
    own = game_part(preset, "encoding", "SAMPLED_COMET_VALUES")
    values = own if isinstance(own, tuple) else (0, 2, 4, 6, 10)
    out: list[DealState] = []
    for n in players:
        for _ in range(deals):
            rules = random_rules(rng, base, fields)
            packs = packs_in_rotation(rules, n)
            pack = packs[min(int(rng.random() * len(packs)), len(packs) - 1)]
            s = shuffled_deal(rules, n, rng.randrange(n), rng.getrandbits(32), pack, rng.choice(values))
            path = [s]
            while not s.terminal:
                acts = legal_actions(s)
                s = apply(s, acts[rng.randrange(len(acts))])
                path.append(s)
            keep = sorted(rng.sample(range(len(path) - 1), min(per_deal, len(path) - 1)))
            out.extend(path[i] for i in keep)
            out.append(path[-1])
    return out


def encoded_successors(enc: Encoding, state: DealState) -> tuple[set[AbstractState], bool]:
    """The abstract successors T allows from ``abstract(state)`` (and whether the enumeration was cut short)."""
    s = SymState.const(enc.abstract(state))
    s2 = enc.fresh_state("next", state.players)
    a = SymAction.fresh()
    solver = z3.Solver()
    solver.add(enc.transition(s, a, s2, enc.readings_of(state.rules)))
    found: set[AbstractState] = set()
    while solver.check() == z3.sat:
        m = solver.model()
        succ = s2.evaluate(m)
        found.add(succ)
        if len(found) > MAX_SUCCESSORS:
            return found, True
        solver.add(z3.Not(s2.equals(SymState.const(succ))))
    return found, False


def check_state(enc: Encoding, state: DealState) -> tuple[int, str | None]:
    """(number of model successors, a mismatch report or None)."""
    before = enc.abstract(state)
    problems: list[str] = []
    model_succ: dict[AbstractState, str] = {}
    for act in legal_actions(state):
        model_succ.setdefault(enc.abstract(apply(state, act)), str(act))
    allowed, cut = encoded_successors(enc, state)
    if cut:
        problems.append(f"T allows more than {MAX_SUCCESSORS} successors (a field is left unconstrained)")
    for succ, act_text in model_succ.items():
        if succ not in allowed:
            problems.append(f"the model's '{act_text}' leads to a state T forbids:\n{describe(succ)}")
    for succ in allowed:
        if succ not in model_succ and not enc.overapproximated(state, succ, set(model_succ)):
            problems.append(f"T allows a successor no legal action reaches:\n{describe(succ)}")
    sym = SymState.const(before)
    for part, holds in enc.invariant_parts(sym).items():
        if not z3.is_true(z3.simplify(holds)):
            problems.append(f"the model's state breaks the encoded invariant '{part}'")
    bound = z3.simplify(enc.step_bound(sym)).as_long()
    if bound != step_bound(state):
        problems.append(f"encoded step bound {bound} differs from engine.step_bound {step_bound(state)}")
    if state.terminal:
        rd = enc.readings_of(state.rules)
        enc_returns = tuple(z3.simplify(x).as_long() for x in enc.deal_returns(sym, rd))
        if enc_returns != returns(state):
            problems.append(f"encoded deal returns {enc_returns} differ from engine.returns {returns(state)}")
        enc_points = tuple(z3.simplify(x).as_long() for x in enc.deal_points(sym, rd))
        if enc_points != deal_points(state):
            problems.append(f"encoded deal points {enc_points} differ from engine.deal_points {deal_points(state)}")
        problems += enc.settlement_problems(state)
    if not problems:
        return len(model_succ), None
    text = "state (model):\n" + describe_deal_state(state) + "\nabstracted:\n" + describe(before) + "\n"
    return len(model_succ), text + "\n".join("- " + p for p in problems)


def crosscheck(
    enc: Encoding,
    states: Iterable[DealState],
    progress: Callable[[], None] | None = None,
    stop_after: int = 3,
) -> CrossCheckResult:
    """Check every state; stop after ``stop_after`` mismatching states."""
    count = succ = 0
    bad: list[str] = []
    for state in states:
        n, problem = check_state(enc, state)
        count += 1
        succ += n
        if problem is not None:
            bad.append(problem)
            if len(bad) >= stop_after:
                break
        if progress is not None:
            progress()
    return CrossCheckResult(count, succ, tuple(bad))
