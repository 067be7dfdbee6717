"""000's Commit's whole deal (spec/extremes.md, comet_proofs.bounds.paid): the lemma "each paying card is paid
once, in play or at the settlement" is proved inductive before it is used, a wrong table of what a card pays
is refused with Z3's counterexample in words, and the bounds it gives are reached by deals the model plays
(R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID, R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD)."""

from __future__ import annotations

import pytest

pytest.importorskip("z3")

import z3
from comet.presets import preset as preset_named
from comet.variant import variant_of
from comet_proofs.bounds import DEAL_GAIN, DEAL_LOSS
from comet_proofs.bounds.lemmas import dealt_size
from comet_proofs.bounds.paid import PAID_IN_PLAY, paid_in_play_lemma_holds, paid_in_play_refuted
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import SymState

HOYLE = "commit_hoyle"


def at_start(x: SymState) -> list[z3.BoolRef]:
    rules = preset_named(HOYLE).rules
    return [x.comet_value == variant_of(rules).comet_value, *encoding_for(HOYLE).fixed_by_rules(x, rules)]


def test_the_paid_in_play_lemma_is_proved_both_ways_at_three_to_five_players() -> None:
    """R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID: a King pays its player 1 from each other seat and the 9D 2,
    each once, so what seat 0 has lost in play plus what the unplayed Kings and 9D would pay is at most 6,
    and what it has won plus n-1 times that at most 6(n-1): true initially and kept by every step."""
    enc = encoding_for(HOYLE)
    rd = enc.readings_of(preset_named(HOYLE).rules)
    for players in (3, 4, 5):
        size = dealt_size(enc, players, rd)
        for won in (False, True):
            assert paid_in_play_lemma_holds(enc, players, rd, size, PAID_IN_PLAY[HOYLE], won, at_start), (players, won)


def test_a_cheaper_nine_or_a_forgotten_king_is_refused_with_a_readable_counterexample() -> None:
    """R-COMMIT-H-NINE-PAID, R-COMMIT-H-KING-PAID: the lemma with the 9D paying 1 (a bound one chip too tight)
    is refuted by the step where the 9D is played (by another seat for the loser, by seat 0 for the winner),
    and with a King left out of the table by a King's play; each refutation is one line naming the card and
    the numbers before and after."""
    enc = encoding_for(HOYLE)
    rd = enc.readings_of(preset_named(HOYLE).rules)
    size = dealt_size(enc, 3, rd)
    paid = PAID_IN_PLAY[HOYLE]
    cheap_nine = tuple((c, amount - 1 if amount == 2 else amount) for c, amount in paid)
    lost = paid_in_play_refuted(enc, 3, rd, size, cheap_nine, False, at_start)
    assert lost is not None and "plays 9D" in lost and "against at most 5" in lost
    assert not lost.startswith("seat 0 "), lost  # another seat's 9D takes from seat 0
    won = paid_in_play_refuted(enc, 3, rd, size, cheap_nine, True, at_start)
    assert won is not None and won.startswith("seat 0 plays 9D") and "against at most 2 x 5" in won
    no_king = paid[1:]
    forgot = paid_in_play_refuted(enc, 3, rd, size, no_king, False, at_start)
    assert forgot is not None and "plays KC" in forgot and "\n" not in forgot
    assert paid_in_play_refuted(enc, 3, rd, size, paid, False, at_start) is None


def test_the_whole_deal_bounds_are_exact_and_the_built_deals_reach_them() -> None:
    """R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD, R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID:
    with the lemma, the most one seat loses in a whole deal is the settlement's (the stake and the four Kings
    and the 9D held: 13 and 25 at three and five players; the potential gave 115) and the most it wins is its
    stake and the four Kings and the 9D paid in play, 7(n-1) (14 and 28; the potential gave 212 and 370); the
    built deals, dealt and played by the model, reach them."""
    from comet import engine
    from comet_proofs.bounds.build import built_deals
    from comet_proofs.bounds.proved import proved_bounds
    from comet_proofs.bounds.quantities import quantities

    for players, lost, won in ((3, 13, 14), (5, 25, 28)):
        proved = proved_bounds(HOYLE, players)
        assert (proved[DEAL_LOSS], proved[DEAL_GAIN]) == (lost, won)
        best = {DEAL_LOSS: 0, DEAL_GAIN: 0}
        for _, played in built_deals(HOYLE, players):
            for q in [q for q in best if q in played]:
                deal = played[q]
                final = engine.replay(deal.start, deal.actions)
                assert final.terminal
                best[q] = max(best[q], quantities(final, len(deal.actions))[q])
        assert (best[DEAL_LOSS], best[DEAL_GAIN]) == (lost, won)


