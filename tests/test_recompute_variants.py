"""Independent recomputations of every variant's end of deal, play payments and game (issue 3:
"the settlement equals an independent recomputation from the leftover hands"; issue 4: every
game is fuzzed).  The figures below are the sources' and the rulings' worked examples, checked
against ``comet.checks`` (which recomputes from its own card tables) and against the model.

Rules exercised: R-2P-POINTS, R-2P-DOUBLING, R-2P-COMET-UNPAID, R-2P-GAME, R-OLD-SETTLE,
R-OLD-POINTS, R-OLD-MANILLE-CAUGHT, R-OLD-KING, R-OLD-LAST-CARD, R-OLD-MANILLE-PLAY,
R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD, R-COMMIT-H-KING-PAID,
R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT, R-COMMIT-C-KING, R-COMMIT-C-COMET, R-COMMIT-C-GAME,
R-RED9-SCORE, R-RED9-DOUBLE, R-RED9-GAME, R-OPERA-DOUBLE.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from builders import cards, position
from comet import engine
from comet import game as game_module
from comet.checks import (
    GameCheck,
    check_game_economy,
    check_game_economy_end,
    check_of,
    check_settlement,
    check_transition,
)
from comet.checks.coverage import all_rule_ids
from comet.engine import player_counts
from comet.fuzz import check_deal, check_game, game_length, make_deal, pick_policy, random_ruleset
from comet.games.commit_cats.check import commit_cats_recomputed
from comet.games.commit_hoyle.check import commit_hoyle_recomputed
from comet.games.old_comet.check import old_comet_recomputed
from comet.games.red_nines.check import red_nines_recomputed
from comet.games.two_player.check import two_player_recomputed
from comet.presets import PRESETS
from comet.ruleset import Ruleset
from comet.state import DealState, Payment
from comet.variant import REGISTRY

VARIANT_PRESETS = ("two_player", "old_comet", "commit_hoyle", "commit_cats", "red_nines")
KNOWN = all_rule_ids()


def finished(
    preset_name: str,
    hands: list[str],
    winner: int,
    last: str,
    *,
    players_pack: int | None = None,
    out_wild_as: int = 0,
    comet_value: int | None = None,
    turn: int = 3,
    **rulings: object,
) -> DealState:
    """A finished deal: ``winner`` has just played ``last`` (the last card on the pile) and holds
    nothing; the other hands are as given; every other card of the deal's pack counts as played."""
    rules = PRESETS[preset_name].rules.with_overrides(rulings)
    n = len(hands)
    pack = engine.packs_in_rotation(rules, players_pack or n)[0]
    value = comet_value if comet_value is not None else REGISTRY[rules.variant].comet_value
    s = position(hands, rules=rules, pack=pack, comet_value=value)
    c = cards(last)[0]
    played = list(s.played)
    played.remove(c)
    return replace(s, played=(*played, c), winner=winner, out_wild_as=out_wild_as, turn=turn)


def agree(state: DealState) -> None:
    """The model's settlement and points equal the recomputation for ``state``."""
    problems, skipped = check_settlement(state)
    assert not skipped and not problems, problems


# ----------------------------------------------------------------- the sources' figures


def test_two_player_scores_the_losers_hand_with_the_standard_doubling() -> None:
    """R-2P-POINTS, R-2P-DOUBLING: 000:84 with 000:66's hands: K 7 3 scores 20; 4 Q Comet scores
    (4 + 10 + 9) x 2 = 46; going out on the Comet as a 9 quadruples (000:84 "quadrupled")."""
    plain = finished("two_player", ["", "KC 7S 3C"], 0, "5C")
    assert two_player_recomputed(plain).points == (20, 0) and two_player_recomputed(plain).chips == {}
    caught = finished("two_player", ["4C QS 9D", ""], 1, "5C")
    assert two_player_recomputed(caught).points == (0, 46)
    as_nine = finished("two_player", ["", "KC 7S 3C"], 0, "9D", out_wild_as=9)
    assert two_player_recomputed(as_nine).points == (80, 0)
    for s in (plain, caught, as_nine):
        agree(s)


def test_two_player_opera_doubles_the_score() -> None:
    """R-OPERA-DOUBLE with two players (RUL-OPERA applies to two_player): out in the first turn, x2."""
    s = finished("two_player", ["", "KC 7S 3C"], 1 - 1, "5C", turn=0, opera=True, opera_draw="never")
    s = replace(s, dealer=1)
    assert two_player_recomputed(s).points == (40, 0)
    agree(s)


