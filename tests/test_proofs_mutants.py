"""Every proof obligation can fail: for each obligation and each preset it applies to, an encoding with a
bug a plausible mistake would make (a mutant) breaks it, with a readable counterexample.

Rules exercised: R-TURN-END, R-STOP-STUCK, R-END-OUT, R-PLAY-MUST, R-COMET-BONUS, R-SETTLE-POINTS,
R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST, R-2P-DOUBLING, R-PACK-BLACK, R-PACK-RED, R-RED9-DECK,
R-OLD-MANILLE-PLAY, R-COMMIT-H-KING-PAID.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import pytest
import z3
from comet_proofs import ProofResult, encoding_for, prove
from comet_proofs import obligations as obligations_module
from comet_proofs import proofs as proofs_module
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import DECK51, SuitedEncoding, held_name, loc_name
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.symbolic import NINE, PASS, Readings, SymAction, SymState
from comet_proofs.terms import at

# One player count per preset keeps each test to seconds.
PLAYERS = {
    "standard": 3,
    "opera": 3,
    "two_player": 2,
    "old_comet": 3,
    "red_nines": 4,
    "commit_hoyle": 2,
    "commit_cats": 2,
}
ALL = tuple(PLAYERS)
CHIPS = ("standard", "opera", "old_comet", "commit_hoyle")
POINTS = ("two_player", "red_nines", "commit_cats")
COUNTING = ("standard", "opera", "two_player", "old_comet", "red_nines")
CARD_LEVEL = ("commit_hoyle", "commit_cats")

Mixin = type[StandardEncoding]


def mutant(preset: str, mixin: Mixin) -> StandardEncoding:
    """The preset's encoding with ``mixin``'s methods planted over it."""
    base = type(encoding_for(preset))
    cls = type(f"{mixin.__name__}_{preset}", (mixin, base), {})
    enc = cls()
    assert isinstance(enc, StandardEncoding)
    return enc


def broken(enc: Encoding, preset: str, prefix: str) -> ProofResult:
    """Run the obligations named ``prefix`` and return the first that fails (the test fails if none does)."""
    results = prove(enc, PLAYERS[preset], only=(prefix,))
    assert results, f"no obligation starts with {prefix!r}"
    bad = [r for r in results if not r.proved]
    assert bad, f"{preset}: the planted bug was not caught by {prefix!r}"
    text = bad[0].counterexample or ""
    assert "no answer" not in text, text
    return bad[0]


def view(s2: SymState, **fields: object) -> SymState:
    return dataclasses.replace(s2, **fields)  # type: ignore[arg-type]


# ----------------------------------------------------------------- the mutants (mixins over any encoding)


class PassForgetsWrapAround(StandardEncoding):
    """Bug (R-TURN-END): after the last seat the turn goes to seat n instead of back to seat 0."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        seen = view(s2, to_move=z3.If(s2.to_move == s.players, 0, s2.to_move))
        return super().transition(s, a, seen, rd)


class PassDropsACard(StandardEncoding):
    """Bug (R-TURN-END): a pass may silently drop one of the mover's cards of the lowest rank."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        hands = [list(h) for h in s2.hands]
        for p in range(s.players):
            hands[p][0] = hands[p][0] + z3.If(z3.And(a.kind == PASS, s.to_move == p, s.hands[p][0] > 0), 1, 0)
        seen = view(s2, hands=tuple(tuple(h) for h in hands))
        return super().transition(s, a, seen, rd)


class PassLosesFirstCard(StandardEncoding):
    """Bug (card-level): on a pass the first card of the deck may go nowhere (no hand, pile or dead)."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        name = loc_name(DECK51[0])
        lost = z3.And(a.kind == PASS, s2.x(name) == -9)
        extra = tuple((k, z3.If(lost, s.x(name), t) if k == name else t) for k, t in s2.extra)
        return super().transition(s, a, view(s2, extra=extra), rd)


class PassShrinksTheCount(SuitedEncoding):
    """Bug (card-level, R-TURN-END): a pass takes one from the mover's hand count, though no card leaves the hand."""

    def count_effect(self, s: SymState, a: SymAction, s2: SymState) -> z3.BoolRef:
        held = [held_name(p) for p in range(s.players)]
        shrunk = z3.And([s2.x(h) == s.x(h) - z3.If(s.to_move == p, 1, 0) for p, h in enumerate(held)])
        return z3.If(a.kind == PASS, shrunk, super().count_effect(s, a, s2))


