"""Old Comet (1718; 000:85, 003:85): R-OLD-DECK, R-OLD-DEAL, R-OLD-ACE-LOW, R-OLD-KING, R-OLD-LAST-CARD,
R-OLD-MANILLE-PLAY, R-OLD-POINTS, R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT; the rulings RUL-OLD-CAUGHT,
RUL-OLD-MANILLE-LAST, RUL-OLD-OPERA-CAUGHT and RUL-OLD-MANILLE-KING."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from builders import cards, position
from comet.cards import black_pack, card, full_deck
from comet.checks import check_settlement, check_transition
from comet.engine import apply, deal_sizes, explicit_deal, legal_actions, returns, settlement, shuffled_deal
from comet.errors import RecordError
from comet.games.old_comet import rules as old
from comet.games.old_comet.check import old_comet_recomputed
from comet.notation import parse_action
from comet.presets import PRESETS
from comet.state import Action, DealState, Payment
from comet.variant import REGISTRY

OLD = PRESETS["old_comet"].rules
DECK = old.old_deck(OLD, None)[0]


def at(hands: list[str], **kw: object) -> DealState:
    return position(hands, rules=kw.pop("rules", OLD), pack=DECK, comet_value=10, **kw)  # type: ignore[arg-type]


def play(state: DealState, *texts: str) -> DealState:
    for t in texts:
        state = apply(state, parse_action(t))
    return state


def test_one_52_card_deck_with_the_9d_wild() -> None:
    """R-OLD-DECK: 000:85 "one 52-card deck … the 9♦ is the only wild card"."""
    assert Counter(DECK.cards) == Counter(full_deck().cards) and len(DECK.cards) == 52
    assert DECK.wild == (card(9, 1),)


@pytest.mark.parametrize(("players", "each", "dead"), [(2, 18, 16), (3, 12, 16), (4, 10, 12), (5, 9, 7)])
def test_deal_sizes_follow_the_standard_table(players: int, each: int, dead: int) -> None:
    """R-OLD-DEAL: RUL-OLD-DEAL-SIZES = table: the standard hand sizes, the rest of the 52 cards dead."""
    assert deal_sizes(OLD, players, 52) == (each, dead)
    s = shuffled_deal(OLD, players, 0, seed=players)
    assert [len(h) for h in s.hands] == [each] * players and len(s.dead) == dead
    assert s.comet_value == 10 and s.pack == "deck52"


def test_even_deal_reading() -> None:
    """R-OLD-DEAL: RUL-OLD-DEAL-SIZES = even: as many as go round (3 players: 17 each, 1 dead)."""
    assert deal_sizes(replace(OLD, old_deal_sizes="even"), 3, 52) == (17, 1)
    assert deal_sizes(replace(OLD, old_deal_sizes="even"), 4, 52) == (13, 0)


def test_explicit_deal_wants_the_52_card_deck() -> None:
    """R-OLD-DECK: a record of an Old Comet deal must be exactly one 52-card deck."""
    pack = list(black_pack().cards)
    with pytest.raises(RecordError, match="deck52"):
        explicit_deal(OLD, 2, 1, [pack[:18], pack[18:36]], pack[36:])
    deck = list(DECK.cards)
    s = explicit_deal(OLD, 2, 1, [deck[:18], deck[18:36]], deck[36:])
    assert s.wild == DECK.wild


def test_ace_is_low_and_starts_a_run() -> None:
    """R-OLD-ACE-LOW: "the Ace counts as 1 and is the lowest card": Ace, 2, 3 … and the manille may be an Ace."""
    s = at(["AC 2C 3H", "AS KH", "9D 5C"], dealer=2)
    assert parse_action("play AC") in legal_actions(s)
    s = play(s, "play AC", "play 2C", "play 3H")
    assert s.run == (1, 2, 3)
    # A led manille stands for the King by default (RUL-COMET-LEAD); under comet_lead=any_rank, for an Ace too.
    lead = at(["9D 5C", "AS KH", "7C"], dealer=2, rules=OLD.with_overrides({"comet_lead": "any_rank"}))
    assert parse_action("play 9D as A") in legal_actions(lead)


def test_playing_the_manille_earns_ten_from_each() -> None:
    """R-OLD-MANILLE-PLAY: 000:85 "playing the 9♦ earns 10 chips from each"."""
    s = at(["9D 7C", "KH 2C", "QS 3C"], run=(3, 4), to_move=0)
    after = play(s, "play 9D as 5")
    assert returns(after) == (20, -10, -10)


def test_playing_a_king_earns_one_from_each() -> None:
    """R-OLD-KING: 000:85 "Whoever plays a King … collects 1 chip from each player"."""
    s = at(["KC 7C", "2H 2C", "QS 3C"], run=(11, 12), to_move=0)
    assert returns(play(s, "play KC")) == (2, -1, -1)


def test_last_card_before_everyone_passes_earns_one_from_each() -> None:
    """R-OLD-LAST-CARD: Anna plays 5 "without 6"; Ben and Carla pass; Anna collects 1 from each."""
    s = at(["5C 7C", "2H 2C", "QS 3C"], run=(3, 4), to_move=0)
    s = play(s, "play 5C", "pass", "pass")
    assert returns(s) == (0, 0, 0)  # Anna has passed the turn on, nobody else yet
    s = play(s, "pass")
    assert s.to_move == 0 and s.run == ()
    assert returns(s) == (2, -1, -1)


def test_settlement_and_caught_manille() -> None:
    """R-OLD-SETTLE R-OLD-POINTS R-OLD-MANILLE-CAUGHT: Anna goes out; Ben (A, 7, K) pays 18; Carla (4, Q, 9D)
    pays 4 + 10 + 9 = 23 to Anna and 10 to each other player (Anna and Ben)."""
    s = at(["5C", "AC 7C KC", "4C QC 9D"], run=(3, 4), to_move=0)
    final = play(s, "play 5C")
    table: Counter[tuple[int, int]] = Counter()
    for p in settlement(final):
        table[(p.payer, p.payee)] += p.amount
    assert table == {(1, 0): 18, (2, 0): 23 + 10, (2, 1): 10}
    assert returns(final) == (18 + 23 + 10, -18 + 10, -43)


def test_caught_manille_nine_only_reading() -> None:
    """R-OLD-MANILLE-CAUGHT: RUL-OLD-CAUGHT = nine_only: the winner gets only the 9, the others the 10."""
    s = at(["5C", "AC 7C KC", "4C QC 9D"], run=(3, 4), to_move=0, rules=replace(OLD, old_caught="nine_only"))
    assert returns(play(s, "play 5C")) == (18 + 23, -18 + 10, -33)


@pytest.mark.parametrize(("reading", "mult"), [("plain", 1), ("multiplied", 4)])
def test_going_out_with_the_manille(reading: str, mult: int) -> None:
    """R-OLD-SETTLE: RUL-OLD-MANILLE-LAST: plain 1718 payments, or the standard x4 for a 9."""
    rules = replace(OLD, old_manille_last=reading)  # type: ignore[arg-type]
    s = at(["9D", "AC 7C KC", "4C QC"], run=(7, 8), to_move=0, rules=rules)
    final = play(s, "play 9D as 9")
    assert returns(final) == (20 + 18 * mult + 14 * mult, -10 - 18 * mult, -10 - 14 * mult)


def test_three_natural_nines_go_down_together() -> None:
    """R-OLD-DECK: with the 9D wild, 9C 9H 9S are all the natural 9s (000:47 applies: "Play as above")."""
    s = at(["9C 9H 9S 2C", "KH", "QS"], run=(7, 8), to_move=0)
    assert parse_action("play 9C 9H 9S") in legal_actions(s)


def test_a_missing_last_card_payment_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: an Old Comet without its pass hook pays nothing for the last card before all pass."""
    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, pass_payments=None))
    s = play(at(["5C 7C", "2H 2C", "QS 3C"], run=(3, 4), to_move=0), "play 5C", "pass", "pass", "pass")
    want = (2, -1, -1)
    assert returns(s) != want, "the planted bug went unnoticed"