def test_old_comet_caught_manille_both_readings() -> None:
    """R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT: RUL-OLD-CAUGHT's example: Carla holds 4, Q and the
    manille: she pays Anna 23 points + 10, and Ben 10 (nine_only: Anna 23)."""
    hands = ["", "2C", "4C QS 9D"]
    s = finished("old_comet", hands, 0, "5C")
    assert old_comet_recomputed(s).chips == {(1, 0): 2, (2, 0): 33, (2, 1): 10}
    n9 = finished("old_comet", hands, 0, "5C", old_caught="nine_only")
    assert old_comet_recomputed(n9).chips == {(1, 0): 2, (2, 0): 23, (2, 1): 10}
    agree(s)
    agree(n9)


@pytest.mark.parametrize(("reading", "pays"), [("plain", 18), ("multiplied", 72)])
def test_old_comet_going_out_on_the_manille(reading: str, pays: int) -> None:
    """R-OLD-POINTS, RUL-OLD-MANILLE-LAST's example: Ben holds A, 7, K (Ace 1): 18, or x4 = 72."""
    s = finished("old_comet", ["", "AC 7S KH"], 0, "9D", out_wild_as=9, old_manille_last=reading)
    assert old_comet_recomputed(s).chips == {(1, 0): pays}
    agree(s)


def test_commit_hoyle_pool_caught_nine_and_kings_held() -> None:
    """R-COMMIT-H-POOL, R-COMMIT-H-KINGS-HELD, R-COMMIT-H-CAUGHT: RUL-COMMIT-H-KINGS-HELD's example
    (Ben ends with K♠ K♥ among four: 2 to each of the three others), the pool (stake 1: 3 to the
    winner), and Carla caught with the 9♦ (2 to each)."""
    s = finished("commit_hoyle", ["", "KS KH", "9D 3C", "4C"], 0, "5C")
    want = {(1, 0): 1 + 2, (2, 0): 1 + 2, (3, 0): 1, (1, 2): 2, (1, 3): 2, (2, 1): 2, (2, 3): 2}
    assert commit_hoyle_recomputed(s).chips == want
    others = finished("commit_hoyle", ["", "KS KH", "9D 3C", "4C"], 0, "5C", commit_king_payer="others")
    assert commit_hoyle_recomputed(others).chips == {
        (1, 0): 1,
        (0, 1): 2,
        (2, 0): 1 + 2,
        (2, 1): 2 + 2,
        (3, 0): 1,
        (3, 1): 2,
        (2, 3): 2,
    }
    agree(s)
    agree(others)


def test_commit_cats_out_kings_and_caught_comet() -> None:
    """R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT: 002:45: the winner scores 1, 2 per King and 1 per other
    card left; the Comet left with Ben gives every other player 1 (the winner included)."""
    s = finished("commit_cats", ["", "KS 3C 9D", "QH"], 0, "5C")
    s = replace(s, scores=(2, 1, 0))  # scored in play: the winner 2 (the Comet), Ben 1 (a King)
    assert commit_cats_recomputed(s).points == (2 + 1 + 2 + 1 + 1 + 1 + 1, 1, 1)
    agree(s)


def test_red_nines_doubling_examples() -> None:
    """R-RED9-SCORE, R-RED9-DOUBLE: RUL-RED9-MANY's example (five players, Carla holds 9♦ 9♥ 9♥ 4:
    (9 + 9 + 9 + 4) x 8 = 248; cap_four: x4 = 124) and RUL-RED9-OUT's (Ben goes out on the 9♦ as a 9,
    Anna holds a King: 13 x 2 = 26; like_comet: 52)."""
    five = ["", "2C", "9D 9H 9H 4C", "3C", "AS"]
    s = finished("red_nines", five, 0, "5C")
    assert red_nines_recomputed(s).points == (0, 2, 248, 3, 20)
    capped = finished("red_nines", five, 0, "5C", red_nines_many="cap_four")
    assert red_nines_recomputed(capped).points == (0, 2, 124, 3, 20)
    out = finished("red_nines", ["KC", "", "2C", "3C"], 1, "9D", out_wild_as=9)
    assert red_nines_recomputed(out).points == (26, 0, 4, 6)
    like = finished("red_nines", ["KC", "", "2C", "3C"], 1, "9D", out_wild_as=9, red_nines_out="like_comet")
    assert red_nines_recomputed(like).points == (52, 0, 8, 12)
    for x in (s, capped, out, like):
        agree(x)


# ----------------------------------------------------------------- nothing is skipped


def registered(name: str) -> GameCheck:
    """The one checker's recomputation registered by game family ``name``."""
    check = check_of(name)
    assert check is not None, f"no recomputation registered for {name}"
    return check


