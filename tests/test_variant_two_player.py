"""Two players (Arnold, 2011; 000:84): R-2P-DEAL, R-2P-COMET-UNPAID, R-2P-POINTS, R-2P-DOUBLING, R-2P-GAME."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from builders import cards, position
from comet.checks import check_transition
from comet.checks.play import check_game
from comet.engine import apply, deal_points, deal_sizes, legal_actions, returns, settlement, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.game import finish_deal, game_over, new_game, winners
from comet.games.two_player import rules as tp
from comet.notation import parse_action
from comet.presets import PRESETS
from comet.state import DealState, GameState
from comet.variant import REGISTRY

TWO = PRESETS["two_player"].rules


def expected_score(loser_hand: str, loser_holds_comet: bool, out_with_comet_as: int) -> int:
    """000:84 with 000:61/63 card values, computed here without the engine."""
    values = {"J": 10, "Q": 10, "K": 10}
    points = sum(values.get(w[:-1], 9 if w == "9D" else 0) or int(w[:-1]) for w in loser_hand.split())
    mult = 2 if loser_holds_comet else 1
    if out_with_comet_as:
        mult *= 4 if out_with_comet_as == 9 else 2
    return points * mult


def finish(state: DealState, *texts: str) -> DealState:
    for t in texts:
        state = apply(state, parse_action(t))
    return state


def test_deal_is_18_each_and_only_two_players() -> None:
    """R-2P-DEAL: 18 cards each; the standard pack leaves 12 in the dead hand."""
    assert deal_sizes(TWO, 2, 48) == (18, 12)
    s = shuffled_deal(TWO, 2, 1, seed=4)
    assert [len(h) for h in s.hands] == [18, 18] and len(s.dead) == 12
    assert s.comet_value == 0
    with pytest.raises(RecordError, match="not 3"):
        shuffled_deal(TWO, 3, 1, seed=4)


def test_the_comet_is_not_paid_for_when_played() -> None:
    """R-2P-COMET-UNPAID: 000:84 "The Comet is not paid for when played." (even with a value set)."""
    s = position(["9D 5C 6C", "7C 8C KC"], rules=TWO, run=(3, 4), to_move=0, comet_value=2)
    after = apply(s, parse_action("play 9D as 5"))
    assert after.payments == () and returns(after) == (0, 0)


def test_winner_scores_the_losers_points() -> None:
    """R-2P-POINTS: Anna goes out; Ben's K, 7, 3 score 20 points for Anna, none for Ben, and no chips move."""
    s = position(["5C", "KC 7C 3C"], rules=TWO, run=(4,), to_move=0)
    final = finish(s, "play 5C")
    assert final.winner == 0
    assert deal_points(final) == (expected_score("KC 7C 3C", False, 0), 0) == (20, 0)
    assert settlement(final) == () and returns(final) == (0, 0)


def test_loser_holding_the_comet_doubles_the_score() -> None:
    """R-2P-DOUBLING: 000:84 "If the loser still holds the Comet, all scores for that deal are doubled"."""
    s = position(["5C", "4C QC 9D"], rules=TWO, run=(4,), to_move=0)
    final = finish(s, "play 5C")
    assert deal_points(final) == ((4 + 10 + 9) * 2, 0) == (expected_score("4C QC 9D", True, 0), 0)


@pytest.mark.parametrize(("as_rank", "mult"), [(9, 4), (6, 2)])
def test_going_out_with_the_comet_doubles_or_quadruples(as_rank: int, mult: int) -> None:
    """R-2P-DOUBLING: "if the winner goes out with the Comet, the score is doubled, or quadrupled if it stood for a 9"."""
    s = position(["9D", "KC 7C 3C"], rules=TWO, run=(as_rank - 1,), to_move=0)
    final = finish(s, f"play 9D as {as_rank}")
    assert deal_points(final) == (20 * mult, 0) == (expected_score("KC 7C 3C", False, as_rank), 0)


def _game_at(totals: tuple[int, int], deal_index: int, end: str = "first_to_target") -> GameState:
    rules = replace(TWO, two_player_end=end)  # type: ignore[arg-type]
    return replace(new_game(rules, 2), balances=totals, deal_index=deal_index)


def test_first_to_121_wins() -> None:
    """R-2P-GAME: the game ends when a player reaches 121; the highest total wins (000:84)."""
    assert not game_over(_game_at((120, 80), 5))
    g = _game_at((121, 80), 5)
    assert game_over(g) and winners(g) == (0,)
    # RUL-2P-END = equal_deals: after an odd number of deals the other player still deals once.
    assert not game_over(_game_at((121, 80), 5, "equal_deals"))
    assert game_over(_game_at((121, 80), 6, "equal_deals"))


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_reach_121_and_totals_add_up(seed: int) -> None:
    """R-2P-GAME R-2P-POINTS: seeded games end at 121 or more; totals equal the sum of the deal scores."""
    game, problems = check_game(TWO, 2, seed)
    assert problems == []
    assert max(game.balances) >= 121 and game.deal_index < game.deals
    assert tuple(map(sum, zip(*game.history, strict=True))) == game.balances
    assert all(min(row) == 0 for row in game.history)  # only one player scores in a deal


def test_finish_deal_adds_points_not_chips() -> None:
    """R-2P-POINTS: finish_deal adds the deal's points to the totals, which start at 0."""
    g = new_game(TWO, 2)
    assert g.balances == (0, 0)
    s = position(["5C", "KC 7C 3C"], rules=TWO, run=(4,), to_move=0)
    g = finish_deal(g, finish(s, "play 5C"))
    assert g.balances == (20, 0) and g.history == ((20, 0),)


