"""Unit tests of the standard game, one or more per rule id, and the seeds' worked examples."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from builders import cards, position
from comet.cards import black_pack, card_text, parse_card, rank_of, red_pack
from comet.engine import (
    apply,
    check_players,
    deal_sizes,
    distribute,
    explicit_deal,
    legal_actions,
    returns,
    settlement,
    shuffled_deal,
    step_bound,
)
from comet.errors import IllegalAction, RecordError
from comet.game import draw_first_dealer, finish_deal, new_game, next_deal, play_deal, winners
from comet.notation import narrate, parse_action
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState

STD = Ruleset()


def act(text: str) -> Action:
    return parse_action(text)


def run_actions(state: DealState, texts: list[str]) -> DealState:
    for t in texts:
        state = apply(state, act(t))
    return state


# ------------------------------------------------------------------ the narrated example of 000:49


def carla_deals() -> DealState:
    """Carla (seat 2) deals to Anna (0) and Ben (1): hands shaped so 000:49's narration is forced."""
    return explicit_deal(
        STD,
        3,
        2,
        [
            cards("5C 5S 6C 6S 7C 7S 10C 10S JC JS 2S 3S"),
            cards("QC QS KC KS 2C 3C 10C 10S 5C 5S 6C 6S"),
            cards("8C 9C 8S 8S 9S 9S JC JS KC KS QC QS"),
        ],
        cards("4C 4C 4S 4S 2C 2S 3C 3S 7C 7S 8C 9D"),
    )


EXAMPLE_ACTIONS = [
    "play 5C",
    "play 6C",
    "play 7C",
    "pass",  # Anna: 5, 6, 7, without 8
    "pass",  # Ben: pass
    "play 8C",
    "play 9C",
    "pass",  # Carla: 8, 9, without 10
    "play 10C",
    "play JC",
    "pass",  # Anna: 10, Jack, without Queen
    "play QC",
    "play KC",
    "play 2C",
    "play 3C",
    "pass",  # Ben: Queen, King – 2, 3, without 4
    "pass",
    "pass",  # Carla and Anna pass
]


def test_worked_example_000_49_three_player_run() -> None:
    """R-LEAD-FIRST R-PLAY-CONTINUE R-TURN-END R-STOP-KING R-STOP-STUCK: the run narrated in 000:49."""
    start = carla_deals()
    s = start
    assert s.to_move == 0  # R-LEAD-FIRST: Anna, on Carla's left
    s = run_actions(s, EXAMPLE_ACTIONS)
    # Carla and Anna both passed, so Ben starts again with any card (R-STOP-STUCK).
    assert s.to_move == 1 and s.run == () and not s.turn_played
    lines = narrate(start, [act(t) for t in EXAMPLE_ACTIONS])
    turns = [ln for ln in lines if ln.startswith(("Anna:", "Ben:", "Carla:"))]
    assert turns == [
        "Anna: 5, 6, 7, without 8.",
        "Ben: pass.",
        "Carla: 8, 9, without 10.",
        "Anna: 10, Jack, without Queen.",
        "Ben: Queen, King – 2, 3, without 4.",
        "Carla: pass.",
        "Anna: pass.",
    ]
    assert "  (all the others passed: Ben starts a new run)" in lines


def test_example_forced_by_must_play() -> None:
    """R-PLAY-MUST: at each 'without' and 'pass' of the example, passing was the only legal choice."""
    s = carla_deals()
    for t in EXAMPLE_ACTIONS:
        if t == "pass":
            assert legal_actions(s) == (PASS,)
        else:
            assert PASS not in legal_actions(s)
        s = apply(s, act(t))


def test_worked_example_000_57_comet_as_six() -> None:
    """R-COMET-WILD R-COMET-BONUS R-COMET-STOP: Carla plays the Comet as the 6 and collects 2 from each."""
    s = position(["5C KC KS", "2C 2S 10C", "9D 3C 4C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass", "pass"])  # Anna: 5, without 6; Ben: pass
    assert s.to_move == 2 and s.need == 6
    assert act("play 9D as 6") in legal_actions(s)
    s = apply(s, act("play 9D as 6"))
    assert s.chips() == (-2, -2, 4)
    # A stop: Carla starts a new run at once with any card she likes.
    assert s.to_move == 2 and s.run == ()
    assert set(legal_actions(s)) == {act("play 3C"), act("play 4C")}


