"""Each ruling of spec/rulings.md matters: a concrete deal where its readings part ways.

One test (or a few) per ruling id ``RUL-…``; every test plays the same position
under each reading and asserts the results differ in the way the ruling's
**Example.** says.  Start-of-deal positions are built with
``comet.engine.explicit_deal`` from full hand-made hands; mid-deal and end-of-deal
positions with ``builders.position``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from builders import cards, plant_option_hooks, position
from comet.cards import Card, Pack, black_pack, parse_card, rank_of
from comet.engine import apply, deal_sizes, distribute, explicit_deal, legal_actions, returns, settlement
from comet.errors import IllegalAction, RecordError
from comet.game import (
    comet_value_for,
    draw_first_dealer,
    draw_round,
    finish_deal,
    game_over,
    new_game,
    next_deal,
    play_deal,
    seats_in_play,
    winners,
)
from comet.notation import parse_action
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState, GameState

STD = Ruleset()
COMET_BLACK = parse_card("9D")


def rules(**overrides: object) -> Ruleset:
    return STD.with_overrides(overrides)


def full_deal(
    ruleset: Ruleset,
    mover: str,
    *,
    players: int = 2,
    avoid: Sequence[int] = (),
    dead: str = "",
    pack: Pack | None = None,
) -> DealState:
    """A fresh deal via ``explicit_deal``: seat 0 (left of the dealer) holds ``mover`` plus filler.

    The filler for seat 0 is drawn from the rest of the pack, highest first, leaving out
    the Comet and the ranks in ``avoid``; ``dead`` cards go to the dead hand; the other
    seats and the rest of the dead hand get what is left.
    """
    p = pack if pack is not None else black_pack()
    size, dead_size = deal_sizes(ruleset, players, len(p.cards))
    hand = list(cards(mover))
    dead_cards = list(cards(dead))
    rest = Counter(p.cards) - Counter(hand) - Counter(dead_cards)
    for c in sorted(rest.elements(), reverse=True):
        if len(hand) == size:
            break
        if c in p.wild or rank_of(c) in avoid:
            continue
        hand.append(c)
        rest[c] -= 1
    remaining = sorted((rest - Counter()).elements())
    dead_fill = dead_size - len(dead_cards)
    dead_cards += remaining[:dead_fill]
    remaining = remaining[dead_fill:]
    others = [remaining[i * size : (i + 1) * size] for i in range(players - 1)]
    return explicit_deal(ruleset, players, players - 1, [hand, *others], dead_cards)


def legal_texts(state: DealState) -> set[str]:
    return {str(a) for a in legal_actions(state)}


def play(state: DealState, *texts: str) -> DealState:
    for t in texts:
        state = apply(state, parse_action(t))
    return state


# ------------------------------------------------------------------ 1. packs and deal


def test_rul_deal_sizes_table_against_even() -> None:
    """RUL-DEAL-SIZES (R-DEAL-SIZES, R-DEAD-HAND): three players get 12 + 12 dead, or 16 and no dead hand."""
    assert deal_sizes(rules(deal_sizes="table"), 3) == (12, 12)
    assert deal_sizes(rules(deal_sizes="even"), 3) == (16, 0)
    table_deal = full_deal(STD, "5C", players=3)
    assert len(table_deal.dead) == 12
    with pytest.raises(RecordError, match="3 players get 16 each"):
        explicit_deal(rules(deal_sizes="even"), 3, 2, table_deal.hands, table_deal.dead)
    even = full_deal(rules(deal_sizes="even"), "5C", players=3)
    assert even.dead == () and any(COMET_BLACK in h for h in even.hands)


def test_rul_deal_order_round_robin_against_blocks() -> None:
    """RUL-DEAL-ORDER (R-DEAL-ORDER): the sorted black pack dealt by seat 1 to two players."""
    order = black_pack().cards
    rr, rr_dead = distribute(rules(deal_order="round_robin"), order, 2, 1, 18)
    bl, bl_dead = distribute(rules(deal_order="blocks"), order, 2, 1, 18)
    assert sorted(Counter(rank_of(c) for c in rr[0]).items()) == [(r, 2) for r in range(2, 11)]
    assert Counter(rank_of(c) for c in bl[0]) == Counter({2: 4, 3: 4, 4: 4, 5: 4, 6: 2})
    assert rr_dead == bl_dead == order[36:]


def test_rul_packs_alternate_against_black_only() -> None:
    """RUL-PACKS (R-PACK-ALTERNATE, R-PACK-RED): in deal 2 the 9D is natural (red pack) or the Comet (black)."""
    for reading, pack, wild in (("alternate", "red", "9C"), ("black_only", "black", "9D")):
        r = rules(packs=reading)
        game = new_game(r, 2, 2)
        final, _ = play_deal(next_deal(game, seed=1))
        game = finish_deal(game, final)
        second = next_deal(game, seed=2)
        assert (second.pack, second.wild) == (pack, (parse_card(wild),))


# ------------------------------------------------------------------ 2. play


def test_rul_must_continue() -> None:
    """RUL-MUST-CONTINUE (R-PLAY-MUST): Anna leads 5C holding 6S and 7C; may she say 'without 6'?"""
    for may, can_stop in ((False, False), (True, True)):
        s = play(full_deal(rules(may_stop_early=may), "5C 6S 7C", avoid=(5, 6, 7, 8)), "play 5C")
        assert ("pass" in legal_texts(s)) is can_stop
        assert "play 6S" in legal_texts(s)
    # Under the default the pass is refused with the rule it breaks.
    s = play(full_deal(STD, "5C 6S 7C", avoid=(5, 6, 7, 8)), "play 5C")
    with pytest.raises(IllegalAction) as e:
        apply(s, PASS)
    assert e.value.rule == "R-PLAY-MUST"


def test_rul_new_run_after_a_king() -> None:
    """RUL-NEW-RUN (R-STOP-KING, R-NEW-RUN): after leading a King, must Anna lead again?"""
    must = play(full_deal(rules(new_run="must"), "KC 2C 3S"), "play KC")
    may = play(full_deal(rules(new_run="may"), "KC 2C 3S"), "play KC")
    assert must.need == may.need == 0 and must.to_move == may.to_move == 0
    assert "pass" not in legal_texts(must)
    assert "pass" in legal_texts(may)
    # Under 'may' the left neighbour then has to start the new run.
    after = apply(may, PASS)
    assert after.to_move == 1 and after.need == 0 and PASS not in legal_actions(after)


def test_rul_new_run_stuck_leader_leads_under_either_new_run_reading() -> None:
    """RUL-NEW-RUN (R-STOP-STUCK): new_run covers stops only; a stuck run's restart is RUL-STUCK-RESTART."""
    for reading in ("must", "may"):
        s = position(["5C 7C", "2S"], run=(3, 4), rules=rules(new_run=reading), to_move=1, last_player=0)
        s = apply(s, PASS)  # seat 1 passes; the run is stuck and back with seat 0
        assert s.to_move == 0 and s.need == 0
        assert PASS not in legal_actions(s)