def test_every_variant_is_recomputed_under_random_readings() -> None:
    """Random deals of every variant, under random readings of every ruling (every hand shape),
    are checked step by step and at the end, and none of them is skipped."""
    rng = random.Random(7)
    for name in VARIANT_PRESETS:
        for _ in range(12):
            rules = random_ruleset(name, rng)
            n = rng.choice(player_counts(rules))
            kind = rng.choice(("shuffled", "comet_in_hand", "comet_last", "kings", "quartets"))
            start = make_deal(rules, n, rng.randrange(n), rng.getrandbits(32), 0, 2, kind, rng.randrange(n))
            if name in ("old_comet", "commit_hoyle"):
                start = replace(start, comet_value=REGISTRY[name].comet_value)
            out = check_deal(start, pick_policy(rng), KNOWN)
            assert not out.failure, out.failure
            assert not out.settlement_skipped, f"{name}: settlement not recomputed"


@pytest.mark.parametrize("name", VARIANT_PRESETS)
def test_every_variant_game_is_checked_to_its_end(name: str) -> None:
    """R-2P-GAME, R-COMMIT-C-GAME, R-RED9-GAME, R-GAME-DEALS: whole games of each variant (its own
    length, and the target games run to their target) keep the economy and end checks, unskipped."""
    rng = random.Random(name)
    for i in range(3):
        rules = PRESETS[name].rules if i == 0 else random_ruleset(name, rng)
        n = rng.choice(player_counts(rules))
        length = game_module.default_deals(rules, n) if i == 0 else game_length(rules, n, rng)
        out = check_game(rules, n, length, rng.randrange(n), rng, pick_policy(rng), KNOWN)
        assert not out.failure, out.failure
        assert not out.economy_skipped, f"{name}: game economy or end not recomputed"


# ----------------------------------------------------------------- planted bugs


def _plant(monkeypatch: pytest.MonkeyPatch, variant: str, **hooks: object) -> None:
    monkeypatch.setitem(REGISTRY, variant, dataclasses.replace(REGISTRY[variant], **hooks))  # type: ignore[arg-type]


def _first_line_plus_one(
    real: Callable[[DealState], tuple[Payment, ...]],
) -> Callable[[DealState], tuple[Payment, ...]]:
    def settle(state: DealState) -> tuple[Payment, ...]:
        pays = real(state)
        return (replace(pays[0], amount=pays[0].amount + 1), *pays[1:]) if pays else pays

    return settle


def _loser_plus_one(real: Callable[[DealState], tuple[int, ...]]) -> Callable[[DealState], tuple[int, ...]]:
    def points(state: DealState) -> tuple[int, ...]:
        pts = list(real(state))
        if state.winner >= 0:
            pts[(state.winner + 1) % state.players] += 1
        return tuple(pts)

    return points


def _play_until_caught(name: str, seed: int = 0) -> str:
    """Play random deals of ``name`` until ``check_deal`` reports something; the report."""
    rng = random.Random(seed)
    for _ in range(60):
        rules = random_ruleset(name, rng)
        n = rng.choice(player_counts(rules))
        start = make_deal(rules, n, 0, rng.getrandbits(32), 0, REGISTRY[name].comet_value, "shuffled", 0)
        out = check_deal(start, pick_policy(rng), KNOWN)
        if out.failure:
            return out.failure
    return ""


def test_planted_old_comet_settlement_off_by_one_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-SETTLE broken: the first settlement line pays one chip too many."""
    s = finished("old_comet", ["", "2C", "4C QS 9D"], 0, "5C")
    agree(s)
    old = REGISTRY["old_comet"].settlement
    assert old is not None
    _plant(monkeypatch, "old_comet", settlement=_first_line_plus_one(old))
    problems, _ = check_settlement(s)
    assert problems == [
        "settlement {seat 1 pays seat 0 3, seat 2 pays seat 0 33, seat 2 pays seat 1 10} differs from the "
        "recomputation from the leftover hands {seat 1 pays seat 0 2, seat 2 pays seat 0 33, seat 2 pays seat 1 10}"
    ]
    report = _play_until_caught("old_comet")
    assert "differs from the recomputation" in report and "variant=old_comet" in report and "actions (" in report


def test_planted_red_nines_points_off_by_one_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-RED9-SCORE broken: the seat after the winner scores one point too many."""
    s = finished("red_nines", ["KC", "", "2C", "3C"], 1, "9D", out_wild_as=9)
    agree(s)
    real = REGISTRY["red_nines"].points_of_deal
    assert real is not None
    _plant(monkeypatch, "red_nines", points_of_deal=_loser_plus_one(real))
    problems, _ = check_settlement(s)
    assert problems == ["deal points (26, 0, 5, 6) differ from the recomputation from the leftover hands (26, 0, 4, 6)"]
    report = _play_until_caught("red_nines")
    assert "deal points" in report and "variant=red_nines" in report


