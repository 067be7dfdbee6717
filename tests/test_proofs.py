"""Z3 proofs of the standard game (comet_proofs): they hold, they are not vacuous, the encoding
agrees with the model, and planted bugs in the encoding or the model are caught with readable
counterexamples.

Rules exercised: R-STOP-KING, R-STOP-STUCK, R-TURN-END, R-PLAY-MUST, R-COMET-BONUS, R-COMET-STOP,
R-END-OUT, R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST, R-FOUR-OF-A-KIND, R-THREE-NINES.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
import z3
from builders import position
from comet import engine
from comet.cli import main
from comet.ruleset import Ruleset
from comet.state import PASS as PASS_ACTION
from comet.state import Action, DealState, Payment
from comet_proofs import ProofResult, prove, run_all, sample_states
from comet_proofs.crosscheck import check_state, crosscheck
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.symbolic import (
    COMET,
    COMET_QUARTET,
    NATURAL,
    PASS,
    PLAY_RULINGS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# ----------------------------------------------------------------- planted bugs in the encoding


class KingDoesNotStop(StandardEncoding):
    """Bug: R-STOP-KING forgotten; after a King the run 'needs' a 14."""

    def stops(self, rank: z3.ArithRef, kind: z3.ArithRef) -> z3.BoolRef:
        return kind == COMET


class PassLosesCard(StandardEncoding):
    """Bug: a pass silently drops one of the mover's 2s (R-TURN-END)."""

    def pass_effect(self, s: SymState, s2: SymState) -> z3.BoolRef:
        hands = [list(h) for h in s2.hands]
        for p in range(s.players):
            hands[p][0] = hands[p][0] + z3.If(z3.And(s.to_move == p, s.hands[p][0] > 0), 1, 0)
        view = dataclasses.replace(s2, hands=tuple(tuple(h) for h in hands))
        return super().pass_effect(s, view)


class StuckRunNeverRestarts(StandardEncoding):
    """Bug: R-STOP-STUCK forgotten; when everyone has passed the run still needs the same rank."""

    def pass_effect(self, s: SymState, s2: SymState) -> z3.BoolRef:
        n = s.players
        nxt = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        view = dataclasses.replace(s2, need=z3.If(nxt == s.last_player, 0, s2.need))
        return z3.And(super().pass_effect(s, view), s2.need == s.need)


class BonusToNextSeat(StandardEncoding):
    """Bug: the Comet bonus (R-COMET-BONUS) goes to the next seat instead of the Comet's player."""

    def bonus_payee(self, s: SymState) -> z3.ArithRef:
        return z3.If(s.to_move == s.players - 1, 0, s.to_move + 1)


def failures(results: list[ProofResult]) -> list[ProofResult]:
    return [r for r in results if not r.proved]


# ----------------------------------------------------------------- the proofs hold


def test_run_all_proves_every_property_for_2_to_5_players() -> None:
    """R-END-OUT, R-TURN-END, R-COMET-BONUS, R-SETTLE-POINTS: every obligation is unsat for every
    player count, with every ruling reading free (one formula covers all 2^9 combinations)."""
    results = run_all("standard")
    assert {r.players for r in results} == {2, 3, 4, 5}
    names = {r.name.split(" (")[0] for r in results}
    for wanted in ("card conservation", "chip zero-sum", "termination", "totality", "settlement zero-sum"):
        assert wanted in names
    bad = failures(results)
    assert not bad, "\n\n".join(f"{r.players} players, {r.name}:\n{r.counterexample}" for r in bad)
    for r in results:
        assert r.counterexample is None and r.seconds >= 0 and r.preset == "standard"
        assert {field for field, _ in r.readings} >= {name for name, _ in PLAY_RULINGS}
        assert all(reading == "*" for _, reading in r.readings)


def test_run_all_rejects_unknown_preset_and_player_count() -> None:
    with pytest.raises(ValueError, match="no proofs for preset"):
        run_all("no-such-game")
    with pytest.raises(ValueError, match="2 to 5 players"):
        run_all("standard", [6])


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("kind", [PASS, NATURAL, QUARTET, COMET, COMET_QUARTET])
def test_proofs_are_not_vacuous(players: int, kind: int) -> None:
    """Inv(s) ∧ T(s, a, s') is satisfiable for every kind of action, so the step proofs speak
    about real transitions (R-FOUR-OF-A-KIND, R-COMET-STOP), and so is Init ∧ Inv."""
    enc = StandardEncoding()
    rd = Readings.fresh()
    s, s2, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    solver = z3.Solver()
    solver.add(enc.invariant(s), enc.transition(s, a, s2, rd), a.kind == kind, z3.Not(enc.terminal(s2)))
    assert solver.check() == z3.sat
    init = z3.Solver()
    init.add(enc.initial(s, rd), enc.invariant(s))
    assert init.check() == z3.sat