def test_rul_stuck_restart() -> None:
    """RUL-STUCK-RESTART (R-STOP-STUCK, R-LEAD-ANY): Anna's run is stuck at "without 5" and comes back to her."""
    hands = ["6C 7C", "2S 9S"]
    must = apply(position(hands, run=(3, 4), rules=rules(stuck_restart="must"), to_move=1, last_player=0), PASS)
    may = apply(position(hands, run=(3, 4), rules=rules(stuck_restart="may"), to_move=1, last_player=0), PASS)
    assert must.to_move == may.to_move == 0 and must.need == may.need == 0
    assert legal_texts(must) == {"play 6C", "play 7C"}
    assert legal_texts(may) == {"play 6C", "play 7C", "pass"}
    with pytest.raises(IllegalAction) as e:
        apply(must, PASS)
    assert e.value.rule == "R-PLAY-MUST"
    # Under "may" Anna passes and Ben must start the new run (he may not hand it back).
    ben = apply(may, PASS)
    assert ben.to_move == 1 and ben.need == 0 and legal_texts(ben) == {"play 2S", "play 9S"}
    # Anna plays out under "must"; under "may" she can also let Ben lead first.
    assert play(must, "play 6C", "play 7C").winner == 0
    assert play(ben, "play 2S").run == (2,)


def test_rul_stuck_restart_left_neighbour_cannot_lead() -> None:
    """RUL-STUCK-RESTART, RUL-COMET-LEAD (R-STOP-STUCK, R-END-OUT): Ben holds only the Comet and may not lead
    it, so Anna must restart even under "may" (else the empty run would go back and forth for ever)."""
    r = rules(stuck_restart="may", comet_lead="forbidden")
    s = apply(position(["6C 7C", "9D"], run=(3, 4), rules=r, to_move=1, last_player=0), PASS)
    assert s.to_move == 0 and PASS not in legal_actions(s)
    with pytest.raises(IllegalAction) as e:
        apply(s, PASS)
    assert e.value.rule == "R-STOP-STUCK"
    # With a natural card in Ben's hand the pass is open again.
    s = apply(position(["6C 7C", "9D 2S"], run=(3, 4), rules=r, to_move=1, last_player=0), PASS)
    assert PASS in legal_actions(s)


def test_rul_stuck_restart_and_new_run_may_terminate() -> None:
    """RUL-STUCK-RESTART, RUL-NEW-RUN (R-END-OUT): every reading combination ends every sampled deal within
    the step bound, two players included (where a declined lead comes straight back)."""
    from comet.engine import shuffled_deal, step_bound

    rng = random.Random(12)
    for seed in range(60):
        r = rules(
            stuck_restart="may",
            new_run=rng.choice(["must", "may"]),
            comet_lead=rng.choice(["king", "any_rank", "forbidden"]),
        )
        s = shuffled_deal(r, 2 + seed % 4, 0, seed)
        while not s.terminal:
            acts = legal_actions(s)
            s = apply(s, PASS if PASS in acts else acts[rng.randrange(len(acts))])  # decline whenever allowed
            assert s.steps <= step_bound(s)


