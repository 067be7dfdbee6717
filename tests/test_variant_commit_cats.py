"""Commit as 002:32-45 describes it (preset commit_cats): table deck, lowest lead, suit runs, Comet, points."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from comet.cards import DIAMONDS, SPADES, card, parse_card
from comet.checks import check_settlement, check_transition
from comet.checks.play import check_game, play_checked
from comet.engine import apply, deal_points, deal_sizes, explicit_deal, legal_actions, packs_in_rotation, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.game import game_over, new_game, winners
from comet.games.commit_cats.check import commit_cats_economy
from comet.policy import random_policy
from comet.presets import PRESETS
from comet.state import PASS, Action, DealState, GameState
from comet.variant import REGISTRY, variant_named

CATS = PRESETS["commit_cats"].rules
COMET = card(9, DIAMONDS)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(w) for w in text.split()))


def position(hands: Sequence[str], run: tuple[int, ...] = (), suit: int = -1, **kw: object) -> DealState:
    start = shuffled_deal(CATS, len(hands), len(hands) - 1, 0)
    return replace(
        start,
        hands=tuple(cards(h) for h in hands),
        run=run,
        run_suit=suit,
        **kw,  # type: ignore[arg-type]
    )


def test_deck_table() -> None:
    """R-COMMIT-C-DECK R-COMMIT-C-DEAL: 002's table, the whole deck dealt, no dead hand."""
    table = {2: 25, 3: 17, 4: 12, 5: 10, 6: 8, 7: 7, 8: 6}
    for n, each in table.items():
        (pack,) = packs_in_rotation(CATS, n)
        assert parse_card("8D") not in pack.cards and pack.wild == (COMET,)
        assert len(pack.cards) == n * each
        assert deal_sizes(CATS, n, len(pack.cards)) == (each, 0)
    assert packs_in_rotation(CATS, 4)[0].name == "deck51-7C-7S-8C"
    # RUL-COMMIT-C-REMOVED = any: every choice of two sevens and one of the three other eights.
    assert len(packs_in_rotation(replace(CATS, commit_removed="any"), 4)) == 6 * 3


def test_explicit_deal_with_any_sevens() -> None:
    """R-COMMIT-C-DECK: under commit_removed=any a deck without 7H 7D 8S is accepted; under fixed it is not."""
    any_rules = replace(CATS, commit_removed="any")
    deck = [c for c in packs_in_rotation(any_rules, 4)[0].cards]
    removed = {c for c in packs_in_rotation(CATS, 3)[0].cards} - set(deck)
    assert len(removed) == 3
    s = explicit_deal(any_rules, 4, 0, [deck[i * 12 : i * 12 + 12] for i in range(4)], [])
    assert len(s.hands[0]) == 12
    other = next(p for p in packs_in_rotation(any_rules, 4) if p.cards != tuple(deck))
    hands = [list(other.cards[i * 12 : i * 12 + 12]) for i in range(4)]
    explicit_deal(any_rules, 4, 0, hands, [])
    if other.name != packs_in_rotation(CATS, 4)[0].name:
        with pytest.raises(RecordError):
            explicit_deal(CATS, 4, 0, hands, [])


def test_new_run_starts_with_lowest_card() -> None:
    """R-COMMIT-C-LEAD: 'He plays the lowest card from his hand of any suit'; Ace low; ties by RUL-COMMIT-C-LOWEST."""
    s = position(["AH AS 3C 9D", "2C", "4C"])
    assert legal_actions(s) == (Action(cards("AH")), Action(cards("AS")), Action((COMET,), 13))
    with pytest.raises(IllegalAction) as e:
        apply(s, Action(cards("3C")))
    assert e.value.rule == "R-COMMIT-C-LEAD"
    strict = replace(s, rules=replace(CATS, commit_lowest="rank_then_suit", commit_comet_lead="last_resort"))
    assert legal_actions(strict) == (Action(cards("AH")),)
    only_comet = position(["9D", "2C", "4C"])
    after = apply(only_comet, legal_actions(only_comet)[0])
    assert after.winner == 0


