"""Stateful fuzzing of whole deals under every reading of every ruling (issue 3).

Rules exercised (invariants after every step): R-LEAD-FIRST, R-LEAD-ANY, R-PLAY-HELD,
R-PLAY-CONTINUE, R-PLAY-MUST, R-NEW-RUN, R-TURN-END, R-STOP-KING, R-STOP-STUCK, R-COMET-WILD,
R-COMET-STOP, R-COMET-BONUS, R-FOUR-OF-A-KIND, R-THREE-NINES, R-END-OUT; at the end of a deal
R-SETTLE-POINTS, R-SETTLE-CAUGHT and R-SETTLE-COMET-LAST against an independent recomputation.
"""

from __future__ import annotations

import random

import pytest
from comet import engine
from comet.cards import cards_text, rank_of
from comet.checks import check_of, check_state, payment_bound
from comet.checks.coverage import all_rule_ids, unclassified_ids
from comet.fuzz import EXTREMES, check_deal, coverage_sweep, make_deal, pick_policy
from comet.games.standard.check import standard_settlement
from comet.presets import PRESETS, Preset
from comet.ruleset import Ruleset
from comet.state import DealState
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SETTLEMENT_SKIPPED, DealMachine, budget, deal_starts

TestDeals = DealMachine.TestCase
TestDeals.settings = settings(max_examples=budget(40), stateful_step_count=60)


@settings(max_examples=budget(60))
@given(start=deal_starts(), seed=st.integers(0, 2**32 - 1))
def test_random_deals_keep_every_invariant(start: DealState, seed: int) -> None:
    """R-END-OUT, R-SETTLE-POINTS: whole deals played by random policies stay valid to the end."""
    rng = random.Random(seed)
    out = check_deal(start, pick_policy(rng), all_rule_ids(), rng)
    assert not out.failure, out.failure
    assert out.final.terminal


@pytest.mark.parametrize("kind", EXTREMES)
def test_extreme_shapes_are_what_they_claim(kind: str) -> None:
    """R-DEAD-HAND, R-FOUR-OF-A-KIND, R-THREE-NINES: the shaped deals really have their shape."""
    rules = Ruleset()
    for players in (2, 3, 4, 5):
        start = make_deal(rules, players, 0, 11, 0, 2, kind, 1)
        assert not check_state(start, start)
        leader = (start.dealer + 1) % players
        wild = start.wild[0]
        if kind == "comet_dead":
            assert wild in start.dead
        elif kind == "comet_in_hand":
            assert wild in start.hands[1]
        elif kind == "kings":
            assert sum(rank_of(c) == 13 for c in start.hands[1]) == 4
        elif kind == "quartets":
            counts = [sum(rank_of(c) == r and c != wild for c in start.hands[1]) for r in range(2, 14)]
            assert any(k >= 3 for k in counts), cards_text(start.hands[1])
        elif kind in ("one_turn_out", "comet_last"):
            # the first player can go out in one turn: the natural way of playing does it
            s = start
            while s.to_move == leader and not s.terminal:
                from comet.policy import simple_policy

                s = engine.apply(s, simple_policy(s, engine.legal_actions(s)))
            assert s.winner == leader, cards_text(start.hands[leader])
            if kind == "comet_last":
                assert s.out_wild_as != 0


def test_seeds_settlement_example_is_recomputed() -> None:
    """R-SETTLE-POINTS, R-SETTLE-CAUGHT: 000:66 'he pays 10 + 7 + 3 = 20 chips' and
    '(4 + 10 + 9) × 2 = 46 chips' from the independent table."""
    from dataclasses import replace

    from comet.cards import parse_card

    start = make_deal(Ruleset(), 3, 2, 1, 0, 2, "shuffled", 0)
    hands = ((), tuple(parse_card(c) for c in ("KC", "7S", "3C")), tuple(parse_card(c) for c in ("4C", "QS", "9D")))
    final = replace(start, hands=hands, winner=0)
    assert standard_settlement(final) == {(1, 0): 20, (2, 0): 46}
    assert standard_settlement(replace(final, out_wild_as=9)) == {(1, 0): 80, (2, 0): 184}
    assert standard_settlement(replace(final, out_wild_as=5)) == {(1, 0): 40, (2, 0): 92}


