"""The Opera option: R-OPERA-FIRST-TURN, R-OPERA-DOUBLE, R-OPERA-DRAW (000:83, 002:31, 003:83)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from builders import cards, plant_option_hooks
from comet.engine import apply, explicit_deal, returns, settlement
from comet.game import play_deal
from comet.games.opera import rules as opera
from comet.notation import narrate, parse_action
from comet.presets import PRESETS
from comet.ruleset import Ruleset
from comet.state import DealState

OPERA = PRESETS["opera"].rules

# Two players, black pack; Ben (seat 1) deals, Anna (seat 0) has the first turn.
ANNA_OUT = "2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 9C 10C JC QC KC"
BEN_COULD = "2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S 7S 8S 9S 10S JS QS KS"
DEAD_COULD = "8C 8S 9S 9D 10C 10S JC JS QC QS KC KS"
BEN_STUCK = "2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S 7S 8S 9S 10S JS QS JC"  # no King: 2..Q and 2..7 both stick
DEAD_STUCK = "8C 8S 9S 9D 10C 10S KS JS QC QS KC KS"
BEN_POINTS = 2 * (2 + 3 + 4 + 5 + 6 + 7) + 8 + 9 + 10 + 10 + 10 + 10  # = 111 in either hand


def two_player(rules: Ruleset, ben: str, dead: str) -> DealState:
    return explicit_deal(rules, 2, 1, [cards(ANNA_OUT), cards(ben)], cards(dead))


def expected_payment(points: int, caught: bool, last_wild_as: int, opera_on: bool, stack: str = "multiply") -> int:
    """The seeds' figures, independently of the engine: 000:61-64 and 000:83 / 002:31."""
    comet_last = 1 if not last_wild_as else (4 if last_wild_as == 9 else 2)
    mult = (comet_last * 2 if stack == "multiply" else max(comet_last, 2)) if opera_on else comet_last
    return points * (2 if caught else 1) * mult


def opera_problems(final: DealState, opera_on: bool, stack: str = "multiply") -> list[str]:
    problems = []
    for p in settlement(final):
        hand = final.hands[p.payer]
        points = sum(min(c >> 2, 10) for c in hand)
        want = expected_payment(points, any(c in final.wild for c in hand), final.out_wild_as, opera_on, stack)
        if p.amount != want:
            problems.append(f"seat {p.payer} pays {p.amount}, the sources ask {want} (points {points})")
    return problems


def test_opera_first_turn_doubles_two_players() -> None:
    """R-OPERA-FIRST-TURN R-OPERA-DOUBLE: Anna plays out 18 cards in her first turn; Ben pays double (2 x 111)."""
    start = two_player(replace(OPERA, opera_draw="never"), BEN_COULD, DEAD_COULD)
    final, actions = play_deal(start)
    assert final.winner == 0 and final.turn == 0 and all(not a.is_pass for a in actions)
    assert opera.is_opera(final)
    assert returns(final) == (2 * BEN_POINTS, -2 * BEN_POINTS)
    assert opera_problems(final, True) == []


def test_without_opera_the_same_deal_pays_single() -> None:
    """R-OPERA-FIRST-TURN: the option off, the standard settlement (000:61) applies."""
    final, _ = play_deal(two_player(Ruleset(), BEN_COULD, DEAD_COULD))
    assert not opera.is_opera(final)
    assert returns(final) == (BEN_POINTS, -BEN_POINTS)


def test_opera_is_drawn_when_the_dealer_could_also_go_out() -> None:
    """R-OPERA-DRAW: Ben's hand would also play out at once, so nobody pays (RUL-OPERA-DRAW)."""
    start = two_player(OPERA, BEN_COULD, DEAD_COULD)
    assert opera.dealer_could_go_out(start)
    final, actions = play_deal(start)
    assert final.drawn and final.terminal and final.winner == -1
    assert settlement(final) == () and returns(final) == (0, 0)
    assert any("drawn" in line for line in narrate(start, actions))


