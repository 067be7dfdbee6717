"""Red Nines (002:46-89, preset red_nines): decks per player count, first play, wild red nines, penalty points."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from comet.cards import DIAMONDS, HEARTS, card, parse_card, rank_of, suit_of
from comet.checks.play import check_game, play_checked
from comet.engine import apply, deal_points, deal_sizes, legal_actions, packs_in_rotation, shuffled_deal
from comet.errors import IllegalAction
from comet.game import new_game, play_game, winners
from comet.policy import random_policy
from comet.presets import PRESETS
from comet.state import PASS, Action, DealState
from comet.variant import REGISTRY, variant_named

RED9 = PRESETS["red_nines"].rules
NINE_D, NINE_H = card(9, DIAMONDS), card(9, HEARTS)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(w) for w in text.split()))


def position(hands: Sequence[str], **kw: object) -> DealState:
    start = shuffled_deal(RED9, 4, 3, 0)
    hs = tuple(cards(h) for h in hands) + start.hands[len(hands) :]
    return replace(start, hands=hs, **kw)  # type: ignore[arg-type]


def test_decks_per_player_count() -> None:
    """R-RED9-DECK R-RED9-DEAL: one deck for four, a suit more per player (red = black, or one red more);
    everything dealt, 13 each."""
    for n in (4, 5, 6, 7, 8):
        (pack,) = packs_in_rotation(RED9, n)
        assert len(pack.cards) == 13 * n and deal_sizes(RED9, n, len(pack.cards)) == (13, 0)
        suits = Counter(suit_of(c) for c in pack.cards)
        red, black = (suits[DIAMONDS] + suits[HEARTS]) // 13, (suits[0] + suits[3]) // 13
        assert red - black == n % 2
        assert sum(1 for c in pack.cards if c in pack.wild) == red  # every red nine is wild (RUL-RED9-MANY)
    s = shuffled_deal(RED9, 5, 0, 2)
    assert [len(h) for h in s.hands] == [13] * 5 and s.dead == ()


def test_first_play_of_several_cards_of_one_rank() -> None:
    """R-RED9-FIRST-PLAY: 'On this first play of the hand only ... as many additional cards of this same rank'."""
    s = position(["5C 5H 5S 6D"], to_move=0, played=())
    acts = legal_actions(s)
    assert Action(cards("5C 5H")) in acts and Action(cards("5C 5H 5S")) in acts
    after = apply(s, Action(cards("5C 5H 5S")))
    assert after.run == (5,) and legal_actions(after) == (Action(cards("6D")),)
    strict = replace(s, rules=replace(RED9, red_nines_first="all"))
    assert Action(cards("5C 5H")) not in legal_actions(strict)
    assert Action(cards("5C 5H 5S")) in legal_actions(strict)
    later = replace(s, played=cards("2C"))
    assert not any(len(a.cards) > 1 for a in legal_actions(later))
    with pytest.raises(IllegalAction) as e:
        apply(later, Action(cards("5C 5H")))
    assert e.value.rule == "R-RED9-FIRST-PLAY"


def test_runs_ignore_suit_and_end_at_king() -> None:
    """R-RED9-RUN: Ace low, 'irregardless of the suit', a King ends the run and its player leads again."""
    s = position(["2H 3C KD 4S"], to_move=0, played=cards("AC"), run=(1,), turn_played=False)
    assert legal_actions(s) == (Action(cards("2H")),)
    s = apply(apply(s, Action(cards("2H"))), Action(cards("3C")))
    assert s.run == (1, 2, 3)
    k = replace(s, run=(12,))
    after = apply(k, Action(cards("KD")))
    assert after.run == () and after.to_move == 0


def test_red_nines_are_wild_and_never_compulsory() -> None:
    """R-RED9-WILD: a red nine stands for the rank needed (a 9 too), may be kept (pass), and leads per RUL-RED9-LEAD."""
    s = position(["9D 2C", "3C"], to_move=0, played=cards("7C"), run=(7,), turn_played=False)
    assert set(legal_actions(s)) == {Action((NINE_D,), 8), PASS}
    after = apply(s, Action((NINE_D,), 8))
    assert after.run == (7, 8) and after.to_move == 0  # not a stop
    lead = position(["9H 2C"], to_move=0, played=cards("7C"))
    assert Action((NINE_H,), 12) in legal_actions(lead)
    strict = replace(lead, rules=replace(RED9, red_nines_lead="last_resort"))
    assert Action((NINE_H,), 12) not in legal_actions(strict)
    only = replace(strict, hands=(cards("9H"),) + strict.hands[1:])
    assert Action((NINE_H,), 12) in legal_actions(only)


def test_penalty_points_and_doubling_figures() -> None:
    """R-RED9-SCORE R-RED9-DOUBLE: 002:75-85.  Winner 0; Ace 20, King 13; one red nine doubles (9 counted),
    two quadruple; going out on a red nine doubles everyone else."""
    final = position(["", "AC KS", "9D 5C", "9D 9H JC"], winner=0)
    assert deal_points(final) == (0, 20 + 13, (9 + 5) * 2, (9 + 9 + 11) * 4)
    out_on_nine = replace(final, out_wild_as=9)
    assert deal_points(out_on_nine) == (0, 66, 56, 232)
    like = replace(out_on_nine, rules=replace(RED9, red_nines_out="like_comet"))
    assert deal_points(like) == (0, 132, 112, 464)


def test_more_than_two_red_nines() -> None:
    """R-RED9-DOUBLE with RUL-RED9-MANY: 'Carla holds 9♦ 9♥ 9♥ and a 4: (9 + 9 + 9 + 4) x 8 = 248'."""
    final = position(["", "2C", "9D 9H 9H 4C"], winner=0)
    assert deal_points(final)[2] == 248
    capped = replace(final, rules=replace(RED9, red_nines_many="cap_four"))
    assert deal_points(capped)[2] == 31 * 4


def test_game_is_one_hand_per_player_lowest_wins() -> None:
    """R-RED9-GAME: 'a number of hands equal to the number of players'; the lowest total wins."""
    g = new_game(RED9, 5)
    assert g.deals == 5
    end = play_game(RED9, 4, None, 3)
    assert end.deal_index == 4
    assert winners(end) == tuple(i for i, b in enumerate(end.balances) if b == min(end.balances))
    for seed, players in enumerate((4, 5, 7)):
        _, problems = check_game(RED9, players, seed)
        assert problems == []
        _, _, problems = play_checked(shuffled_deal(RED9, players, 0, seed), random_policy(random.Random(seed)))
        assert problems == []


def test_planted_bug_red_nine_ignored_in_doubling_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a points hook that subtracts the red nines instead of doubling goes negative; the
    generic check reports it with the scores."""
    v = variant_named("red_nines")

    def broken(state: DealState) -> tuple[int, ...]:
        if state.winner < 0:
            return (0,) * state.players
        return tuple(sum(rank_of(c) for c in h) - 40 * sum(1 for c in h if c in state.wild) for h in state.hands)

    monkeypatch.setitem(REGISTRY, "red_nines", replace(v, points_of_deal=broken))
    s = position(["2C", "9D 9H 3C"], to_move=0, played=())
    _, _, problems = play_checked(s, lambda st, legal: legal[0])
    # the one checker reports it twice: against the recomputation from the hands, and as a negative score
    assert any("non-negative" in p and "-59" in p for p in problems), problems
    assert "differ from the recomputation from the leftover hands" in problems[0]


