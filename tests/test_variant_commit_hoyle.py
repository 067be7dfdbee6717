"""Commit as 000:86 / 003:86 describe it (preset commit_hoyle): deck, suit runs, stops, the 9♦, chips."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from comet.cards import DIAMONDS, card, parse_card
from comet.checks import check_settlement, check_transition
from comet.checks.play import check_game, play_checked
from comet.engine import apply, deal_sizes, explicit_deal, legal_actions, packs_in_rotation, settlement, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.policy import random_policy
from comet.presets import PRESETS
from comet.state import PASS, Action, DealState
from comet.variant import REGISTRY, variant_named

HOYLE = PRESETS["commit_hoyle"].rules
NINE_D = card(9, DIAMONDS)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(w) for w in text.split()))


def position(
    hands: Sequence[str], run: tuple[int, ...] = (), suit: int = -1, branch: int = 0, dead: str = "", **kw: object
) -> DealState:
    """A hand-made mid-deal position (seat 0 to move unless given); the other cards are irrelevant."""
    start = shuffled_deal(HOYLE, len(hands), len(hands) - 1, 0)
    return replace(
        start,
        hands=tuple(cards(h) for h in hands),
        dead=cards(dead),
        run=run,
        run_suit=suit,
        branch=branch,
        **kw,  # type: ignore[arg-type]
    )


def test_deck_and_deal_sizes() -> None:
    """R-COMMIT-H-DECK R-COMMIT-H-DEAL: 51 cards without the 8♦; as many each as go round evenly."""
    (pack,) = packs_in_rotation(HOYLE, 4)
    assert len(pack.cards) == 51 and parse_card("8D") not in pack.cards and parse_card("AS") in pack.cards
    assert pack.wild == (NINE_D,)
    assert [deal_sizes(HOYLE, n, 51) for n in (2, 3, 4, 5, 8)] == [(25, 1), (17, 0), (12, 3), (9, 6), (6, 3)]
    # RUL-COMMIT-H-FIVE: 000:86 "9 each with five players" by default; 10 as the deck goes round.
    assert deal_sizes(replace(HOYLE, commit_five="ten"), 5, 51) == (10, 1)
    s = shuffled_deal(HOYLE, 5, 0, 1)
    assert [len(h) for h in s.hands] == [9] * 5 and len(s.dead) == 6
    s = shuffled_deal(replace(HOYLE, commit_five="ten"), 5, 0, 1)
    assert [len(h) for h in s.hands] == [10] * 5 and len(s.dead) == 1


def test_explicit_deal_accepts_exactly_the_deck() -> None:
    """R-COMMIT-H-DECK: records must hold the 51-card deck with the deal sizes."""
    deck = list(packs_in_rotation(HOYLE, 3)[0].cards)
    s = explicit_deal(HOYLE, 3, 0, [deck[0:17], deck[17:34], deck[34:51]], [])
    assert s.pack == "deck51"
    with pytest.raises(RecordError, match="deck51"):
        explicit_deal(HOYLE, 3, 0, [deck[0:17], deck[17:34], deck[34:50] + [parse_card("8D")]], [])


def test_runs_follow_suit_ace_low() -> None:
    """R-COMMIT-H-SUIT: 000:86 'Runs go up in suit (7♠, 8♠, 9♠ …), the Ace below the 2'."""
    s = position(["6S 6H 2C", "3C", "4C"], run=(4, 5), suit=3, to_move=0)
    assert legal_actions(s) == (Action(cards("6S")),)
    with pytest.raises(IllegalAction) as e:
        apply(s, Action(cards("6H")))
    assert e.value.rule == "R-COMMIT-H-SUIT"
    lead = position(["AS 2S 3H", "3C", "4C"], to_move=0)
    after = apply(lead, Action(cards("AS")))
    assert after.run == (1,) and after.run_suit == 3 and legal_actions(after) == (Action(cards("2S")),)


def test_kings_and_seven_of_diamonds_are_stops() -> None:
    """R-COMMIT-H-STOPS: 'Kings and the 7♦ are stops': the player leads again at once."""
    s = position(["7D 2C", "3C", "4C"], run=(5, 6), suit=DIAMONDS, to_move=0)
    after = apply(s, Action(cards("7D")))
    assert after.run == () and after.run_suit == -1 and after.to_move == 0
    assert legal_actions(after) == (Action(cards("2C")),)
    k = apply(position(["KH 2C", "3C", "4C"], run=(12,), suit=2), Action(cards("KH")))
    assert k.run == () and k.to_move == 0


def test_rest_as_stop_cards_reading() -> None:
    """R-COMMIT-H-STOPS with RUL-COMMIT-H-REST: a card below one of the rest is a stop only under stop_cards."""
    hidden = position(["5S 2C", "3C", "4C"], run=(4,), suit=3, dead="6S")
    assert apply(hidden, Action(cards("5S"))).run == (4, 5)
    stops = replace(hidden, rules=replace(HOYLE, commit_rest="stop_cards"))
    assert apply(stops, Action(cards("5S"))).run == ()


def test_nine_of_diamonds_instead_of_without() -> None:
    """R-COMMIT-H-NINE R-COMMIT-H-NINE-PAID: the 9♦ is offered only when the player cannot go on; it ends
    the turn and earns 2 from each; the next player goes on with the old run or the 10♦."""
    can_go_on = position(["9D 5S 2C", "3C", "4C"], run=(4,), suit=3)
    assert legal_actions(can_go_on) == (Action(cards("5S")),)
    s = position(["9D 2C", "5S 10D QH", "4C"], run=(4,), suit=3)
    assert set(legal_actions(s)) == {Action((NINE_D,)), PASS}
    after = apply(s, Action((NINE_D,)))
    assert after.chips() == (4, -2, -2)
    assert legal_actions(after) == (PASS,)
    with pytest.raises(IllegalAction) as e:
        apply(after, Action(cards("2C")))
    assert e.value.rule == "R-COMMIT-H-NINE"
    ben = apply(after, PASS)
    assert set(legal_actions(ben)) == {Action(cards("5S")), Action(cards("10D"))}
    diamonds = apply(ben, Action(cards("10D")))
    assert diamonds.run == (9, 10) and diamonds.run_suit == DIAMONDS and diamonds.branch == 0
    old = apply(ben, Action(cards("5S")))
    assert old.run == (4, 5) and old.run_suit == 3 and old.branch == 0


def test_nine_branch_reading_next_player() -> None:
    """R-COMMIT-H-NINE with RUL-COMMIT-H-NINE-RUN: after the next player passes, does the 10♦ stay open?"""
    s = position(["9D 2C", "3H", "10D 5S"], run=(4,), suit=3)
    ben = apply(apply(s, Action((NINE_D,))), PASS)
    carla = apply(ben, PASS)
    assert Action(cards("10D")) in legal_actions(carla)
    narrow = replace(s, rules=replace(HOYLE, commit_nine_branch="next_player"))
    carla2 = apply(apply(apply(narrow, Action((NINE_D,))), PASS), PASS)
    assert legal_actions(carla2) == (Action(cards("5S")),)


def test_king_played_pays_one_each() -> None:
    """R-COMMIT-H-KING-PAID: 'collects 1 counter from each other player'."""
    after = apply(position(["KH 2C", "3C", "4C", "5C"], run=(12,), suit=2), Action(cards("KH")))
    assert after.chips() == (3, -1, -1, -1)


def test_settlement_pool_caught_and_kings_held() -> None:
    """R-COMMIT-H-POOL R-COMMIT-H-CAUGHT R-COMMIT-H-KINGS-HELD: a worked figure for four players.

    Anna goes out.  Ben holds the 9♦ and a King: pool 1, 9♦ 2 to each (6), King 1 to each (3).
    Carla holds two Kings: pool 1, 1 x 2 to each (6).  Dora holds a 3: pool 1."""
    final = position(["", "9D KS", "KH KC", "3C"], winner=0)
    net = [0, 0, 0, 0]
    for p in settlement(final):
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    # Anna: +3 pool +2 (9D) +1 (Ben's K) +2 (Carla's Ks) = 8; Ben: -1 -6 -3 +2 = -8;
    # Carla: -1 +2 (9D) +1 (Ben's K) -6 = -4; Dora: -1 +2 +1 +2 = 4.
    assert net == [8, -8, -4, 4]
    others = replace(final, rules=replace(HOYLE, commit_king_payer="others"))
    rev = [0, 0, 0, 0]
    for p in settlement(others):
        rev[p.payer] -= p.amount
        rev[p.payee] += p.amount
    # The others pay: Ben receives 1 from each (+3), Carla 2 from each (+6).
    assert rev == [2, -6, 6, -2]
    assert sum(rev) == 0


def test_whole_games_are_checked() -> None:
    """R-COMMIT-H-DEAL R-COMMIT-H-POOL: seeded games keep cards, always offer an action, end, and are zero-sum."""
    for seed, players in enumerate((2, 4, 5, 8)):
        _, problems = check_game(HOYLE, players, seed, deals=players)
        assert problems == []
        final, _, problems = play_checked(shuffled_deal(HOYLE, players, 0, seed), random_policy(random.Random(seed)))
        assert problems == [] and final.winner >= 0


def test_planted_bug_forgetting_to_remove_the_nine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a play hook that puts the 9♦ on the pile but leaves it in the hand breaks card
    conservation, and the check names the card."""
    v = variant_named("commit_hoyle")
    real_play = v.play
    assert real_play is not None

    def leaky(state: DealState, action: Action) -> DealState:
        after = real_play(state, action)
        if action.cards == (NINE_D,):
            seat = state.to_move
            hands = list(after.hands)
            hands[seat] = tuple(sorted(hands[seat] + (NINE_D,)))
            after = replace(after, hands=tuple(hands), winner=-1)
        return after

    monkeypatch.setitem(REGISTRY, "commit_hoyle", replace(v, play=leaky))
    s = position(["9D 2C", "5S", "4C"], run=(4,), suit=3)

    def nine_first(state: DealState, legal: Sequence[Action]) -> Action:
        return Action((NINE_D,)) if Action((NINE_D,)) in legal else legal[0]

    _, _, problems = play_checked(s, nine_first)
    assert problems and "cards not conserved" in problems[0] and "appeared [9D]" in problems[0]