def test_rul_quartet_lead() -> None:
    """RUL-QUARTET-LEAD (R-FOUR-OF-A-KIND, R-LEAD-ANY): may Anna lead all four 5s?"""
    four = "play 5C 5C 5S 5S"
    off = full_deal(rules(quartet_on_lead=False), "5C 5C 5S 5S 6C", avoid=(5, 7))
    on = full_deal(rules(quartet_on_lead=True), "5C 5C 5S 5S 6C", avoid=(5, 7))
    assert four not in legal_texts(off) and "play 5C" in legal_texts(off)
    assert four in legal_texts(on)
    assert play(on, four, "play 6C").need == 7
    stuck = play(off, "play 5C", "play 6C", "pass")
    assert sum(1 for c in stuck.hands[0] if rank_of(c) == 5) == 3


# ------------------------------------------------------------------ 3. the Comet


def test_rul_comet_lead_offers_the_comet_on_a_lead() -> None:
    """RUL-COMET-LEAD (R-COMET-WILD, R-LEAD-ANY): the Comet among Anna's opening plays, as the King only,
    as any rank, or not at all."""
    king = full_deal(rules(comet_lead="king"), "9D 5C")
    anyr = full_deal(rules(comet_lead="any_rank"), "9D 5C")
    forb = full_deal(rules(comet_lead="forbidden"), "9D 5C")
    assert {t for t in legal_texts(king) if "9D" in t} == {"play 9D as K"}
    assert {f"play 9D as {r}" for r in ("2", "9", "K")} <= legal_texts(anyr)
    assert not any("9D" in t for t in legal_texts(forb))
    with pytest.raises(IllegalAction, match="stands for the King") as e:
        apply(king, parse_action("play 9D as 9"))
    assert e.value.rule == "R-COMET-WILD"
    assert Ruleset().comet_lead == "king"  # the default since issue 12


def test_rul_comet_lead_only_the_comet_left() -> None:
    """RUL-COMET-LEAD (R-END-OUT, R-SETTLE-COMET-LAST, R-COMET-BONUS): Ben must lead holding only the Comet."""
    base = position(["5C", "9D", "KS"], dealer=0, to_move=1, last_player=1)
    king = apply(replace(base, rules=rules(comet_lead="king")), parse_action("play 9D as K"))
    assert king.terminal and king.winner == 1 and king.out_wild_as == 13
    assert returns(king) == (-(2 * 2) - 5 * 2, 4 + 4 + 10 + 20, -(2 * 2) - 10 * 2)
    out = apply(replace(base, rules=rules(comet_lead="any_rank")), parse_action("play 9D as 9"))
    assert out.terminal and out.winner == 1
    assert returns(out) == (-(2 * 4) - 5 * 4, 8 + 8 + 20 + 40, -(2 * 4) - 10 * 4)
    forb = replace(base, rules=rules(comet_lead="forbidden"))
    assert legal_actions(forb) == (PASS,)
    nxt = apply(forb, PASS)
    assert nxt.to_move == 2 and nxt.need == 0 and PASS not in legal_actions(nxt)


def test_rul_comet_rank_as_last_card() -> None:
    """RUL-COMET-RANK (R-COMET-WILD, R-SETTLE-COMET-LAST): the Comet on 'without 6' as a 6 or as a 9."""
    base = position(["9D", "KS 2C"], run=(4, 5))
    needed = replace(base, rules=rules(comet_as="needed_rank"))
    anyr = replace(base, rules=rules(comet_as="any_rank"))
    assert legal_texts(needed) == {"pass", "play 9D as 6"}
    assert "play 9D as 9" in legal_texts(anyr)
    with pytest.raises(IllegalAction) as e:
        apply(needed, parse_action("play 9D as 9"))
    assert e.value.rule == "R-COMET-WILD"
    as_six = apply(needed, parse_action("play 9D as 6"))
    as_nine = apply(anyr, parse_action("play 9D as 9"))
    assert [p.amount for p in settlement(as_six)] == [12 * 2]
    assert [p.amount for p in settlement(as_nine)] == [12 * 4]


def test_rul_comet_holding() -> None:
    """RUL-COMET-HOLDING (R-COMET-WILD, R-PLAY-MUST): Carla holds 6S and the Comet on 'without 6'."""
    base = position(["6S 9D 2C", "KS"], run=(4, 5))
    free = replace(base, rules=rules(comet_requires_missing=False))
    strict = replace(base, rules=rules(comet_requires_missing=True))
    assert "play 9D as 6" in legal_texts(free)
    assert legal_texts(strict) == {"play 6S"}
    played = apply(free, parse_action("play 9D as 6"))
    assert played.chips() == (2, -2) and played.need == 0


def test_rul_comet_quartet_last_four_cards() -> None:
    """RUL-COMET-QUARTET (R-THREE-NINES, R-COMET-BONUS, R-SETTLE-COMET-LAST): 9C 9S 9S + Comet on 'without 9'."""
    base = position(["9C 9S 9S 9D", "KS 2C"], run=(7, 8))
    four = "play 9C 9D 9S 9S as 9"
    off = replace(base, rules=rules(comet_in_quartet=False))
    on = replace(base, rules=rules(comet_in_quartet=True))
    assert four not in legal_texts(off)
    assert four in legal_texts(on)
    with pytest.raises(IllegalAction) as e:
        apply(off, Action(cards("9C 9S 9S 9D"), 9))
    assert e.value.rule == "R-COMET-WILD"
    # Default: three 9s together, then the Comet as the 10 -> out, double.
    a = apply(apply(off, Action(cards("9C 9S 9S"))), Action((COMET_BLACK,), 10))
    # Other reading: all four as 9s -> out with the Comet as a 9, quadruple.
    b = apply(on, Action(cards("9C 9S 9S 9D"), 9))
    assert a.terminal and b.terminal
    assert returns(a) == (2 * 2 + 12 * 2, -(2 * 2) - 12 * 2)
    assert returns(b) == (2 * 4 + 12 * 4, -(2 * 4) - 12 * 4)


