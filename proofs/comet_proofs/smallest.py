"""Provably smallest divergence witnesses: Z3 over the counting (or card-level) encodings.

A witness of ``m`` actions for two rule sets A and B of one game (``comet.diverge.witness``) is a deal and
``m - 1`` actions legal under both, after which the ``m``-th action is legal under one rule set only, or is
legal under both and moves different chips (or points), ends the deal under one only, or settles it
differently.  The order witnesses are compared in is fewest actions, then fewest players, then fewest cards
put on the table.

For ``m = 1, 2, ...`` and each player count in turn, Z3 is asked for a deal of that many players and ``m``
actions with that property, over the encoding of each rule set (``comet_proofs.registry``), both started
from the same dealt cards and the same first player, the Comet at its starting value.  The earlier actions
need not agree on anything but being legal under both: a run that differs earlier has a shorter witness,
which an earlier question would have found.  So "unsat" for every ``m' < m`` (all player counts) and for
fewer players at ``m`` proves that no witness is smaller than the one found, over **every** deal of those
player counts, not over a sample; the cards are then minimised the same way.  The search space is the
encoding's: the counting abstraction loses nothing the rules look at (suits matter only to tell the Comet
apart), which the refinement check and the random successor-exact cross-check test (spec/proofs.md).

The first satisfying model is made a real deal (``concrete.concretise``), replayed through ``comet.engine``
step by step, and the engine's own lockstep comparison must show the difference at the same step:
the witness is the engine's, the proof the encoding's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import z3
from comet import engine
from comet.diverge.lockstep import legal_split, step_both
from comet.presets import preset as preset_named
from comet.ruleset import RULING_FIELDS, Ruleset
from comet.state import Action, DealState
from comet.variant import applies, variant_of

from comet_proofs.concrete import concretise
from comet_proofs.encoding import Encoding
from comet_proofs.refine import realism
from comet_proofs.registry import encoding_for, encodings
from comet_proofs.symbolic import (
    CARD,
    COMET,
    COMET_QUARTET,
    GROUP_BASE,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
    AbstractState,
    Readings,
    SymAction,
    SymState,
)

#: Z3's budget per question, in its resource units (``rlimit``: counted work, not time, so the same questions
#: get the same answers however loaded the machine is); a question that runs out leaves the pair "not proved"
QUESTION_RLIMIT = 250_000_000
#: the budget for one pair's questions (Z3 resource units, summed over its questions); when it runs out,
#: what was proved so far is a lower bound.  Each question may spend a quarter of it (at least
#: ``QUESTION_RLIMIT``).  On the 2026 build machine 10^6 units took about 0.1 s.
PAIR_RLIMIT = 1_000_000_000
#: the space every bound is over, in words
SPACE = " (the Comet at its starting value)"
#: the longest witness looked for (actions)
MAX_ACTIONS = 14


@dataclass(frozen=True, slots=True)
class Smallest:
    """The outcome for one pair: the witness deal (under A) and actions, and what was proved.

    ``proved`` is true when every smaller witness in the measures ``over`` (a prefix of actions, players,
    cards) was shown impossible; ``text`` states the bound in words for the report, Z3's budget included;
    ``questions`` counts the Z3 questions asked and ``spent`` the resource units they used."""

    start: DealState | None
    actions: tuple[Action, ...]
    players: int
    size: tuple[int, int, int]
    proved: bool
    text: str
    questions: int
    seconds: float
    spent: int = 0
    over: tuple[str, ...] = ()
    within: tuple[int, ...] = ()  # the player counts searched, when not every one the game allows
    #: (actions, players) proved the least any witness has, when a witness of that size exists in the encoding
    #: but none was made a real deal (``start`` None): a witness found otherwise of that size is the smallest
    least: tuple[int, int] | None = None


class Budget:
    """Z3's resource budget for one pair: each ``check`` may spend ``per_check`` units and all of them
    together ``total`` (``rlimit``, Z3's count of work done: the same questions asked in a fresh process get
    the same verdicts on any machine and under any load, unlike a wall-clock timeout; after other questions
    in the same process Z3 holds other terms and may get further or less far, but "unsat" is a proof
    either way)."""

    def __init__(self, total: int = PAIR_RLIMIT, per_check: int | None = None) -> None:
        self.total = total
        self.per_check = per_check if per_check is not None else max(QUESTION_RLIMIT, total // 4)
        self.spent = 0

    @property
    def left(self) -> int:
        return self.total - self.spent

    def check(self, solver: z3.Solver) -> z3.CheckSatResult:
        """``solver.check()`` within what is left (unknown, without asking, when nothing is)."""
        if self.left <= 0:
            return z3.unknown
        solver.set("rlimit", min(self.per_check, self.left))
        before = _rlimit_count(solver)
        verdict = solver.check()
        self.spent += max(0, _rlimit_count(solver) - before)
        return verdict

    def text(self) -> str:
        return f"Z3 budget {_units(self.per_check)} per check, {_units(self.total)} per pair"

    def proved_text(self) -> str:
        """After a bound proved: it rests on Z3's unsat answers, which are proofs whatever the budget (the
        budget only limits how far Z3 is asked)."""
        return f"each bound proved is an unsat answer of Z3, so it holds whatever the budget; {self.text()}"


def _rlimit_count(solver: z3.Solver) -> int:
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:  # no work counted yet
        return 0


def _units(n: int) -> str:
    """A resource count in words: 250M rlimit units."""
    return f"{n // 1_000_000}M rlimit units" if n % 1_000_000 == 0 else f"{n} rlimit units"


def covers(enc: Encoding, rules: Ruleset, players: int) -> bool:
    """Does ``enc`` cover deals of ``rules`` (its ``abstract`` accepts a fresh deal under them)?"""
    try:
        start = engine.shuffled_deal(rules, players, 0, 0)
        enc.abstract(start)
    except ValueError:
        return False
    known = (*enc.unquantified, *enc.outside)
    return all(enc.has_ruling(f) or f in known for f in _read_fields(rules))


def _read_fields(rules: Ruleset) -> tuple[str, ...]:
    return tuple(f for f in RULING_FIELDS if applies(f, rules.variant))


def encoding_of(preset: str, rules: Ruleset, players: int) -> Encoding | None:
    """The encoding that covers ``rules``: the preset's own, else another registered one (one game's
    encoding may cover another preset's rules with an option on)."""
    try:
        own = encoding_for(preset)
    except ValueError:
        own = None
    if own is not None and covers(own, rules, players):
        return own
    registered = encodings()
    for name in sorted(registered):
        enc = registered[name]()
        if players in enc.player_counts and covers(enc, rules, players):
            return enc
    return None


