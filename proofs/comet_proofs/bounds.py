"""Bounds users ask about, per preset and player count, under the preset's own readings (spec/proofs.md,
"Bounds").

Each bound has two numbers:

- ``upper``: the optimum Z3 ``Optimize`` finds over the encoding, an upper bound for every real deal
  (None when the encoding does not bound the quantity).  The states range over the inductive invariant
  ``Inv`` plus the lemma "no hand is larger than the hand dealt" (proved here: true initially, kept by
  every step), so the optimum may lie in a state no deal reaches: it over-approximates.
- ``reached``: the best value met in real deals the model plays (seeded random play that passes whenever
  it may, so deals run long and hands stay full), with the deal that reached it (seed and action count),
  so the gap between what is proved and what is reached is on the page.

Quantities: the most actions a deal can take (``upper`` = the largest ranking function of an initial
deal, which falls by at least 1 per action: the termination proof); for chips games the most one loser
pays at settlement and the most the winner collects there; for points games the most points one seat
scores in a deal.  Chips moved during play (Comet bonus, Kings, stuck runs) are not bounded by the
invariant (it says only that they sum to zero), so those bounds are for the settlement, except where
the lemma ``comet_only`` holds (only the Comet pays in play): there the whole deal is
bounded too, at the Comet's starting value and, as a line ``a + b*v`` proved for every value v, as a
function of it (``in_comet_value``).  The sampled deals report the whole deal's returns alongside.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3
from comet import engine
from comet.presets import preset as preset_named
from comet.state import Action, DealState
from comet.variant import variant_of

from comet_proofs.certificates import Certificates, StoredOptimum, fits, model_of, value_on, values_of
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import COMET_PLAYED, PASS, Readings, SymAction, SymState

TIMEOUT_MS = 5_000
# The budget of a step check tried whole before it is split by the step's cases (``unsat_at_once``)
WHOLE_MS = 1_000
Quantity = Callable[[SymState], z3.ArithRef]
LOSS = "chips one seat pays at settlement"
DEAL_LOSS = "chips one seat loses in a deal"
DEAL_GAIN = "chips one seat wins in a deal"
GAIN = "chips one seat collects at settlement"
POINTS = "points one seat scores in a deal"
ACTIONS = "actions in a deal"


@dataclass(frozen=True, slots=True)
class Bound:
    """One quantity for one preset and player count, and two facts kept apart: the proved upper bound
    (``upper``; None: not bounded by the encoding) and the most a concrete deal is known to reach
    (``witness``: a shipped witness deal, ``witness_file``, replayed by the model now; None: no deal is
    shipped for it).  ``sampled`` is the best of the seeded random deals (seed ``seed``, ``actions`` long):
    a check that no real deal beats the bound, never shown as the extreme.  ``per_value``: where the
    quantity grows with the Comet's value v, (a, b) such that it is at most a + b*v for every v >= 0
    (``in_comet_value``)."""

    preset: str
    players: int
    quantity: str
    upper: int | None
    sampled: int
    seed: int
    actions: int
    per_value: tuple[int, int] | None = None
    witness: int | None = None
    witness_file: str = ""
    # one line per stored certificate of this preset and player count's optima that was stale or missing
    # (those optima were searched afresh: ``maxima``)
    certificate_notes: tuple[str, ...] = ()

    @property
    def best(self) -> int:
        """The most a known deal (a witness or a sampled one) reaches."""
        return max(self.sampled, self.witness if self.witness is not None else self.sampled)

    @property
    def ok(self) -> bool:
        """No real deal beats the proved bound (if one does, the model or the encoding is wrong)."""
        return self.upper is None or self.best <= self.upper

    @property
    def exact(self) -> bool:
        """Proved and reached by a witness deal: the value is the maximum."""
        return self.upper is not None and self.witness == self.upper

    @property
    def gap(self) -> int | None:
        """Proved bound minus the most a witness deal reaches (None: no bound or no witness)."""
        return None if self.upper is None or self.witness is None else self.upper - self.witness


def dealt_size(enc: Encoding, players: int, rd: Readings, certs: Certificates | None = None) -> int:
    """The largest hand an initial deal gives (Optimize over ``Init``; ``certs``: ``maxima``)."""
    init = enc.fresh_state("d", players)
    size = maxima(certs, f"{players}p largest hand dealt", [enc.initial(init, rd)], [enc.hand_size(init, 0)])[0]
    if size is None:
        raise AssertionError(f"{enc.name}: no largest initial hand")
    return size


def hands_within_deal(enc: Encoding, s: SymState, size: int) -> z3.BoolRef:
    return z3.And([enc.hand_size(s, p) <= size for p in range(s.players)])


def lemma_holds(enc: Encoding, players: int, rd: Readings, size: int) -> bool:
    """ "No hand is larger than the hand dealt": true initially, and no step makes any hand larger (whatever
    the state: no invariant needed; the step tried whole, then split by the encoding's ``action_cases``, as
    the proofs do: ``unsat_at_once``)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    base = z3.And(enc.initial(s, rd), z3.Not(hands_within_deal(enc, s, size)))
    grows = z3.Or([enc.hand_size(t, p) > enc.hand_size(s, p) for p in range(players)])
    step = z3.And(enc.transition(s, a, t, rd), grows)
    if solve_alone([base], 6 * TIMEOUT_MS).verdict != z3.unsat:
        return False
    if unsat_at_once([step], [z3.BoolVal(True)]):
        return True
    return all(solve_alone([step], 6 * TIMEOUT_MS, c).verdict == z3.unsat for c in step_cases(enc, a))


