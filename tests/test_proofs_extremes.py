"""Exact extremes (issue 23): the bounds table keeps the proved bound and the most a witness deal reaches
apart, replays the witness deals with the model, and calls a value exact only when the two meet.

Rules exercised: R-SETTLE-POINTS, R-SETTLE-COMET-LAST, R-COMET-BONUS.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import z3
from comet import engine
from comet.state import DealState, Payment
from comet_proofs.bounds import ACTIONS, DEAL_GAIN, DEAL_LOSS, GAIN, LOSS, POINTS, Quantity, bounds
from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import Readings, SymState


def test_every_chip_extreme_of_a_three_player_deal_is_exact() -> None:
    """R-SETTLE-COMET-LAST, R-STOP-STUCK: 480 at settlement and 488 in the whole deal for a loser, 900 and 916
    for the winner, and the longest deal's 131 actions, proved and reached by the shipped deals (replayed now);
    at five players the longest deal is exact too (232: the count's 237 less a stop played before the last card,
    which kept cards force, ``bounds.stops``)."""
    found = {b.quantity: b for b in bounds("standard", players=(3,), deals=4)}
    for name, value in ((LOSS, 480), (DEAL_LOSS, 488), (GAIN, 900), (DEAL_GAIN, 916)):
        b = found[name]
        assert b.exact and b.upper == b.witness == value and b.gap == 0, (name, b.upper, b.witness)
    assert found[LOSS].witness_file == "standard/bound-settlement-3p.itf.json"
    assert found[ACTIONS].exact and found[ACTIONS].upper == found[ACTIONS].witness == 131
    longest = next(b for b in bounds("standard", players=(5,), deals=2) if b.quantity == ACTIONS)
    assert longest.exact and (longest.upper, longest.witness) == (232, 232) and longest.gap == 0


def test_a_planted_settlement_bug_makes_the_witness_deal_beat_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-POINTS planted x2: the shipped deal, replayed by the broken model, pays 960 > 480."""
    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        return tuple(Payment(p.payer, p.payee, p.amount * 2, p.rule) for p in real(state))

    monkeypatch.setattr(engine, "settlement", settlement)
    b = {b.quantity: b for b in bounds("standard", players=(3,), deals=1)}[LOSS]
    assert b.witness == 960 and not b.ok and not b.exact


def test_old_comet_whole_deal_is_bounded_by_the_settlement_and_what_play_moves() -> None:
    """R-OLD-KING, R-OLD-MANILLE-PLAY, R-OLD-LAST-CARD, R-OLD-SETTLE: Kings, the manille and stuck runs pay
    in play, so the whole deal's bound is above the settlement's alone; with the lemmas on what play moves
    (``play_chips``) it is never beaten by a real deal and a shipped deal reaches it (exact), far below the
    settlement's bound plus the loose in-play potential (``in_play_bound``)."""
    from comet.presets import preset as named
    from comet.variant import variant_of
    from comet_proofs.bounds import in_play_bounds, lost_in_play, won_in_play
    from comet_proofs.registry import encoding_for

    found = {b.quantity: b for b in bounds("old_comet", players=(3,), deals=4)}
    rules = named("old_comet").rules
    enc = encoding_for("old_comet")
    rd = enc.readings_of(rules)

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value]

    loose = in_play_bounds(enc, 3, rd, at_start, [lost_in_play, won_in_play])
    for (whole, settled), moved in zip(((DEAL_LOSS, LOSS), (DEAL_GAIN, GAIN)), loose, strict=True):
        b, s = found[whole], found[settled]
        assert b.upper is not None and s.upper is not None and b.upper > s.upper
        assert b.ok and b.exact and b.witness == b.upper
        assert moved is not None and b.upper < s.upper + moved.most


def test_a_planted_king_payment_beats_the_whole_deal_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-KING planted: a King earning 1,000 chips from each other player makes the sampled deals lose
    more than the proved whole-deal bound of Old Comet, and the bound reports it (``Bound.ok`` false)."""
    from comet.games.old_comet import rules

    monkeypatch.setattr(rules, "KING_CHIPS", 1000)
    b = {b.quantity: b for b in bounds("old_comet", players=(3,), deals=6)}[DEAL_LOSS]
    assert b.upper is not None and b.best > b.upper and not b.ok


def assert_short_weights_refused(
    monkeypatch: pytest.MonkeyPatch,
    enc: Encoding,
    players: int,
    rd: Readings,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    quantity: Quantity,
) -> None:
    """Planted: Optimize made to give each of the potential's two weights one below its optimum; the check that
    the potential never grows must then fail, so no bound is given rather than an unsound one."""
    from comet_proofs import bounds as module

    real, calls = module.maximise, []

    def short(constraints: list[z3.BoolRef], objective: z3.ArithRef) -> int | None:
        calls.append(1)
        got = real(constraints, objective)
        return got - 1 if got is not None and len(calls) <= 2 else got

    from comet_proofs.bounds import optimum

    monkeypatch.setattr(optimum, "maximise", short)
    assert module.in_play_bound(enc, players, rd, fixed, quantity) is None


def test_a_weight_one_too_small_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-KING, R-OLD-LAST-CARD: the potential's weights come from Optimize, and Z3 then checks that the
    potential never grows; weights one below the optimum (as if Optimize were wrong) fail that check, so no
    bound is given rather than an unsound one."""
    from comet.presets import preset as named
    from comet.variant import variant_of
    from comet_proofs import bounds as module
    from comet_proofs.registry import encoding_for

    rules = named("old_comet").rules
    enc = encoding_for("old_comet")
    rd = enc.readings_of(rules)

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value]

    def lost(x: SymState) -> z3.ArithRef:
        return -x.chips[0]

    found = module.in_play_bound(enc, 2, rd, at_start, lost)
    assert found is not None and found.per_card > 0 and found.per_pass > 0
    assert_short_weights_refused(monkeypatch, enc, 2, rd, at_start, lost)