def test_worked_example_000_66_settlement_20_and_46() -> None:
    """R-SETTLE-POINTS R-SETTLE-CAUGHT: Ben pays 10+7+3=20; Carla pays (4+10+9)x2=46."""
    s = position(["5C", "KC 7C 3C", "4C QC 9D"], dealer=2)
    s = apply(s, act("play 5C"))
    assert s.winner == 0
    pays = {(p.payer, p.payee): p.amount for p in settlement(s)}
    assert pays == {(1, 0): 20, (2, 0): 46}
    assert returns(s) == (66, -20, -46)


# ------------------------------------------------------------------ packs, deal


def test_black_and_red_packs() -> None:
    """R-PACK-BLACK R-PACK-RED: 48 cards, four of each rank, the odd 9 is the Comet."""
    for pack, comet, suits in ((black_pack(), "9D", "CS"), (red_pack(), "9C", "DH")):
        assert len(pack.cards) == 48
        ranks = Counter(rank_of(c) for c in pack.cards)
        assert all(ranks[r] == 4 for r in range(2, 14)) and 1 not in ranks
        assert pack.wild == (parse_card(comet),)
        assert pack.cards.count(parse_card(comet)) == 1
        naturals = [card_text(c)[-1] for c in pack.cards if c not in pack.wild]
        assert set(naturals) == set(suits)


def test_packs_alternate_in_a_game() -> None:
    """R-PACK-ALTERNATE: deals take the black and the red pack in turn (RUL-PACKS)."""
    g = new_game(STD, 3, 6)
    seen = []
    for i in range(4):
        d = next_deal(g, i)
        seen.append(d.pack)
        g = finish_deal(g, play_deal(d)[0])
    assert seen == ["black", "red", "black", "red"]
    g2 = new_game(STD.with_overrides({"packs": "black_only"}), 3, 3)
    assert next_deal(g2, 0).pack == "black"


@pytest.mark.parametrize(("players", "size", "dead"), [(2, 18, 12), (3, 12, 12), (4, 10, 8), (5, 9, 3)])
def test_deal_table(players: int, size: int, dead: int) -> None:
    """R-DEAL-SIZES R-DEAD-HAND: 002's table; the rest is the dead hand, face down, unused."""
    assert deal_sizes(STD, players) == (size, dead)
    s = shuffled_deal(STD, players, 0, 11)
    assert [len(h) for h in s.hands] == [size] * players
    assert len(s.dead) == dead
    assert Counter(s.dead + tuple(c for h in s.hands for c in h)) == Counter(black_pack().cards)


def test_players_two_to_five() -> None:
    """R-PLAYERS: 2 to 5 players; anything else is refused with a plain message."""
    for n in (2, 3, 4, 5):
        check_players(n)
    for n in (1, 6):
        with pytest.raises(RecordError, match="2 to 5"):
            check_players(n)


def test_deal_order_clockwise_from_left() -> None:
    """R-DEAL-ORDER: one card at a time clockwise from the dealer's left (RUL-DEAL-ORDER)."""
    order = list(range(100, 112))
    hands, dead = distribute(STD, order, 3, 2, 3)
    assert hands[0] == (100, 103, 106) and hands[1] == (101, 104, 107) and hands[2] == (102, 105, 108)
    assert dead == (109, 110, 111)
    blocks, _ = distribute(STD.with_overrides({"deal_order": "blocks"}), order, 3, 2, 3)
    assert blocks[0] == (100, 101, 102)


def test_first_dealer_lowest_card() -> None:
    """R-DEAL-DEALER: the lowest card deals first; the draw is reproducible from the seed."""
    for seed in range(20):
        d = draw_first_dealer(STD, 4, random.Random(seed))
        assert 0 <= d < 4
        assert d == draw_first_dealer(STD, 4, random.Random(seed))


