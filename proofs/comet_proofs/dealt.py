"""Non-vacuity of the proofs' starting points and the game around a deal, checked by ``comet verify``.

An obligation ``Init(s) ⇒ P(s)`` proves nothing if ``Init`` has no state (an encoding that deals seat 0
one card too many); ``Inv(s) ∧ terminal(s) ⇒ Q(s)`` nothing if no finished deal satisfies ``Inv``.  Z3
cannot tell those apart from real proofs, so ``check_dealt`` shows, per preset and player count:

- the model deals what the sources say: ``engine.deal_sizes`` (over the packs in rotation) equals the
  encoding's ``stated_deal`` (its own statement of the sources, written apart from the model) under every
  reading combination of the rulings that change the deal;
- every reading combination of the Booleans that occur in ``Init`` has a state: freshly dealt deals of
  the model under those readings (one per pack in rotation, up to two) are initial states of the encoding
  (``Init ⇒ Inv`` is proved) (the encoding's initial deal sizes are the model's, ``deal_size``, so
  a mismatch is a fault of one of the two, shown with the conjuncts of ``Init`` the deal breaks);
- each such deal, played to its end at random, ends in a state of ``Inv ∧ terminal`` (the hypothesis of
  the settlement, caught, bound and points obligations);
- the game ends where the sources say: scripted games (one seat a point ahead each deal, everyone level,
  a race) run through the model's ``game.game_over`` end exactly where the encoding's ``stated_game_end``
  ends them, under each reading of every ruling of the preset.

The steps' hypotheses (``Inv ∧ T``) are the refinement check's: every behaviour class, each action kind
among them, has a Z3 witness under every reading combination it names, replayed by the model.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import z3
from comet import engine
from comet.game import game_over, new_game
from comet.presets import preset as preset_named
from comet.ruleset import RULING_FIELDS, Ruleset, field_readings
from comet.state import DealState
from comet.variant import applies

from comet_proofs.abstraction import describe
from comet_proofs.dealing import deal_fields, dealt_sizes, reading_combos
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import AbstractState, SymState
from comet_proofs.terms import Numerals, is_variable, substituted

MAX_PACKS = 2  # packs of the rotation tried (an "any seven removed" reading has hundreds of equal-sized packs)


@dataclass(frozen=True, slots=True)
class DealtResult:
    """``check_dealt`` of one preset: deals replayed, reading combinations of ``Init`` covered, scripted
    games run, and every problem in words."""

    preset: str
    deals: int
    combinations: int
    games: int
    problems: tuple[str, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.problems


def holds(formula: z3.BoolRef) -> bool:
    """A closed formula (every state field a constant) is true: simplified to true, else decided by Z3."""
    simple = z3.simplify(formula)
    if z3.is_true(simple) or z3.is_false(simple):
        return bool(z3.is_true(simple))
    solver = z3.Solver()
    solver.add(z3.Not(simple))
    return bool(solver.check() == z3.unsat)


def conjuncts(formula: z3.BoolRef) -> list[z3.BoolRef]:
    """The conjuncts of ``formula`` (nested ``And`` flattened)."""
    out: list[z3.BoolRef] = []
    todo = [formula]
    while todo:
        f = todo.pop()
        if z3.is_and(f):
            todo.extend(reversed(f.children()))
        else:
            out.append(f)
    return out


class Membership:
    """Whether concrete states of ``players`` seats lie in ``Init ∧ Inv`` (under given readings) or in
    ``Inv ∧ terminal``: each formula is built once over a fresh state and the state's values put into it
    (building the formulas anew for every state cost a tenth of a second per deal).  A state is a model to
    check, not to search for: the values substituted, the formula simplifies to true or false (Z3's
    simplifier keeps the formula's meaning), and only a part it leaves open (the copied readings, which
    ``initial`` does not fix) goes to a solver (the starting points of every preset: 2.0 -> 1.2 s of CPU,
    2026-12-02)."""

    def __init__(self, enc: Encoding, players: int) -> None:
        self.enc = enc
        self.rd = enc.fresh_readings("nv")
        self.s = enc.fresh_state("nv", players)
        init = enc.initial(self.s, self.rd)
        flagged = zip(self.rd.fields, self.rd.flags, strict=True)
        # the quantified rulings whose Booleans occur in Init (the others cannot make it empty): Z3's terms
        # are hash-consed, so putting a value in for a Boolean that does not occur gives Init back itself
        # (a walk over Init's subterms in Python took a quarter of the starting points' time on a card-level encoding)
        self.fields = tuple(
            dict.fromkeys(f for (f, _), flag in flagged if not z3.substitute(init, (flag, z3.BoolVal(True))).eq(init))
        )
        # Init ⇒ Inv is proved (each invariant part's initial case), so a fresh deal is asked Init only
        self.start = init
        self.end = z3.And(enc.invariant(self.s), enc.terminal(self.s))
        copies = {f"nv.{name}" for name in enc.reading_fields()}
        terms = self.s.terms()
        self.terms = terms
        self.variables = [i for i, t in enumerate(terms) if is_variable(t)]
        self.kept = [i for i in self.variables if str(terms[i]) not in copies]
        self.numerals = Numerals()

    def fixed(self, a: AbstractState, copies: bool = True) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """The fields of the fresh state paired with ``a``'s values (without the copied readings: ``copies``
        false), for ``substituted``."""
        values = flat_values(a)
        return [
            (self.terms[i], self.numerals.of(values[i], z3.is_bool(self.terms[i])))
            for i in (self.variables if copies else self.kept)
        ]

    def initial(self, fixed: list[tuple[z3.ExprRef, z3.ExprRef]], rules: Ruleset) -> bool:
        given = self.enc.readings_of(rules)
        return satisfiable(self.start, [*fixed, *zip(self.rd.flags, given.flags, strict=True)])

    def finished(self, a: AbstractState) -> bool:
        return satisfiable(self.end, self.fixed(a))


def satisfiable(formula: z3.BoolRef, values: list[tuple[z3.ExprRef, z3.ExprRef]]) -> bool:
    """``formula`` with ``values`` put in has a model: simplified to true or false, else what is left open
    decided by Z3."""
    rest = z3.simplify(substituted(formula, [x for x, _ in values], [v for _, v in values]))
    if z3.is_true(rest) or z3.is_false(rest):
        return bool(z3.is_true(rest))
    if assigns(rest):  # e.g. the copied readings, each equal to a value: that assignment is a model
        return True
    solver = z3.Solver()
    solver.add(rest)
    return bool(solver.check() == z3.sat)


def assigns(formula: z3.BoolRef) -> bool:
    """``formula`` is a conjunction of ``variable == value``, each variable once: satisfiable by those values."""
    parts = formula.children() if z3.is_and(formula) else [formula]
    named: set[str] = set()
    for part in parts:
        if not z3.is_eq(part):
            return False
        x, v = part.arg(0), part.arg(1)
        if not is_variable(x):
            x, v = v, x
        if not is_variable(x) or not z3.is_int_value(v) or str(x) in named:
            return False
        named.add(str(x))
    return True


def flat_values(a: AbstractState) -> list[int | bool]:
    """``a``'s values in the order of ``SymState.terms``."""
    out: list[int | bool] = [x for h in a.hands for x in h]
    out += [a.comet, *a.played, *a.dead, a.need, a.to_move, a.last_player]
    out += [a.turn_played, *a.chips, a.winner, a.out_wild_as, a.steps, a.comet_value]
    return out + [v for _, v in a.extra] + [a.free_lead]