def unsat_at_once(hypothesis: list[z3.BoolRef], breaks: Sequence[z3.BoolRef]) -> bool:
    """``hypothesis ∧ Or(breaks)`` proved unsat in one check of at most ``WHOLE_MS``, the step not split by its
    cases: then no case can break either, and the split (one check per card on a card-level encoding)
    is not needed; False (split it) when Z3 gives no such answer in that time.  The step's checks of the
    two Commit encodings' bounds: about 0.4 and 1 s split, 0.01-0.03 s whole (2026-12-02)."""
    return bool(solve_alone([z3.And(*hypothesis, z3.Or(*breaks))], WHOLE_MS).verdict == z3.unsat)


def step_cases(enc: Encoding, a: SymAction) -> list[z3.BoolRef]:
    """The encoding's action cases, then the rest split by action kind (the rest as one formula makes Z3 give
    up on a card-level encoding): together they cover every action."""
    cases = enc.action_cases(a)
    kinds = sorted({kind for kind, _ in enc.all_actions()})
    rest = z3.Not(z3.Or(*cases)) if cases else z3.BoolVal(True)
    return [*cases, *[z3.And(rest, a.kind == k) for k in kinds], z3.And(rest, *[a.kind != k for k in kinds])]


def comet_only(enc: Encoding, s: SymState) -> z3.BoolRef:
    """Chips move in play only for the Comet, once: none before it is played, and then no seat has paid
    more than 4 times its value or received more than that from each other player."""

    cv, n = s.comet_value, s.players
    bounded = [z3.And(c >= -4 * cv, c <= 4 * cv * (n - 1)) for c in s.chips]
    return z3.And(z3.Implies(s.comet != COMET_PLAYED, z3.And([c == 0 for c in s.chips])), *bounded)