@pytest.mark.parametrize("reading", ["must", "may"])
def test_new_run_after_a_king_may_be_passed_on(reading: str) -> None:
    """RUL-CATS-NEW-RUN (R-RED9-RUN): 002:58 'he may then start a new sequence with any rank'.  must: the
    King's player leads; may: they may pass, and the left neighbour must lead (no pass offered)."""
    rules = RED9.with_overrides({"cats_new_run": reading})
    s = position(["KD 4S", "2C 6H"], to_move=0, played=cards("AC"), run=(12,), turn_played=False, rules=rules)
    after = apply(s, Action(cards("KD")))
    assert after.run == () and after.to_move == 0
    assert (PASS in legal_actions(after)) == (reading == "may")
    if reading == "may":
        passed = apply(after, PASS)
        assert passed.to_move == 1 and PASS not in legal_actions(passed)


@pytest.mark.parametrize("reading", ["must", "may"])
def test_holding_the_next_rank(reading: str) -> None:
    """RUL-RED9-CONTINUE (R-RED9-RUN): must: a player holding the next rank plays it (002:59-60 'does
    not have the next card ... must pass'); may: 002:61 'that player may continue' lets them pass."""
    rules = RED9.with_overrides({"red_nines_continue": reading})
    s = position(["8C 3D", "2C"], to_move=0, played=cards("7C"), run=(7,), turn_played=False, rules=rules)
    assert set(legal_actions(s)) == ({Action(cards("8C"))} | ({PASS} if reading == "may" else set()))
    if reading == "must":
        with pytest.raises(IllegalAction) as e:
            apply(s, PASS)
        assert e.value.rule == "R-RED9-RUN"
    else:
        assert apply(s, PASS).to_move == 1