def quantifies(preset: str, field: str, a: Ruleset, b: Ruleset, players: int) -> bool:
    """Can the encodings tell A and B apart at all: the field is a free Boolean of A's or B's encoding, or
    the two rule sets need different encodings."""
    ea, eb = encoding_of(preset, a, players), encoding_of(preset, b, players)
    if ea is None or eb is None:
        return False
    return ea.name != eb.name or ea.has_ruling(field)


def blind_reason(preset: str, field: str, a: Ruleset, b: Ruleset) -> str:
    """Why the Z3 encodings cannot tell A and B apart (``smallest`` returned None), in words."""
    counts = [n for n in engine.player_counts(a) if n in engine.player_counts(b)]
    n = counts[0]
    ea, eb = encoding_of(preset, a, n), encoding_of(preset, b, n)
    if ea is None or eb is None:
        missing, rules = ("A", a) if ea is None else ("B", b)
        own = _own(preset)
        where = f"; the {own.name} encoding lists {field} as outside" if own and field in own.outside else ""
        return f"no encoding covers {preset} under {missing}'s readings ({field} = {getattr(rules, field)}){where}"
    if field in ea.unquantified:
        return f"the {ea.name} encoding lists {field} as unquantified (it changes no transition of its abstract deal)"
    if quantifies(preset, field, a, b, n):
        return f"none when it was searched; the {ea.name} encoding now quantifies {field} (`--search` proves afresh)"
    return f"the {ea.name} encoding does not quantify {field}"


def _own(preset: str) -> Encoding | None:
    try:
        return encoding_for(preset)
    except ValueError:
        return None