@pytest.mark.parametrize("value", [0, 2, 7])
def test_the_nine_of_diamonds_is_worth_two_whatever_the_comet_value(value: int) -> None:
    """R-COMMIT-H-NINE-PAID R-COMMIT-H-CAUGHT: 000:86 "the 9♦ 2 counters", "pays 2 to each": fixed, so a
    deal (or a record) with another ``comet_value`` pays the same; the step check and the recomputation
    agree."""
    s = position(["9D 2C", "5S 10D QH", "4C"], run=(4,), suit=3, comet_value=value)
    act = Action((NINE_D,))
    after = apply(s, act)
    assert after.chips() == (4, -2, -2)
    assert check_transition(s, act, after) == []
    caught = position(["", "9D KS", "3C"], winner=0, comet_value=value)
    table = {(p.payer, p.payee): p.amount for p in settlement(caught) if p.rule == "R-COMMIT-H-CAUGHT"}
    assert table == {(1, 0): 2, (1, 2): 2}
    assert check_settlement(caught) == ([], False)


def test_planted_nine_paid_at_the_comet_value_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a play hook paying the 9♦ at the deal's ``comet_value`` (7) is reported by the step check."""
    v = variant_named("commit_hoyle")
    real_play = v.play
    assert real_play is not None

    def at_comet_value(state: DealState, action: Action) -> DealState:
        after = real_play(state, action)
        if action.cards == (NINE_D,):
            extra = tuple(replace(p, amount=state.comet_value) for p in after.payments[len(state.payments) :])
            after = replace(after, payments=state.payments + extra)
        return after

    monkeypatch.setitem(REGISTRY, "commit_hoyle", replace(v, play=at_comet_value))
    s = position(["9D 2C", "5S 10D QH", "4C"], run=(4,), suit=3, comet_value=7)
    act = Action((NINE_D,))
    assert check_transition(s, act, apply(s, act)) == [
        "play 9D paid {seat 1 pays seat 0 7, seat 2 pays seat 0 7}; 000's Commit pays "
        "{seat 1 pays seat 0 2, seat 2 pays seat 0 2}"
    ]