def test_rul_comet_bonus_last() -> None:
    """RUL-COMET-BONUS-LAST (R-COMET-BONUS, R-SETTLE-COMET-LAST): Anna goes out with the Comet as a 9."""
    base = position(["9D", "5C", "KS"], run=(7, 8))
    for reading, bonus in (("multiplied", 8), ("plain", 2)):
        s = apply(replace(base, rules=rules(comet_bonus_last=reading)), parse_action("play 9D as 9"))
        assert [(p.payer, p.amount) for p in s.payments] == [(1, bonus), (2, bonus)]
        assert [(p.payer, p.amount) for p in settlement(s)] == [(1, 5 * 4), (2, 10 * 4)]
    escalated = apply(replace(base, comet_value=4), parse_action("play 9D as 9"))
    assert {p.amount for p in escalated.payments} == {16}


# ------------------------------------------------------------------ escalation of the Comet's value


def _finished(ruleset: Ruleset, hands: Sequence[str], dead: str = "", comet_value: int = 2) -> DealState:
    """A deal that ends at once: seat 0 plays its one card (a 2, leading) and goes out."""
    s = position(hands, dead=dead, rules=ruleset, comet_value=comet_value)
    s = apply(s, Action(cards(hands[0].split()[0])))
    assert s.terminal and s.winner == 0
    return s


def test_rul_escalation_packs() -> None:
    """RUL-ESCALATION-PACKS (R-COMET-ESCALATE): the black Comet in the dead hand; is the red one worth 4?"""
    values = {}
    for reading in ("shared", "per_pack"):
        r = rules(escalation=reading)
        game = new_game(r, 2, 4)
        game = finish_deal(game, _finished(r, ["2C", "KS"], dead="9D"))
        red = comet_value_for(game, comet_dealt=True)
        game = finish_deal(game, _finished(r, ["2C", "KS"], dead="5C"))
        black = comet_value_for(game, comet_dealt=True)
        values[reading] = (red, black)
    assert values == {"shared": (4, 2), "per_pack": (2, 4)}


def test_rul_escalation_reset() -> None:
    """RUL-ESCALATION-RESET (R-COMET-ESCALATE, R-COMET-BONUS): worth 4 after a dead-hand deal; dealt to Ben next."""
    for reading, worth in (("next_deal", 4), ("same_deal", 2)):
        r = rules(comet_reset=reading)
        game = finish_deal(new_game(r, 2, 4), _finished(r, ["2C", "KS"], dead="9D"))
        assert game.comet_values == (4,)
        assert comet_value_for(game, comet_dealt=True) == worth
        assert comet_value_for(game, comet_dealt=False) == 4
        # A seeded second deal in which the Comet is dealt to a player carries that value.
        seed = next(s for s in range(100) if not any(c in (parse_card("9C"),) for c in _dead(game, s)))
        assert next_deal(game, seed).comet_value == worth


def _dead(game: GameState, seed: int) -> tuple[Card, ...]:
    return next_deal(game, seed).dead


def test_rul_escalation_trigger() -> None:
    """RUL-ESCALATION-TRIGGER (R-COMET-ESCALATE, R-SETTLE-CAUGHT): Ben is caught with the Comet."""
    for reading, after in (("dead_hand", 2), ("not_played", 4)):
        r = rules(escalate_on=reading)
        final = _finished(r, ["2C", "9D KS"])
        assert [p.amount for p in settlement(final)] == [(9 + 10) * 2]
        assert finish_deal(new_game(r, 2, 2), final).comet_values == (after,)
    # Both readings raise the value when the Comet lay in the dead hand, and reset it when it was played.
    for reading in ("dead_hand", "not_played"):
        r = rules(escalate_on=reading)
        assert finish_deal(new_game(r, 2, 2), _finished(r, ["2C", "KS"], dead="9D")).comet_values == (4,)
        played = position(["9D", "KS"], run=(7, 8), rules=r)
        played = apply(played, parse_action("play 9D as 9"))
        assert finish_deal(new_game(r, 2, 2), played).comet_values == (2,)


def test_rul_escalation_caught_counts_nine_whatever_the_value() -> None:
    """RUL-ESCALATION-CAUGHT (R-SETTLE-CAUGHT, R-COMET-ESCALATE, R-COMET-BONUS): a Comet worth 2, 4 or 6 caught in
    Carla's hand with 4 and Q: she pays 46 every time; only the bonus for playing it grows with the value."""
    for value in (2, 4, 6):
        final = _finished(STD, ["2C", "KS", "4C QS 9D"], comet_value=value)
        assert {p.payer: p.amount for p in settlement(final)} == {1: 10, 2: (4 + 10 + 9) * 2}
        played = apply(position(["9D 2C", "KS", "QS"], run=(4, 5), comet_value=value), parse_action("play 9D as 6"))
        assert played.chips() == (2 * value, -value, -value)