def test_rank_order_two_low_king_high() -> None:
    """R-RANK-ORDER: the run climbs 2..King; after the King there is no next rank (a stop)."""
    s = position(["KC 2C 3C", "5C", "6C"], dealer=2, run=(12,), turn_played=False)
    assert set(legal_actions(s)) == {act("play KC")}
    s = apply(s, act("play KC"))
    assert s.run == () and s.to_move == 0


# ------------------------------------------------------------------ play


def test_lead_any_card() -> None:
    """R-LEAD-ANY: a new run starts with any card in hand (the Comet too, standing for the King, RUL-COMET-LEAD)."""
    s = position(["5C 8S KC 9D", "2C", "3C"])
    plays = {str(a) for a in legal_actions(s)}
    assert {"play 5C", "play 8S", "play KC", "play 9D as K"} <= plays
    assert "pass" not in plays
    assert not {f"play 9D as {r}" for r in ["2", "9", "Q"]} & plays


def test_play_held_cards_only() -> None:
    """R-PLAY-HELD: a card the player to move does not hold is refused, naming the rule."""
    s = position(["5C", "2C", "3C"])
    with pytest.raises(IllegalAction) as e:
        apply(s, act("play 6C"))
    assert e.value.rule == "R-PLAY-HELD"


def test_continue_with_next_rank_any_suit() -> None:
    """R-PLAY-CONTINUE: the next card is one rank higher, whatever its suit."""
    s = position(["5C 6S 6C 8S", "2C", "3C"])
    s = apply(s, act("play 5C"))
    assert set(legal_actions(s)) == {act("play 6S"), act("play 6C")}
    with pytest.raises(IllegalAction) as e:
        apply(s, act("play 8S"))
    assert e.value.rule == "R-PLAY-CONTINUE"


def test_must_play_as_far_as_able() -> None:
    """R-PLAY-MUST: holding the next rank, a player may not say 'without' (RUL-MUST-CONTINUE)."""
    s = position(["5C 6C 7C", "2C", "3C"])
    s = run_actions(s, ["play 5C"])
    with pytest.raises(IllegalAction) as e:
        apply(s, PASS)
    assert e.value.rule == "R-PLAY-MUST"
    loose = replace(s, rules=STD.with_overrides({"may_stop_early": True}))
    assert PASS in legal_actions(loose)


def test_comet_never_compulsory() -> None:
    """R-COMET-OPTIONAL: holding only the Comet for the needed rank, a player may pass."""
    s = position(["5C 2S", "9D 2C", "3C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass"])
    assert PASS in legal_actions(s) and act("play 9D as 6") in legal_actions(s)


def test_turn_end_passes_left() -> None:
    """R-TURN-END: after 'without' or 'pass' the turn passes to the left (next seat)."""
    s = position(["5C", "2C", "3C", "4C"], dealer=3)
    assert s.to_move == 0
    s = run_actions(s, ["play 5C"])
    assert s.terminal  # one card: out at once (R-END-OUT)
    s = position(["5C 2S", "2C", "3C", "4C"], dealer=3)
    s = run_actions(s, ["play 5C", "pass"])
    assert s.to_move == 1 and not s.turn_played


def test_king_is_a_stop() -> None:
    """R-STOP-KING: whoever plays the King starts a new run at once."""
    s = position(["QC KC 2C 5S", "2S", "3C"], dealer=2)
    s = run_actions(s, ["play QC", "play KC"])
    assert s.to_move == 0 and s.run == ()
    assert PASS not in legal_actions(s)  # RUL-NEW-RUN default: must


def test_new_run_may_be_declined_under_may() -> None:
    """R-NEW-RUN: under new_run=may the stopper may pass the lead on; the next player must lead."""
    rules = STD.with_overrides({"new_run": "may"})
    s = position(["QC KC 2C 5S", "2S 3S", "3C"], dealer=2, rules=rules)
    s = run_actions(s, ["play QC", "play KC", "pass"])
    assert s.to_move == 1 and s.run == ()
    assert PASS not in legal_actions(s)
    strict = run_actions(position(["QC KC 2C 5S", "2S", "3C"], dealer=2), ["play QC", "play KC"])
    with pytest.raises(IllegalAction) as e:
        apply(strict, PASS)
    assert e.value.rule == "R-NEW-RUN"