@pytest.mark.parametrize("reading", ["continues", "stop"])
def test_a_red_nine_goes_on_or_stops(reading: str) -> None:
    """RUL-RED9-NINE-STOP (R-RED9-WILD): continues: 002:70 'to continue the current sequence', the run goes
    on from the rank the red nine stood for; stop: it ends the run like the Comet and its player leads."""
    rules = RED9.with_overrides({"red_nines_wild_stop": reading})
    s = position(["9H 9C 4S", "2C"], to_move=0, played=cards("7C"), run=(7,), turn_played=False, rules=rules)
    after = apply(s, Action((NINE_H,), 8))
    assert after.to_move == 0
    if reading == "continues":
        assert after.run == (7, 8) and legal_actions(after) == (Action(cards("9C")),)
    else:
        assert after.run == () and set(legal_actions(after)) == {Action(cards("4S")), Action(cards("9C"))}


@pytest.mark.parametrize("reading", ["any_king", "suit_king"])
def test_only_the_king_of_the_suit(reading: str) -> None:
    """RUL-RED9-KING (R-RED9-RUN): 002:57 'the King of the suit'.  any_king: the K♠ ends a run begun with
    the 10♣ at once; suit_king: the run stands at the King, every other player passes, then the King's
    player leads.  The K♣ (the run's suit) ends it at once under both."""
    rules = RED9.with_overrides({"red_nines_king": reading})
    s = position(["10C 2D", "JH 3C", "QH 3S", "KS KC 4S"], to_move=0, played=cards("AS"), rules=rules)
    for act in ("10C", "JH", "QH"):
        s = apply(apply(s, Action(cards(act))), PASS)
    assert s.to_move == 3 and s.run == (10, 11, 12)
    after = apply(s, Action(cards("KS")))
    if reading == "any_king":
        assert after.run == () and after.to_move == 3
    else:
        assert after.run == (10, 11, 12, 13) and legal_actions(after) == (PASS,)
        for _ in range(4):
            after = apply(after, PASS)
        assert (
            after.to_move == 3
            and after.run == ()
            and legal_actions(after)
            == (
                Action(cards("4S")),
                Action(cards("KC")),
            )
        )
    clubs = apply(s, Action(cards("KC")))
    assert clubs.run == () and clubs.to_move == 3


@pytest.mark.parametrize(("reading", "extra"), [("hearts_first", (HEARTS, 3)), ("diamonds_first", (DIAMONDS, 0))])
def test_which_suits_are_added(reading: str, extra: tuple[int, int]) -> None:
    """RUL-RED9-SUITS (R-RED9-DECK): six players add hearts and spades (hearts_first) or diamonds and
    clubs (diamonds_first); red and black stay equal, and every red nine is wild either way."""
    rules = RED9.with_overrides({"red_nines_suits": reading})
    (pack,) = packs_in_rotation(rules, 6)
    suits = Counter(suit_of(c) for c in pack.cards)
    assert suits[extra[0]] == 26 and suits[extra[1]] == 26 and len(pack.cards) == 78
    nines = sorted(c for c in pack.cards if c in pack.wild)
    assert len(nines) == 3 and all(rank_of(c) == 9 and suit_of(c) in (DIAMONDS, HEARTS) for c in nines)
    s = shuffled_deal(rules, 6, 0, 1)
    assert [len(h) for h in s.hands] == [13] * 6


def test_a_king_left_standing_is_an_invariant_violation_only_under_any_king() -> None:
    """RUL-RED9-KING (R-RED9-RUN): the state check allows a run ending at a King under suit_king only;
    a planted any_king play that leaves the King standing is reported."""
    from comet.checks import check_state

    s = position(["10C 2D", "JH 3C", "QH 3S", "KS KC 4S"], to_move=3, played=cards("AS 10C JH QH"), run=(10, 11, 12))
    standing = replace(apply(s, Action(cards("KS"))), run=(10, 11, 12, 13))
    assert any("a King ends a run" in p for p in check_state(standing))
    loose = replace(standing, rules=RED9.with_overrides({"red_nines_king": "suit_king"}))
    assert not any("a King ends a run" in p for p in check_state(loose))