# ------------------------------------------------------------------ 4. chips and the game


def test_rul_insolvency() -> None:
    """RUL-INSOLVENCY (R-SETTLE-POINTS, R-GAME-CHIPS): Ben has 5 chips and owes 20 for K, 7, 3."""
    final = _finished(STD, ["2C", "KS 7C 3S"])
    for reading, balances in (("debt", (25, -15)), ("pay_what_you_have", (10, 0)), ("drop_out", (10, 0))):
        r = rules(insolvency=reading, starting_chips=5)
        game = finish_deal(new_game(r, 2, 2), replace(final, rules=r))
        assert game.balances == balances
        # drop_out: Ben pays his 5 and is out; one player left, so the game is over and Anna has won
        assert game.out == ((1,) if reading == "drop_out" else ())
        assert game_over(game) is (reading == "drop_out") and (winners(game) == (0,) or reading != "drop_out")


def test_rul_insolvency_drop_out_deals_without_them() -> None:
    """RUL-INSOLVENCY = drop_out (R-GAME-CHIPS, R-DEAL-DEALER, R-GAME-WINNER): three players, Ben (5 chips)
    owes 20 and drops out, Carla pays her 2.  Ben is dealt no further deal: the next deal is a two-player
    deal (its seat 1 is the game's seat 2), the deal passes left past him, and he cannot win even with
    more chips than someone still in."""
    from comet.checks.game import chips_follow_payments

    r = rules(insolvency="drop_out", starting_chips=5, deal_count="any")
    final = _finished(r, ["2C", "KS 7C 3S", "2S"])
    game = new_game(r, 3, 4, first_dealer=2)
    after = finish_deal(game, final)
    assert after.balances == (5 + 5 + 2, 0, 3) and after.out == (1,) and after.dealer == 0
    assert not game_over(after) and seats_in_play(after) == (0, 2)
    start = next_deal(after, 7)
    assert start.players == 2 and start.dealer == 0
    assert chips_follow_payments(game, final, after, after.history[-1]) == []
    second = finish_deal(after, _finished(r, ["2C", "2S"]))  # Anna out; Carla (game seat 2) pays 2, has 1
    assert second.balances == (14, 0, 1) and second.dealer == 2 and winners(second) == (0,)
    assert winners(replace(second, balances=(0, 9, 0))) == (0, 2)  # Ben's 9 do not count: he is out


def test_planted_drop_out_that_keeps_the_payer_in_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: RUL-INSOLVENCY = drop_out that caps the payment but never puts the payer out is
    reported by the one checker's recomputation of the payments (``dropped_out_payments``)."""
    import comet.game as game_module
    from comet.checks.game import chips_follow_payments

    monkeypatch.setattr(game_module, "drop_out_payment", lambda amount, balance, gone: (min(amount, balance), False))
    r = rules(insolvency="drop_out", starting_chips=5)
    final = _finished(r, ["2C", "KS 7C 3S", "2S"])
    game = new_game(r, 3, 3)
    after = finish_deal(game, final)
    assert chips_follow_payments(game, final, after, after.history[-1]) == [
        "the seats out after the deal are (), the payments put out (1,)"
    ]


def test_rul_starting_chips() -> None:
    """RUL-STARTING-CHIPS (R-GAME-CHIPS, R-SETTLE-CAUGHT): Carla caught with the Comet owes 60."""
    final = _finished(STD, ["2C", "5C", "9D KS 9S 2S"])
    assert {p.payer: p.amount for p in settlement(final)} == {1: 5, 2: (9 + 10 + 9 + 2) * 2}
    for start, carla_pays in ((50, 50), (100, 60)):
        r = rules(starting_chips=start, insolvency="pay_what_you_have")
        game = new_game(r, 3, 3)
        assert game.balances == (start,) * 3
        after = finish_deal(game, replace(final, rules=r))
        assert start - after.balances[2] == carla_pays


def test_rul_game_length() -> None:
    """RUL-GAME-LENGTH (R-GAME-DEALS): three players ask for four deals."""
    with pytest.raises(RecordError, match="multiple of the players"):
        new_game(rules(deal_count="multiple_of_players"), 3, 4)
    assert new_game(rules(deal_count="any"), 3, 4).deals == 4


def test_rul_game_tie() -> None:
    """RUL-GAME-TIE (R-GAME-WINNER): after the last agreed deal Anna and Ben are level."""
    for reading, deals, over in (("share", 2, True), ("extra_round", 4, False)):
        r = rules(game_tie=reading)
        final = _finished(r, ["2C", "KS"])  # Ben pays Anna 10
        game = replace(new_game(r, 2, 2), deal_index=1, balances=(40, 60))
        game = finish_deal(game, final)
        assert game.balances == (50, 50) and winners(game) == (0, 1)
        assert game.deals == deals and (game.deal_index >= game.deals) is over
    tied = replace(new_game(STD, 2, 2), balances=(60, 60))
    assert winners(tied) == (0, 1)