def test_runs_follow_suit() -> None:
    """R-COMMIT-C-SUIT: 'continue an upward sequence and are of the same suit'."""
    s = position(["5S 5H 2C", "3C", "4C"], run=(3, 4), suit=SPADES)
    assert legal_actions(s) == (Action(cards("5S")),)
    stuck = position(["5H 2C", "3C", "4C"], run=(3, 4), suit=SPADES)
    assert legal_actions(stuck) == (PASS,)


def test_comet_continues_with_replaced_or_next_card() -> None:
    """R-COMMIT-C-COMET: the Comet for the 6♠ (2 points); then the 6♠ itself or the 7♠ (RUL-COMMIT-C-COMET)."""
    s = position(["9D 6S 7S 2C", "3C", "4C"], run=(4, 5), suit=SPADES)
    assert Action((COMET,), 6) in legal_actions(s)
    after = apply(s, Action((COMET,), 6))
    assert after.scores == (2, 0, 0) and after.run == (4, 5, 6) and after.branch == parse_card("6S")
    assert set(legal_actions(after)) == {Action(cards("6S")), Action(cards("7S"))}
    replaced = apply(after, Action(cards("6S")))
    assert replaced.run == (4, 5, 6) and replaced.branch == 0 and legal_actions(replaced) == (Action(cards("7S")),)
    stop = apply(replace(s, rules=replace(CATS, commit_comet="stop")), Action((COMET,), 6))
    assert stop.run == () and stop.to_move == 0


def test_king_scores_one_and_ends_the_run() -> None:
    """R-COMMIT-C-KING: 'he scores 1 point for playing a King' and starts a new run with his lowest card."""
    after = apply(position(["KH 3C 2D", "3S", "4C"], run=(12,), suit=2), Action(cards("KH")))
    assert after.scores == (1, 0, 0) and after.run == () and legal_actions(after) == (Action(cards("2D")),)


def test_points_of_a_deal() -> None:
    """R-COMMIT-C-OUT R-COMMIT-C-CAUGHT: worked figure.  Anna goes out having scored 1 for a King in play;
    Ben holds K♠ 3♣ (2 + 1), Carla holds the Comet and 5♥ (1 + 1): Anna 1 + 1 + 3 + 2 = 7, and Carla's
    Comet gives Anna and Ben 1 each."""
    final = position(["", "KS 3C", "9D 5H"], winner=0, scores=(1, 0, 0))
    assert deal_points(final) == (1 + 1 + 3 + 2 + 1, 1, 0)


def test_game_to_100_and_ties() -> None:
    """R-COMMIT-C-GAME: first to 100 after a deal; RUL-COMMIT-C-TARGET: tied leaders share or play on."""
    g = new_game(CATS, 3)
    assert not game_over(g)
    reached = replace(g, balances=(104, 104, 50), deal_index=5)
    assert game_over(reached) and winners(reached) == (0, 1)
    assert not game_over(replace(reached, rules=replace(CATS, commit_tie="play_on")))
    assert game_over(replace(reached, balances=(99, 98, 97))) is False


def test_whole_games_are_checked() -> None:
    """R-COMMIT-C-GAME R-COMMIT-C-DEAL: games to 100 keep cards, always offer an action, end, and their
    totals are the sum of non-negative deal scores."""
    for seed, players in enumerate((2, 3, 6, 8)):
        game, problems = check_game(CATS, players, seed)
        assert problems == []
        assert isinstance(game, GameState) and max(game.balances) >= 100
        final, _, problems = play_checked(shuffled_deal(CATS, players, 0, seed), random_policy(random.Random(seed)))
        assert problems == [] and final.winner >= 0