def test_a_manille_paying_the_standard_bonus_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: the standard Comet bonus (value x2 as last card) instead of the flat 10 of 000:85."""
    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, play_payments=None))
    s = at(["9D", "AC 7C KC", "4C QC"], run=(7, 8), to_move=0)
    bonus = [p.amount for p in play(s, "play 9D as 9").payments]
    assert bonus != [10, 10]
    assert cards("9D") == DECK.wild


# ----------------------------------------------------------------- RUL-OLD-OPERA-CAUGHT, RUL-OLD-MANILLE-KING


def _opera_finish(reading: str) -> DealState:
    """Opera, three players: Anna (first to play) goes out in her very first turn; Ben holds 2;
    Carla, the dealer, holds 4, 7, Q and the manille and could not have gone out at once
    (RUL-OLD-OPERA-CAUGHT's example)."""
    rules = OLD.with_overrides({"opera": True, "old_opera_caught": reading})
    s = at(["3C 4H 5S", "2C", "4C 7S QS 9D"], dealer=2, rules=rules)
    return play(s, "play 3C", "play 4H", "play 5S")


def _table(state: DealState) -> dict[tuple[int, int], int]:
    table: Counter[tuple[int, int]] = Counter()
    for p in settlement(state):
        table[(p.payer, p.payee)] += p.amount
    return dict(table)


@pytest.mark.parametrize(("reading", "caught"), [("plain", 10), ("doubled", 20)])
def test_opera_doubles_the_points_and_the_caught_manille_only_when_read_so(reading: str, caught: int) -> None:
    """R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT, R-OPERA-DOUBLE: RUL-OLD-OPERA-CAUGHT: the Opera doubles the
    points paid to the winner (Ben 2 x 2, Carla 30 x 2); the manille's 10 to each other player stays 10
    (plain) or becomes 20 (doubled).  The model and the independent recomputation agree on both."""
    final = _opera_finish(reading)
    assert final.winner == 0 and final.turn == 0 and not final.drawn
    want = {(1, 0): 4, (2, 0): 60 + caught, (2, 1): caught}
    assert _table(final) == want
    assert dict(old_comet_recomputed(final).chips) == want
    assert check_settlement(final) == ([], False)


def test_opera_caught_readings_agree_without_an_opera() -> None:
    """R-OLD-MANILLE-CAUGHT: without an Opera deal (a pass came first) the readings give the same 10s."""
    for reading in ("plain", "doubled"):
        rules = OLD.with_overrides({"opera": True, "old_opera_caught": reading})
        s = at(["3C 4H 5S", "2C", "4C 7S QS 9D"], dealer=2, rules=rules)
        s = play(s, "play 3C", "play 4H", "play 5S")
        late = replace(s, turn=3)  # the same hands, but not in the first turn
        assert _table(late) == {(1, 0): 2, (2, 0): 30 + 10, (2, 1): 10}


@pytest.mark.parametrize(("reading", "each"), [("manille_only", 10), ("manille_and_king", 11)])
def test_manille_standing_for_a_king(reading: str, each: int) -> None:
    """R-OLD-MANILLE-PLAY, R-OLD-KING: RUL-OLD-MANILLE-KING: the run stands at Q; Anna plays the manille as
    the King: Ben and Carla pay her 10 each (manille_only) or 11 each (manille_and_king)."""
    rules = OLD.with_overrides({"old_manille_king": reading})
    s = at(["9D 7C", "KH 2C", "QS 3C"], run=(11, 12), to_move=0, rules=rules)
    after = play(s, "play 9D as K")
    assert returns(after) == (2 * each, -each, -each)
    assert check_transition(s, parse_action("play 9D as K"), after) == []
    # standing for any other rank the readings agree: 10 each
    other = play(at(["9D 7C", "KH 2C", "QS 3C"], run=(3, 4), to_move=0, rules=rules), "play 9D as 5")
    assert returns(other) == (20, -10, -10)


def test_planted_manille_king_payment_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a play hook that ignores RUL-OLD-MANILLE-KING (the manille as a King pays 10 only
    under manille_and_king) is reported by the step check with the payments it made and expected."""
    real = old.old_play_payments

    def ignores_reading(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
        return real(replace(state, rules=replace(state.rules, old_manille_king="manille_only")), seat, action, out)

    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, play_payments=ignores_reading))
    rules = OLD.with_overrides({"old_manille_king": "manille_and_king"})
    s = at(["9D 7C", "KH 2C", "QS 3C"], run=(11, 12), to_move=0, rules=rules)
    act = parse_action("play 9D as K")
    problems = check_transition(s, act, apply(s, act))
    assert problems == [
        "play 9D as K paid {seat 1 pays seat 0 10, seat 2 pays seat 0 10}; the Old Comet payments are "
        "{seat 1 pays seat 0 11, seat 2 pays seat 0 11}"
    ]


def test_planted_opera_doubling_of_the_caught_manille_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a settlement that doubles the caught manille's 10s under the default reading (plain)
    is reported by the independent recomputation."""
    real = old.old_settlement

    def always_doubled(state: DealState) -> tuple[Payment, ...]:
        return real(replace(state, rules=replace(state.rules, old_opera_caught="doubled")))

    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, settlement=always_doubled))
    problems, skipped = check_settlement(_opera_finish("plain"))
    assert not skipped and len(problems) == 1
    assert "seat 2 pays seat 1 20" in problems[0] and "seat 2 pays seat 1 10}" in problems[0]