class FourNaturalNines(StandardEncoding):
    """Bug (R-PACK-BLACK/R-PACK-RED): the encoding counts four natural 9s, forgetting the Comet replaced one."""

    def pack_count(self, rank: int) -> int:
        return 4


class PayeePaysItself(StandardEncoding):
    """Bug (R-COMET-BONUS): the payee is counted among the payers, so it receives from every seat."""

    def transfer(self, players: int, payee: z3.ArithRef, amount: z3.ArithRef) -> tuple[z3.ArithRef, ...]:
        right = super().transfer(players, payee, amount)
        return tuple(d + z3.If(payee == p, amount, 0) for p, d in enumerate(right))


class ChipOnEveryPlay(StandardEncoding):
    """Bug (points games): each play records a chip for seat 0 (chips must not move at all)."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        chips = (s2.chips[0] - z3.If(a.kind == PASS, 0, 1), *s2.chips[1:])
        return super().transition(s, a, view(s2, chips=chips), rd)


class WinnerNotRecorded(StandardEncoding):
    """Bug (R-END-OUT): emptying one's hand may leave the deal without a winner."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        seen = view(s2, winner=z3.If(s2.winner == -1, s.to_move, s2.winner))
        return super().transition(s, a, seen, rd)


class BoundWithoutPasses(StandardEncoding):
    """Bug (R-END-OUT's step bound): the bound allows one round of passes per card, not two."""

    def step_bound(self, s: SymState) -> z3.ArithRef:
        cards = self.cards_in_hands(s) + z3.Sum(*s.played)
        return cards * (s.players + 1)


