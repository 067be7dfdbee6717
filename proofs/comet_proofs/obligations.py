"""The proof obligations over an encoding, for one player count (``obligations``).

Every obligation is a formula whose satisfiability would be a counterexample;
``unsat`` proves it.  The readings of the rulings that change play are free Z3
Booleans, so one proof covers every combination of readings (``"*"`` in
``ProofResult.readings``).  Obligations per player count:

- for each invariant part (well-formed state, card conservation, chip zero-sum,
  turn structure, step bound): it holds in every initial deal, and
  ``Inv(s) ∧ T(s, a, s') ⇒ part(s')`` (induction step over the whole invariant);
- termination: ``Inv(s) ∧ T(s, a, s') ⇒ 0 <= ranking(s') < ranking(s)``;
- no deadlock: ``Inv(s) ⇒ (∃a. legal(s, a)) ⇔ ¬terminal(s)``;
- settlement zero-sum: in a finished deal every loser pays the winner a
  non-negative amount and the deal's returns sum to zero;
- game balances (RUL-INSOLVENCY, every reading): a payment keeps the sum of
  balances and, when paying only what one has or dropping out, keeps balances
  non-negative; a player who drops out is left with nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import z3

from comet_proofs.abstraction import describe, describe_action
from comet_proofs.encoding import TERMINATION_GOAL, Encoding
from comet_proofs.nextstate import successors
from comet_proofs.obligation import Joint, Obligation, Round
from comet_proofs.symbolic import Readings, SymAction, SymState

STEP_BOUND = "step bound (steps + ranking <= engine.step_bound)"
JOINT_STEP = "inductive step (every part of Inv and the ranking, one check per action)"
TERMINATION = "termination (ranking decreases on every action)"


# the case of an initial obligation proved through ``Encoding.initial_forms``: 0 Init against the form,
# 1 the form against the part
STEPPING = z3.Int("initial_form_case")
# the case of "deal scores non-negative" where the encoding proves it from part of Inv (``scores_hypothesis``):
# 0 Inv against that part, 1 the part against the scores
SCORES_CASE = z3.Int("scores_hypothesis_case")


def conjunct_pairs(form: z3.BoolRef, goal: z3.BoolRef) -> list[tuple[z3.BoolRef, z3.BoolRef]]:
    """``form`` and ``goal`` conjunct by conjunct when both are conjunctions of as many parts (then
    ``form ⇒ goal`` holds if each conjunct of ``form`` implies its conjunct of ``goal``), else the two whole."""
    if z3.is_and(form) and z3.is_and(goal) and form.num_args() == goal.num_args():
        return list(zip(form.children(), goal.children(), strict=True))
    return [(form, goal)]


def _readings_line(rd: Readings, m: z3.ModelRef) -> str:
    return "readings: " + ", ".join(f"{k}={v}" for k, v in rd.describe(m))


def _step_render(rd: Readings, s: SymState, a: SymAction, s2: SymState, what: str) -> Callable[[z3.ModelRef], str]:
    def render(m: z3.ModelRef) -> str:
        kind = int(m.eval(a.kind, model_completion=True).as_long())
        rank = int(m.eval(a.rank, model_completion=True).as_long())
        return (
            f"{what}\n{_readings_line(rd, m)}\nbefore:\n{describe(s.evaluate(m))}\n"
            f"action: {describe_action(kind, rank)}\nafter:\n{describe(s2.evaluate(m))}"
        )

    return render


def _state_render(rd: Readings, s: SymState, what: str) -> Callable[[z3.ModelRef], str]:
    def render(m: z3.ModelRef) -> str:
        return f"{what}\n{_readings_line(rd, m)}\nstate:\n{describe(s.evaluate(m))}"

    return render


class Shared:
    """The terms the obligations of one encoding and player count are built from (the readings ``rd``, the
    states ``s``, ``t`` and ``i``, the action ``a``; a state's invariant and its parts, ``T(s, a, t)``,
    ``Init(i)``), each built on first use and kept, so a process builds them once per plan rather than once
    per obligation.  Z3's terms are hash-consed, so they are the terms a fresh build gives, and each case is
    solved on a copy in a context of its own (``solving.solve_alone``), so Z3's search does not depend on
    when or how often a term was built.  Built over again they were about 19 s of CPU of the 65 s that every
    preset's obligations took in one process (2026-12-02; the larger card-level encoding alone 5.8 s)."""

    def __init__(self, enc: Encoding, players: int) -> None:
        self.enc, self.players = enc, players
        self.rd = enc.fresh_readings()
        self.a = SymAction.fresh()
        self._states: dict[str, SymState] = {}
        self._parts: dict[str, dict[str, z3.BoolRef]] = {}
        self._terms: dict[str, z3.BoolRef] = {}

    def state(self, prefix: str) -> SymState:
        if prefix not in self._states:
            self._states[prefix] = self.enc.fresh_state(prefix, self.players)
        return self._states[prefix]

    def parts(self, prefix: str) -> dict[str, z3.BoolRef]:
        """``invariant_parts`` of the state ``prefix``."""
        if prefix not in self._parts:
            self._parts[prefix] = self.enc.invariant_parts(self.state(prefix))
        return self._parts[prefix]

    def _term(self, key: str, make: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        if key not in self._terms:
            self._terms[key] = make()
        return self._terms[key]

    def invariant(self, prefix: str) -> z3.BoolRef:
        """``Inv`` of the state ``prefix``."""
        return self._term(f"Inv {prefix}", lambda: self.enc.invariant(self.state(prefix)))

    def step(self) -> z3.BoolRef:
        """``T(s, a, t)`` under ``rd``."""
        return self._term("T", lambda: self.enc.transition(self.state("s"), self.a, self.state("t"), self.rd))

    def initial(self) -> z3.BoolRef:
        """``Init(i)`` under ``rd``."""
        return self._term("Init", lambda: self.enc.initial(self.state("i"), self.rd))


def obligations(enc: Encoding, players: int, preset: str | None = None) -> list[Obligation]:
    """Every obligation for ``players`` seats over encoding ``enc``.

    The inductive steps of every invariant part, the step-bound lemma and the ranking's decrease are
    goals of one joint check (``JOINT_STEP``), split by the encoding's ``action_cases``: each case costs
    Z3 a preprocessing of the whole ``Inv(s) ∧ T`` whatever it is asked, so one check per case for
    every goal is cheaper than one per goal (a card-level encoding, 6 players: 2.1 s against 4.6 s for three of
    the goals apart; the five counting encodings, split by action kind: 11.4 s against 34.2 s for their
    step obligations one by one, 2026-12-01).  Each part keeps an obligation of its own for its initial
    case, which assumes the joint check."""
    name = preset or enc.name
    out: list[Obligation] = []
    sh = Shared(enc, players)
    parts = list(sh.parts("s"))
    sb_title = f"{STEP_BOUND} (initial + inductive)"

    def base_only(part: str) -> Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]:
        """The initial case of ``part``; its step is a goal of the joint check.  Where the encoding states
        ``part`` for the initial case in another form (``Encoding.initial_forms``), two cases: an initial
        deal breaks the form (``STEPPING == 0``), or the form does not imply ``part`` (``STEPPING == 1``: some
        conjunct of the form holds and its conjunct of ``part`` does not, the two taken conjunct by conjunct
        when both are conjunctions of as many parts, else whole), so unsat of both is ``Init ⇒ part``."""

        def build() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
            rd, init = sh.rd, sh.state("i")
            goal = sh.parts("i")[part]
            form = enc.initial_forms(init).get(part)
            if form is None:
                base = z3.And(sh.initial(), z3.Not(goal))
                return [base], _state_render(rd, init, f"an initial deal breaks {part}:")
            pairs = conjunct_pairs(form, goal)
            through = z3.Or([z3.And(f, z3.Not(g)) for f, g in pairs])
            formula = z3.If(STEPPING == 0, z3.And(sh.initial(), z3.Not(form)), through)

            def render(m: z3.ModelRef) -> str:
                if m.eval(STEPPING, model_completion=True).as_long() == 0:
                    return _state_render(rd, init, f"an initial deal breaks {part} (as stated for the initial case):")(
                        m
                    )
                return _state_render(rd, init, f"the initial case's statement of {part} does not imply it:")(m)

            return [formula], render

        return build

    def joint_parts() -> Joint:
        """``Inv(s) ∧ T(s, a, s')`` and, per obligation, its goal at s': each invariant part, the step-bound
        lemma (one step counted, the cards counted kept) and the ranking's decrease."""
        rd, s, s2, a = sh.rd, sh.state("s"), sh.state("t"), sh.a
        after = sh.parts("t")
        goals: list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]] = []
        for part in parts:
            if part == STEP_BOUND:
                counted = z3.And(s2.steps == s.steps + 1, enc.step_bound(s2) == enc.step_bound(s))
                head = (
                    f"one step breaks {STEP_BOUND}: it does not count exactly one step, or changes the cards counted:"
                )
                goals.append((sb_title, counted, _step_render(rd, s, a, s2, head)))
            else:
                head = f"one step breaks {part}:"
                goals.append((f"{part} (initial + inductive)", after[part], _step_render(rd, s, a, s2, head)))
        decreases = z3.And(enc.ranking(s2) >= 0, enc.ranking(s2) < enc.ranking(s))
        goals.append((TERMINATION, decreases, _step_render(rd, s, a, s2, "the ranking function does not decrease:")))
        return [sh.invariant("s"), sh.step()], goals

    def goal_title(part: str) -> str:
        if part == TERMINATION_GOAL:
            return TERMINATION
        return sb_title if part == STEP_BOUND else f"{part} (initial + inductive)"

    def rounds() -> list[Round]:
        """The encoding's ``step_slices`` as rounds of the joint check, over the same terms as ``joint_parts``
        (Z3's terms are hash-consed by name); the goals no slice names form the last round (``run_joint``)."""
        a = sh.a
        before = sh.parts("s")
        step = sh.step()
        out = []
        for sl in enc.step_slices(parts):
            cases = enc.card_cases(a) if sl.by_card else enc.kind_cases(a)
            assumed = z3.And([before[p] for p in sl.assumed])
            out.append(Round(tuple(goal_title(g) for g in sl.goals), (assumed, step), tuple(cases), sl.tactics))
        return out

    def joint_build() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        common, goals = joint_parts()
        return [*common, z3.Not(z3.And([g for _, g, _ in goals]))], lambda m: "a step breaks one of the goals"

    def nothing_alone() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        """Termination: its only goal (the ranking's decrease) is in the joint check."""
        return [z3.BoolVal(False)], lambda m: ""

    def composed() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        """The step bound (``steps + ranking <= step_bound``), in three parts: every initial deal is within it;
        every step counts one step and keeps the number of cards the bound counts (a goal of the joint
        check); and, with the ranking's decrease that the termination obligation proves (assumed here), the
        bound is kept by arithmetic alone."""
        rd, init = sh.rd, sh.state("i")
        which = z3.Int("step_bound_case")
        base = z3.And(sh.initial(), z3.Not(enc.within_step_bound(init)))
        st, st2, r, r2, b = z3.Ints("steps steps_after ranking ranking_after bound")
        arithmetic = z3.And(st + r <= b, st2 == st + 1, r2 < r, z3.Not(st2 + r2 <= b))

        def render(m: z3.ModelRef) -> str:
            if m.eval(which, model_completion=True).as_long() == 0:
                return _state_render(rd, init, f"an initial deal breaks {STEP_BOUND}:")(m)
            return f"arithmetic: {m}"

        return [z3.If(which == 0, base, arithmetic)], render

    def ob(title: str, build: Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]) -> Obligation:
        return Obligation(title, name, players, build, enc.rulings)

    which = z3.Int("step_bound_case")
    stepping = enc.initial_forms(sh.state("s"))
    for part in parts:
        title = f"{part} (initial + inductive)"
        if part == STEP_BOUND:
            cases = (which == 0, which == 2)
            out.append(Obligation(title, name, players, composed, enc.rulings, cases, (TERMINATION, JOINT_STEP)))
        else:
            two = (STEPPING == 0, STEPPING == 1) if part in stepping else ()
            out.append(Obligation(title, name, players, base_only(part), enc.rulings, two, (JOINT_STEP,)))
    out.append(Obligation(TERMINATION, name, players, nothing_alone, enc.rulings, (), (JOINT_STEP,)))
    per_action = tuple(enc.action_cases(SymAction.fresh()))
    sliced = rounds if enc.step_slices(parts) else None
    out.append(
        Obligation(
            JOINT_STEP,
            name,
            players,
            joint_build,
            enc.rulings,
            per_action,
            joint=joint_parts,
            rounds=sliced,
            tactics=enc.step_tactics,
        )
    )

    def totality() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        actions = enc.all_actions()
        nexts = successors(enc, s, rd, actions, built=(sh.state("t"), sh.a, sh.step()))
        loose = [(k, r, x.undetermined) for (k, r), x in zip(actions, nexts, strict=True) if x.undetermined]
        if loose:
            k, r, fields = loose[0]
            text = f"T does not determine the successor of '{describe_action(k, r)}': free fields {', '.join(fields)}"
            return [z3.BoolVal(True)], lambda m: text
        guards = [x.guard for x in nexts]
        a = SymAction.fresh("any")
        listed = z3.Or([z3.And(a.kind == k, a.rank == r) for k, r in actions])
        stuck = z3.And(z3.Not(enc.terminal(s)), *[z3.Not(g) for g in guards])
        moves_after_end = z3.And(enc.terminal(s), z3.Or(guards))
        unlisted = z3.And(enc.legal(s, a, rd), z3.Not(listed))
        # a state's copied readings (``reading_fields``) are the deal's: set by ``initial``, kept by T
        f = z3.And(sh.invariant("s"), enc.readings_agree(s, rd), z3.Or(stuck, moves_after_end, unlisted))

        def render(m: z3.ModelRef) -> str:
            if z3.is_true(m.eval(unlisted, model_completion=True)):
                kind = int(m.eval(a.kind, model_completion=True).as_long())
                rank = int(m.eval(a.rank, model_completion=True).as_long())
                what = f"a legal action outside the encoding's action list ({describe_action(kind, rank)}):"
            elif z3.is_true(m.eval(stuck, model_completion=True)):
                what = "a deal in progress with no successor under T (no action is legal, or its effect is impossible):"
            else:
                what = "a finished deal with a successor under T:"
            return _state_render(rd, s, what)(m)

        return [f], render

    title = "totality (a deal in progress has a successor under T, a finished one none)"
    out.append(dataclasses.replace(ob(title, totality), tactics=enc.totality_tactics))
    if enc.scoring == "points":
        caught_ob = caught_obligation(sh, ob)
        out += points_obligations(sh, ob) + ([caught_ob] if caught_ob else [])
        return out

    def payments() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s, s2, a = sh.rd, sh.state("s"), sh.state("t"), sh.a
        payee, cap = enc.payment_spec(s, a, rd)
        ok = []
        for p in range(players):
            delta = s2.chips[p] - s.chips[p]
            ok.append(z3.If(payee == p, delta >= 0, z3.And(delta <= 0, delta >= -cap)))
        f = z3.And(sh.invariant("s"), sh.step(), z3.Not(z3.And(ok)))
        return [f], _step_render(rd, s, a, s2, "chips move to a seat the action does not pay, or too many:")

    out.append(ob("play payments (only to the seat paid, at most the stated amount)", payments))

    def settlement() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        winner_pays = z3.Or([z3.And(s.winner == p, enc.settlement_amount(s, p, rd) != 0) for p in range(players)])
        ok = z3.And(
            z3.Sum(*enc.deal_returns(s, rd)) == 0,
            z3.Not(winner_pays),
            *[enc.settlement_amount(s, p, rd) >= 0 for p in range(players)],
        )
        f = z3.And(sh.invariant("s"), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            returns = [m.eval(x, model_completion=True) for x in enc.deal_returns(s, rd)]
            head = "a finished deal whose settlement is not zero-sum, or the winner pays, or a loser pays < 0:"
            return _state_render(rd, s, f"{head} returns {returns}")(m)

        return [f], render

    out.append(ob("settlement zero-sum (losers pay the winner, the winner pays nothing)", settlement))
    caught_ob = caught_obligation(sh, ob)
    if caught_ob is not None:
        out.append(caught_ob)

    def deal_bound() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        bound = enc.deal_bound(s)
        assert bound is not None
        loss, win = bound
        returns = enc.deal_returns(s, rd)
        ok = z3.And([z3.And(r >= -loss, r <= win) for r in returns])
        f = z3.And(sh.invariant("s"), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            shown = [m.eval(x, model_completion=True) for x in returns]
            lo, hi = m.eval(loss, model_completion=True), m.eval(win, model_completion=True)
            return _state_render(rd, s, f"a deal's chip change outside [-{lo}, {hi}]: returns {shown}")(m)

        return [f], render

    if enc.deal_bound(sh.state("s")) is not None:
        out.append(ob("deal bound (one seat's chip change in a deal within the stated bound)", deal_bound))

    def balances() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        bal = [z3.Int(f"balance{p}") for p in range(players)]
        payer, payee, amount = z3.Int("payer"), z3.Int("payee"), z3.Int("amount")
        what_you_have = z3.Bool("pay_what_you_have")
        # RUL-INSOLVENCY = drop_out, and whether the payer or the payee has dropped out already
        drop_out, party_out = z3.Bool("drop_out"), z3.Bool("payer_or_payee_out")
        # the payer's balance, read symbolically
        payer_bal = bal[-1]
        for i in range(players - 2, -1, -1):
            payer_bal = z3.If(payer == i, bal[i], payer_bal)
        paid = z3.If(
            drop_out,
            drop_out_payment(amount, payer_bal, party_out),
            insolvency_payment(amount, payer_bal, what_you_have),
        )
        new = [b - z3.If(payer == p, paid, 0) + z3.If(payee == p, paid, 0) for p, b in enumerate(bal)]
        new_payer = new[-1]
        for i in range(players - 2, -1, -1):
            new_payer = z3.If(payer == i, new[i], new_payer)
        domain = z3.And(
            payer >= 0,
            payer < players,
            payee >= 0,
            payee < players,
            payer != payee,
            amount >= 0,
            z3.Not(z3.And(what_you_have, drop_out)),  # one reading at a time
        )
        capped = z3.Or(what_you_have, drop_out)
        ok = z3.And(
            z3.Sum(*new) == z3.Sum(*bal),
            z3.Implies(z3.And(capped, *[b >= 0 for b in bal]), z3.And([b >= 0 for b in new])),
            # drop_out: a payer who cannot pay in full ends with nothing (and is out)
            z3.Implies(z3.And(drop_out, z3.Not(party_out), amount > payer_bal, payer_bal >= 0), new_payer == 0),
        )

        def render(m: z3.ModelRef) -> str:
            before = [m.eval(b, model_completion=True) for b in bal]
            after = [m.eval(b, model_completion=True) for b in new]
            return f"payment of {m.eval(amount)} from seat {m.eval(payer)} to {m.eval(payee)}: {before} -> {after}"

        return [domain, z3.Not(ok)], render

    out.append(ob("game balances conserved (RUL-INSOLVENCY, every reading)", balances))
    return out


Build = Callable[[], tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]]


def drop_out_payment(amount: z3.ArithRef, balance: z3.ArithRef, party_out: z3.BoolRef) -> z3.ArithRef:
    """``game.drop_out_payment`` (RUL-INSOLVENCY = drop_out): nothing to or from a player already out; a
    payer short of the amount pays max(0, balance) (and drops out), anyone else the amount."""
    short = z3.If(balance < 0, 0, balance)
    return z3.If(party_out, 0, z3.If(amount > balance, short, amount))


def insolvency_payment(amount: z3.ArithRef, balance: z3.ArithRef, what_you_have: z3.BoolRef) -> z3.ArithRef:
    """``game.finish_deal``'s payment (RUL-INSOLVENCY): the amount, or with pay_what_you_have
    max(0, min(amount, balance))."""
    capped = z3.If(amount < balance, amount, balance)
    return z3.If(what_you_have, z3.If(capped < 0, 0, capped), amount)


def caught_obligation(sh: Shared, ob: Callable[[str, Build], Obligation]) -> Obligation | None:
    """R-SETTLE-CAUGHT (R-2P-DOUBLING): a loser pays double exactly when holding the Comet, where the
    encoding states that rule (``caught_spec``)."""
    enc, players = sh.enc, sh.players
    if enc.caught_spec(sh.state("s"), sh.rd) is None:
        return None

    def caught() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        spec = enc.caught_spec(s, rd)
        assert spec is not None
        f = z3.And(sh.invariant("s"), enc.terminal(s), z3.Not(spec))

        def render(m: z3.ModelRef) -> str:
            pays = [m.eval(enc.settlement_amount(s, p, rd), model_completion=True) for p in range(players)]
            points = [m.eval(x, model_completion=True) for x in enc.deal_points(s, rd)]
            head = f"a loser pays double without holding the Comet, or not double holding it: pays {pays}"
            return _state_render(rd, s, f"{head}, deal points {points}")(m)

        return [f], render

    return ob("caught (a loser pays double exactly when holding the Comet)", caught)


def finish_deal_balances(
    balances: Sequence[z3.ArithRef], points: Sequence[z3.ArithRef], returns: Sequence[z3.ArithRef]
) -> list[z3.ArithRef]:
    """``game.finish_deal`` on symbolic totals: add the deal's points, then its net chip returns.  (With
    RUL-INSOLVENCY = pay_what_you_have payments are capped, which only matters when some are made.)"""
    return [b + p + r for b, p, r in zip(balances, points, returns, strict=True)]


def points_obligations(sh: Shared, ob: Callable[[str, Build], Obligation]) -> list[Obligation]:
    """Points games (issue 4): deal scores are non-negative, no chips change hands in the deal, and a
    game's totals are the sum of its deal scores (``game.finish_deal`` adds the points and nothing else)."""
    enc, players = sh.enc, sh.players

    def non_negative() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        ok = z3.And(
            *[p >= 0 for p in enc.deal_points(s, rd)],
            *[r == 0 for r in enc.deal_returns(s, rd)],
        )
        hyp, inv = enc.scores_hypothesis(s), sh.invariant("s")
        f = z3.And(hyp, enc.terminal(s), z3.Not(ok))
        broke = _state_render(rd, s, "a finished deal with a negative score, or chips changing hands:")
        if hyp.eq(inv):
            return [f], broke
        # proved from a part of Inv (``scores_hypothesis``): case 0, Inv implies that part; case 1, the part does it
        weaker = _state_render(rd, s, "a state of Inv outside the hypothesis the scores are proved from:")

        def render(m: z3.ModelRef) -> str:
            return (weaker if m.eval(SCORES_CASE, model_completion=True).as_long() == 0 else broke)(m)

        return [z3.If(SCORES_CASE == 0, z3.And(inv, z3.Not(hyp)), f)], render

    def game_total() -> tuple[list[z3.BoolRef], Callable[[z3.ModelRef], str]]:
        rd, s = sh.rd, sh.state("s")
        bal = [z3.Int(f"total{p}") for p in range(players)]
        pts = enc.deal_points(s, rd)
        new = finish_deal_balances(bal, pts, enc.deal_returns(s, rd))
        ok = z3.And([n == b + p for n, b, p in zip(new, bal, pts, strict=True)])
        f = z3.And(sh.invariant("s"), enc.terminal(s), z3.Not(ok))

        def render(m: z3.ModelRef) -> str:
            before = [m.eval(b, model_completion=True) for b in bal]
            after = [m.eval(x, model_completion=True) for x in new]
            scored = [m.eval(x, model_completion=True) for x in pts]
            head = f"totals {before} + deal scores {scored} gave {after}:"
            return _state_render(rd, s, head)(m)

        return [f], render

    probe = sh.state("s")
    two = () if enc.scores_hypothesis(probe).eq(sh.invariant("s")) else (SCORES_CASE == 0, SCORES_CASE == 1)
    title = "deal scores non-negative, no chips move"
    return [
        dataclasses.replace(ob(title, non_negative), cases=two),
        ob("game total is the sum of deal scores", game_total),
    ]