def test_rul_first_dealer_tie() -> None:
    """RUL-FIRST-DEALER (R-DEAL-DEALER): Anna draws 5, Ben and Carla 2; then Ben K, Carla 3."""
    draws = [["5C", "2C", "2S"], ["KC", "3C"]]
    lowest_seat = draw_first_dealer(rules(first_dealer_tie="lowest_seat"), 3, _ScriptedSeats(draws))
    redraw = draw_first_dealer(rules(first_dealer_tie="redraw"), 3, _ScriptedSeats(draws))
    assert (lowest_seat, redraw) == (1, 2)


def test_rul_first_dealer_wild() -> None:
    """RUL-FIRST-DEALER-WILD (R-DEAL-DEALER): Anna draws the black pack's Comet, Ben a 4, Carla a 7."""
    draws = [["9D", "4C", "7C"]]
    printed = draw_first_dealer(rules(first_dealer_wild="printed"), 3, _ScriptedSeats(draws))
    lowest = draw_first_dealer(rules(first_dealer_wild="lowest"), 3, _ScriptedSeats(draws))
    assert (printed, lowest) == (1, 0)
    # a natural 9 is no wild card: it counts 9 under either reading, and two drawn wild cards tie
    natural = [["9C", "4C", "7C"]]
    assert draw_first_dealer(rules(first_dealer_wild="lowest"), 3, _ScriptedSeats(natural)) == 1
    by_seat = rules(first_dealer_wild="lowest", first_dealer_tie="lowest_seat")
    assert draw_round(by_seat, (parse_card("4C"), parse_card("9D"), parse_card("2C"))) == (1, (1,))


class _ScriptedSeats(random.Random):
    """A Random whose ``sample`` returns scripted draws, one card per candidate seat in seat order."""

    def __init__(self, draws: Sequence[Sequence[str]]) -> None:
        super().__init__(0)
        self.draws = [[parse_card(c) for c in d] for d in draws]

    def sample(self, population: Sequence[Card], k: int, *, counts: object = None) -> list[Card]:  # type: ignore[override]
        drawn = self.draws.pop(0)
        assert len(drawn) == k
        return drawn


def test_rul_call_words_are_one_action() -> None:
    """RUL-CALL-WORDS (R-TURN-END): 'without' and 'pass' are both the action pass; the narration tells them apart."""
    s = position(["5C 6C 2C", "KS 2S"], rules=STD)
    without = play(s, "play 5C", "play 6C")
    assert without.turn_played and PASS in legal_actions(without)
    stuck = apply(without, PASS)
    assert not stuck.turn_played and legal_actions(stuck) == (PASS,)


def test_rul_comet_after_stop_against_optional_restart() -> None:
    """RUL-COMET-AFTER, R-COMET-STOP: the Comet as the 6 with no 7 in hand.

    As a stop Carla must start a new run; under optional_restart she may say "without 7" and the
    next player must go on with the old run, or she may still start afresh with any card.
    """
    hands = ["5C 7S 2S", "7C 3S", "9D 3C 4S"]
    stop = play(position(hands, dealer=1, to_move=2), "play 4S", "pass", "play 5C", "pass", "pass")
    assert stop.to_move == 2 and stop.need == 6
    stop = play(stop, "play 9D as 6")
    assert stop.run == () and legal_texts(stop) == {"play 3C"}

    loose = play(
        position(hands, dealer=1, to_move=2, rules=rules(comet_after="optional_restart")),
        "play 4S",
        "pass",
        "play 5C",
        "pass",
        "pass",
        "play 9D as 6",
    )
    assert loose.need == 7 and loose.free_lead
    assert legal_texts(loose) == {"play 3C", "pass"}
    after_without = play(loose, "pass")
    assert after_without.to_move == 0 and after_without.need == 7
    assert "pass" not in legal_texts(after_without)  # Anna holds 7S and must go on with the old run
    restarted = play(loose, "play 3C")
    assert restarted.run == (3,) and not restarted.free_lead


def test_rul_free_lead_quartet() -> None:
    """RUL-FREE-LEAD-QUARTET, RUL-COMET-AFTER, RUL-QUARTET-LEAD (R-FOUR-OF-A-KIND, R-COMET-STOP): after the Comet
    as the 9 under optional_restart, Anna may begin the new run with her four 5s when fours may lead."""
    four = "play 5C 5C 5S 5S"
    hands = ["9D 5C 5C 5S 5S 2C", "KS", "QS"]
    both = rules(comet_after="optional_restart", quartet_on_lead=True)
    s = play(position(hands, run=(7, 8), rules=both), "play 9D as 9")
    assert s.free_lead and s.need == 10
    assert {four, "play 2C", "play 5C", "pass"} <= legal_texts(s)
    assert play(s, four).run == (5,)
    no_fours = play(position(hands, run=(7, 8), rules=rules(comet_after="optional_restart")), "play 9D as 9")
    assert four not in legal_texts(no_fours) and "play 5C" in legal_texts(no_fours)
    with pytest.raises(IllegalAction) as e:
        apply(no_fours, parse_action(four))
    assert e.value.rule == "R-FOUR-OF-A-KIND"
    # As a stop (the default) the four may lead the new run too: the pair now agrees with it.
    stop = play(position(hands, run=(7, 8), rules=rules(quartet_on_lead=True)), "play 9D as 9")
    assert stop.need == 0 and four in legal_texts(stop)