# ----------------------------------------------------------------- planted bugs make proofs fail


def test_king_that_does_not_stop_breaks_the_proof_with_a_readable_counterexample() -> None:
    """R-STOP-KING removed from the encoding: the well-formedness step fails after a King."""
    bad = failures(prove(KingDoesNotStop(), 3, only=("well-formed",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert re.search(r"action: play (a natural K|all the natural Ks)", text) and "the run needs a 14" in text
    assert "seat 0" in text and "readings:" in text


def test_pass_that_loses_a_card_breaks_card_conservation() -> None:
    """R-TURN-END: a pass that drops a card is caught by the card-conservation induction step."""
    bad = failures(prove(PassLosesCard(), 2, only=("card conservation",)))
    assert bad and "action: pass" in (bad[0].counterexample or "")
    assert "one step breaks card conservation" in (bad[0].counterexample or "")


def test_run_that_never_restarts_breaks_termination() -> None:
    """R-STOP-STUCK removed: passes could go round for ever; the ranking proof fails on a pass."""
    bad = failures(prove(StuckRunNeverRestarts(), 3, only=("termination",)))
    assert bad and "action: pass" in (bad[0].counterexample or "")
    assert "the run needs a" in (bad[0].counterexample or "")


def test_bonus_to_wrong_seat_still_sums_to_zero_but_cross_check_catches_it() -> None:
    """R-COMET-BONUS paid to the wrong seat keeps chips zero-sum (the proof cannot see it), which is
    why the encoding is cross-checked against the model: the cross-check reports it."""
    assert not failures(prove(BonusToNextSeat(), 3, only=("chip zero-sum",)))
    states = [s for s in sample_states([3], 30, seed=7) if comet_playable(s)]
    assert states, "sample holds no state where the Comet can be played"
    report = crosscheck(BonusToNextSeat(), states, stop_after=1)
    assert not report.ok
    assert "leads to a state T forbids" in report.mismatches[0]
    assert "as" in report.mismatches[0] and "chips" in report.mismatches[0]


def comet_playable(s: DealState) -> bool:
    return s.comet_value > 0 and any(a.as_rank for a in engine.legal_actions(s))


# ----------------------------------------------------------------- encoding vs model


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), players=st.sampled_from([2, 3, 4, 5]))
def test_encoding_successors_equal_model_successors(seed: int, players: int) -> None:
    """For sampled states (random rulings, pack, Comet value, random legal play), the abstract
    successors T allows are exactly the abstractions of apply(s, a) for a in legal_actions(s);
    finished deals: encoded returns == engine.returns (R-SETTLE-POINTS, R-SETTLE-CAUGHT,
    R-SETTLE-COMET-LAST); every state: encoded step bound == engine.step_bound."""
    states = sample_states([players], 2, seed, per_deal=8)
    report = crosscheck(StandardEncoding(), states)
    assert report.ok, report.mismatches[0]
    assert report.states == len(states) and report.successors >= report.states - 2


HAND_MADE = [
    # R-THREE-NINES + RUL-COMET-QUARTET: three natural 9s and the Comet when the run needs a 9
    (["9C 9S 9S 9D 5C", "2C 3C"], (7, 8), Ruleset(comet_in_quartet=True)),
    # R-SETTLE-COMET-LAST: the Comet as a 9 is the last card (bonus x4 under comet_bonus_last=multiplied)
    (["9D", "2C 3C", "KS"], (7, 8), Ruleset()),
    (["9D", "2C 3C", "KS"], (7, 8), Ruleset(comet_bonus_last="plain", comet_as="any_rank")),
    # R-FOUR-OF-A-KIND on a lead (RUL-QUARTET-LEAD) and R-STOP-KING
    (["KC KC KS KS 4C", "2C 3C"], (), Ruleset(quartet_on_lead=True)),
    # R-COMET-LEAD forbidden, the mover holds only the Comet: must pass
    (["9D", "2C 3C"], (), Ruleset(comet_lead="forbidden")),
    # RUL-COMET-AFTER optional_restart: the Comet as the 9 keeps the run going (the 10 may follow)
    (["9D 10C 4C", "2C 3C"], (7, 8), Ruleset(comet_after="optional_restart")),
]


def after_comet_position() -> DealState:
    """RUL-COMET-AFTER: just after the Comet as the 9 under optional_restart (free_lead holds)."""
    rules = Ruleset(comet_after="optional_restart")
    state = position(["9D 10C 4C", "2C 3C"], run=(7, 8), rules=rules, to_move=0, last_player=1)
    after = engine.apply(state, engine.legal_actions(state)[-1])
    assert after.free_lead and after.need == 10
    return after


def test_free_lead_after_the_comet_cross_checks() -> None:
    """R-COMET-STOP, RUL-COMET-AFTER: the extra leads right after the Comet agree with the model."""
    count, problem = check_state(StandardEncoding(), after_comet_position())
    assert problem is None, problem
    assert count == 2  # play 10C (go on) or play 4C (a new run); holding the 10, no pass


def test_model_without_the_free_lead_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model that forgets the optional restart after the Comet fails the cross-check."""
    rules = Ruleset(comet_after="optional_restart")
    before = position(["9D 10C 4C", "2C 3C"], run=(7, 8), rules=rules, to_move=0, last_player=1)
    real = engine.play

    def forgetful(state: DealState, action: Action) -> DealState:
        return dataclasses.replace(real(state, action), free_lead=False)

    monkeypatch.setattr(engine, "play", forgetful)
    _, problem = check_state(StandardEncoding(), before)
    assert problem is not None and "T forbids" in problem, problem


@pytest.mark.parametrize("hands, run, rules", HAND_MADE)
def test_hand_made_positions_cross_check(hands: list[str], run: tuple[int, ...], rules: Ruleset) -> None:
    """Rare positions the random sample seldom meets: the encoding agrees with the model there too."""
    state = position(hands, run=run, rules=rules, to_move=0, last_player=1 if run else -1)
    count, problem = check_state(StandardEncoding(), state)
    assert problem is None, problem
    assert count >= 1


def test_model_comet_bonus_to_wrong_seat_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model bug (R-COMET-BONUS paid to the next seat) is reported by the cross-check."""
    states = [s for s in sample_states([4], 30, seed=3) if comet_playable(s)]
    assert states

    def wrong(state: DealState, seat: int, last_card: bool, as_rank: int) -> tuple[Payment, ...]:
        payee = (seat + 1) % state.players
        return tuple(Payment(p, payee, state.comet_value, "R-COMET-BONUS") for p in range(state.players) if p != payee)

    monkeypatch.setattr(engine, "comet_bonus", wrong)
    _, problem = check_state(StandardEncoding(), states[0])
    assert problem is not None
    assert "leads to a state T forbids" in problem and "seat 0" in problem


def test_model_pass_that_loses_a_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model bug in R-TURN-END (the passer drops a card) is reported by the cross-check."""
    real_end_turn = engine.end_turn

    def lossy(state: DealState) -> DealState:
        s = real_end_turn(state)
        hand = state.hands[state.to_move]
        hands = state.hands[: state.to_move] + (hand[1:],) + state.hands[state.to_move + 1 :]
        return dataclasses.replace(s, hands=hands)

    states = [s for s in sample_states([3], 10, seed=5) if PASS_ACTION in engine.legal_actions(s)]
    monkeypatch.setattr(engine, "end_turn", lossy)
    report = crosscheck(StandardEncoding(), states, stop_after=1)
    assert not report.ok
    assert "'pass' leads to a state T forbids" in report.mismatches[0]


# ----------------------------------------------------------------- command line


def test_cli_prove_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--players", "2", "--crosscheck", "1"]) == 0
    out = capsys.readouterr().out
    assert "card conservation" in out and "proved" in out and "cross-check:" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["prove", "--players", "7"], "2 to 5 players"),
        (["prove", "--preset", "nope"], "unknown preset"),
        (["prove", "--crosscheck", "-1"], "--crosscheck"),
    ],
)
def test_cli_prove_bad_input_is_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