def test_stuck_player_leads_again() -> None:
    """R-STOP-STUCK: after 'without …' and everyone else passing, that player starts a new run."""
    s = position(["5C 9S", "2C", "3C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass", "pass", "pass"])
    assert s.to_move == 0 and s.run == () and s.last_player == 0


def test_four_of_a_kind() -> None:
    """R-FOUR-OF-A-KIND: all four cards of the next rank may go down at once."""
    s = position(["5C 2S", "6C 6C 6S 6S 9S", "3C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass"])
    quad = act("play 6C 6C 6S 6S")
    assert quad in legal_actions(s)
    s2 = apply(s, quad)
    assert s2.hands[1] == cards("9S") and s2.need == 7
    with pytest.raises(IllegalAction) as e:
        apply(s, act("play 6C 6S"))
    assert e.value.rule == "R-FOUR-OF-A-KIND"


def test_three_natural_nines() -> None:
    """R-THREE-NINES: the three natural 9s go down together (the fourth 9 is the Comet)."""
    s = position(["8C 2S", "9C 9S 9S KC", "3C"], dealer=2)
    s = run_actions(s, ["play 8C", "pass"])
    assert act("play 9C 9S 9S") in legal_actions(s)
    assert apply(s, act("play 9C 9S 9S")).need == 10


def test_quartet_not_on_lead_by_default() -> None:
    """R-FOUR-OF-A-KIND: as a lead, four of a kind needs quartet_on_lead=true (RUL-QUARTET-LEAD)."""
    s = position(["6C 6C 6S 6S 2S", "2C", "3C"])
    assert act("play 6C 6C 6S 6S") not in legal_actions(s)
    s2 = replace(s, rules=STD.with_overrides({"quartet_on_lead": True}))
    assert act("play 6C 6C 6S 6S") in legal_actions(s2)


def test_comet_must_name_needed_rank() -> None:
    """R-COMET-WILD: continuing, the Comet stands for the rank needed (RUL-COMET-RANK)."""
    s = position(["5C 2S", "9D 3S", "3C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass"])
    with pytest.raises(IllegalAction) as e:
        apply(s, act("play 9D as 8"))
    assert e.value.rule == "R-COMET-WILD"
    with pytest.raises(IllegalAction) as e:
        apply(s, act("play 9D"))
    assert e.value.rule == "R-COMET-WILD" and "as RANK" in e.value.message


def test_comet_is_a_stop() -> None:
    """R-COMET-STOP: after the Comet the same player starts a new run."""
    s = position(["5C 2S", "9D 3S", "3C"], dealer=2)
    s = run_actions(s, ["play 5C", "pass", "play 9D as 6"])
    assert s.to_move == 1 and s.run == () and s.turn_played


def test_comet_bonus_uses_escalated_value() -> None:
    """R-COMET-BONUS: each other player pays the Comet's current value."""
    s = position(["5C 2S", "9D 3S", "3C"], dealer=2, comet_value=6)
    s = run_actions(s, ["play 5C", "pass", "play 9D as 6"])
    assert s.chips() == (-6, 12, -6)


def test_out_ends_deal() -> None:
    """R-END-OUT: the deal ends as soon as a player has played their last card; nothing more is legal."""
    s = position(["5C", "2C", "3C"])
    s = apply(s, act("play 5C"))
    assert s.terminal and legal_actions(s) == ()
    with pytest.raises(IllegalAction) as e:
        apply(s, PASS)
    assert e.value.rule == "R-END-OUT"


def test_step_bound_holds_for_seeded_deals() -> None:
    """R-END-OUT: every deal ends within engine.step_bound actions."""
    for seed in range(30):
        start = shuffled_deal(STD, 2 + seed % 4, seed % 2, seed)
        final, actions = play_deal(start)
        assert final.terminal and len(actions) <= step_bound(start)