def test_meeting_readings_the_model_decides() -> None:
    """Section 6 of spec/rulings.md (RUL-COMET-QUARTET, RUL-QUARTET-LEAD, RUL-COMET-HOLDING, RUL-COMET-RANK,
    RUL-COMET-LEAD; R-THREE-NINES, R-COMET-WILD): the decisions for pairs of readings, as the model plays them."""
    # Three natural 9s and the Comet do not lead together, even with both switches on.
    lead = position(
        ["9C 9S 9S 9D 2C", "KS"], rules=rules(comet_in_quartet=True, quartet_on_lead=True, comet_lead="any_rank")
    )
    assert "play 9C 9S 9S" in legal_texts(lead)
    assert not any(t.startswith("play 9C 9D") for t in legal_texts(lead))
    # Holding the needed rank bars the Comet whatever rank it would be called.
    held = position(["6S 9D", "KS"], run=(4, 5), rules=rules(comet_requires_missing=True, comet_as="any_rank"))
    assert legal_texts(held) == {"play 6S"}
    # On a lead the condition does not apply: the Comet leads as the King beside a natural King.
    led = position(["KC 9D", "2S"], rules=rules(comet_requires_missing=True))
    assert {"play KC", "play 9D as K"} <= legal_texts(led)
    # RUL-COMET-AFTER with RUL-COMET-RANK: a Comet called another rank starts a run there, which goes on.
    called = position(
        ["9D 7C", "KS", "QS"], run=(4, 5), rules=rules(comet_as="any_rank", comet_after="optional_restart")
    )
    called = play(called, "play 9D as 9")
    assert called.run == (9,) and called.need == 10 and called.free_lead


# ------------------------------------------------------------------ the Opera (spec/rulings-variants.md)


def _opera_out(hands: Sequence[str], moves: Sequence[str], **readings: object) -> DealState:
    """Three players, Carla (seat 2) deals, Opera on: Anna (seat 0) plays ``moves`` in her first turn."""
    s = play(position(hands, dealer=2, rules=rules(opera=True, **readings)), *moves)
    assert s.terminal and s.winner == 0 and not s.drawn and s.turn == 0
    return s


def test_rul_opera_comet_bonus() -> None:
    """RUL-OPERA-COMET-BONUS (R-OPERA-DOUBLE, R-COMET-BONUS, R-SETTLE-COMET-LAST): Anna goes out in her
    first turn on the Comet as the 9; is its bonus doubled by the Opera too?"""
    hands = ["7C 8C 9D", "7S 3S", "7S 3S"]
    moves = ("play 7C", "play 8C", "play 9D as 9")
    plain = _opera_out(hands, moves, opera_comet_bonus="plain")
    doubled = _opera_out(hands, moves, opera_comet_bonus="doubled")
    assert plain.chips() == (16, -8, -8)  # 2 x 4 from each (RUL-COMET-BONUS-LAST)
    assert doubled.chips() == (32, -16, -16)
    assert [p.amount for p in settlement(plain)] == [p.amount for p in settlement(doubled)] == [80, 80]
    # Stacked as RUL-OPERA-STACK says: capped, the x4 already exceeds the Opera's x2; with a plain bonus
    # the Opera's x2 is the higher.
    capped = _opera_out(hands, moves, opera_comet_bonus="doubled", opera_stack="highest")
    assert capped.chips() == (16, -8, -8)
    alone = _opera_out(hands, moves, opera_comet_bonus="doubled", comet_bonus_last="plain")
    assert alone.chips() == (8, -4, -4)
    # Not an Opera (a pass came first), or a drawn one: no doubling of the bonus.
    on = rules(opera=True, opera_comet_bonus="doubled")
    late = position(hands, dealer=2, rules=on, to_move=1, run=(9, 10), last_player=0)
    late = play(late, "pass", "pass", *moves)  # Ben and Carla pass first; the run comes back to Anna
    assert late.winner == 0 and late.turn == 2 and late.chips() == (16, -8, -8)
    drawn = play(position(["7C 8C 9D", "7S 3S", "KS"], dealer=2, rules=on), *moves)
    assert drawn.drawn and drawn.chips() == (16, -8, -8)


def test_rul_opera_caught() -> None:
    """RUL-OPERA-CAUGHT (R-OPERA-DOUBLE, R-SETTLE-CAUGHT): Ben is caught with 4, Q and the Comet in an Opera."""
    hands = ["2C", "4C QS 9D", "7S 3S"]
    for stack in ("multiply", "highest"):
        mult = _opera_out(hands, ["play 2C"], opera_caught="multiply", opera_stack=stack)
        high = _opera_out(hands, ["play 2C"], opera_caught="highest", opera_stack=stack)
        assert {p.payer: p.amount for p in settlement(mult)} == {1: 23 * 2 * 2, 2: 10 * 2}
        assert {p.payer: p.amount for p in settlement(high)} == {1: 23 * 2, 2: 10 * 2}
    # Without the Opera the reading changes nothing.
    plain = play(position(hands, dealer=2, rules=rules(opera_caught="highest")), "play 2C")
    assert {p.payer: p.amount for p in settlement(plain)} == {1: 23 * 2, 2: 10}


