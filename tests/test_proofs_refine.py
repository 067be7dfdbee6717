"""The directed refinement check (comet_proofs.refine, spec/proofs.md "Directed refinement check"):
Z3 finds a state for every behaviour class of its game, the model must agree with the encoding
there, a class without a witness fails, and planted settlement/bonus bugs in the engine are caught
(R-SETTLE-COMET-LAST, R-SETTLE-CAUGHT, R-COMET-BONUS)."""

from __future__ import annotations

import pytest
import z3
from comet import engine
from comet.presets import PRESETS
from comet.state import DealState, Payment
from comet_proofs.encoding import Encoding
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.refine import classes_for, refine
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import AbstractState, Readings, SymAction, SymState

LAST_AS_NINE = "the Comet played last as a 9"
CAUGHT = "a loser is caught with the Comet at settlement"


def test_every_preset_has_behaviour_classes_in_its_game_folder() -> None:
    """Each preset's game folder lists its classes (``comet_proofs/games/<name>/classes.py``); a preset no
    folder proves is an error, not an empty list."""
    for name in PRESETS:
        assert classes_for(name), name
    with pytest.raises(ValueError, match="no game folder for preset 'no_such_game'"):
        classes_for("no_such_game")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_class_has_a_witness_and_the_model_agrees(preset: str) -> None:
    """Non-vacuity: every class of the preset has a witness under every reading combination it names
    (one player count, to keep the test quick; `comet verify` runs them all), and on every witness the
    model's legal actions, successors, payments and returns equal the encoding's."""
    counts = encoding_for(preset).player_counts
    players = (counts[min(1, len(counts) - 1)],)  # 3 players where the game allows (2 hide a lapse)
    result = refine(preset, players=players, random_deals=0)
    assert all(c.witnesses for c in result.classes), result.failures()
    assert result.covered == len(result.classes), result.failures()
    assert result.ok, "\n\n".join(result.failures())