def test_readings_that_meet_in_red_nines() -> None:
    """RUL-RED9-KING x R-RED9-WILD: under suit_king a red nine standing for the King ends the run (it is the
    card the run needs); RUL-CATS-NEW-RUN x RUL-RED9-NINE-STOP: after a red nine that stops, may lets its
    player pass the new run on."""
    suit = RED9.with_overrides({"red_nines_king": "suit_king"})
    s = position(["9H 4S", "2C"], to_move=0, played=cards("10C JH QH"), run=(10, 11, 12), rules=suit)
    assert apply(s, Action((NINE_H,), 13)).run == ()
    both = RED9.with_overrides({"red_nines_wild_stop": "stop", "cats_new_run": "may"})
    s = position(["9H 4S", "2C"], to_move=0, played=cards("7C"), run=(7,), rules=both)
    after = apply(s, Action((NINE_H,), 8))
    assert after.run == () and PASS in legal_actions(after)


def test_first_dealer_wild_red_nine() -> None:
    """RUL-FIRST-DEALER-WILD (R-DEAL-DEALER): a drawn red nine counts 9, or below the Ace under lowest."""
    from comet.game import draw_round

    row = (NINE_H, parse_card("AC"), parse_card("5S"), parse_card("9C"))
    assert draw_round(RED9, row) == (1, (1,))
    assert draw_round(RED9.with_overrides({"first_dealer_wild": "lowest"}), row) == (0, (0,))


def test_red_nines_holding() -> None:
    """RUL-RED9-HOLDING (R-RED9-WILD): Anna has led the 5♣ and holds the 6♣ and the 9♥.  false: the 9♥ may
    stand for the 6; true: it may not (the 6♣ must go down), and on a lead it stands for no rank she holds."""
    hand = "6C 7S 9H"
    run = position([hand], run=(5,), turn_played=True, last_player=0, to_move=0)
    assert Action((NINE_H,), 6) in legal_actions(run)
    strict_rules = RED9.with_overrides({"red_nines_requires_missing": "true"})
    strict = replace(run, rules=strict_rules)
    assert Action((NINE_H,), 6) not in legal_actions(strict)
    with pytest.raises(IllegalAction) as err:
        apply(strict, Action((NINE_H,), 6))
    assert err.value.rule == "R-RED9-WILD" and "holds a natural 6" in str(err.value)
    lead = replace(strict, run=(), turn_played=False)
    leads = {a.as_rank for a in legal_actions(lead) if a.cards == (NINE_H,)}
    assert leads == set(range(1, 14)) - {6, 7}
    # a red nine held as the rank needed is no natural card of it: a hand of two red nines may use either
    both = replace(strict, hands=(cards("9H 9D"), *strict.hands[1:]))
    assert {a.cards for a in legal_actions(both) if a.as_rank == 6} == {(NINE_H,), (card(9, DIAMONDS),)}


def test_led_red_nine_as_a_nine_quadruples_under_like_comet() -> None:
    """RUL-RED9-LEAD with RUL-RED9-OUT (R-RED9-WILD, R-RED9-DOUBLE; "Readings that meet"): Anna starts a run
    with her last card, the 9♥, and names it a 9.  double: Ben's King counts x2; like_comet: x4, the
    automatic quadruple a led wild card brings (RUL-COMET-LEAD keeps it out of the standard game)."""
    for reading, mult in (("double", 2), ("like_comet", 4)):
        rules = RED9.with_overrides({"red_nines_out": reading})
        s = position(["9H", "KS", "2C", "3C"], rules=rules, to_move=0, turn_played=False)
        led = Action((NINE_H,), 9)
        assert led in legal_actions(s)
        final = apply(s, led)
        assert final.terminal and final.winner == 0 and final.out_wild_as == 9
        assert deal_points(final)[1] == 13 * mult


def test_a_run_a_red_nine_starts_has_the_red_nines_suit() -> None:
    """RUL-RED9-KING (R-RED9-RUN), not switchable: under suit_king a run started by the 9♥ (as a 5) is a hearts
    run, so the K♥ ends it at once and the K♣ leaves it standing."""
    rules = RED9.with_overrides({"red_nines_king": "suit_king"})
    s = position(["9H 2S", "KC KH 3S", "4S", "5S"], rules=rules, to_move=0, turn_played=False)
    led = apply(s, Action((NINE_H,), 5))
    assert led.run_suit == HEARTS
    at_queen = replace(led, run=(12,), to_move=1, turn_played=False)
    assert apply(at_queen, Action((parse_card("KH"),))).run == ()
    assert apply(at_queen, Action((parse_card("KC"),))).run == (12, 13)