@pytest.mark.parametrize("name", ["two_player", "commit_cats"])
def test_planted_points_off_by_one_are_reported(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """R-2P-POINTS / R-COMMIT-C-OUT broken: a loser scores a point they did not earn."""
    real = REGISTRY[name].points_of_deal
    assert real is not None
    _plant(monkeypatch, name, points_of_deal=_loser_plus_one(real))
    report = _play_until_caught(name)
    assert "deal points" in report and "differ from the recomputation" in report, report


def test_planted_commit_hoyle_settlement_off_by_one_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-H-POOL broken: the pool pays one chip too many."""
    real = REGISTRY["commit_hoyle"].settlement
    assert real is not None
    _plant(monkeypatch, "commit_hoyle", settlement=_first_line_plus_one(real))
    assert "differs from the recomputation" in _play_until_caught("commit_hoyle")


def test_planted_king_payment_is_caught_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-KING broken: a King earns 2 chips from each instead of 1 (000:85 "1 chip")."""
    import comet.games.old_comet.rules as old

    rules = PRESETS["old_comet"].rules
    before = position(["KC 2C", "3C", "4C"], rules=rules, pack=old.old_deck(rules, None)[0], comet_value=10, run=(12,))
    before = replace(before, to_move=0)
    action = engine.legal_actions(before)[-1]
    assert action.cards == cards("KC")
    assert check_transition(before, action, engine.apply(before, action)) == []
    monkeypatch.setattr(old, "KING_CHIPS", 2)
    problems = check_transition(before, action, engine.apply(before, action))
    assert problems == [
        "play KC paid {seat 1 pays seat 0 2, seat 2 pays seat 0 2}; the Old Comet payments are "
        "{seat 1 pays seat 0 1, seat 2 pays seat 0 1}"
    ]


def test_planted_game_that_runs_past_121_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-2P-GAME broken: the game does not stop when a player reaches 121 (000:84 "the first to 121")."""
    rules = PRESETS["two_player"].rules

    def play(rng_seed: int) -> list[str]:
        rng = random.Random(rng_seed)
        game = first = game_module.new_game(rules, 2, 40, 0)
        while not game_module.game_over(game):
            final, _ = game_module.play_deal(game_module.next_deal(game, rng.getrandbits(32)))
            game = game_module.finish_deal(game, final)
        problems, skipped = check_game_economy_end(first, game)
        assert not skipped
        return problems

    assert play(3) == []
    _plant(monkeypatch, "two_player", game_over=lambda g: False)
    problems = play(3)
    assert problems and "by its end condition it ends after" in problems[0], problems


def test_planted_red_nines_total_is_caught_by_the_economy(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-RED9-GAME: a hand's points added twice to the totals are reported by the game economy."""
    rules = PRESETS["red_nines"].rules
    game = game_module.new_game(rules, 4, 4, 0)
    start = game_module.next_deal(game, 5)
    final, _ = game_module.play_deal(start)
    after = game_module.finish_deal(game, final)
    assert check_game_economy(game, start, final, after) == ([], False)
    doubled = replace(after, history=(tuple(2 * p for p in after.history[-1]),))
    problems, _ = check_game_economy(game, start, final, doubled)
    assert problems and "the recomputation from the hands gives" in problems[0]


def test_recomputations_do_not_call_the_variant_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Independence: with every variant's settlement and points hooks broken, the recomputations
    still give the sources' figures (they never call the model's scoring)."""
    for name in VARIANT_PRESETS:

        def boom(*_: object) -> object:
            raise AssertionError("the recomputation called the model's scoring")

        _plant(monkeypatch, name, settlement=boom, points_of_deal=boom, card_points=boom)
    s = finished("red_nines", ["KC", "", "2C", "3C"], 1, "9D", out_wild_as=9)
    assert registered("red_nines").settlement(s) is not None
    o = finished("old_comet", ["", "2C", "4C QS 9D"], 0, "5C")
    assert old_comet_recomputed(o).chips == {(1, 0): 2, (2, 0): 33, (2, 1): 10}
    t = finished("two_player", ["", "KC 7S 3C"], 0, "5C")
    assert two_player_recomputed(t).points == (20, 0)


def test_standard_ruleset_is_untouched() -> None:
    """The standard game keeps its own recomputation (R-SETTLE-POINTS), chips only."""
    s = finished("standard", ["", "KC 7S 3C", "4C QS 9D"], 0, "5C")
    got = registered("standard").settlement(s)
    assert got is not None and dict(got.chips) == {(1, 0): 20, (2, 0): 46} and got.points is None
    assert Ruleset().variant == "standard"