def replay_deals(enc: Encoding, preset: str, players: int) -> tuple[int, int, list[str]]:
    """Fresh deals of the model (one per pack in rotation, up to ``MAX_PACKS``) under every reading
    combination of the rulings that change the deal, each checked as an initial state under every reading
    combination of the other Booleans in ``Init`` and played to its end: (deals, combinations, problems)."""
    member = Membership(enc, players)
    dealing = deal_fields(enc, players)
    others = tuple(f for f in member.fields if f not in dealing)
    problems: list[str] = []
    deals = combinations = 0
    for _, dealt_rules in reading_combos(enc, dealing):
        shown = ", ".join(f"{f}={getattr(dealt_rules, f)}" for f in dealing) or "the preset's readings"
        where = f"{preset}, {players} players, {shown}"
        try:
            model_sizes = dealt_sizes(dealt_rules, players)
        except ValueError as err:
            problems.append(f"{where}: {err}")
            continue
        stated = enc.stated_deal(players, dealt_rules)
        if model_sizes != stated:
            problems.append(
                f"{where}: the model deals {model_sizes[0]} cards each and {model_sizes[1]} dead "
                f"(engine.deal_sizes), the sources say {stated[0]} each and {stated[1]} dead ({enc.name} "
                "encoding's stated_deal)"
            )
        for seed, pack in enumerate(engine.packs_in_rotation(dealt_rules, players)[:MAX_PACKS]):
            state = engine.shuffled_deal(dealt_rules, players, seed % players, seed, pack)
            deals += 1
            a = enc.abstract_dealt(state)
            fixed = member.fixed(a, copies=False)
            for _, other in reading_combos(enc, others):
                combinations += 1
                rules = dealt_rules.with_overrides({f: getattr(other, f) for f in others})
                if not member.initial(fixed, rules):
                    readings = ", ".join(f"{f}={getattr(rules, f)}" for f in member.fields)
                    problems.append(f"{preset}, {players} players, {readings}: {not_initial(enc, state, rules)}")
                    break
            else:
                problem = check_end(member, state, random.Random(seed))
                if problem:
                    problems.append(f"{where}: {problem}")
                continue
            break
    return deals, combinations, problems