@pytest.mark.parametrize("reading", ["without_or_pass", "without_only"])
def test_nine_of_diamonds_instead_of_pass(reading: str) -> None:
    """RUL-COMMIT-H-NINE-PASS (R-COMMIT-H-NINE): a player who has played nothing this turn and cannot go
    on would say 'pass' (000:44); may they play the 9♦ instead?  After a card this turn ('without') both
    readings offer it."""
    rules = HOYLE.with_overrides({"commit_nine_when": reading})
    s = position(["9D 2C", "5S 10D QH", "4C"], run=(4,), suit=3, rules=rules)
    if reading == "without_or_pass":
        assert set(legal_actions(s)) == {Action((NINE_D,)), PASS}
    else:
        assert legal_actions(s) == (PASS,)
        with pytest.raises(IllegalAction) as e:
            apply(s, Action((NINE_D,)))
        assert e.value.rule == "R-COMMIT-H-NINE" and "without_only" in str(e.value)
    played = position(["9D 2C 4S", "5S 10D QH", "4C"], run=(3,), suit=3, rules=rules)
    after_four = apply(played, Action(cards("4S")))
    assert set(legal_actions(after_four)) == {Action((NINE_D,)), PASS}


@pytest.mark.parametrize("reading", ["any", "last_resort"])
def test_nine_of_diamonds_as_a_lead(reading: str) -> None:
    """RUL-COMMIT-H-NINE-LEAD (R-COMMIT-H-NINE): any: the 9♦ may start a run (the diamonds, 10♦ next) and
    earns 2 from each; last_resort: only as the last card of a hand."""
    rules = HOYLE.with_overrides({"commit_nine_lead": reading})
    s = position(["9D 10D 3C", "5S", "4C"], rules=rules)
    leads = set(legal_actions(s))
    if reading == "any":
        assert leads == {Action((NINE_D,)), Action(cards("10D")), Action(cards("3C"))}
        after = apply(s, Action((NINE_D,)))
        assert after.run == (9,) and after.run_suit == DIAMONDS and after.chips() == (4, -2, -2)
    else:
        assert leads == {Action(cards("10D")), Action(cards("3C"))}
        with pytest.raises(IllegalAction) as e:
            apply(s, Action((NINE_D,)))
        assert e.value.rule == "R-COMMIT-H-NINE" and "last_resort" in str(e.value)
    alone = position(["9D", "5S", "4C"], rules=rules)
    assert legal_actions(alone) == (Action((NINE_D,)),)
    assert apply(alone, Action((NINE_D,))).winner == 0


