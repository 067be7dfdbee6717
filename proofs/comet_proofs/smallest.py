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
from comet.ruleset import Ruleset
from comet.state import Action, DealState

from comet_proofs.budget import PAIR_RLIMIT, Budget
from comet_proofs.concrete import concretise
from comet_proofs.encoding import Encoding
from comet_proofs.pair_cover import encoding_of
from comet_proofs.symbolic import (
    AbstractState,
    SymAction,
    SymState,
)
from comet_proofs.unrolling import Unrolling, aliases, problem

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
    action two ways, ``aliases``, this picks the card that makes the way the model took)."""
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
    unrolled: dict[int, Unrolling] = {}
    for m in range(1, max_actions + 1):
        for n in counts:
            ea, eb = encs[n]
            if budget.left <= 0:
                return _unproved(
                    f"{_lower(m, n, counts)} ({budget.text()}: the pair's ran out)", asked, t0, m, n, budget
                )
            if on_question is not None:
                on_question(f"{preset}/{field}: {m} action(s), {n} players")
            u = unrolled.setdefault(n, Unrolling(ea, eb, a, b, preset, n, False))
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
    prob = problem(ea, eb, a, b, preset, n, m, real=True)
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
        if aliases(ea, eb):
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
        prob_all = problem(ea, eb, a, b, preset, n, m, real=False)
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