def comet_only_lemma_holds(enc: Encoding, players: int, rd: Readings) -> bool:
    """``comet_only`` is true initially and kept by every step from an ``Inv`` state (so it bounds the chips
    a deal moves in play); false where other things pay in play (Kings paid for in play, in some games)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    init = enc.fresh_state("i", players)
    for formula in (
        z3.And(enc.initial(init, rd), z3.Not(comet_only(enc, init))),
        z3.And(enc.invariant(s), comet_only(enc, s), enc.transition(s, a, t, rd), z3.Not(comet_only(enc, t))),
    ):
        if solve_alone([formula], 2 * TIMEOUT_MS).verdict != z3.unsat:
            return False
    return True


def maximise(constraints: list[z3.BoolRef], objective: z3.ArithRef) -> int | None:
    """The maximum of ``objective`` (None if unbounded or Z3 gives no answer in time), in a Z3 context of its
    own, as the proofs are solved (``solving.solve_alone``): in a worker that has built other terms
    before, the search in the main context differs (a card-level encoding's bounds: 1.6 s alone, 5.8 s in the
    pool of ``comet verify``, 2026-12-01)."""
    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", TIMEOUT_MS)
    opt.add(*[c.translate(ctx) for c in constraints])
    handle = opt.maximize(objective.translate(ctx))
    if opt.check() != z3.sat:
        return None
    value = opt.upper(handle)
    return int(value.as_long()) if z3.is_int_value(value) else None


def maximise_all(constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]) -> list[int | None]:
    """``[maximise(constraints, o) for o in objectives]`` in one ``Optimize`` (Z3's "box" priority: each
    objective's own maximum, the formula preprocessed once; the time limit is the sum of theirs): a card-level
    encoding's bounds ask several pairs of maxima over the same constraints (the most lost and won).  Where
    Z3 gives no answer for them together, each is asked alone (``maximise``), so the answers are never
    fewer than one by one."""
    if len(objectives) == 1:
        return [maximise(constraints, objectives[0])]
    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", TIMEOUT_MS * len(objectives))
    opt.set("priority", "box")
    opt.add(*[c.translate(ctx) for c in constraints])
    handles = [opt.maximize(o.translate(ctx)) for o in objectives]
    if opt.check() != z3.sat:
        return [maximise(constraints, o) for o in objectives]
    values = [opt.upper(h) for h in handles]
    return [int(v.as_long()) if z3.is_int_value(v) else None for v in values]


def maxima(
    certs: Certificates | None, key: str, constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]
) -> list[int | None]:
    """``maximise_all(constraints, objectives)``, from the stored certificate ``key`` of ``certs`` where it is
    current (``optimum_problem``: each value attained by its stored model, and Z3 proves none exceeded, so
    they are the exact optima, the same numbers ``Optimize`` gives), else searched as without certificates
    (with a note); at ``--update`` (``certs.recording``) a model attaining each optimum is found and kept."""
    if certs is None:
        return maximise_all(constraints, objectives)
    certs.asked.add(key)
    stored = certs.optima.get(key)
    if stored is not None and not stored.search:
        problem = optimum_problem(stored, constraints, objectives)
        if problem is None:
            certs.used += 1
            certs.found_optima[key] = stored
            return list(stored.values)
        certs.stale(f"bound '{key}'", problem)
    elif stored is None and certs.notify_missing:
        certs.stale(f"bound '{key}'", "missing")
    started = time.process_time()
    values = maximise_all(constraints, objectives)
    spent = time.process_time() - started
    if certs.recording:
        certs.found_optima[key] = attained(constraints, objectives, values, spent)
    elif stored is not None and stored.search and list(stored.values) == values:
        certs.found_optima[key] = stored
    return values


UNPROVED = "not proved in time"


def optimum_problem(
    stored: StoredOptimum, constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef]
) -> str | None:
    """Why a stored optimum is not the optimum now (None: it is): each stored model must satisfy the
    constraints and give its objective the stored value (the optimum is at least that), and
    ``constraints ∧ Or(objective > value)`` must be unsat (at most that)."""
    if len(stored.values) != len(objectives) or len(stored.models) != len(objectives):
        return "stale (another number of objectives)"
    for objective, value, values in zip(objectives, stored.values, stored.models, strict=True):
        model = model_of(values)
        if not fits(model, constraints) or value_on(model, objective) != value:
            return "stale (its model no longer attains the optimum)"
    above = z3.Or(*[o > v for o, v in zip(objectives, stored.values, strict=True)])
    verdict = solve_alone([*constraints, above], TIMEOUT_MS).verdict
    if verdict == z3.unsat:
        return None
    return "stale (the optimum is larger now)" if verdict == z3.sat else UNPROVED


def attained(
    constraints: list[z3.BoolRef], objectives: Sequence[z3.ArithRef], values: Sequence[int | None], spent: float
) -> StoredOptimum:
    """The certificate of optima ``values`` found by ``Optimize`` in ``spent`` CPU seconds: a model attaining
    each.  Marked ``search`` where a value is missing, no model is found, or checking the certificate
    (``optimum_problem``) is not proved in time or takes clearly longer than the search did: ``comet verify``
    then searches it."""
    if any(v is None for v in values):
        return StoredOptimum((), (), True)
    found = [int(v) for v in values if v is not None]
    models: list[dict[str, int | bool]] = []
    for objective, value in zip(objectives, found, strict=True):
        solved = solve_alone([*constraints, objective == value], 6 * TIMEOUT_MS)
        got = values_of(solved.model) if solved.model is not None else None
        if got is None:
            return StoredOptimum(tuple(found), (), True)
        models.append(got)
    certificate = StoredOptimum(tuple(found), tuple(models))
    started = time.process_time()
    problem = optimum_problem(certificate, constraints, objectives)
    if problem is not None and problem != UNPROVED:  # Optimize and the models found contradict the proof
        raise AssertionError(f"a certificate of the optima {found} fails as it is written: {problem}")
    # searched where the check is clearly the dearer (a small Optimize and its check cost about the same, and
    # timing noise should not flip the choice from one --update to the next)
    checking = time.process_time() - started
    slower = problem == UNPROVED or (checking > 2 * spent and checking > 0.05)
    return StoredOptimum(tuple(found), tuple(models), slower)


def none_holds(
    hypothesis: list[z3.BoolRef], breaks: Sequence[z3.BoolRef], ms: int, case: z3.BoolRef | None, whole: bool
) -> list[bool]:
    """For each formula of ``breaks``: ``hypothesis ∧ it`` is unsat (on ``case``; with ``whole`` given to Z3 as
    one conjunction, else as the list of them).  One check of ``hypothesis ∧ Or(breaks)`` first (unsat: none
    can hold, at the cost of one Z3 preprocessing of the hypothesis instead of one per formula), each alone
    only where that is not unsat."""

    def unsat(b: z3.BoolRef) -> bool:
        formulas = [z3.And(*hypothesis, b)] if whole else [*hypothesis, b]
        return bool(solve_alone(formulas, ms, case).verdict == z3.unsat)

    if len(breaks) > 1 and unsat(z3.Or(*breaks)):
        return [True] * len(breaks)
    return [unsat(b) for b in breaks]


@dataclass(frozen=True, slots=True)
class InPlay:
    """A bound on a quantity that play builds up from 0 (the chips a seat loses or wins during play, the
    points it scores in play), proved by a potential: with ``per_pass`` at least what one pass adds and
    ``per_card`` at least what one play adds (plus what the play raises the pass budget by, times
    ``per_pass``), ``quantity + per_card * cards in hands + per_pass * passes left`` never grows, so the
    quantity ends at most ``most``, that potential's largest value in an initial deal."""

    per_pass: int
    per_card: int
    most: int


def in_play_bound(
    enc: Encoding,
    players: int,
    rd: Readings,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    quantity: Quantity,
    certs: Certificates | None = None,
    key: str = "in play",
) -> InPlay | None:
    """The most ``quantity`` (of a state; 0 when a deal starts) can reach in a deal (``InPlay``), or None
    where a weight is not found or the potential is not proved to fall: ``in_play_bounds`` of one."""
    return in_play_bounds(enc, players, rd, fixed, [quantity], certs, key)[0]


def in_play_bounds(
    enc: Encoding,
    players: int,
    rd: Readings,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    quantities: Sequence[Quantity],
    certs: Certificates | None = None,
    key: str = "in play",
) -> list[InPlay | None]:
    """For each of ``quantities`` (of a state; 0 when a deal starts) the most it can reach in a deal
    (``InPlay``), or None where a weight is not found or the potential is not proved to fall.  Each weight is
    an Optimize over ``Inv`` and one step (with ``fixed``: e.g. the Comet at its starting value); the potential
    is then checked by Z3 (no step from an ``Inv`` state makes it grow, and the quantity is 0 in every
    initial deal), so a weight Z3 got wrong cannot make the bound unsound.  The quantities share the step's
    formula and each Z3 call (``maximise_all``, ``none_holds``: the most lost and the most won of
    a card-level encoding, 7.5 s -> 5 s of CPU, 2026-12-02); each answer is the one it would get alone.
    ``certs``, ``key``: the weights and the largest potential from stored certificates (``maxima``); the
    potential's checks are made in any case."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    step = [enc.invariant(s), enc.transition(s, a, t, rd), *fixed(s)]
    gained = [quantity(t) - quantity(s) for quantity in quantities]
    out: list[InPlay | None] = [None] * len(quantities)
    passes = maxima(certs, f"{players}p {key}: most gained by a pass", [*step, a.kind == PASS], gained)
    alive = [i for i, w in enumerate(passes) if w is not None]
    per_pass = {i: max(passes[i] or 0, 0) for i in alive}
    raised = enc.pass_budget(t) - enc.pass_budget(s)
    weighed = [gained[i] + per_pass[i] * raised for i in alive]
    cards = maxima(certs, f"{players}p {key}: most gained by a play", [*step, a.kind != PASS], weighed)
    per_card = {i: max(w, 0) for i, w in zip(alive, cards, strict=True) if w is not None}
    alive = [i for i in alive if i in per_card]

    def potential(i: int, x: SymState) -> z3.ArithRef:
        return per_card[i] * enc.cards_in_hands(x) + per_pass[i] * enc.pass_budget(x)

    init = enc.fresh_state("ip", players)
    zero = none_holds([enc.initial(init, rd)], [quantities[i](init) != 0 for i in alive], 2 * TIMEOUT_MS, None, False)
    alive = [i for i, ok in zip(alive, zero, strict=True) if ok]
    grows = {i: gained[i] > potential(i, s) - potential(i, t) for i in alive}
    if alive and not unsat_at_once(step, [grows[i] for i in alive]):
        for case in step_cases(enc, a):
            kept = none_holds(step, [grows[i] for i in alive], 2 * TIMEOUT_MS, case, True)
            alive = [i for i, ok in zip(alive, kept, strict=True) if ok]
    most = maxima(
        certs,
        f"{players}p {key}: largest potential dealt",
        [enc.initial(init, rd)],
        [potential(i, init) for i in alive],
    )
    for i, m in zip(alive, most, strict=True):
        out[i] = None if m is None else InPlay(per_pass[i], per_card[i], m)
    return out


def lost_in_play(s: SymState) -> z3.ArithRef:
    """The chips seat 0 has lost during play so far."""
    return -s.chips[0]


def won_in_play(s: SymState) -> z3.ArithRef:
    """The chips seat 0 has won during play so far."""
    return s.chips[0]


# A Comet value past which the most a seat loses or wins grows by the same amount per unit of value: the
# settlement (no more than a few thousand chips) no longer decides which deal is the worst.
LARGE_VALUE = 10_000


def in_comet_value(constraints: list[z3.BoolRef], objective: z3.ArithRef, value: z3.ArithRef) -> tuple[int, int] | None:
    """The most ``objective`` reaches as a function of the Comet's value ``value`` (free in
    ``constraints``): (a, b) with ``objective <= a + b*v`` for every v >= 0: ``in_comet_values`` of one."""
    return in_comet_values(constraints, [objective], value)[0]


def in_comet_values(
    constraints: list[z3.BoolRef],
    objectives: Sequence[z3.ArithRef],
    value: z3.ArithRef,
    certs: Certificates | None = None,
    key: str = "in the Comet's value",
) -> list[tuple[int, int] | None]:
    """For each of ``objectives``, the most it reaches as a function of the Comet's value ``value`` (free in
    ``constraints``): (a, b) with ``objective <= a + b*v`` for every v >= 0.  The line is guessed from two
    optima (a at v = 0, where it is exact; b the growth per unit of v at ``LARGE_VALUE``) and then proved
    by Z3 for every value (``bounded_in_value``); None if an optimum is not found in time or the line does
    not hold everywhere.  The objectives share each Optimize (``maximise_all``; ``certs``, ``key``: from
    stored certificates, ``maxima``)."""
    at_zero = maxima(certs, f"{key} at 0", [*constraints, value == 0], objectives)
    far = maxima(certs, f"{key} at {LARGE_VALUE}", [*constraints, value == LARGE_VALUE], objectives)
    further = maxima(certs, f"{key} at {LARGE_VALUE + 1}", [*constraints, value == LARGE_VALUE + 1], objectives)
    out: list[tuple[int, int] | None] = []
    for objective, a, x, y in zip(objectives, at_zero, far, further, strict=True):
        if a is None or x is None or y is None:
            out.append(None)
            continue
        slope = y - x
        out.append((a, slope) if bounded_in_value(constraints, objective, value, a, slope) else None)
    return out


def bounded_in_value(constraints: list[z3.BoolRef], objective: z3.ArithRef, value: z3.ArithRef, a: int, b: int) -> bool:
    """Proved: ``objective <= a + b*value`` for every ``value`` >= 0 under ``constraints``."""
    above = z3.And(*constraints, value >= 0, objective > a + b * value)
    return bool(solve_alone([above], TIMEOUT_MS).verdict == z3.unsat)


def proved_bounds(preset: str, players: int) -> dict[str, int | None]:
    """The Optimize upper bounds of ``preset`` for ``players`` seats (its own readings, Comet at its starting
    value); quantities as in ``bounds``."""
    return {name: upper for name, (upper, _) in proved_bounds_in_value(preset, players).items()}


def proved_bounds_in_value(
    preset: str, players: int, certs: Certificates | None = None
) -> dict[str, tuple[int | None, tuple[int, int] | None]]:
    """``proved_bounds`` with, for the quantities that grow with the Comet's value (a whole deal's chips,
    where only the Comet pays in play), the bound as a function of it (``in_comet_value``); ``certs``: the
    optima from stored certificates where current (``maxima``)."""
    enc = encoding_for(preset)
    rules = preset_named(preset).rules
    rd = enc.readings_of(rules)
    start = variant_of(rules).comet_value
    out: dict[str, tuple[int | None, tuple[int, int] | None]] = {}
    init = enc.fresh_state("i", players)
    p = f"{players}p"
    actions = maxima(certs, f"{p} {ACTIONS}", [enc.initial(init, rd), init.comet_value == start], [enc.ranking(init)])
    out[ACTIONS] = (actions[0], None)
    size = dealt_size(enc, players, rd, certs)
    if not lemma_holds(enc, players, rd, size):  # not proved (in time): no bound from the invariant
        return out
    s = enc.fresh_state("s", players)
    free = [enc.invariant(s), hands_within_deal(enc, s, size), enc.terminal(s)]
    free += enc.fixed_by_rules(s, rules)  # e.g. a pool at the preset's stake
    over = [*free, s.comet_value == start]

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == start, *enc.fixed_by_rules(x, rules)]

    if enc.scoring == "chips":
        net = enc.deal_returns(s, rd)[0] - s.chips[0]  # seat 0's settlement (every seat is alike)
        loss, gain = maxima(certs, f"{p} {LOSS}, {GAIN}", over, [-net, net])
        out[LOSS], out[GAIN] = (loss, None), (gain, None)
        if comet_only_lemma_holds(enc, players, rd):  # the whole deal: settlement plus the one Comet bonus
            whole = [*free, comet_only(enc, s)]
            returned = enc.deal_returns(s, rd)[0]
            objectives = [-returned, returned]
            uppers = maxima(certs, f"{p} {DEAL_LOSS}, {DEAL_GAIN}", [*whole, s.comet_value == start], objectives)
            lines = in_comet_values(whole, objectives, s.comet_value, certs, f"{p} {DEAL_LOSS}, {DEAL_GAIN} in value")
            for name, upper, line in zip((DEAL_LOSS, DEAL_GAIN), uppers, lines, strict=True):
                out[name] = (upper, line)
        else:  # other things pay in play: the settlement's bound plus the most play can move (``in_play_bounds``)
            moves = in_play_bounds(enc, players, rd, at_start, [lost_in_play, won_in_play], certs, "chips in play")
            for name, settled, play in zip((DEAL_LOSS, DEAL_GAIN), (loss, gain), moves, strict=True):
                out[name] = (None if settled is None or play is None else settled + play.most, None)
    else:
        points = enc.deal_points(s, rd)[0]
        most = maxima(certs, f"{p} {POINTS}", over, [points])[0]
        scored = enc.play_points(s, 0)
        if most is None and scored is not None:  # the points scored in play bounded first (``in_play_bound``)

            def in_play(x: SymState) -> z3.ArithRef:
                got = enc.play_points(x, 0)
                return z3.IntVal(0) if got is None else got

            moved = in_play_bound(enc, players, rd, at_start, in_play, certs, "points in play")
            # what the end of the deal adds, bounded on its own (the lemma on hand sizes left out: with it Z3
            # found no optimum in 30 s on a card-level encoding; without it, 57 in under 5 s, 2026-12-02)
            ended = maxima(
                certs, f"{p} points at the end", [enc.invariant(s), enc.terminal(s), *at_start(s)], [points - scored]
            )[0]
            most = None if moved is None or ended is None else moved.most + ended
        out[POINTS] = (most, None)
    return out


def long_policy(state: DealState, rng: random.Random) -> Action:
    """Pass whenever allowed (long deals, full hands), else a random legal action."""
    acts = engine.legal_actions(state)
    passes = [a for a in acts if a.is_pass]
    return passes[0] if passes else acts[rng.randrange(len(acts))]


def quantities(final: DealState, actions: int) -> dict[str, int]:
    """Every bounded quantity of one finished deal of the model (the most over its seats)."""
    out = {ACTIONS: actions}
    if variant_of(final.rules).scoring == "chips":
        returns = engine.returns(final)
        settled = [r - c for r, c in zip(returns, final.chips(), strict=True)]
        out |= {LOSS: -min(settled), GAIN: max(settled), DEAL_LOSS: -min(returns), DEAL_GAIN: max(returns)}
    else:
        out[POINTS] = max(engine.deal_points(final))
    return out


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


def witness_values(preset: str, players: int) -> dict[str, tuple[int, str]]:
    """The most each quantity reaches in the shipped witness deals of ``preset`` for ``players`` seats with
    the Comet at its starting value, each replayed by the model now from its record: (value, file)."""
    import json
    from importlib import resources

    from comet.records.deal_record import parse_record, replay_record

    root = resources.files("comet_proofs") / "witnesses"
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))["traces"]
    best: dict[str, tuple[int, str]] = {}
    for entry in index:
        if entry["preset"] != preset or entry["players"] != players:
            continue
        trace = json.loads((root / entry["file"]).read_text(encoding="utf-8"))
        record = parse_record(trace["#meta"]["record"])
        final = replay_record(record).final
        # the bounds are at the Comet's starting value: a deal with an escalated Comet is not comparable
        if not final.terminal or final.comet_value != variant_of(final.rules).comet_value:
            continue
        for name, value in quantities(final, len(record.actions)).items():
            if name not in best or value > best[name][0]:
                best[name] = (value, entry["file"])
    return best


def random_policy(state: DealState, rng: random.Random) -> Action:
    acts = engine.legal_actions(state)
    return acts[rng.randrange(len(acts))]


def typical_players(preset: str) -> int:
    """The player count ``comet verify`` reports bounds for: 3 where the game allows, else its first count."""
    counts = encoding_for(preset).player_counts
    return counts[min(1, len(counts) - 1)]


def bounds(
    preset: str,
    players: Sequence[int] | None = None,
    deals: int = 200,
    seed: int = 0,
    certificates: Certificates | None = None,
) -> list[Bound]:
    """Every bound of ``preset`` for each of its player counts (or ``players``); ``certificates``: the stored
    optima to check before searching (default: the preset's committed ones; ``Certificates.searching``:
    none)."""
    enc = encoding_for(preset)
    counts = tuple(players) if players else enc.player_counts
    certs = certificates if certificates is not None else Certificates.stored(preset)
    out: list[Bound] = []
    for n in counts:
        before = len(certs.notes)
        certs.absence("bounds")
        proved = proved_bounds_in_value(preset, n, certs)
        notes = tuple(certs.notes[before:])
        reached = reached_values(preset, n, deals, seed)
        shipped = witness_values(preset, n)
        for name, (value, deal_seed, length) in reached.items():
            upper, per_value = proved.get(name, (None, None))
            witness, where = shipped.get(name, (None, ""))
            out.append(Bound(preset, n, name, upper, value, deal_seed, length, per_value, witness, where, notes))
    return out


def main() -> None:  # pragma: no cover - a manual run: python -m comet_proofs.bounds PRESET
    import sys

    for name in sys.argv[1:]:
        t0 = time.perf_counter()
        for b in bounds(name):
            line = f"{b.preset} {b.players}p {b.quantity}: proved <= {b.upper}, a witness deal reaches {b.witness}"
            line += f" ({b.witness_file or 'none shipped'}), gap {b.gap}; best sampled {b.sampled} (seed {b.seed})"
            print(line + (f", at most {b.per_value[0]} + {b.per_value[1]}v" if b.per_value else ""))
        print(f"{name}: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":  # pragma: no cover
    main()