def test_planted_bug_comet_dropping_the_run_suit_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a legal_actions hook that offers nothing after the Comet (it lost the run's suit)
    is reported as a state without a legal action."""
    v = variant_named("commit_cats")
    real = v.legal_actions
    assert real is not None

    def broken(state: DealState) -> tuple[Action, ...]:
        if state.played and state.played[-1] == COMET and state.turn_played and not state.terminal:
            return ()
        return real(state)

    monkeypatch.setitem(REGISTRY, "commit_cats", replace(v, legal_actions=broken))
    s = position(["9D 7S 2C", "3C", "4C"], run=(4, 5), suit=SPADES)

    def comet_first(state: DealState, legal: Sequence[Action]) -> Action:
        return next((a for a in legal if a.as_rank), legal[0])

    _, actions, problems = play_checked(s, comet_first)
    assert len(actions) == 1 and problems and "no legal action for seat 0" in problems[0]


@pytest.mark.parametrize(("reading", "points"), [("comet_only", 2), ("comet_and_king", 3)])
def test_comet_standing_for_a_king(reading: str, points: int) -> None:
    """R-COMMIT-C-COMET, R-COMMIT-C-KING: RUL-COMMIT-C-COMET-KING's example: run 10♠ J♠ Q♠; Ben plays the
    Comet for the K♠: 2 points (comet_only) or 3 (comet_and_king); the run ends either way and Ben leads
    his lowest card.  The step check recomputes the points under both readings."""
    rules = CATS.with_overrides({"commit_comet_king": reading})
    s = replace(position(["3C", "9D 2H 5S", "4C"], run=(10, 11, 12), suit=SPADES, to_move=1), rules=rules)
    act = Action(cards("9D"), 13)
    assert act in legal_actions(s)
    after = apply(s, act)
    assert after.scores == (0, points, 0) and after.run == () and legal_actions(after) == (Action(cards("2H")),)
    assert check_transition(s, act, after) == []
    # for any other card the readings agree: the Comet's 2
    mid = replace(position(["3C", "9D 2H 5S", "4C"], run=(10, 11), suit=SPADES, to_move=1), rules=rules)
    assert apply(mid, Action(cards("9D"), 12)).scores == (0, 2, 0)


def test_planted_comet_king_point_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a play hook that always adds the King's point to the Comet standing for a King is
    reported by the step check under the default reading (comet_only)."""
    v = variant_named("commit_cats")
    real = v.play
    assert real is not None

    def always_three(state: DealState, action: Action) -> DealState:
        wrong = replace(state, rules=replace(state.rules, commit_comet_king="comet_and_king"))
        return replace(real(wrong, action), rules=state.rules)

    monkeypatch.setitem(REGISTRY, "commit_cats", replace(v, play=always_three))
    s = position(["3C", "9D 2H 5S", "4C"], run=(10, 11, 12), suit=SPADES, to_move=1)
    act = Action(cards("9D"), 13)
    problems = check_transition(s, act, apply(s, act))
    assert problems == ["play 9D as K left the scores in play at (0, 3, 0), not (0, 2, 0)"]


@pytest.mark.parametrize("reading", ["must", "may"])
def test_new_run_after_a_king_may_be_passed_on(reading: str) -> None:
    """RUL-CATS-NEW-RUN (R-COMMIT-C-KING, R-COMMIT-C-LEAD): 002:43 'he may then start a new sequence with
    his lowest card'.  must: the King's player leads at once; may: they may pass, and the left neighbour
    must then lead their lowest card."""
    rules = CATS.with_overrides({"cats_new_run": reading})
    after = apply(position(["KH 3C 2D", "3S 5S", "4C"], run=(12,), suit=2, rules=rules), Action(cards("KH")))
    if reading == "must":
        assert legal_actions(after) == (Action(cards("2D")),)
        return
    assert set(legal_actions(after)) == {Action(cards("2D")), PASS}
    passed = apply(after, PASS)
    assert passed.to_move == 1 and legal_actions(passed) == (Action(cards("3S")),)


@pytest.mark.parametrize("reading", ["must", "may"])
def test_stuck_run_may_be_passed_on(reading: str) -> None:
    """RUL-CATS-NEW-RUN (R-COMMIT-C-LEAD): 002:43 the player declaring without 'may also start a
    sequence'; under may the player to whom the stuck run came back may pass it on."""
    rules = CATS.with_overrides({"cats_new_run": reading})
    s = position(["3C 2D", "3S 5S", "4C"], run=(5,), suit=2, rules=rules, last_player=0, to_move=1)
    s = apply(apply(s, PASS), PASS)
    assert s.to_move == 0 and s.run == ()
    if reading == "must":
        assert legal_actions(s) == (Action(cards("2D")),)
    else:
        assert PASS in legal_actions(s)
        assert legal_actions(apply(s, PASS)) == (Action(cards("3S")),)


def test_new_run_after_a_stopping_comet_may_be_passed_on() -> None:
    """RUL-CATS-NEW-RUN x RUL-COMMIT-C-COMET = stop: the Comet's player may pass the new run on under may."""
    rules = CATS.with_overrides({"commit_comet": "stop", "cats_new_run": "may"})
    after = apply(position(["9D 3C 2D", "3S", "4C"], run=(4, 5), suit=3, rules=rules), Action((COMET,), 6))
    assert after.run == () and set(legal_actions(after)) == {Action(cards("2D")), PASS}


@pytest.mark.parametrize("reading", ["king", "last_resort"])
def test_comet_may_lead_as_a_king(reading: str) -> None:
    """RUL-COMMIT-C-COMET-LEAD (R-COMMIT-C-LEAD, R-COMMIT-C-COMET): 002:43 'never required to play the Comet
    even if the Comet is his lowest card'.  king: Anna may lead the Comet as the K (2 points, the run ends,
    she leads again); last_resort: she must lead the 2C, and a lone Comet goes out as a 9."""
    rules = CATS.with_overrides({"commit_comet_lead": reading})
    s = position(["2C 9D", "3S", "4C"], rules=rules)
    as_king = Action((COMET,), 13)
    if reading == "last_resort":
        assert legal_actions(s) == (Action(cards("2C")),)
        with pytest.raises(IllegalAction) as e:
            apply(s, as_king)
        assert e.value.rule == "R-COMMIT-C-COMET" and "last_resort" in e.value.message
        lone = position(["9D", "3S", "4C"], rules=rules)
        assert legal_actions(lone) == (Action((COMET,), 9),)
        assert apply(lone, Action((COMET,), 9)).out_wild_as == 9
        return
    assert legal_actions(s) == (Action(cards("2C")), as_king)
    with pytest.raises(IllegalAction) as e:
        apply(s, Action((COMET,), 9))
    assert "stands for the King" in e.value.message
    after = apply(s, as_king)
    assert after.scores == (2, 0, 0) and after.run == () and after.to_move == 0
    assert legal_actions(after) == (Action(cards("2C")),)
    assert check_transition(s, as_king, after) == []
    lone = apply(position(["9D", "3S", "4C"], rules=rules), as_king)
    assert lone.winner == 0 and lone.out_wild_as == 13


@pytest.mark.parametrize("reading", ["open", "player_only"])
def test_replaced_card_after_the_comet(reading: str) -> None:
    """RUL-COMMIT-C-REPLACED (R-COMMIT-C-COMET): 002:44 'the player may either play the card the Comet was
    set to replace or may play the next card'.  Run 4S 5S; Anna plays the Comet for the 6S and holds neither
    the 6S nor the 7S; Ben holds the 6S.  open: Ben must play it; player_only: it lapsed with Anna's turn,
    and Ben (no 7S) passes."""
    rules = CATS.with_overrides({"commit_comet_branch": reading})
    s = position(["9D 2C", "6S 3C", "4C"], run=(4, 5), suit=SPADES, rules=rules)
    after = apply(apply(s, Action((COMET,), 6)), PASS)
    assert after.to_move == 1 and after.run == (4, 5, 6)
    if reading == "open":
        assert after.branch == parse_card("6S") and legal_actions(after) == (Action(cards("6S")),)
    else:
        assert after.branch == 0 and legal_actions(after) == (PASS,)
    assert check_transition(apply(s, Action((COMET,), 6)), PASS, after) == []


@pytest.mark.parametrize(("reading", "won"), [("plain", 1 + 3 + 2), ("doubled", 1 + 2 * (3 + 2))])
def test_going_out_on_the_comet(reading: str, won: int) -> None:
    """RUL-COMMIT-C-COMET-OUT (R-COMMIT-C-OUT): Anna goes out on the Comet for the 6S; Ben holds K♠ 3♣
    (2 + 1), Carla 4♣ 5♣ (1 + 1): plain she scores 1 + 5, doubled 1 + 2 x 5 (and 2 for the Comet in play)."""
    rules = CATS.with_overrides({"commit_comet_out": reading})
    s = position(["9D", "KS 3C", "4C 5C"], run=(4, 5), suit=SPADES, rules=rules)
    final = apply(s, Action((COMET,), 6))
    assert final.winner == 0 and final.out_wild_as == 6
    assert deal_points(final)[0] == 2 + won
    assert check_transition(s, Action((COMET,), 6), final) == [] and check_settlement(final) == ([], False)


def test_doubled_going_out_planted_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: cats_points ignoring RUL-COMMIT-C-COMET-OUT = doubled is reported by the independent
    recomputation."""
    from comet.games.commit_cats import rules as cats_rules

    monkeypatch.setattr(cats_rules, "out_on_comet_multiplier", lambda state: 1)
    rules = CATS.with_overrides({"commit_comet_out": "doubled"})
    s = position(["9D", "KS 3C", "4C 5C"], run=(4, 5), suit=SPADES, rules=rules)
    final = apply(s, Action((COMET,), 6))
    problems, skipped = check_settlement(final)
    assert not skipped and problems == [
        "deal points (8, 0, 0) differ from the recomputation from the leftover hands (13, 0, 0)"
    ]


@pytest.mark.parametrize("reading", ["next_card", "any_higher"])
def test_comet_replaces_the_next_card_or_any_higher(reading: str) -> None:
    """RUL-COMMIT-C-COMET-CARD (R-COMMIT-C-COMET): 002:44 'at any time to replace any other card'.  Run 4S 5S:
    next_card: the Comet stands for the 6S only; any_higher: for any spade from the 6 to the King, and the
    run goes on from the card it replaced (here the JS: then the JS itself or the QS)."""
    rules = CATS.with_overrides({"commit_comet_card": reading})
    s = position(["9D QS 2C", "3C", "4C"], run=(4, 5), suit=SPADES, rules=rules)
    comets = [a for a in legal_actions(s) if a.as_rank]
    if reading == "next_card":
        assert comets == [Action((COMET,), 6)]
        return
    assert comets == [Action((COMET,), r) for r in range(6, 14)]
    after = apply(s, Action((COMET,), 11))
    assert after.run == (11,) and after.branch == parse_card("JS") and after.scores == (2, 0, 0)
    assert legal_actions(after) == (Action(cards("QS")),)
    assert check_transition(s, Action((COMET,), 11), after) == []


@pytest.mark.parametrize("reading", ["kings", "missing_successor"])
def test_a_card_before_a_missing_one(reading: str) -> None:
    """RUL-COMMIT-C-STOPS (R-COMMIT-C-KING, R-COMMIT-C-SUIT): the 8D is never in the deck.  Anna plays the 7D
    holding 2C.  kings: the run stands at 'without 8' and goes round; missing_successor: the 7D is a stop and
    Anna leads her 2C at once (no point, unlike a King)."""
    rules = CATS.with_overrides({"commit_stops": reading})
    s = position(["7D 2C", "3C", "4C"], run=(6,), suit=DIAMONDS, rules=rules)
    after = apply(s, Action(cards("7D")))
    assert after.scores == (0, 0, 0)
    if reading == "kings":
        assert after.run == (6, 7) and legal_actions(after) == (PASS,)
    else:
        assert after.run == () and legal_actions(after) == (Action(cards("2C")),)
    # a removed seven: the fixed 4-player deck has no 7C or 7S, so the 6S is a stop under missing_successor
    four = replace(shuffled_deal(rules, 4, 3, 0), hands=(cards("6S 2H"), cards("3C"), cards("4C"), cards("5C")))
    six = apply(replace(four, run=(5,), run_suit=SPADES, last_player=3), Action(cards("6S")))
    assert (six.run == ()) == (reading == "missing_successor")


@pytest.mark.parametrize("reading", ["after_deal", "race"])
def test_race_to_100_inside_a_deal(reading: str) -> None:
    """RUL-COMMIT-C-RACE (R-COMMIT-C-GAME): 002:45 "The first player to accumulate 100".  Anna has 99 and
    plays the KS (1 point), then leads her 2C; Ben, on 98, goes out on the 3C (1 + 1 for Anna's 7H + 2 for
    Carla's 4D 5D).  after_deal: the deal is played out and Ben wins on 102; race: Anna won the moment she
    reached 100, the rest of the deal is not played."""
    from comet.game import deal_over, finish_deal, race_standings

    rules = CATS.with_overrides({"commit_race": reading})
    game = replace(new_game(rules, 3), balances=(99, 98, 0))
    s = position(["KS 2C 7H", "3C", "4D 5D"], run=(11, 12), suit=SPADES, rules=rules)
    king = apply(s, Action(cards("KS")))
    assert king.scores == (1, 0, 0) and not king.terminal
    if reading == "race":
        assert deal_over(game, king) and race_standings(game, king) == (100, 98, 0)
        after = finish_deal(game, king)
        assert after.balances == (100, 98, 0) and game_over(after) and winners(after) == (0,)
        assert commit_cats_economy(game, s, king, after) == []
        return
    assert not deal_over(game, king) and race_standings(game, king) is None
    with pytest.raises(ValueError, match="not over"):
        finish_deal(game, king)
    final = apply(apply(apply(king, Action(cards("2C"))), PASS), Action(cards("3C")))
    assert final.winner == 1
    after = finish_deal(game, final)
    assert after.balances == (100, 102, 0) and winners(after) == (1,)


@pytest.mark.parametrize(("reading", "net"), [("after_deal", (1 + 2 + 1, 1, 0)), ("race", (1 + 2, 0, 0))])
def test_race_points_arrive_winner_first(reading: str, net: tuple[int, ...]) -> None:
    """RUL-COMMIT-C-RACE (R-COMMIT-C-GAME, R-COMMIT-C-CAUGHT): Anna (97) goes out; Ben holds 3C, Carla the
    Comet.  Anna's 1 + 1 + 1 come first and take her to 100; under race the 1 each that Anna and Ben get for
    the caught Comet is never scored (the game was over), after the deal it is."""
    from comet.game import finish_deal

    rules = CATS.with_overrides({"commit_race": reading})
    game = replace(new_game(rules, 3), balances=(97, 50, 0))
    s = position(["4S", "3C", "9D"], run=(3,), suit=SPADES, rules=rules)
    final = apply(s, Action(cards("4S")))
    after = finish_deal(game, final)
    assert after.history[-1] == net and winners(after) == (0,)
    assert commit_cats_economy(game, s, final, after) == []


def test_race_checked_and_recorded_games() -> None:
    """RUL-COMMIT-C-RACE (R-COMMIT-C-GAME): whole race games pass the one checker, their records replay (the
    last deal cut where the game was won), and an action after that point is a fault of R-COMMIT-C-GAME."""
    from comet.records.game_replay import replay_game
    from comet.records.game_write import record_game

    rules = CATS.with_overrides({"commit_race": "race"})
    cut = ended = 0
    for seed in range(5, 9):
        game, problems = check_game(rules, 4, seed)
        assert problems == [] and max(game.balances) >= 100
        rec = record_game(rules, "commit_cats", 4, None, seed)
        verdict = replay_game(rec)
        assert verdict.fault is None and verdict.finished and verdict.game is not None
        assert verdict.game.balances == game_of(rules, seed).balances
        last = rec.deals[-1].record
        assert last is not None
        longer = replace(last, actions=(*last.actions, PASS), action_texts=(*last.action_texts, "pass"))
        fault = replay_game(replace(rec, deals=(*rec.deals[:-1], replace(rec.deals[-1], record=longer)))).fault
        assert fault is not None and fault.item == f"deals[{len(rec.deals) - 1}].record.actions[{len(last.actions)}]"
        if verdict.deals[-1].verdict.final.terminal:
            ended += 1
            assert fault.rule == "R-END-OUT"  # the deal itself was over
        else:
            cut += 1
            assert fault.rule == "R-COMMIT-C-GAME"  # the game was won inside the deal
    assert cut and ended  # some game was won inside a deal, some at a deal's end


def game_of(rules: object, seed: int) -> GameState:
    from comet.game import play_game

    assert isinstance(rules, type(CATS))
    return play_game(rules, 4, None, seed)


def test_planted_race_judged_after_the_deal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a race_end hook that only looks at a finished deal's totals (so the game plays past the
    moment someone reached 100) is reported by the independent recomputation of the race (RUL-COMMIT-C-RACE)."""
    from comet.game import finish_deal

    v = variant_named("commit_cats")

    def late(game: GameState, state: DealState) -> tuple[int, ...] | None:
        if not state.terminal:
            return None
        totals = tuple(b + p for b, p in zip(game.balances, deal_points(state), strict=True))
        return totals if max(totals) >= 100 else None

    monkeypatch.setitem(REGISTRY, "commit_cats", replace(v, race_end=late))
    rules = CATS.with_overrides({"commit_race": "race"})
    game = replace(new_game(rules, 3), balances=(99, 98, 0))
    s = position(["KS 2C 7H", "3C", "4D 5D"], run=(11, 12), suit=SPADES, rules=rules)
    final = apply(apply(apply(apply(s, Action(cards("KS"))), Action(cards("2C"))), PASS), Action(cards("3C")))
    after = finish_deal(game, final)
    assert commit_cats_economy(game, s, final, after) == [
        "the deal added (1, 4, 0) to the totals (99, 98, 0); in the race it adds (1, 0, 0)"
    ]


def test_cats_continue_must_or_may() -> None:
    """RUL-COMMIT-C-CONTINUE (R-COMMIT-C-SUIT): Anna has led the 10♠ and holds the J♠.  must: she plays it,
    "Without" is refused; may: she may say "Without".  Before she has played a card she must play either way."""
    for reading, stops in (("must", False), ("may", True)):
        rules = CATS.with_overrides({"cats_continue": reading})
        s = replace(
            position(["JS QS 2C", "3C 4C 5C", "6C 7C 8C"], run=(10,), suit=SPADES, rules=rules), turn_played=True
        )
        assert (PASS in legal_actions(s)) is stops, reading
        if not stops:
            with pytest.raises(IllegalAction) as err:
                apply(s, PASS)
            assert err.value.rule == "R-COMMIT-C-SUIT"
        fresh = replace(s, turn_played=False)
        assert PASS not in legal_actions(fresh)