def test_the_long_deal_lemma_holds_in_000s_commit_with_the_9d_fact(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-H-NINE, R-STOP-STUCK, R-COMMIT-H-SUIT: with the fact that a turn the 9D has just ended leaves a
    run open (its player's pass is on a run, not on a lead), "the actions so far plus the passes still possible
    before the next play are at most n+1 per card played, less one per seat joining after the first" is proved
    for 000's Commit and lowers the proved longest deal from the ranking's 255 and 288 to 191 and 218 at three and
    four players (at three, 182 once the stops and the suits' forced runs are counted: tests/test_bounds_stops.py); without
    the fact Z3 finds the step that breaks it (the 9D's turn ended with nothing open, a state ``Inv`` admits)."""
    from comet_proofs.bounds import ACTIONS, lemmas
    from comet_proofs.bounds.proved import proved_bounds

    enc = encoding_for(HOYLE)
    rd = enc.readings_of(preset_named(HOYLE).rules)
    size = dealt_size(enc, 3, rd)
    assert lemmas.long_deal_lemma_holds(enc, 3, rd, size)
    assert proved_bounds(HOYLE, 4)[ACTIONS] == 218
    monkeypatch.setattr(lemmas, "nine_left_open", lambda e, s: [])
    assert not lemmas.long_deal_lemma_holds(enc, 3, rd, size)


def test_002s_commit_points_scored_in_play_are_scored_once() -> None:
    """R-COMMIT-C-KING, R-COMMIT-C-COMET, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT: in 002's Commit a King scores its
    player 1 and the Comet 2, each once, so the points seat 0 has scored in play plus what the unplayed Kings
    and Comet would score is at most 6: proved, and with it the most points one seat scores in a deal at three
    players is 41 (the potential gave 159); a Comet scoring 1 is refused by the step where seat 0 plays it."""
    from comet_proofs.bounds import POINTS
    from comet_proofs.bounds.proved import proved_bounds

    cats = "commit_cats"
    enc = encoding_for(cats)
    rules = preset_named(cats).rules
    rd = enc.readings_of(rules)
    size = dealt_size(enc, 3, rd)

    def fixed(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == variant_of(rules).comet_value, *enc.fixed_by_rules(x, rules)]

    paid = PAID_IN_PLAY[cats]
    assert paid_in_play_refuted(enc, 3, rd, size, paid, True, fixed) is None
    cheap = tuple((c, amount - 1 if amount == 2 else amount) for c, amount in paid)
    refuted = paid_in_play_refuted(enc, 3, rd, size, cheap, True, fixed)
    assert refuted is not None and refuted.startswith("seat 0 plays the Comet") and "against at most 5" in refuted
    assert proved_bounds(cats, 3)[POINTS] == 41


def test_the_commit_ladder_reaches_the_longest_deal_at_five_players() -> None:
    """R-COMMIT-H-SUIT, R-COMMIT-H-STOPS, R-STOP-STUCK, R-COMMIT-H-NINE: 000's Commit's ladder by suit (each suit
    played from the top down, every run stuck, the stops and the 9D face down as far as the rest holds them),
    dealt and played by the model, lasts 176, 210 and 237 actions at three to five players, 237 being the proved
    bound at five; the planned play never plays the 9D instead of a pass."""
    from comet import engine
    from comet_proofs.bounds.build import commit_ladder, planned_play

    lengths = []
    for players in (3, 4, 5):
        start, plan = commit_ladder(HOYLE, players)
        actions = planned_play(start, plan)
        assert engine.replay(start, actions).terminal
        lengths.append(len(actions))
    assert lengths == [176, 210, 237]
    from comet_proofs.bounds import ACTIONS
    from comet_proofs.bounds.proved import proved_bounds

    assert proved_bounds(HOYLE, 5)[ACTIONS] == 237


def test_the_commit_keepers_deal_keeps_the_top_diamonds_and_leads_fewer_stops() -> None:
    """R-COMMIT-H-SUIT, R-COMMIT-H-STOPS, R-COMMIT-H-NINE, R-STOP-STUCK, R-PLAY-MUST: the ladder by suit with the
    losers keeping the diamonds from the 10D up (the 10D's keeper leads the 9D, so no run ever asks for a kept card)
    and the King of diamonds as the winner's last card, dealt and played by the model, lasts 178 and 214 actions at
    three and four players (the plain ladder's 176 and 210), under the proved 182 and 218.  The count: every play
    but the last is followed by n passes, but a stop led before the last card (no pass: four at three players,
    the other Kings and the 7D; one at four, the 7D) and a hand-over (n-1 passes: three at both counts, the turn
    coming round to the first player again at three players, who goes out on the KD played on the last loser's QD)."""
    from itertools import pairwise

    from comet import engine
    from comet.cards import DIAMONDS, KING, card, rank_of
    from comet_proofs.bounds import ACTIONS
    from comet_proofs.bounds.build import built_deals, commit_keepers, planned_play
    from comet_proofs.bounds.proved import proved_bounds

    for players, length, stops, hand_overs, bound in ((3, 178, 4, 3, 182), (4, 214, 1, 3, 218)):
        start, plan = commit_keepers(HOYLE, players)
        actions = planned_play(start, plan)
        final = engine.replay(start, actions)  # every action legal, or the replay raises
        assert final.terminal and len(actions) == length
        assert final.hands[final.winner] == () and actions[-1].cards == (card(KING, DIAMONDS),)
        kept = sorted(c for h in final.hands for c in h)
        assert kept == [card(r, DIAMONDS) for r in range(10, 10 + players - 1)]
        plays = [i for i, a in enumerate(actions) if not a.is_pass]
        passes = [nxt - i - 1 for i, nxt in pairwise(plays)]
        led_stops = [actions[i] for i, p in zip(plays, passes, strict=False) if p == 0]
        assert len(led_stops) == stops
        assert all(rank_of(a.cards[0]) == KING or a.cards[0] == card(7, DIAMONDS) for a in led_stops)
        assert passes.count(players - 1) == hand_overs
        assert passes.count(players) == len(passes) - stops - hand_overs
        assert length == (players + 1) * len(plays) - players - players * stops - hand_overs
        assert max(p[ACTIONS].value for _, p in built_deals(HOYLE, players) if ACTIONS in p) == length
        assert proved_bounds(HOYLE, players)[ACTIONS] == bound