class StuckRunKeepsGoing(StandardEncoding):
    """Bug (R-STOP-STUCK): when everyone has passed the run still needs the same rank."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        free = z3.FreshInt("need_seen")
        seen = view(s2, need=z3.If(a.kind == PASS, free, s2.need))
        kept = z3.Implies(a.kind == PASS, s2.need == s.need)
        return z3.And(super().transition(s, a, seen, rd), kept)


class NobodyGoesOut(StandardEncoding):
    """Bug: the play effect contradicts itself when the mover's last card goes (so nobody can go out)."""

    def transition(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        left = at([self.hand_size(s2, p) for p in range(s.players)], s.to_move)
        return z3.And(super().transition(s, a, s2, rd), z3.Or(a.kind == PASS, left > 0))


class PaysTheNextSeat(StandardEncoding):
    """Bug (R-COMET-BONUS, R-OLD-KING, R-COMMIT-H-KING-PAID): play payments go to the next seat."""

    def transfer(self, players: int, payee: z3.ArithRef, amount: z3.ArithRef) -> tuple[z3.ArithRef, ...]:
        nxt = z3.If(payee == players - 1, 0, payee + 1)
        return super().transfer(players, nxt, amount)


class HugeBonusToSeatZero(StandardEncoding):
    """Bug (R-COMET-BONUS): a bonus of 1000 x value + 5, always paid to seat 0."""

    def bonus_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return 1000 * s.comet_value + 5

    def play_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        wild = z3.Or(a.kind == 3, a.kind == 4)
        return z3.If(wild, 1000 * s.comet_value + 5, super().play_amount(s, a, out, rd))

    def bonus_payee(self, s: SymState) -> z3.ArithRef:
        return z3.IntVal(0)


class WinnerSkipsSeatZero(StandardEncoding):
    """Bug (R-SETTLE-POINTS): the winner collects from every loser but seat 0 (an off-by-one loop)."""

    def collected(self, pays: Sequence[z3.ArithRef], seat: int) -> z3.ArithRef:
        return z3.Sum(0, *[pays[q] for q in range(1, len(pays)) if q != seat])


class CaughtPaysTreble(StandardEncoding):
    """Bug (R-SETTLE-CAUGHT): the player caught with the Comet pays x3 instead of x2."""

    def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
        right = super().settlement_amount(s, seat, rd)
        return z3.If(s.comet == seat, right / 2 * 3, right)


class TwoPlayerCaughtTreble(StandardEncoding):
    """Bug (R-2P-DOUBLING): the winner scores x3 when the loser is caught with the Comet."""

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        right = super().deal_points(s, rd)
        caught = z3.Or([z3.And(s.comet == q, s.winner != q, s.winner >= 0) for q in range(s.players)])
        return tuple(z3.If(caught, x / 2 * 3, x) for x in right)


class NineLastPaysEightfold(StandardEncoding):
    """Bug (R-SETTLE-COMET-LAST): going out on the Comet as a 9 multiplies the settlement by 8, not 4."""

    def out_multiplier(self, s: SymState, rd: Readings) -> z3.ArithRef:
        right = super().out_multiplier(s, rd)
        return z3.If(s.out_wild_as == NINE, 2 * right, right)


class LoserScoresMinusOne(StandardEncoding):
    """Bug (points games): seat 0 scores one point less than nothing when it loses with an empty score."""

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        right = super().deal_points(s, rd)
        return (right[0] - z3.If(z3.And(s.winner >= 0, s.winner != 0), 1, 0), *right[1:])


# ----------------------------------------------------------------- one test per obligation


def readable(text: str, *wanted: str) -> None:
    for w in wanted:
        assert w in text, f"{w!r} not in the counterexample:\n{text}"


@pytest.mark.parametrize("preset", ALL)
def test_well_formed_fails_when_the_turn_does_not_wrap(preset: str) -> None:
    bad = broken(mutant(preset, PassForgetsWrapAround), preset, "well-formed")
    readable(bad.counterexample or "", "one step breaks well-formed state", "action: ", "readings:")


@pytest.mark.parametrize("preset", COUNTING)
def test_card_conservation_fails_when_a_pass_drops_a_card(preset: str) -> None:
    bad = broken(mutant(preset, PassDropsACard), preset, "card conservation")
    readable(bad.counterexample or "", "one step breaks card conservation", "action: pass")


@pytest.mark.parametrize("preset", CARD_LEVEL)
def test_card_conservation_fails_when_a_card_goes_nowhere(preset: str) -> None:
    bad = broken(mutant(preset, PassLosesFirstCard), preset, "card conservation")
    readable(bad.counterexample or "", "one step breaks card conservation", "action: pass")


@pytest.mark.parametrize("preset", CARD_LEVEL)
def test_hand_counts_fail_when_a_pass_shrinks_the_count(preset: str) -> None:
    bad = broken(mutant(preset, PassShrinksTheCount), preset, "hand counts")
    readable(bad.counterexample or "", "one step breaks hand counts", "action: pass")


@pytest.mark.parametrize("preset", ("standard", "opera", "two_player", "old_comet"))
def test_initial_card_counts_come_from_the_models_pack(preset: str) -> None:
    """The initial deal is a deal of the model's pack (3 natural 9s besides the Comet); an encoding that
    counts four natural 9s fails card conservation in the initial deal, not by assumption."""
    bad = broken(mutant(preset, FourNaturalNines), preset, "card conservation")
    readable(bad.counterexample or "", "an initial deal breaks card conservation")


@pytest.mark.parametrize("preset", ("standard", "opera", "old_comet"))
def test_chip_zero_sum_fails_when_the_payee_pays_itself(preset: str) -> None:
    bad = broken(mutant(preset, PayeePaysItself), preset, "chip zero-sum")
    readable(bad.counterexample or "", "one step breaks chip zero-sum", "Comet")


def test_chip_zero_sum_fails_when_the_payee_pays_itself_commit_hoyle() -> None:
    bad = broken(mutant("commit_hoyle", PayeePaysItself), "commit_hoyle", "chip zero-sum")
    readable(bad.counterexample or "", "one step breaks chip zero-sum", "action: play")


@pytest.mark.parametrize("preset", POINTS)
def test_no_chips_fails_when_a_play_records_a_chip(preset: str) -> None:
    bad = broken(mutant(preset, ChipOnEveryPlay), preset, "no chips move")
    readable(bad.counterexample or "", "one step breaks no chips move", "action: play")


@pytest.mark.parametrize("preset", ALL)
def test_turn_structure_fails_when_the_winner_is_not_recorded(preset: str) -> None:
    bad = broken(mutant(preset, WinnerNotRecorded), preset, "turn structure")
    readable(bad.counterexample or "", "one step breaks turn structure", "action: play")


@pytest.mark.parametrize("preset", ALL)
def test_step_bound_fails_when_the_bound_forgets_the_passes(preset: str) -> None:
    bad = broken(mutant(preset, BoundWithoutPasses), preset, "step bound")
    readable(bad.counterexample or "", "breaks step bound")


@pytest.mark.parametrize("preset", ("standard", "opera"))
def test_chips_in_play_bounded_fails_on_a_huge_bonus(preset: str) -> None:
    """The issue's planted bug: a bonus of 1000 x value + 5 always paid to seat 0."""
    bad = broken(mutant(preset, HugeBonusToSeatZero), preset, "chips in play bounded")
    readable(bad.counterexample or "", "one step breaks chips in play bounded", "action: play")


@pytest.mark.parametrize("preset", ALL)
def test_termination_fails_when_a_stuck_run_never_restarts(preset: str) -> None:
    bad = broken(mutant(preset, StuckRunKeepsGoing), preset, "termination")
    readable(bad.counterexample or "", "the ranking function does not decrease", "action: pass")


@pytest.mark.parametrize("preset", ALL)
def test_totality_fails_when_nobody_can_go_out(preset: str) -> None:
    """The issue's planted bug: the play effect is contradictory when the mover's hand empties; every
    step proof still holds (fewer transitions), but a deal in progress is left with no successor."""
    enc = mutant(preset, NobodyGoesOut)
    assert not [r for r in prove(enc, PLAYERS[preset], only=("turn structure",)) if not r.proved]
    bad = broken(enc, preset, "totality")
    readable(bad.counterexample or "", "a deal in progress with no successor under T", "readings:")


def test_totality_fails_when_the_successor_is_not_determined() -> None:
    """A pass that may drop a card leaves the successor's hand free: T is not a function."""
    bad = broken(mutant("standard", PassDropsACard), "standard", "totality")
    readable(bad.counterexample or "", "T does not determine the successor of 'pass'", "t.hand")  # the successor state t of the shared T


@pytest.mark.parametrize("preset", CHIPS)
def test_play_payments_fail_when_paid_to_the_next_seat(preset: str) -> None:
    bad = broken(mutant(preset, PaysTheNextSeat), preset, "play payments")
    readable(bad.counterexample or "", "chips move to a seat the action does not pay", "action:")


@pytest.mark.parametrize("preset", ("standard", "opera", "old_comet"))
def test_play_payments_fail_on_a_huge_bonus_to_seat_zero(preset: str) -> None:
    """The issue's planted bug: a bonus of 1000 x value + 5 always paid to seat 0 (still zero-sum)."""
    enc = mutant(preset, HugeBonusToSeatZero)
    bad = broken(enc, preset, "play payments")
    readable(bad.counterexample or "", "chips move to a seat the action does not pay", "Comet")


@pytest.mark.parametrize("preset", CHIPS)
def test_settlement_fails_when_the_winner_skips_seat_zero(preset: str) -> None:
    bad = broken(mutant(preset, WinnerSkipsSeatZero), preset, "settlement zero-sum")
    readable(bad.counterexample or "", "not zero-sum", "WINNER")


@pytest.mark.parametrize("preset", ("standard", "opera"))
def test_caught_fails_when_the_caught_player_pays_treble(preset: str) -> None:
    bad = broken(mutant(preset, CaughtPaysTreble), preset, "caught")
    readable(bad.counterexample or "", "pays double", "+ Comet", "WINNER")


def test_caught_fails_when_two_player_scores_treble() -> None:
    bad = broken(mutant("two_player", TwoPlayerCaughtTreble), "two_player", "caught")
    readable(bad.counterexample or "", "pays double", "+ Comet", "WINNER")


@pytest.mark.parametrize("preset", ("standard", "opera"))
def test_deal_bound_fails_when_the_nine_pays_eightfold(preset: str) -> None:
    bad = broken(mutant(preset, NineLastPaysEightfold), preset, "deal bound")
    readable(bad.counterexample or "", "chip change outside", "WINNER")


@pytest.mark.parametrize("preset", POINTS)
def test_scores_non_negative_fails_on_a_negative_score(preset: str) -> None:
    bad = broken(mutant(preset, LoserScoresMinusOne), preset, "deal scores non-negative")
    readable(bad.counterexample or "", "negative score", "WINNER")


@pytest.mark.parametrize("preset", POINTS)
def test_game_total_fails_when_finish_deal_drops_the_points(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def forgetful(
        balances: Sequence[z3.ArithRef], points: Sequence[z3.ArithRef], returns: Sequence[z3.ArithRef]
    ) -> list[z3.ArithRef]:
        return [b + r for b, r in zip(balances, returns, strict=True)]

    monkeypatch.setattr(obligations_module, "finish_deal_balances", forgetful)
    bad = broken(encoding_for(preset), preset, "game total")
    readable(bad.counterexample or "", "deal scores", "gave")


@pytest.mark.parametrize("preset", CHIPS)
def test_game_balances_fail_without_the_zero_floor(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-INSOLVENCY = pay_what_you_have that forgets to cap the payment at the payer's balance: a
    payer's balance goes negative."""

    def uncapped(amount: z3.ArithRef, balance: z3.ArithRef, what_you_have: z3.BoolRef) -> z3.ArithRef:
        return z3.If(what_you_have, z3.If(amount < 0, 0, amount), amount)

    monkeypatch.setattr(obligations_module, "insolvency_payment", uncapped)
    bad = broken(encoding_for(preset), preset, "game balances")
    readable(bad.counterexample or "", "payment of", "from seat")


@pytest.mark.parametrize("preset", CHIPS)
def test_game_balances_fail_when_a_dropped_payer_keeps_a_debt(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-INSOLVENCY = drop_out that charges a short payer the whole amount: the payer's balance goes
    negative (and is not 0 when they drop out)."""

    def uncapped(amount: z3.ArithRef, balance: z3.ArithRef, party_out: z3.BoolRef) -> z3.ArithRef:
        return z3.If(party_out, 0, amount)

    monkeypatch.setattr(obligations_module, "drop_out_payment", uncapped)
    bad = broken(encoding_for(preset), preset, "game balances")
    readable(bad.counterexample or "", "payment of", "from seat")


# every obligation kind the proofs have is exercised above, for every preset it applies to
COVERED: dict[str, tuple[str, ...]] = {
    "well-formed": ALL,
    "card conservation": ALL,
    "hand counts": CARD_LEVEL,
    "chip zero-sum": CHIPS,
    "no chips move (points game)": POINTS,
    "turn structure": ALL,
    "step bound": ALL,
    "chips in play bounded": ("standard", "opera"),
    "termination": ALL,
    "totality": ALL,
    "play payments": CHIPS,
    "settlement zero-sum": CHIPS,
    "caught": ("standard", "opera", "two_player"),
    "deal bound": ("standard", "opera"),
    "deal scores non-negative": POINTS,
    "game total": POINTS,
    "game balances": CHIPS,
    # the joint step check serves the step goals above: each of their mutants breaks it (and the
    # obligation whose goal broke)
    "inductive step": ALL,
}


@pytest.mark.parametrize("preset", ALL)
def test_every_obligation_has_a_mutant(preset: str) -> None:
    """No obligation of a preset is left without a planted bug that breaks it (the table above)."""
    names = [o.name for o in proofs_module.plan(preset, [PLAYERS[preset]])]
    for name in names:
        kinds = [k for k in COVERED if name.startswith(k)]
        assert kinds, f"{preset}: obligation {name!r} has no mutant test"
        assert preset in COVERED[kinds[0]], f"{preset}: obligation {name!r} has no mutant for this preset"


@pytest.mark.parametrize("preset", ALL)
def test_the_joint_step_check_takes_down_only_the_goal_that_broke(preset: str) -> None:
    """R-TURN-END: a pass that may lose a card (card-level encodings) or drop one (counting encodings) breaks
    the joint step check, which names card conservation (with its own counterexample) among the goals that
    broke; termination, whose goal held, stays proved; card conservation does not."""
    from comet_proofs.obligations import JOINT_STEP, TERMINATION

    bug = PassLosesFirstCard if preset in CARD_LEVEL else PassDropsACard
    results = {r.name: r for r in prove(mutant(preset, bug), PLAYERS[preset], only=("",))}
    joint = results[JOINT_STEP]
    assert not joint.proved
    broke = dict(joint.broken)
    cc = "card conservation (initial + inductive)"
    assert cc in broke and TERMINATION not in broke, sorted(broke)
    readable(broke[cc], "one step breaks card conservation", "action: pass")
    assert not results[cc].proved and results[cc].counterexample == broke[cc]
    assert results[TERMINATION].proved and results[TERMINATION].assumes == (JOINT_STEP,)


def test_the_joint_check_looks_at_every_case_for_every_goal_still_standing() -> None:
    """A goal that holds where another first breaks may break in a later case: the joint check goes on
    through every case, so both broken goals are named, and the goal that never breaks is not."""
    from comet_proofs.obligation import Obligation

    x = z3.Int("x")

    def joint() -> tuple[list[z3.BoolRef], list[tuple[str, z3.BoolRef, Callable[[z3.ModelRef], str]]]]:
        def render(m: z3.ModelRef) -> str:
            return f"x = {m.eval(x)}"

        return [x >= 0], [("first", x != 0, render), ("later", x != 5, render), ("never", x >= 0, render)]

    ob = Obligation("joint", "synthetic", 2, lambda: ([z3.BoolVal(False)], str), cases=(x == 0, x == 1, x == 5))
    result = dataclasses.replace(ob, joint=joint).run()
    assert not result.proved
    assert dict(result.broken) == {"first": "x = 0", "later": "x = 5"}