@pytest.mark.parametrize(("reading", "ben"), [("ten", 30), ("rank", 36)])
def test_court_cards_left_in_hand(reading: str, ben: int) -> None:
    """RUL-OLD-COURT-POINTS (R-OLD-POINTS, R-OLD-SETTLE): Ben holds J, Q, K: 30 (ten, 'as above') or 36
    (rank); the independent recomputation agrees under both readings."""
    rules = OLD.with_overrides({"old_court_points": reading})
    s = at(["5C", "JC QC KC", "AC 2C"], run=(3, 4), to_move=0, rules=rules)
    final = play(s, "play 5C")
    assert returns(final) == (ben + 3, -ben, -3)
    assert check_settlement(final) == ([], False)


def test_planted_court_points_ignoring_the_ruling_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted (RUL-OLD-COURT-POINTS): a settlement that counts the court cards 10 under rank is caught
    by the recomputation, with a readable report."""
    monkeypatch.setattr(old, "old_hand_points", lambda state, hand: sum(old.old_card_points(c) for c in hand))
    rules = OLD.with_overrides({"old_court_points": "rank"})
    final = play(at(["5C", "JC QC KC", "AC 2C"], run=(3, 4), to_move=0, rules=rules), "play 5C")
    problems, _ = check_settlement(final)
    assert problems and "36" in " ".join(problems)


@pytest.mark.parametrize(("reading", "carla"), [("plain", 23), ("doubled", 46)])
def test_caught_manille_paying_double(reading: str, carla: int) -> None:
    """RUL-OLD-CAUGHT-DOUBLE (R-OLD-MANILLE-CAUGHT, R-OLD-SETTLE): Carla holds 4, Q and the manille: she
    pays Anna 23 (plain) or 46 (doubled, 000:63 carried over) besides the 10s; recomputed under both."""
    rules = OLD.with_overrides({"old_caught_double": reading})
    final = play(at(["5C", "AC 7C KC", "4C QC 9D"], run=(3, 4), to_move=0, rules=rules), "play 5C")
    table: Counter[tuple[int, int]] = Counter()
    for p in settlement(final):
        table[(p.payer, p.payee)] += p.amount
    assert table == {(1, 0): 18, (2, 0): carla + 10, (2, 1): 10}
    assert check_settlement(final) == ([], False)


@pytest.mark.parametrize(("reading", "carla"), [("card_value", 23), ("extra", 32)])
def test_caught_manille_plus_nine(reading: str, carla: int) -> None:
    """RUL-OLD-CAUGHT-NINE (R-OLD-MANILLE-CAUGHT): Carla holds 4, Q and the manille: 'plus 9 to the winner'
    is the manille's 9 among her 23 points (card_value), or 9 chips more (extra); recomputed under both."""
    rules = OLD.with_overrides({"old_caught_nine": reading})
    final = play(at(["5C", "AC 7C KC", "4C QC 9D"], run=(3, 4), to_move=0, rules=rules), "play 5C")
    table: Counter[tuple[int, int]] = Counter()
    for p in settlement(final):
        table[(p.payer, p.payee)] += p.amount
    assert table == {(1, 0): 18, (2, 0): carla + 10, (2, 1): 10}
    assert check_settlement(final) == ([], False)