def not_initial(enc: Encoding, start: DealState, rules: Ruleset) -> str:
    """Why a fresh deal is not an initial state of ``enc`` under ``rules``: the conjuncts it breaks."""
    a = enc.abstract_dealt(start)
    s = SymState.const(a)
    init = enc.initial(s, enc.readings_of(rules))
    broken = [" ".join(str(c).split()) for c in conjuncts(init) if not holds(c)]
    if not broken:
        broken = [name for name, part in enc.invariant_parts(s).items() if not holds(part)]
    return (
        f"a freshly dealt deal of the model (dealer {start.dealer}) is not an initial state of the encoding "
        "(or breaks Inv): Init is empty under these readings, so every proof from it would hold vacuously."
        f"\ndeal:\n{describe(a)}\nconjuncts it breaks: " + "; ".join(broken[:6])
    )


def check_end(member: Membership, start: DealState, rng: random.Random) -> str | None:
    """``start`` played to its end with random legal moves ends in a state of ``Inv ∧ terminal``."""
    state = start
    while not state.terminal:
        acts = engine.legal_actions(state)
        state = engine.apply(state, acts[rng.randrange(len(acts))])
    end = member.enc.abstract(state)
    if not member.finished(end):
        return f"a finished deal of the model is not in Inv ∧ terminal:\n{describe(end)}"
    return None


# ---------------------------------------------------------------- game ends

Script = Callable[[int, int], tuple[int, ...]]


def scripts(players: int) -> dict[str, Script]:
    """Deal results (net per seat for deal k = 1, 2, ...) that cross any target one point at a time."""

    def ahead(k: int, n: int) -> tuple[int, ...]:
        return (1,) + (0,) * (n - 1)

    def level(k: int, n: int) -> tuple[int, ...]:
        return (1,) * n

    def level_then_ahead(k: int, n: int) -> tuple[int, ...]:
        return (1,) * n if k <= 150 else (0, 1) + (0,) * (n - 2)

    def race(k: int, n: int) -> tuple[int, ...]:
        return (7, 6) + (0,) * (n - 2)

    return {
        "one seat a point ahead each deal": ahead,
        "everyone level": level,
        "level for 150 deals, then seat 1 ahead": level_then_ahead,
        "a race of 7 and 6 a deal": race,
    }