def test_points_scored_in_play_are_bounded_in_002s_commit() -> None:
    """R-COMMIT-C-KING, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT: 002's Commit scores Kings in play, so its bound is
    the potential bound on the points of play plus the most the end of the deal adds; no real deal beats it."""
    b = {b.quantity: b for b in bounds("commit_cats", players=(2,), deals=4)}[POINTS]
    assert b.upper is not None and b.ok and b.best < b.upper


def test_bounds_asked_together_are_the_bounds_asked_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-KING, R-OLD-LAST-CARD: ``in_play_bounds`` shares the step's formula and each Z3 call between the
    most lost and the most won in play (``maximise_all``: one Optimize, each objective's own maximum;
    ``none_holds``: one check that no potential grows), and gives what each gets alone; a joint check that
    is not unsat is checked again one formula at a time, so one potential that grows does not take the other
    down."""
    from comet.presets import preset as named
    from comet.variant import variant_of
    from comet_proofs import bounds as module
    from comet_proofs.registry import encoding_for

    rules = named("old_comet").rules
    enc = encoding_for("old_comet")
    rd = enc.readings_of(rules)

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value]

    together = module.in_play_bounds(enc, 2, rd, at_start, [module.lost_in_play, module.won_in_play])
    alone = [module.in_play_bound(enc, 2, rd, at_start, q) for q in (module.lost_in_play, module.won_in_play)]
    assert together == alone and all(b is not None for b in together)

    x, y = z3.Int("x"), z3.Int("y")
    assert module.maximise_all([x <= 3, y <= 5, x + y <= 7], [x, y, x + y, -x]) == [3, 5, 7, None]
    from comet_proofs.solving import solve_alone as real

    calls: list[int] = []

    def counted(formulas: list[z3.BoolRef], ms: int, case: z3.BoolRef | None = None) -> object:
        calls.append(len(formulas))
        return real(formulas, ms, case)

    from comet_proofs.bounds import optimum

    monkeypatch.setattr(optimum, "solve_alone", counted)
    assert module.none_holds([x <= 3], [x > 4, x > 5], 1000, None, False) == [True, True] and len(calls) == 1
    assert module.none_holds([x <= 3], [x > 4, x > 2, x > 9], 1000, None, True) == [True, False, True]
    assert len(calls) == 1 + 1 + 3


def test_the_hand_lemma_tried_whole_still_fails_on_a_hand_that_grows() -> None:
    """R-DEAL-SIZES: "no hand is larger than the hand dealt" is proved from the step whole when Z3 answers
    at once (``unsat_at_once``), else case by case; a planted hand count that grows with every step
    (true of no deal after its first action) is refused either way."""
    from comet.presets import preset as named
    from comet_proofs import bounds as module
    from comet_proofs.games.standard.encoding import StandardEncoding

    class GrowingHand(StandardEncoding):
        def hand_size(self, s: SymState, seat: int) -> z3.ArithRef:
            return super().hand_size(s, seat) + s.steps

    rules = named("standard").rules
    real, planted = StandardEncoding(), GrowingHand()
    size = module.dealt_size(real, 3, real.readings_of(rules))
    assert module.lemma_holds(real, 3, real.readings_of(rules), size)
    assert not module.lemma_holds(planted, 3, planted.readings_of(rules), size)
    x = z3.Int("x")
    assert module.unsat_at_once([x > 2], [x < 1, x < 2]) and not module.unsat_at_once([x > 2], [x < 1, x > 5])


def test_a_weight_one_too_small_is_refused_on_a_card_level_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-H-KING-PAID: 000's Commit's potential is proved from the step whole (one check, not one per card);
    with weights one below the optimum that check is not unsat, the split one refuses them too, and no
    bound is given."""
    from comet.presets import preset as named
    from comet.variant import variant_of
    from comet_proofs import bounds as module
    from comet_proofs.registry import encoding_for

    rules = named("commit_hoyle").rules
    enc = encoding_for("commit_hoyle")
    rd = enc.readings_of(rules)

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value, *enc.fixed_by_rules(x, rules)]

    found = module.in_play_bound(enc, 3, rd, at_start, module.lost_in_play)
    assert found is not None and found.per_card > 0
    assert_short_weights_refused(monkeypatch, enc, 3, rd, at_start, module.lost_in_play)