@pytest.mark.parametrize(("reading", "each"), [("plain", 10), ("multiplied", 40)])
def test_manille_bonus_as_the_last_card(reading: str, each: int) -> None:
    """RUL-OLD-BONUS-LAST (R-OLD-MANILLE-PLAY): Anna goes out with the manille as a 9: it earns 10 from each
    (plain) or 40 (multiplied, x4 for a 9); the step check recomputes it under both readings."""
    rules = OLD.with_overrides({"old_bonus_last": reading})
    s = at(["9D", "AC 7C KC", "4C QC"], run=(7, 8), to_move=0, rules=rules)
    final = play(s, "play 9D as 9")
    assert final.chips() == (2 * each, -each, -each)
    assert check_transition(s, parse_action("play 9D as 9"), final) == []
    not_last = at(["9D 2C", "AC 7C KC", "4C QC"], run=(7, 8), to_move=0, rules=rules)
    assert play(not_last, "play 9D as 9").chips() == (20, -10, -10)


def test_planted_manille_bonus_multiplied_by_default_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted (RUL-OLD-BONUS-LAST): a manille bonus multiplied under the plain default is caught by the
    Old Comet step check with a readable report."""

    def times_four(state: DealState, seat: int, amount: int, rule_id: str) -> tuple[Payment, ...]:
        return tuple(Payment(p, seat, amount * 4, rule_id) for p in range(state.players) if p != seat)

    monkeypatch.setattr(old, "_from_each", times_four)
    s = at(["9D", "AC 7C KC", "4C QC"], run=(7, 8), to_move=0)
    final = play(s, "play 9D as 9")
    problems = check_transition(s, parse_action("play 9D as 9"), final)
    assert any("Old Comet payments" in p for p in problems)


@pytest.mark.parametrize(("reading", "each"), [("per_king", 4), ("per_play", 1)])
def test_four_kings_at_once(reading: str, each: int) -> None:
    """RUL-OLD-KING-QUARTET (R-OLD-KING): Anna plays all four Kings on the Queen: 4 from each (per_king)
    or 1 (per_play); the step check recomputes both."""
    rules = OLD.with_overrides({"old_king_quartet": reading})
    s = at(["KC KD KH KS 2C", "AC 7C", "4C 3D"], run=(11, 12), to_move=0, rules=rules)
    act = parse_action("play KC KD KH KS")
    after = apply(s, act)
    assert after.chips() == (2 * each, -each, -each)
    assert check_transition(s, act, after) == []


@pytest.mark.parametrize("reading", ["stuck_run", "every_run_end"])
def test_last_card_of_every_run(reading: str) -> None:
    """RUL-OLD-LAST-CARD (R-OLD-LAST-CARD, R-OLD-KING, R-OLD-MANILLE-PLAY): a King earns 1 (stuck_run) or
    1 + 1 (every_run_end); the manille as a stop 10 or 11; going out 0 or 1 at once; a stuck run 1 under
    both.  The step check recomputes each."""
    rules = OLD.with_overrides({"old_last_card": reading})
    extra = 1 if reading == "every_run_end" else 0
    cases = [
        (at(["KC 7C", "2H 2C", "QS 3C"], run=(11, 12), to_move=0, rules=rules), "play KC", 1 + extra),
        (at(["9D 7C", "KH 2C", "QS 3C"], run=(3, 4), to_move=0, rules=rules), "play 9D as 5", 10 + extra),
        (at(["5C", "2H 2C", "QS 3C"], run=(3, 4), to_move=0, rules=rules), "play 5C", extra),
    ]
    for s, text, each in cases:
        after = apply(s, parse_action(text))
        assert after.chips() == (2 * each, -each, -each), text
        assert check_transition(s, parse_action(text), after) == []
    stuck = play(at(["5C 7C", "2H 2C", "QS 3C"], run=(3, 4), to_move=0, rules=rules), "play 5C", "pass", "pass", "pass")
    assert stuck.chips() == (2, -1, -1)


def test_two_to_five_players() -> None:
    """R-OLD-PLAYERS: 'Play as above' (000:21 'Players: 2–5'): Old Comet takes 2 to 5 players, under both
    deal-size readings; 6 is refused with one plain line."""
    from comet.engine import check_players

    assert old.OLD_COMET.player_counts == (2, 3, 4, 5) == old.old_player_counts()
    for rules in (OLD, OLD.with_overrides({"old_deal_sizes": "even"})):
        for n in (2, 5):
            check_players(n, rules)
        with pytest.raises(RecordError, match="2 to 5 players, not 6"):
            check_players(6, rules)


@pytest.mark.parametrize(("reading", "carried"), [("fixed", 10), ("plus_two", 12)])
def test_manille_in_the_dead_hand(reading: str, carried: int) -> None:
    """RUL-OLD-ESCALATION (R-OLD-MANILLE-PLAY): a deal whose manille lies dead carries 10 (fixed) or 12
    (plus_two, 000:55's '2 chips more') into the next deal, whose manille earns that much; the game
    economy check recomputes both, and catches a value carried wrongly."""
    import random as rnd

    from comet.checks import check_game_economy
    from comet.game import finish_deal, new_game, next_deal
    from comet.policy import random_policy

    rules = OLD.with_overrides({"old_escalation": reading})
    game = new_game(rules, 3, 3, 0)
    seed = next(s for s in range(200) if old.MANILLE in next_deal(game, s).dead)
    start = next_deal(game, seed)
    policy = random_policy(rnd.Random(1))
    final = start
    while not final.terminal:
        final = apply(final, policy(final, legal_actions(final)))
    after = finish_deal(game, final)
    assert after.comet_values == (carried,)
    assert check_game_economy(game, start, final, after) == ([], False)
    assert next_deal(after, 5).comet_value == carried
    wrong = replace(after, comet_values=(carried + 2,))
    assert any("carried on" in p for p in check_game_economy(game, start, final, wrong)[0])


# Planted bugs for the recomputations of issue 12's Old Comet readings: the model plays one reading while
# the deal's ruleset says the other; the settlement or step check must report it.
_FLIPPED_SETTLEMENT = [
    ("old_caught_double", "doubled", ["5C", "AC 7C KC", "4C QC 9D"], (3, 4), "play 5C"),
    ("old_caught_nine", "extra", ["5C", "AC 7C KC", "4C QC 9D"], (3, 4), "play 5C"),
]


@pytest.mark.parametrize(("field", "value", "hands", "run", "text"), _FLIPPED_SETTLEMENT)
def test_planted_settlement_reading_is_caught(
    monkeypatch: pytest.MonkeyPatch, field: str, value: str, hands: list[str], run: tuple[int, ...], text: str
) -> None:
    """Planted (RUL-OLD-CAUGHT-DOUBLE, RUL-OLD-CAUGHT-NINE): a settlement that always plays the other
    reading is reported under the default by the independent recomputation."""
    real = old.old_settlement

    def flipped(state: DealState) -> tuple[Payment, ...]:
        return real(replace(state, rules=state.rules.with_overrides({field: value})))

    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, settlement=flipped))
    problems, skipped = check_settlement(play(at(hands, run=run, to_move=0), text))
    assert not skipped and len(problems) == 1 and "seat 2 pays seat 0" in problems[0]


_FLIPPED_STEP = [
    ("old_king_quartet", "per_play", ["KC KD KH KS 2C", "AC 7C", "4C 3D"], (11, 12), "play KC KD KH KS"),
    ("old_last_card", "every_run_end", ["KC 7C", "2H 2C", "QS 3C"], (11, 12), "play KC"),
    ("old_bonus_last", "multiplied", ["9D", "AC 7C KC", "4C QC"], (7, 8), "play 9D as 9"),
]


@pytest.mark.parametrize(("field", "value", "hands", "run", "text"), _FLIPPED_STEP)
def test_planted_play_payment_reading_is_caught(
    monkeypatch: pytest.MonkeyPatch, field: str, value: str, hands: list[str], run: tuple[int, ...], text: str
) -> None:
    """Planted (RUL-OLD-KING-QUARTET, RUL-OLD-LAST-CARD, RUL-OLD-BONUS-LAST): play payments that always
    follow the other reading are reported under the default by the Old Comet step check."""
    real = old.old_play_payments

    def flipped(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
        return real(replace(state, rules=state.rules.with_overrides({field: value})), seat, action, out)

    monkeypatch.setitem(REGISTRY, "old_comet", replace(old.OLD_COMET, play_payments=flipped))
    s = at(hands, run=run, to_move=0)
    act = parse_action(text)
    problems = check_transition(s, act, apply(s, act))
    assert any("the Old Comet payments are" in p for p in problems)


def test_creditor_order_when_the_manille_holder_cannot_pay() -> None:
    """RUL-CREDITOR-ORDER (R-GAME-CHIPS, R-OLD-MANILLE-CAUGHT): Anna goes out; Carla, caught with the manille,
    owes Anna 23 + 10 and Ben and Dan 10 each but has 30 chips.  seat_order: Anna takes all 30;
    from_left: Dan (on Carla's left) is paid his 10 first, then Anna 20, and Ben nothing.  Under debt both orders
    pay everything."""
    from comet.game import finish_deal, new_game

    got = {}
    for insolvency in ("pay_what_you_have", "debt"):
        for order in ("seat_order", "from_left"):
            rules = OLD.with_overrides({"insolvency": insolvency, "creditor_order": order})
            s = at(["5C", "AC 7C KC", "4C QC 9D", "2S 3S"], run=(3, 4), to_move=0, rules=rules)
            final = play(s, "play 5C")
            game = replace(new_game(rules, 4, 4), balances=(50, 50, 30, 50))
            got[insolvency, order] = finish_deal(game, final).balances
    # Ben pays Anna 18, Dan 5 (2 + 3); Carla's 30 go as the reading says
    assert got["pay_what_you_have", "seat_order"] == (50 + 18 + 30 + 5, 50 - 18, 0, 50 - 5)
    assert got["pay_what_you_have", "from_left"] == (50 + 18 + 20 + 5, 50 - 18, 0, 50 + 10 - 5)
    debt = (50 + 18 + 33 + 5, 50 - 18 + 10, 30 - 53, 50 + 10 - 5)
    assert got["debt", "seat_order"] == got["debt", "from_left"] == debt


def test_creditor_order_is_recomputed_by_the_drop_out_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-CREDITOR-ORDER (R-GAME-CHIPS) under drop_out: the independent check recomputes the order; a
    planted engine that ignores from_left (pays seat 0 first) is reported with the recomputed balances."""
    from comet import game as game_module
    from comet.checks.game import chips_follow_payments
    from comet.game import finish_deal, new_game

    rules = OLD.with_overrides({"insolvency": "drop_out", "creditor_order": "from_left"})
    final = play(at(["5C", "AC 7C KC", "4C QC 9D", "2S 3S"], run=(3, 4), to_move=0, rules=rules), "play 5C")
    before = replace(new_game(rules, 4, 4), balances=(50, 50, 30, 50))
    after = finish_deal(before, final)
    assert after.out == (2,) and after.balances[3] == 50 + 10 - 5
    assert chips_follow_payments(before, final, after, after.history[-1]) == []
    monkeypatch.setattr(game_module, "creditor_order", lambda rules, pays, players: pays)
    planted = finish_deal(before, final)
    problems = chips_follow_payments(before, final, planted, planted.history[-1])
    assert problems and "differs from its payments with drop-outs" in problems[0]