def game_rulesets(preset: str) -> list[Ruleset]:
    """The preset's rules and each single change of one of its finite rulings."""
    base = preset_named(preset).rules
    out = [base]
    for field in RULING_FIELDS:
        readings = field_readings(field)
        if readings is None or not applies(field, base.variant):
            continue
        for r in readings:
            if r != getattr(base, field):
                try:
                    out.append(base.with_overrides({field: r}))
                except ValueError:
                    continue
    return out


def check_game_ends(enc: Encoding, preset: str) -> tuple[int, list[str]]:
    """Scripted games through the model's ``game_over`` end where ``enc.stated_game_end`` says, for each
    reading of every ruling of the preset: (games, problems)."""
    problems: list[str] = []
    games = 0
    counts = enc.player_counts
    for rules in game_rulesets(preset):
        for players in sorted({counts[0], counts[-1]}):
            for what, script in scripts(players).items():
                games += 1
                ends = scripted_ends(enc, rules, players, script)
                if ends[0] != ends[1]:
                    problems.append(game_end_problem(preset, rules, players, what, *ends))
    return games, problems


def scripted_ends(
    enc: Encoding, rules: Ruleset, players: int, script: Script
) -> tuple[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]]:
    """(deals played and totals when the model's ``game_over`` first holds, the same when the encoding's
    ``stated_game_end`` first holds), each at most the deals agreed (``new_game``'s cap)."""
    game = first = new_game(rules, players)
    model_end: tuple[int, tuple[int, ...]] | None = None
    stated_end: tuple[int, tuple[int, ...]] | None = None
    k = 0
    while model_end is None or stated_end is None:
        if model_end is None and game_over(game):
            model_end = (k, game.balances)
        if stated_end is None and (
            k >= first.deals or (k and enc.stated_game_end(rules, players, game.balances, k, first.deals))
        ):
            stated_end = (k, game.balances)
        k += 1
        net = script(k, players)
        totals = tuple(t + d for t, d in zip(game.balances, net, strict=True))
        history = (*game.history, net)
        game = replace(game, deal_index=k, dealer=(game.dealer + 1) % players, balances=totals, history=history)
    return model_end, stated_end


def game_end_problem(
    preset: str,
    rules: Ruleset,
    players: int,
    what: str,
    model: tuple[int, tuple[int, ...]],
    stated: tuple[int, tuple[int, ...]],
) -> str:
    base = preset_named(preset).rules
    changed = ", ".join(f"{f}={getattr(rules, f)}" for f in RULING_FIELDS if getattr(rules, f) != getattr(base, f))
    return (
        f"{preset}, {players} players ({changed or 'the preset readings'}), {what}: the model's game_over ends the "
        f"game after deal {model[0]} at totals {model[1]}; the sources end it after deal {stated[0]} at totals "
        f"{stated[1]} (the {preset} encoding's stated_game_end)"
    )


def check_dealt(preset: str, enc: Encoding | None = None) -> DealtResult:
    """Every check of this module for ``preset`` (its encoding, or ``enc``), every player count."""
    start = time.perf_counter()
    e = enc if enc is not None else encoding_for(preset)
    problems: list[str] = []
    deals = combos = 0
    for players in e.player_counts:
        d, c, p = replay_deals(e, preset, players)
        deals, combos, problems = deals + d, combos + c, problems + p
    games, more = check_game_ends(e, preset)
    return DealtResult(preset, deals, combos, games, tuple(problems + more), time.perf_counter() - start)


def check_all(names: Sequence[str]) -> list[DealtResult]:
    return [check_dealt(name) for name in names]