def test_rul_opera_draw_example_two_players_eighteen_cards() -> None:
    """RUL-OPERA-DRAW (R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-DEAL-SIZES): the corrected example, dealt as two
    players really are (18 cards each, 12 dead): Anna goes out at once, and so could Ben."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    anna = [f"{r}C" for r in ranks] + [f"{r}S" for r in ranks[:6]]
    ben = [f"{r}S" for r in ranks[:6]] + [f"{r}C" for r in ranks[6:]] + [f"{r}S" for r in ranks[6:]]
    ben[ben.index("9C")] = "9S"  # the black pack has one 9C, two 9S and the Comet 9D
    hands = [cards(" ".join(anna)), cards(" ".join(ben))]
    rest = Counter(black_pack().cards) - Counter(hands[0]) - Counter(hands[1])
    for reading, drawn in (("dealer_could", True), ("never", False)):
        s = explicit_deal(rules(opera=True, opera_draw=reading), 2, 1, hands, sorted(rest.elements()))
        assert len(s.hands[0]) == len(s.hands[1]) == 18
        for r in ranks + ranks[:6]:
            want = rank_of(parse_card(r + "C"))
            s = apply(s, next(a for a in legal_actions(s) if a.cards and rank_of(a.cards[0]) == want))
        assert s.terminal and s.turn == 0 and s.drawn is drawn
        assert bool(settlement(s)) is not drawn


def test_standard_step_check_catches_a_planted_opera_bonus_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-OPERA-COMET-BONUS, RUL-COMET-BONUS-LAST (R-COMET-BONUS): the independent step check recomputes the
    Comet's bonus; a planted Opera that forgets to double it is reported with the amounts."""
    from comet import checks as invariants
    from comet.games.opera import rules as opera

    hands = ["7C 8C 9D", "7S 3S", "7S 3S"]
    doubled = rules(opera=True, opera_comet_bonus="doubled")
    before = play(position(hands, dealer=2, rules=doubled), "play 7C", "play 8C")
    good = apply(before, parse_action("play 9D as 9"))
    assert invariants.check_transition(before, parse_action("play 9D as 9"), good) == []
    monkeypatch.setattr(opera, "opera_comet_bonus", lambda after, seat: after)
    bad = apply(before, parse_action("play 9D as 9"))
    problems = invariants.check_transition(before, parse_action("play 9D as 9"), bad)
    assert problems == [
        "play 9D as 9 paid {seat 1 pays seat 0 8, seat 2 pays seat 0 8} during play; the Comet's bonus "
        "recomputed is {seat 1 pays seat 0 16, seat 2 pays seat 0 16}"
    ]


def test_settlement_recomputation_catches_a_planted_opera_caught_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-OPERA-CAUGHT (R-OPERA-DOUBLE): the independent settlement recomputation follows the reading; a planted
    engine that ignores the cap is reported."""
    from comet import checks as invariants

    s = _opera_out(["2C", "4C QS 9D", "7S 3S"], ["play 2C"], opera_caught="highest")
    assert invariants.check_settlement(s) == ([], False)
    plant_option_hooks(monkeypatch, "opera", caught_multiplier=lambda state, caught, out_mult: caught * out_mult)
    problems, _ = invariants.check_settlement(s)
    assert problems and "seat 1 pays seat 0 92" in problems[0] and "seat 1 pays seat 0 46" in problems[0]


def test_rul_insolvency_drop_out_game_records_replay() -> None:
    """RUL-INSOLVENCY = drop_out (R-GAME-CHIPS, R-GAME-DEALS): a recorded game in which players drop out
    replays (its later deal records have fewer players), and a deal record dealt to everyone after a
    drop-out is refused."""
    from comet.records.game_replay import replay_game
    from comet.records.game_write import record_game

    r = rules(insolvency="drop_out", deal_count="any")
    rec = record_game(r, "standard", 4, 12, 0)
    verdict = replay_game(rec)
    assert verdict.fault is None and verdict.finished and verdict.game is not None and verdict.game.out
    sizes = [d.record.players for d in rec.deals if d.record is not None]
    assert sizes[0] == 4 and sizes[-1] < 4
    first_small = next(i for i, n in enumerate(sizes) if n < 4)
    wrong = replace(rec, deals=(*rec.deals[:first_small], rec.deals[0]))
    with pytest.raises(RecordError, match="players still in the game"):
        replay_game(wrong)


def test_rul_announce_the_wild_cards_rank() -> None:
    """RUL-ANNOUNCE (R-COMET-WILD): the Comet's rank is part of its action and the narration says every rank;
    a Comet played without saying what it stands for is refused."""
    from comet.notation import narrate

    s = position(["5C 6C 9D 2S", "KS 2C"], rules=STD)
    acts = [parse_action(t) for t in ("play 5C", "play 6C", "play 9D as 7")]
    assert narrate(s, acts)[-1].startswith("Anna: 5, 6, Comet as 7")
    with pytest.raises(IllegalAction) as err:
        apply(apply(apply(s, acts[0]), acts[1]), parse_action("play 9D"))
    assert err.value.rule == "R-COMET-WILD" and "say which rank" in str(err.value)