def _aliases(ea: Encoding, eb: Encoding) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Symbolic actions that are one engine action (the same cards put down) taken two ways
    (``Encoding.engine_aliases``), by which an encoding tells apart what the engine decides from the suits it
    does not see (a King on a run that ends it, or leaves it standing under one reading of the Kings).  A
    witness compares engine actions: where one rule set takes such an action one way and the other the other
    way, it is the same action taken under both (``_same_play``), and it is legal under a rule set when either
    way is (``_engine_legal``)."""
    return ea.engine_aliases + (eb.engine_aliases if eb.name != ea.name else ())


def _is(x: SymAction, ka: tuple[int, int]) -> z3.BoolRef:
    return z3.And(x.kind == ka[0], x.rank == ka[1])


def _same_play(xa: SymAction, xb: SymAction, aliases: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> z3.BoolRef:
    """``xa`` (rule set A's way) and ``xb`` (B's) are the same engine action."""
    same = [z3.And(xa.kind == xb.kind, xa.rank == xb.rank)]
    for p, q in aliases:
        same += [z3.And(_is(xa, p), _is(xb, q)), z3.And(_is(xa, q), _is(xb, p))]
    return z3.Or(same)


def _engine_legal(
    enc: Encoding,
    s: SymState,
    x: SymAction,
    rd: Readings,
    aliases: Sequence[tuple[tuple[int, int], tuple[int, int]]],
) -> z3.BoolRef:
    """The engine action ``x`` stands for is legal in ``s``: ``x`` is, or (for an alias) its other way is."""
    ways = [enc.legal(s, x, rd)]
    for p, q in aliases:
        for mine, other in ((p, q), (q, p)):
            ways.append(z3.And(_is(x, mine), enc.legal(s, SymAction(z3.IntVal(other[0]), z3.IntVal(other[1])), rd)))
    return z3.Or(ways)


def _deal_fields(s: SymState) -> list[z3.ExprRef]:
    out: list[z3.ExprRef] = [x for h in s.hands for x in h]
    return out + [s.comet, *s.dead, s.to_move, s.comet_value]


def _shared_extra(sa: SymState, sb: SymState) -> list[z3.BoolRef]:
    """Extra fields both encodings have (such as a dealer's answer) start equal."""
    names_b = {k for k, _ in sb.extra}
    return [t == sb.x(k) for k, t in sa.extra if k in names_b and k in ("dealer_could", "stake")]


def _observed_differ(
    ea: Encoding, eb: Encoding, ta: SymState, tb: SymState, rda: Readings, rdb: Readings
) -> z3.BoolRef:
    """``comet.diverge.lockstep.observed`` differs: over or not, who won, a draw, chips so far (running), or
    the settled chips and points (finished)."""
    term_a, term_b = ea.terminal(ta), eb.terminal(tb)
    names_b = {k for k, _ in tb.extra}
    scores = [(t, tb.x(k)) for k, t in ta.extra if k.startswith("score") and k in names_b]  # points scored in play
    running = z3.Or([x != y for x, y in [*zip(ta.chips, tb.chips, strict=True), *scores]])
    ra, rb = ea.deal_returns(ta, rda), eb.deal_returns(tb, rdb)
    pa, pb = ea.deal_points(ta, rda), eb.deal_points(tb, rdb)
    settled = z3.Or(
        ta.winner != tb.winner,
        _drawn(ta) != _drawn(tb),
        z3.Or([x != y for x, y in zip(ra, rb, strict=True)]),
        z3.Or([x != y for x, y in zip(pa, pb, strict=True)]),
    )
    return z3.Or(
        term_a != term_b,
        z3.And(z3.Not(term_a), z3.Not(term_b), running),
        z3.And(term_a, term_b, settled),
    )


def _drawn(s: SymState) -> z3.ArithRef:
    names = {k for k, _ in s.extra}
    return s.x("drawn") if "drawn" in names else z3.IntVal(0)


@dataclass
class _Problem:
    solver: z3.Solver
    sa: list[SymState]
    sb: list[SymState]
    acts: list[SymAction]
    cards: z3.ArithRef


class _Unrolling:
    """Both encodings unrolled from one deal, one step at a time, in one solver: the question for ``m``
    actions is asked with the difference pushed on top of ``m - 1`` steps, so what Z3 learnt about the
    earlier steps is kept for the next ``m`` (``real``: with the constraints that make a model
    concretisable, which the proof questions leave out)."""

    def __init__(
        self, ea: Encoding, eb: Encoding, a: Ruleset, b: Ruleset, preset: str, players: int, real: bool
    ) -> None:
        self.ea, self.eb, self.players = ea, eb, players
        self.rda, self.rdb = ea.readings_of(a), eb.readings_of(b)
        sa0, sb0 = ea.fresh_state("A0", players), eb.fresh_state("B0", players)
        self.sa, self.sb = [sa0], [sb0]
        self.acts: list[SymAction] = []
        self.aliases = _aliases(ea, eb)
        solver = z3.Solver()
        start = variant_of(a).comet_value
        solver.add(ea.initial(sa0, self.rda), eb.initial(sb0, self.rdb), sa0.comet_value == start)
        solver.add(*[x == y for x, y in zip(_deal_fields(sa0), _deal_fields(sb0), strict=True)])
        solver.add(*_shared_extra(sa0, sb0))
        # the rules are the same for every seat: the first player is seat 0 without loss of generality
        solver.add(sa0.to_move == 0)
        if real:
            solver.add(*realism(ea, preset, sa0, False))
        self.solver = solver

    def extend_to(self, steps: int) -> None:
        """Unroll both encodings to ``steps`` actions legal under both."""
        while len(self.acts) < steps:
            i = len(self.acts)
            x, xb = self._actions(f"x{i}")
            ta, tb = self.ea.fresh_state(f"A{i + 1}", self.players), self.eb.fresh_state(f"B{i + 1}", self.players)
            self.solver.add(
                self.ea.transition(self.sa[i], x, ta, self.rda), self.eb.transition(self.sb[i], xb, tb, self.rdb)
            )
            self.sa.append(ta)
            self.sb.append(tb)
            self.acts.append(x)

    def _actions(self, prefix: str) -> tuple[SymAction, SymAction]:
        """One step's action under A and under B: the same symbolic action, or, where an encoding takes one
        engine action two ways (``_aliases``), two that are the same engine action (``_same_play``)."""
        x = SymAction.fresh(prefix)
        if not self.aliases:
            return x, x
        xb = SymAction.fresh(prefix + "b")
        self.solver.add(_same_play(x, xb, self.aliases))
        return x, xb

    def difference(self, m: int) -> tuple[z3.BoolRef, SymAction, z3.ArithRef]:
        """(the ``m``-th action parts the rule sets, that action (A's way), the cards the ``m`` actions put
        down).  Legal under one rule set only means the engine action (``_engine_legal``)."""
        self.extend_to(m - 1)
        ea, eb, sa, sb = self.ea, self.eb, self.sa[m - 1], self.sb[m - 1]
        x, xb = SymAction.fresh(f"y{m}"), SymAction.fresh(f"y{m}b") if self.aliases else None
        ta, tb = ea.fresh_state(f"TA{m}", self.players), eb.fresh_state(f"TB{m}", self.players)
        if xb is None:
            la, lb = ea.legal(sa, x, self.rda), eb.legal(sb, x, self.rdb)
            same: z3.BoolRef = z3.BoolVal(True)
            xb = x
        else:
            la = _engine_legal(ea, sa, x, self.rda, self.aliases)
            lb = _engine_legal(eb, sb, xb, self.rdb, self.aliases)
            same = _same_play(x, xb, self.aliases)
        both = z3.And(
            ea.legal(sa, x, self.rda),
            eb.legal(sb, xb, self.rdb),
            ea.transition(sa, x, ta, self.rda),
            eb.transition(sb, xb, tb, self.rdb),
            _observed_differ(ea, eb, ta, tb, self.rda, self.rdb),
        )
        # cards put on the table by the m actions: those played before the last, and the last action's
        cards = z3.Sum(*sa.played) + z3.If(sa.comet == -2, 1, 0) + _action_cards(ea, sa, x)
        return z3.And(same, z3.Or(la != lb, both)), x, cards


def _problem(
    ea: Encoding,
    eb: Encoding,
    a: Ruleset,
    b: Ruleset,
    preset: str,
    players: int,
    m: int,
    real: bool,
) -> _Problem:
    """The question "a witness of ``m`` actions and ``players`` players", in a solver of its own."""
    u = _Unrolling(ea, eb, a, b, preset, players, real)
    diff, x, cards = u.difference(m)
    u.solver.add(diff)
    return _Problem(u.solver, u.sa, u.sb, [*u.acts, x], cards)


def _action_cards(enc: Encoding, s: SymState, x: SymAction) -> z3.ArithRef:

    mine = enc.mover_count(s, x.rank)
    groups = [z3.If(x.kind == GROUP_BASE + k, k, 0) for k in range(1, 9)]
    return z3.If(
        x.kind == PASS,
        0,
        z3.If(
            z3.Or(x.kind == NATURAL, x.kind == COMET, x.kind == CARD),
            1,
            z3.If(x.kind == QUARTET, mine, z3.If(x.kind == COMET_QUARTET, enc.pack_count(NINE) + 1, z3.Sum(*groups))),
        ),
    )


def _replay(
    pair_a: Ruleset,
    pair_b: Ruleset,
    enc: Encoding,
    first: AbstractState,
    nexts: Sequence[AbstractState],
    m: int,
    enc_b: Encoding | None = None,
    nexts_b: Sequence[AbstractState] = (),
) -> tuple[DealState, tuple[Action, ...]] | None:
    """The engine's deal for a model: the first state dealt for real, then the legal action whose successor
    abstracts to the model's next state, and at the end the engine's own first difference (``m`` actions).
    With ``enc_b``, B's successor must abstract to B's next state too (where the encodings take one engine
    action two ways, ``_aliases``, this picks the card that makes the way the model took)."""
    try:
        rough = concretise(enc, first, pair_a)
        pack = next(p for p in engine.packs_in_rotation(pair_a, rough.players) if p.name == rough.pack)
        sa = engine.start_deal(pair_a, pack, rough.players, rough.dealer, rough.hands, rough.dead, rough.comet_value)
        sb = engine.start_deal(pair_b, pack, rough.players, rough.dealer, rough.hands, rough.dead, rough.comet_value)
    except (ValueError, StopIteration):
        return None
    start = sa
    actions: list[Action] = []
    for i, target in enumerate(nexts[: m - 1]):
        legal_b = set(engine.legal_actions(sb))
        step = next(
            (
                x
                for x in engine.legal_actions(sa)
                if x in legal_b
                and enc.abstract(engine.apply(sa, x)) == target
                and (enc_b is None or enc_b.abstract(engine.apply(sb, x)) == nexts_b[i])
            ),
            None,
        )
        if step is None:
            return None
        actions.append(step)
        sa, sb, kind = step_both(sa, sb, step)
        if kind is not None:
            return None
    # the last action: where the legal actions differ, the one the lockstep comparison names (``legal_split``,
    # so the witness's label replays); else, of those that part the rule sets here, one putting down the
    # fewest cards
    split = legal_split(sa, sb)
    if split is not None:
        return start, (*actions, split)
    la, lb = engine.legal_actions(sa), engine.legal_actions(sb)
    only = [x for x in la if x not in lb] + [x for x in lb if x not in la]
    both = [x for x in la if x in lb and step_both(sa, sb, x)[2] is not None] if not only else []
    parting = only or both
    if not parting:
        return None
    return start, (*actions, min(parting, key=lambda x: len(x.cards)))


def smallest(
    preset: str,
    field: str,
    a: Ruleset,
    b: Ruleset,
    on_question: Callable[[str], None] | None = None,
    max_actions: int = MAX_ACTIONS,
    rlimit: int = PAIR_RLIMIT,
    only: Sequence[int] | None = None,
) -> Smallest | None:
    """The smallest witness for A against B, proved so by Z3 within ``rlimit`` resource units (``Budget``);
    None when the encodings cannot tell A and B apart (the field, or for ``field`` empty none of the fields
    that differ, is one they quantify) or a rule set has no encoding.  With ``only``, over deals of those
    player counts alone (a weaker bound, cheaper where the larger counts are beyond the budget): the text
    says which counts were not searched and ``within`` names those that were."""
    every = [n for n in engine.player_counts(a) if n in engine.player_counts(b)]
    counts = [n for n in every if only is None or n in only]
    res = _smallest(preset, field, a, b, on_question, max_actions, rlimit, counts)
    if res is None or counts == every:
        return res
    if not counts:
        raise ValueError(f"none of the player counts {list(only or ())} is one both rule sets allow: {every}")
    rest = ", ".join(str(n) for n in every if n not in counts)
    note = f"; over deals of {', '.join(map(str, counts))} players only (deals of {rest} players not searched)"
    return replace(res, text=res.text + note, within=tuple(counts))


def _smallest(
    preset: str,
    field: str,
    a: Ruleset,
    b: Ruleset,
    on_question: Callable[[str], None] | None,
    max_actions: int,
    rlimit: int,
    counts: list[int],
) -> Smallest | None:
    t0 = time.monotonic()
    budget = Budget(rlimit)
    encs: dict[int, tuple[Encoding, Encoding]] = {}
    for n in counts:
        ea, eb = encoding_of(preset, a, n), encoding_of(preset, b, n)
        if ea is None or eb is None or n not in ea.player_counts:
            return None
        fields = [field] if field else list(b.differences(a))
        if ea.name == eb.name and not any(ea.has_ruling(f) for f in fields):
            return None
        encs[n] = (ea, eb)
    asked = 0
    unrolled: dict[int, _Unrolling] = {}
    for m in range(1, max_actions + 1):
        for n in counts:
            ea, eb = encs[n]
            if budget.left <= 0:
                return _unproved(
                    f"{_lower(m, n, counts)} ({budget.text()}: the pair's ran out)", asked, t0, m, n, budget
                )
            if on_question is not None:
                on_question(f"{preset}/{field}: {m} action(s), {n} players")
            u = unrolled.setdefault(n, _Unrolling(ea, eb, a, b, preset, n, False))
            diff, x, _ = u.difference(m)
            asked += 1
            u.solver.push()
            u.solver.add(diff)
            verdict, case = _check_cases(u.solver, ea, x, budget)
            u.solver.pop()
            if verdict == z3.unknown:
                why = (
                    f"{_lower(m, n, counts)} (Z3 gave no answer for {m} action(s), {n} players within {budget.text()})"
                )
                return _unproved(why, asked, t0, m, n, budget)
            if verdict == z3.unsat:
                continue
            return _settle(preset, ea, eb, a, b, n, m, asked, t0, counts, budget, case)
    text = (
        f"no witness of at most {max_actions} actions in any deal of {', '.join(map(str, counts))} players{SPACE}"
        f" ({budget.proved_text()})"
    )
    return Smallest(None, (), 0, (0, 0, 0), True, text, asked, time.monotonic() - t0, budget.spent, ("actions",))


def _check_split(solver: z3.Solver, enc: Encoding, x: SymAction, budget: Budget) -> z3.CheckSatResult:
    return _check_cases(solver, enc, x, budget)[0]


def _check_cases(solver: z3.Solver, enc: Encoding, x: SymAction, budget: Budget) -> tuple[z3.CheckSatResult, int]:
    """The verdict over every kind of last action, one kind per check, and the index of the case found
    sat (-1 if none)."""
    cases = enc.action_cases(x)
    verdict = z3.unsat
    for i, case in enumerate([*cases, z3.Not(z3.Or(cases))]):
        solver.push()
        solver.add(case)
        r = budget.check(solver)
        solver.pop()
        if r == z3.sat:
            return r, i
        if r == z3.unknown:
            verdict = r
    return verdict, -1


def counts_cards(enc: Encoding) -> bool:
    """Does the cards term count every card put down?  The counting encodings with one wild card (the
    Comet, its place in ``comet``) do; several wild cards and card-level places are
    not in ``played``, so there the cards are not claimed minimal."""
    try:
        wilds = enc.pack_composition(2 if 2 in enc.player_counts else enc.player_counts[0])[1]
    except ValueError:
        return False
    return wilds == 1 and not enc.card_level


def _n(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _lower(m: int, n: int, counts: Sequence[int]) -> str:
    """What the questions answered before (``m`` actions, ``n`` players) proved."""
    parts = []
    if m > 1:
        parts.append(f"no witness of fewer than {m} actions in any deal of {', '.join(map(str, counts))} players")
    fewer = [k for k in counts if k < n]
    if fewer:
        parts.append(f"none of {_n(m, 'action')} with {', '.join(map(str, fewer))} players")
    return "; ".join(parts) + SPACE if parts else "nothing proved"


def _unproved(why: str, asked: int, t0: float, m: int, n: int, budget: Budget) -> Smallest:
    return Smallest(None, (), n, (m, n, 0), False, why, asked, time.monotonic() - t0, budget.spent)


def _settle(
    preset: str,
    ea: Encoding,
    eb: Encoding,
    a: Ruleset,
    b: Ruleset,
    n: int,
    m: int,
    asked: int,
    t0: float,
    counts: Sequence[int],
    budget: Budget,
    case: int = -1,
) -> Smallest:
    """Actions and players are minimal: minimise the cards, then make the model a real deal (first with the
    last action of the kind the proof question found, ``case``, which Z3 answers far faster)."""
    prob = _problem(ea, eb, a, b, preset, n, m, real=True)
    cases = ea.action_cases(prob.acts[-1])
    if 0 <= case < len(cases):
        prob.solver.push()
        prob.solver.add(cases[case])
        if budget.check(prob.solver) != z3.sat:
            prob.solver.pop()
    best: tuple[DealState, tuple[Action, ...], int] | None = None
    while True:
        asked += 1
        verdict = budget.check(prob.solver)
        if verdict != z3.sat:
            break
        model = prob.solver.model()
        c = int(model.eval(prob.cards, model_completion=True).as_long())
        nexts = [s.evaluate(model) for s in prob.sa[1:]]
        if _aliases(ea, eb):
            nexts_b = [s.evaluate(model) for s in prob.sb[1:]]
            found = _replay(a, b, ea, prob.sa[0].evaluate(model), nexts, m, eb, nexts_b)
        else:
            found = _replay(a, b, ea, prob.sa[0].evaluate(model), nexts, m)
        if found is None:
            prob.solver.add(z3.Not(prob.sa[0].equals(SymState.const(prob.sa[0].evaluate(model)))))
            continue
        best = (found[0], found[1], c)
        prob.solver.add(prob.cards < c)
    fewer = [k for k in counts if k < n]
    players_text = f"{', '.join(map(str, fewer))} players" if fewer else ""
    shorter = (
        f"no witness of fewer than {m} actions in any deal of {', '.join(map(str, counts))} players{SPACE}"
        if m > 1
        else "1 action, the fewest once no deal differs before play"
    )
    if best is None:
        why = f"{shorter}; a {m}-action witness exists in the encoding but was not made a real deal ({budget.text()})"
        if players_text:
            why = f"{shorter}; none of {_n(m, 'action')} with {players_text}; a {m}-action witness of {n} players " + (
                f"exists in the encoding but was not made a real deal ({budget.text()})"
            )
        return replace(_unproved(why, asked, t0, m, n, budget), least=(m, n))
    start, actions, c = best
    # the cards bound holds over the concretisable models only when the last question was unsat with realism;
    # the proof of fewer cards is over the realistic encoding, restated without realism:
    put_down = sum(len(x.cards) for x in actions)
    if not counts_cards(ea):
        cards_proved, why_not = False, "its encoding does not count every card put down"
    elif put_down != c:
        cards_proved, why_not = False, f"the witness puts down {put_down}, the proof's bound is {c}"
    else:
        prob_all = _problem(ea, eb, a, b, preset, n, m, real=False)
        prob_all.solver.add(prob_all.cards < c)
        asked += 1
        verdict = budget.check(prob_all.solver)
        cards_proved = verdict == z3.unsat
        why_not = (
            "Z3 gave no answer within the budget"
            if verdict == z3.unknown
            else "a deal with fewer exists in the encoding"
        )
    parts = [shorter]
    if players_text:
        parts.append(f"none of {_n(m, 'action')} with {players_text}")
    parts.append(
        f"none of {_n(m, 'action')} and {n} players with fewer than {_n(c, 'card')} played"
        if cards_proved
        else f"cards not minimised: fewer than {_n(put_down, 'card')} not excluded ({why_not})"
    )
    over = ("actions", "players", "cards") if cards_proved else ("actions", "players")
    text = f"smallest in {_measures(over)}: " + "; ".join(parts) + f" ({budget.proved_text()})"
    return Smallest(start, actions, n, (m, n, put_down), True, text, asked, time.monotonic() - t0, budget.spent, over)


def _measures(over: Sequence[str]) -> str:
    """("actions", "players") -> "actions, then players"."""
    return ", then ".join(over)


def rules_pair(preset: str, field: str, value: object) -> tuple[Ruleset, Ruleset]:
    base = preset_named(preset).rules
    return base, base.with_overrides({field: value})