def test_a_broken_points_hook_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a scoring hook that drops the doubling for a caught Comet disagrees with 000:84."""

    def undoubled(state: DealState) -> tuple[int, ...]:
        pts = [0, 0]
        if state.winner >= 0:
            pts[state.winner] = sum(min(c >> 2, 10) for c in state.hands[1 - state.winner])
        return tuple(pts)

    monkeypatch.setitem(REGISTRY, "two_player", replace(tp.TWO_PLAYER, points_of_deal=undoubled))
    final = finish(position(["5C", "4C QC 9D"], rules=TWO, run=(4,), to_move=0), "play 5C")
    want = (expected_score("4C QC 9D", True, 0), 0)
    got = deal_points(final)
    assert got != want, f"the planted bug went unnoticed: {got} == {want}"


def test_a_comet_bonus_leaking_into_two_player_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: restoring the standard Comet bonus makes chips move in a points game."""
    monkeypatch.setitem(REGISTRY, "two_player", replace(tp.TWO_PLAYER, play_payments=None))
    s = position(["9D 5C 6C", "7C 8C KC"], rules=TWO, run=(3, 4), to_move=0, comet_value=2)
    after = apply(s, parse_action("play 9D as 5"))
    assert returns(after) == (2, -2)


def test_random_two_player_deals_keep_cards_and_score_non_negative() -> None:
    """R-2P-DEAL R-2P-POINTS: random play from many seeds; cards kept, scores >= 0."""
    from comet.checks.play import play_checked
    from comet.policy import random_policy

    for seed in range(20):
        final, _, problems = play_checked(shuffled_deal(TWO, 2, seed % 2, seed), random_policy(random.Random(seed)))
        assert problems == []
        assert all(p >= 0 for p in deal_points(final))


def test_opera_doubles_a_two_player_score() -> None:
    """R-2P-POINTS R-OPERA-DOUBLE: Opera "works best with two" (000:83): the deal's score is doubled."""
    from builders import cards
    from comet.engine import explicit_deal
    from comet.game import play_deal
    from test_variant_opera import ANNA_OUT, BEN_COULD, BEN_POINTS, DEAD_COULD

    rules = replace(TWO, opera=True, opera_draw="never")
    final, _ = play_deal(explicit_deal(rules, 2, 1, [cards(ANNA_OUT), cards(BEN_COULD)], cards(DEAD_COULD)))
    assert deal_points(final) == (2 * BEN_POINTS, 0)
    drawn, _ = play_deal(
        explicit_deal(replace(TWO, opera=True), 2, 1, [cards(ANNA_OUT), cards(BEN_COULD)], cards(DEAD_COULD))
    )
    assert drawn.drawn and deal_points(drawn) == (0, 0)


@pytest.mark.parametrize("reading", ["four", "any_number"])
def test_sets_of_the_needed_rank(reading: str) -> None:
    """RUL-2P-SETS (R-FOUR-OF-A-KIND, R-PLAY-CONTINUE): the run needs a 7 and Anna holds 7C 7C 7S 8C 8S (the
    black pack has two of each card).  four: she plays one 7 at a time (two 7s together break
    R-FOUR-OF-A-KIND); any_number: any two or all three of her 7s may go down at once, and the run then
    needs an 8."""
    rules = TWO.with_overrides({"two_player_sets": reading})
    s = position(["7C 7C 7S 8C 8S", "2C 3C"], rules=rules, run=(5, 6), to_move=0)
    sets = [str(a) for a in legal_actions(s) if len(a.cards) > 1]
    pair = parse_action("play 7C 7S")
    if reading == "four":
        assert sets == []
        with pytest.raises(IllegalAction) as e:
            apply(s, pair)
        assert e.value.rule == "R-FOUR-OF-A-KIND"
        return
    assert sets == ["play 7C 7C", "play 7C 7C 7S", "play 7C 7S"]
    after = apply(s, pair)
    assert after.run == (5, 6, 7) and after.hands[0] == cards("7C 8C 8S")
    assert check_transition(s, pair, after) == []
    with pytest.raises(IllegalAction) as e:  # a set of a rank the run does not need
        apply(s, parse_action("play 8C 8S"))
    assert e.value.rule == "R-PLAY-CONTINUE"


def test_sets_on_a_lead_only_where_four_may_lead() -> None:
    """RUL-2P-SETS with RUL-QUARTET-LEAD (R-FOUR-OF-A-KIND): any_number lets two of a kind start a run only
    where a lead may be four of a kind (quartet_on_lead = true)."""
    hands = ["4C 4S 9C", "2C 3C"]
    for lead, expected in ((False, []), (True, ["play 4C 4S"])):
        rules = TWO.with_overrides({"two_player_sets": "any_number", "quartet_on_lead": lead})
        s = position(hands, rules=rules, to_move=0)
        assert [str(a) for a in legal_actions(s) if len(a.cards) > 1] == expected


def test_planted_sets_rule_leaking_into_four_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: legal actions that offer a pair under the seeds' reading (four) are reported by the
    two-player game's independent judgement of a set (R-FOUR-OF-A-KIND, RUL-2P-SETS)."""
    from comet import engine

    real = engine.legal_actions
    pair = parse_action("play 7C 7S")
    monkeypatch.setattr(engine, "legal_actions", lambda state: (*real(state), pair))
    s = position(["7C 7S 8C KS", "2C 3C"], rules=TWO, run=(5, 6), to_move=0)
    problems = check_transition(s, pair, engine.apply(s, pair))
    assert problems == ["play 7C 7S puts down 2 of the 4 natural cards of its rank: only all go together"]
    anyn = replace(s, rules=TWO.with_overrides({"two_player_sets": "any_number"}))
    assert check_transition(anyn, pair, engine.apply(anyn, pair)) == []  # the same pair is fine there