def missing_recomputations(presets: dict[str, Preset]) -> list[str]:
    """One line per preset whose game family registered no independent recomputation (settlement,
    step, game economy and end) with the one checker (``comet.checks.register_check``)."""
    return [
        f"preset {name!r} (game family {p.rules.variant!r}) registers no recomputation with the one checker: "
        f"write comet/games/{p.rules.variant}/check.py from the seeds and register it"
        for name, p in sorted(presets.items())
        if check_of(p.rules.variant) is None
    ]


def test_every_preset_has_every_recomputation() -> None:
    """No preset is skipped: each game family registers a settlement recomputation, a step check, a game
    economy and an end-of-game check (a future preset without them fails here, by name)."""
    missing = missing_recomputations(PRESETS)
    assert not missing, "\n".join(missing)


def test_a_preset_without_a_recomputation_fails_by_name() -> None:
    """Planted: a preset of an unknown game family is named, with what to write."""
    from dataclasses import replace

    fake = replace(PRESETS["standard"], name="newgame", rules=Ruleset(variant="newgame"))  # type: ignore[arg-type]
    missing = missing_recomputations({"newgame": fake, "standard": PRESETS["standard"]})
    assert missing == [
        "preset 'newgame' (game family 'newgame') registers no recomputation with the one checker: "
        "write comet/games/newgame/check.py from the seeds and register it"
    ]


def test_every_rule_id_has_a_classifier() -> None:
    """Coverage never depends on call counting: every id named by an ``@rule`` is emitted by a
    classifier over (before, action, after) (``comet.checks.coverage``)."""
    missing = sorted(unclassified_ids())
    assert not missing, (
        f"rule ids without a classifier (only call counting would see them): {', '.join(missing)}; "
        "add them to the game's classifier in comet/games/<name>/coverage.py"
    )


def test_an_unclassified_rule_id_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: an ``@rule`` id no classifier knows shows up in ``unclassified_ids`` (and is then
    the only id the campaign counts by call)."""
    from comet.trace import IMPLEMENTATIONS

    assert not unclassified_ids()
    monkeypatch.setitem(IMPLEMENTATIONS, "R-NEW-THING", ["comet.engine.play"])
    assert unclassified_ids() == frozenset({"R-NEW-THING"})


def test_payment_bound_is_not_vacuous() -> None:
    """The payment bound of a standard deal is finite and below a crude total of the pack's chips."""
    start = make_deal(Ruleset(), 3, 0, 1, 0, 2, "shuffled", 0)
    assert 0 < payment_bound(start) < 48 * 18 * 4 + 4 * 2 + 1


def teardown_module() -> None:
    if SETTLEMENT_SKIPPED:
        print(f"\nsettlement not recomputed (no entry or reading not covered): {dict(SETTLEMENT_SKIPPED)}")


def test_every_rule_id_is_hit() -> None:
    """Coverage: a small deterministic sweep over every preset, hand shape and player count
    exercises every rule id that some ``@rule`` declares (gaps are listed by id)."""
    hits, failures = coverage_sweep(sorted(PRESETS), seed=0)
    assert not failures, failures[0]
    hits.update(_escalation_game_hits())
    gaps = sorted(rid for rid in all_rule_ids() if not hits[rid])
    assert not gaps, f"rule ids never hit: {', '.join(gaps)}"


def _escalation_game_hits() -> set[str]:
    """R-COMET-ESCALATE: the sweep's short games see the Comet end a deal in the dead hand only by
    chance (12 of 48 cards lie dead for two or three players), so one more game starts with a deal
    shaped with the Comet dead; the classifier judges the next deal as in any game."""
    from comet import game as game_module
    from comet.checks.coverage import game_rules
    from comet.fuzz import shape_deal

    game = game_module.new_game(Ruleset(), 3, 3, 0)
    start = shape_deal(game_module.next_deal(game, 1), "comet_dead", 0, 0)
    final, _ = game_module.play_deal(start)
    after = game_module.finish_deal(game, final)
    return game_rules(False, game_module.next_deal(after, 2), start)