def most_lost(seeds: range) -> dict[int, int]:
    """The most chips one seat lost in one deal, per player count, over seeded deals played to the end by
    the random and the hoarder policies (the hoarder keeps the 9♦, so it is often caught with it)."""
    from comet.diverge.policies import make_policy
    from comet.engine import player_counts, returns

    out: dict[int, int] = {}
    for n in player_counts(HOYLE):
        for seed in seeds:
            for name in ("random", "hoarder"):
                choose = make_policy(name, seed)
                s = shuffled_deal(HOYLE, n, seed % n, seed)
                while not s.terminal:
                    s = apply(s, choose(s, legal_actions(s)))
                out[n] = max(out.get(n, 0), -min(returns(s)))
    return out


def test_a_player_loses_at_most_six_chips_per_other_player_and_the_stake_in_a_deal() -> None:
    """RUL-INSOLVENCY in Commit (000), the premise of its write-up: a seat loses at most 1 chip to each
    other player for each King (R-COMMIT-H-KING-PAID when another plays it, R-COMMIT-H-KINGS-HELD when it
    holds it), 2 to each for the 9♦ (R-COMMIT-H-NINE-PAID, R-COMMIT-H-CAUGHT) and the stake
    (R-COMMIT-H-POOL): 6 (n - 1) + 1 chips a deal.  So with 2 or 3 players a game of its fewest deals
    (n of them) moves at most 14 or 39 of a player's 50 chips, and no reading of RUL-INSOLVENCY can part
    there; the sampled deals stay within the bound and reach it with two players."""
    lost = most_lost(range(6))
    for n, worst in lost.items():
        assert worst <= 6 * (n - 1) + HOYLE.commit_stake, (n, worst)
    assert lost[2] == 7  # reached: every King and the 9♦ cost the seat, and it pays the stake
    assert all(n * (6 * (n - 1) + 1) < HOYLE.starting_chips for n in (2, 3))


def test_planted_bug_a_dearer_nine_breaks_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: the 9♦ costs 20 chips a player instead of 2; the bound of the test above no longer
    holds, and its check sees it."""
    import comet.games.commit_hoyle.rules as hoyle_rules

    monkeypatch.setattr(hoyle_rules, "NINE_CHIPS", 20)
    lost = most_lost(range(6))
    assert any(worst > 6 * (n - 1) + HOYLE.commit_stake for n, worst in lost.items())