def test_opera_not_drawn_when_the_dealer_is_stuck() -> None:
    """R-OPERA-DRAW R-OPERA-DOUBLE: with no King Ben cannot go out at once, so the Opera pays double."""
    start = two_player(OPERA, BEN_STUCK, DEAD_STUCK)
    assert not opera.dealer_could_go_out(start)
    final, _ = play_deal(start)
    assert not final.drawn and returns(final) == (2 * BEN_POINTS, -2 * BEN_POINTS)


def test_dealer_could_use_the_comet() -> None:
    """R-OPERA-DRAW: a hand whose only gap is filled by the Comet could go out at once."""
    ben = "2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S 9D 8S 9S 10S JS QS KS"  # one 7 missing: the Comet plays it
    dead = "8C 8S 9S 7S 10C 10S JC JS QC QS KC KS"
    assert opera.dealer_could_go_out(two_player(OPERA, ben, dead))


# Five players: Anna leads the King, plays 2..8 and goes out with the Comet as the 9.
FIVE = [
    "KC 2C 3C 4C 5C 6C 7C 8C 9D",
    "2C 3C 4C 5C 6C 7C 8C 9C 10C",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S",
    "2S 3S 4S 5S 6S 7S 8S 9S 10C",
    "10S JC JC JS JS QC QC QS KC",
]
FIVE_DEAD = "QS KS KS"
ANNA_PLAYS = ["play KC", *(f"play {r}C" for r in range(2, 9)), "play 9D as 9"]


@pytest.mark.parametrize(("stack", "mult"), [("multiply", 8), ("highest", 4)])
def test_opera_with_the_comet_as_a_nine_stacks(stack: str, mult: int) -> None:
    """R-OPERA-DOUBLE: 002:31 doubles again for the Comet and yet again for a 9: x8 (RUL-OPERA-STACK)."""
    rules = replace(OPERA, opera_stack=stack)  # type: ignore[arg-type]
    s = explicit_deal(rules, 5, 4, [cards(h) for h in FIVE], cards(FIVE_DEAD))
    for text in ANNA_PLAYS:
        s = apply(s, parse_action(text))
    assert s.winner == 0 and s.out_wild_as == 9 and s.turn == 0
    pays = {p.payer: p.amount for p in settlement(s)}
    assert pays == {1: 54 * mult, 2: 54 * mult, 3: 54 * mult, 4: 90 * mult}
    assert opera_problems(s, True, stack) == []


def test_going_out_after_a_pass_is_no_opera() -> None:
    """R-OPERA-FIRST-TURN: once anyone has passed, going out is an ordinary win."""
    start = two_player(OPERA, BEN_COULD, DEAD_COULD)
    final, _ = play_deal(replace(start, rules=replace(OPERA, opera_draw="never")))
    later = replace(final, turn=1)
    assert not opera.is_opera(later)
    assert opera.opera_multiplier(later, 1) == 1


def test_a_broken_opera_hook_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: an Opera multiplier that forgets to double is reported against the sources' figures."""
    plant_option_hooks(monkeypatch, "opera", out_multiplier=lambda state, out_mult: out_mult)
    start = two_player(replace(OPERA, opera_draw="never"), BEN_COULD, DEAD_COULD)
    final, _ = play_deal(start)
    assert opera_problems(final, True) == ["seat 1 pays 111, the sources ask 222 (points 111)"]


def test_a_broken_draw_search_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a dealer search that never finds a way out turns the drawn deal into a paid one."""
    monkeypatch.setattr(opera, "dealer_could_go_out", lambda state: False)
    final, _ = play_deal(two_player(OPERA, BEN_COULD, DEAD_COULD))
    assert not final.drawn and returns(final) != (0, 0)


def test_rul_opera_players_every_count(capsys: pytest.CaptureFixture[str]) -> None:
    """RUL-OPERA-PLAYERS (R-OPERA-DOUBLE): "works best with two" is advice; the Opera is dealt and played at
    every player count of its game, and the command deals one for four."""
    from comet.cli import main
    from comet.engine import check_players, shuffled_deal
    from comet.variant import variant_of

    for n in variant_of(OPERA).player_counts:
        check_players(n, OPERA)
        final, _ = play_deal(shuffled_deal(OPERA, n, 0, n + 1))
        assert final.terminal
    assert main(["deal", "--preset", "opera", "--players", "4"]) == 0
    assert "Traceback" not in capsys.readouterr().err