def test_a_lost_rule_shows_up_as_a_coverage_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the classifier forgets R-STOP-KING; the sweep must then report it as a gap."""
    import comet.fuzz.check as fuzz_check
    from comet.checks.coverage import transition_rules

    monkeypatch.setattr(fuzz_check, "transition_rules", lambda b, a, s: transition_rules(b, a, s) - {"R-STOP-KING"})
    hits, _ = coverage_sweep(["standard"], seed=0)
    assert hits["R-STOP-KING"] == 0 and hits["R-PLAY-CONTINUE"] > 0


@pytest.mark.parametrize("stack", ["multiply", "highest"])
def test_opera_first_turn_doubles_in_the_recomputation_and_the_model(stack: str) -> None:
    """R-OPERA-DOUBLE, R-SETTLE-COMET-LAST: going out in the first turn on the Comet (as a King)
    costs x4 (multiply) or x2 (highest) against x2 without the Opera; the model agrees with the table."""
    from comet.game import play_deal

    amounts = {}
    for opera in (False, True):
        rules = Ruleset(opera=opera, opera_stack=stack, opera_draw="never")  # type: ignore[arg-type]
        final, _ = play_deal(make_deal(rules, 3, 0, 5, 0, 2, "comet_last", 1))
        assert final.turn == 0 and final.out_wild_as == 13
        expected = standard_settlement(final)
        assert expected is not None
        assert expected == {(p.payer, p.payee): p.amount for p in engine.settlement(final)}
        amounts[opera] = sum(expected.values())
    assert amounts[True] == amounts[False] * (2 if stack == "multiply" else 1)


def test_a_variant_rule_lost_by_its_classifier_is_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: Old Comet's classifier forgets R-OLD-LAST-CARD; no call counting fills the gap."""
    from dataclasses import replace

    from comet.checks import coverage

    entry = coverage.variant_classifiers()["old_comet"]
    hits, _ = coverage_sweep(["old_comet"], seed=0)
    assert hits["R-OLD-LAST-CARD"] > 0
    forgetful = replace(entry, step=lambda b, a, s: entry.step(b, a, s) - {"R-OLD-LAST-CARD"})
    monkeypatch.setitem(coverage.VARIANT_CLASSIFIERS, "old_comet", forgetful)
    hits, _ = coverage_sweep(["old_comet"], seed=0)
    assert hits["R-OLD-LAST-CARD"] == 0 and hits["R-OLD-KING"] > 0


def test_record_text_ids_are_counted_only_where_a_record_text_exercises_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-REC-LIMITS and R-REC-FORMAT are not counted for a deal (``deal_rules``); the sweep counts them from
    record texts past a limit or in an unread format, refused with the kind the rule names.  Planted: a
    reader that lets a byte order mark through is reported by rule id."""
    from comet.checks.coverage import deal_rules
    from comet.fuzz.sweep import record_text_hits
    from comet.records import deal_record

    start = make_deal(Ruleset(), 3, 0, 1, 0, 2, "shuffled", 0)
    assert not {"R-REC-LIMITS", "R-REC-FORMAT"} & deal_rules(start)
    for name in sorted(PRESETS):
        hits, failures = record_text_hits(PRESETS[name].rules, name)
        assert not failures and hits["R-REC-LIMITS"] >= 3 and hits["R-REC-FORMAT"] >= 2, (name, hits, failures)
    real = deal_record.loads_record
    monkeypatch.setattr(deal_record, "loads_record", lambda text: real(text.lstrip("\ufeff")))
    hits, failures = record_text_hits(Ruleset(), "standard")
    assert any("R-REC-LIMITS" in f and "limit-byte-order-mark" in f and "accepted" in f for f in failures), failures


def test_the_campaign_counts_record_texts_not_deals() -> None:
    """R-REC-LIMITS and R-REC-FORMAT in a fuzz campaign: counted from each preset's record texts (never a
    coverage gap), and no more than those texts give (not once per deal)."""
    from comet.fuzz.run import run_campaign
    from comet.fuzz.sweep import record_text_hits

    report = run_campaign(["standard"], seconds=None, deals=10, seed=0)
    hits = dict(report.rule_hits)
    text_hits, _ = record_text_hits(PRESETS["standard"].rules, "standard")
    assert hits["R-REC-LIMITS"] == text_hits["R-REC-LIMITS"] > 0
    assert hits["R-REC-FORMAT"] == text_hits["R-REC-FORMAT"] > 0
    assert "R-REC-LIMITS" not in report.never_hit