def test_comet_as_last_card_doubles_and_as_nine_quadruples() -> None:
    """R-SETTLE-COMET-LAST: last card the Comet: everyone pays double; standing for a 9: four times."""
    base = ["8C 9D", "KC 7C 3C", "4C QC"]
    s = position(base, dealer=2)
    s = run_actions(s, ["play 8C", "play 9D as 9"])
    assert s.winner == 0 and s.out_wild_as == 9
    assert {p.payer: p.amount for p in settlement(s)} == {1: 20 * 4, 2: 14 * 4}
    # The Comet bonus is multiplied too under the default reading (RUL-COMET-BONUS-LAST).
    assert s.chips() == (16, -8, -8)
    plain = position(base, dealer=2, rules=STD.with_overrides({"comet_bonus_last": "plain"}))
    plain = run_actions(plain, ["play 8C", "play 9D as 9"])
    assert plain.chips() == (4, -2, -2)
    s = position(["7C 9D", "KC 7C 3C", "4C QC"], dealer=2)
    s = run_actions(s, ["play 7C", "play 9D as 8"])
    assert {p.payer: p.amount for p in settlement(s)} == {1: 40, 2: 28}


def test_card_points() -> None:
    """R-SETTLE-POINTS: 2-10 their number, J Q K 10 each."""
    s = position(["5C", "2C 10C JC QC KC", "3C"])
    s = apply(s, act("play 5C"))
    assert {p.payer: p.amount for p in settlement(s)} == {1: 42, 2: 3}


def test_caught_with_comet_pays_double() -> None:
    """R-SETTLE-CAUGHT: the Comet counts 9 and doubles the whole hand."""
    s = position(["5C", "9D", "3C"])
    s = apply(s, act("play 5C"))
    assert {p.payer: p.amount for p in settlement(s)} == {1: 18, 2: 3}


# ------------------------------------------------------------------ whole game


def test_comet_escalates_when_dead_and_resets() -> None:
    """R-COMET-ESCALATE: Comet in the dead hand -> worth 2 more next deal; dealt again -> back to 2."""
    g = new_game(STD, 3, 6)
    seed = next(s for s in range(200) if any(c in black_pack().wild for c in next_deal(g, s).dead))
    d = next_deal(g, seed)
    g = finish_deal(g, play_deal(d)[0])
    assert g.comet_values == (4,)
    seed2 = next(s for s in range(200) if not any(c in red_pack().wild for c in next_deal(g, s).dead))
    d2 = next_deal(g, seed2)
    assert d2.comet_value == 4  # RUL-ESCALATION-RESET default: still 4 in the deal it is dealt
    g = finish_deal(g, play_deal(d2)[0])
    assert g.comet_values == (2,)


def test_game_length_multiple_of_players() -> None:
    """R-GAME-DEALS: the number of deals is a multiple of the number of players (RUL-GAME-LENGTH)."""
    with pytest.raises(RecordError, match="multiple"):
        new_game(STD, 3, 4)
    new_game(STD.with_overrides({"deal_count": "any"}), 3, 4)


def test_starting_chips_and_winner() -> None:
    """R-GAME-CHIPS R-GAME-WINNER: equal chips at the start; the most chips wins; balances are zero-sum."""
    g = new_game(STD, 4, 4, first_dealer=1)
    assert g.balances == (50,) * 4
    for i in range(4):
        g = finish_deal(g, play_deal(next_deal(g, i))[0])
    assert sum(g.balances) == 200
    assert g.dealer == 1  # the deal went round once
    best = max(g.balances)
    assert winners(g) == tuple(i for i, b in enumerate(g.balances) if b == best)


def test_comet_with_three_nines_round_trips_through_notation() -> None:
    """R-THREE-NINES R-COMET-WILD: under comet_in_quartet the four-9s action is written and read back."""
    rules = STD.with_overrides({"comet_in_quartet": True})
    s = position(["8C 2S", "9C 9S 9S 9D KC", "3C"], dealer=2, rules=rules)
    s = run_actions(s, ["play 8C", "pass"])
    four = [a for a in legal_actions(s) if len(a.cards) == 4]
    assert [str(a) for a in four] == ["play 9C 9D 9S 9S as 9"]
    assert parse_action(str(four[0])) == four[0]
    after = apply(s, four[0])
    assert after.hands[1] == cards("KC") and after.run == ()