def scaled(pays: tuple[Payment, ...], num: int, den: int, which: object) -> tuple[Payment, ...]:
    return tuple(
        Payment(p.payer, p.payee, p.amount * num // den, p.rule) if which(p) else p  # type: ignore[operator]
        for p in pays
    )


def failures_of(only: str, players: int = 3) -> str:
    result = refine("standard", players=(players,), random_deals=0, only=(only,))
    assert not result.ok
    return "\n".join(result.failures())


def test_planted_settlement_times_three_after_going_out_on_the_comet_as_a_nine(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-COMET-LAST: the settlement is x4 after going out on the Comet as a 9; planted x3."""
    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        pays = real(state)
        return scaled(pays, 3, 4, lambda p: True) if state.out_wild_as == 9 else pays

    monkeypatch.setattr(engine, "settlement", settlement)
    text = failures_of(LAST_AS_NINE)
    assert f"class '{LAST_AS_NINE}'" in text
    assert "the model's payments differ from the encoding's" in text
    assert "model returns" in text and "encoding returns" in text and "R-SETTLE" in text


def test_planted_last_card_comet_bonus_times_three(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMET-BONUS, RUL-COMET-BONUS-LAST = multiplied: the last-card Comet as a 9 earns x4; planted x3."""
    real = engine.comet_bonus

    def comet_bonus(state: DealState, seat: int, last_card: bool, as_rank: int) -> tuple[Payment, ...]:
        pays = real(state, seat, last_card, as_rank)
        bad = last_card and as_rank == 9 and state.rules.comet_bonus_last == "multiplied"
        return scaled(pays, 3, 4, lambda p: True) if bad else pays

    monkeypatch.setattr(engine, "comet_bonus", comet_bonus)
    text = failures_of(LAST_AS_NINE)
    assert f"class '{LAST_AS_NINE}'" in text
    assert "leads to a state T forbids" in text and "R-COMET-BONUS" in text


def test_planted_caught_with_the_comet_pays_times_three(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-CAUGHT: a loser caught with the Comet pays double; planted x3."""
    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        holds = {seat for seat, h in enumerate(state.hands) if any(c in state.wild for c in h)}
        return scaled(real(state), 3, 2, lambda p: p.payer in holds)

    monkeypatch.setattr(engine, "settlement", settlement)
    text = failures_of(CAUGHT)
    assert f"class '{CAUGHT}'" in text and "model returns" in text and "R-SETTLE" in text


class NobodyGoesOut(StandardEncoding):
    """A planted encoding whose play effect contradicts going out: the winner stays -1, yet a play that
    empties the hand sets it, so no play can empty a hand."""

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        return z3.And(super().play_effect(s, a, s2, rd), s2.winner == -1)


def test_contradictory_play_effect_leaves_classes_without_witness() -> None:
    """A class without a witness is a failure, not a skip (R-END-OUT cannot happen in the planted encoding)."""
    result = refine("standard", players=(3,), random_deals=0, enc=NobodyGoesOut(), only=("goes out", "last"))
    assert not result.ok
    missing = [c.name for c in result.classes if c.missing]
    assert "natural card goes out" in missing and LAST_AS_NINE in missing
    assert any("has no witness" in f and "natural card goes out" in f for f in result.failures())


def test_comet_verify_exits_non_zero_and_names_the_class_on_a_planted_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`comet verify` runs the refinement check: the caught-with-the-Comet x3 bug (R-SETTLE-CAUGHT) makes it
    exit 1 and print the class and the payments."""
    from comet.cli import main

    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        holds = {seat for seat, h in enumerate(state.hands) if any(c in state.wild for c in h)}
        return scaled(real(state), 3, 2, lambda p: p.payer in holds)

    monkeypatch.setattr(engine, "settlement", settlement)
    monkeypatch.setenv("COLUMNS", "1000")
    code = main(["verify", "--preset", "standard", "--no-proofs", "--no-fuzz", "--no-bounds"])
    out = capsys.readouterr().out
    assert code == 1
    assert "refinement failure" in out and f"class '{CAUGHT}'" in out
    assert "model returns" in out and "R-SETTLE" in out


def test_sweep_lists_readings_under_which_a_class_cannot_happen() -> None:
    """RUL-COMET-LEAD = forbidden: the sweep finds no Comet lead under it and lists it as impossible (not a
    failure); every other reading of every quantified ruling gets a witness of that class."""
    result = refine("standard", players=(3,), random_deals=0, only=("the Comet leads a run",), sweep=True)
    (cls,) = result.classes
    assert not cls.missing
    assert any("comet_lead=forbidden" in x for x in cls.impossible)
    assert len(cls.witnesses) >= 10


def test_comet_verify_exits_non_zero_on_a_contradictory_play_effect(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-END-OUT: with the standard encoding replaced by one where nobody can go out, `comet verify` reports
    the classes without a witness and exits 1 (the proofs alone would not notice)."""
    from comet.cli import main
    from comet_proofs.registry import ENCODINGS

    monkeypatch.setitem(ENCODINGS, "standard", NobodyGoesOut)
    monkeypatch.setenv("COLUMNS", "1000")
    code = main(["verify", "--preset", "standard", "--no-proofs", "--no-fuzz", "--no-bounds"])
    out = capsys.readouterr().out
    assert code == 1
    assert "class 'natural card goes out' has no witness" in out


def test_terms_built_through_z3s_c_api_are_the_python_operators_terms() -> None:
    """``terms.substituted``, ``terms.all_equal`` and ``terms.Numerals`` (the refinement check's fast paths)
    build the very terms ``z3.substitute``, ``z3.And([x == y ...])`` and ``z3.IntVal`` do (hash-consed: the
    same term is the same object to Z3); a length mismatch or a sort mismatch is an error, not a wrong term."""
    from comet_proofs.terms import Numerals, all_equal, substituted

    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("b")
    f = z3.And(x + 2 * y > 3, z3.Implies(b, x == y))
    assert substituted(f, [x, b], [z3.IntVal(4), z3.BoolVal(True)]).eq(
        z3.substitute(f, (x, z3.IntVal(4)), (b, z3.BoolVal(True)))
    )
    assert not substituted(f, [x], [z3.IntVal(5)]).eq(z3.substitute(f, (x, z3.IntVal(4))))
    assert all_equal([x, b], [y, z3.BoolVal(False)]).eq(z3.And([x == y, b == z3.BoolVal(False)]))
    assert all_equal([], []).eq(z3.And([]))
    numerals = Numerals()
    assert numerals.of(7, False).eq(z3.IntVal(7)) and numerals.of(7, False) is numerals.of(7, False)
    assert numerals.of(1, True).eq(z3.BoolVal(True)) and numerals.of(0, True).eq(z3.BoolVal(False))
    with pytest.raises(ValueError, match="2 terms to replace, 1 replacements"):
        substituted(f, [x, y], [z3.IntVal(1)])
    with pytest.raises(ValueError, match="1 terms against 2"):
        all_equal([x], [y, x])
    with pytest.raises(z3.Z3Exception):
        substituted(f, [x], [z3.BoolVal(True)])


def test_the_contexts_closed_numbers_are_those_of_the_constant_state() -> None:
    """``refine.Context.closed`` (the step bound, deal returns and points put together once over s2, each
    state's values and readings substituted in) gives the numbers the encoding's functions give on the
    constant state (``SymState.const``), for sampled states of the model, finished ones among them, under
    their own readings and random others (an Old Comet deal scores differently under them, so a reading
    put in wrong is seen); a card-level state (whose counts are terms of its cards' places) goes
    the constant way, and gives them too."""
    import random

    from comet_proofs.crosscheck import random_rules, sample_states, sampled_fields
    from comet_proofs.refine_witness import Context

    rng = random.Random(3)
    differ: list[str] = []
    for preset in ("standard", "old_comet", "red_nines", "commit_hoyle"):
        enc = encoding_for(preset)
        n = enc.player_counts[0]
        ctx = Context(enc, n)
        # 8 deals: the Opera's readings, sampled since 2026-12-02, changed the draws, and 5 no longer met an
        # Old Comet deal whose score depends on them
        states = sample_states((n,), 8, 7, per_deal=1, preset=preset)
        assert any(s.terminal for s in states)
        for state in states:
            a = enc.abstract(state)
            sym = SymState.const(a)
            rulesets = [state.rules] + [random_rules(rng, state.rules, sampled_fields(enc)) for _ in range(3)]
            seen = set()
            for rules in rulesets if state.terminal else rulesets[:1]:
                rd = enc.readings_of(rules)
                expected = (
                    z3.simplify(enc.step_bound(sym)).as_long(),
                    tuple(z3.simplify(x).as_long() for x in enc.deal_returns(sym, rd)),
                    tuple(z3.simplify(x).as_long() for x in enc.deal_points(sym, rd)),
                )
                assert ctx.closed(a, rules) == expected, (preset, rules)
                assert ctx.closed(a, rules, scores=False) == (expected[0], (), ())
                seen.add(expected)
            if len(seen) > 1:
                differ.append(preset)
            assert z3.simplify(enc.step_bound(sym)).as_long() == engine.step_bound(state)
    assert differ, "no finished state scores differently under other readings: a reading put in wrong is not seen"


def test_the_contexts_broken_parts_are_those_of_the_constant_state() -> None:
    """``refine.Context.broken_parts`` (Inv's parts built once over s, a random state's values put in) names
    the parts the constant state (``SymState.const``) breaks: none for states of the model, and the chip
    zero-sum or the card count for a state planted with a chip too many or a card too many; a card-level
    state goes the constant way, and gives them too."""
    import dataclasses

    from comet_proofs.crosscheck import sample_states
    from comet_proofs.refine_witness import Context

    def constant_way(enc: Encoding, a: AbstractState) -> list[str]:
        parts = enc.invariant_parts(SymState.const(a))
        return [name for name, holds in parts.items() if not z3.is_true(z3.simplify(holds))]

    for preset in ("standard", "opera", "commit_hoyle"):
        enc = encoding_for(preset)
        n = enc.player_counts[0]
        ctx = Context(enc, n)
        for state in sample_states((n,), 2, 5, per_deal=2, preset=preset):
            a = enc.abstract(state)
            assert ctx.broken_parts(a) == [] == constant_way(enc, a), preset
            chips = (a.chips[0] + 1, *a.chips[1:])
            hands = ((a.hands[0][0] + 1, *a.hands[0][1:]), *a.hands[1:])
            for bad in (dataclasses.replace(a, chips=chips), dataclasses.replace(a, hands=hands)):
                broken = ctx.broken_parts(bad)
                assert broken and broken == constant_way(enc, bad), (preset, broken)
