"""The variant framework: registry, dispatch of hooks, standard game unchanged, generic checks."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest
from comet.cards import Pack, card, full_deck
from comet.checks.play import check_game, play_checked
from comet.engine import (
    apply,
    check_players,
    deal_sizes,
    explicit_deal,
    legal_actions,
    packs_in_rotation,
    returns,
    shuffled_deal,
)
from comet.errors import RecordError
from comet.game import finish_deal, new_game, next_deal, play_deal
from comet.policy import random_policy, simple_policy
from comet.presets import PRESETS
from comet.ruleset import Ruleset
from comet.state import Action, DealState, Payment
from comet.variant import REGISTRY, Variant, variant_named, variant_of

HOOKS = [f.name for f in fields(Variant) if f.type.startswith("Callable")]


def test_standard_variant_leaves_every_hook_to_the_engine() -> None:
    """R-PLAYERS R-RANK-ORDER: the standard game is the engine's own code, hook by hook."""
    v = variant_of(Ruleset())
    assert v.name == "standard"
    assert HOOKS, "Variant has hooks"
    assert [h for h in HOOKS if getattr(v, h) is not None] == []
    assert v.player_counts == (2, 3, 4, 5) and v.lowest_rank == 2 and v.comet_value == 2


def test_unknown_variant_is_a_plain_error() -> None:
    with pytest.raises(ValueError, match="not implemented"):
        variant_named("no_such_game")


def test_every_preset_names_a_registered_variant_with_invariant_kinds() -> None:
    for name, p in PRESETS.items():
        assert p.name == name
        assert p.variant.name == p.rules.variant
        assert "card_conservation" in p.invariants and "termination" in p.invariants
        kind = "chips_zero_sum" if p.scoring == "chips" else "points_non_negative"
        assert kind in p.invariants


# --------------------------------------------------------------------- a toy variant exercises every dispatch point


def _toy_packs(rules: Ruleset, players: int | None) -> tuple[Pack, ...]:
    return (full_deck("toy", (card(9, 1),)),)


def _toy_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    return 5, pack_size - 5 * players


def _toy_play_payments(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
    return tuple(Payment(p, seat, 1, "R-TOY") for p in range(state.players) if p != seat)


TOY = Variant(
    name="old_comet",
    player_counts=(2, 3, 6),
    lowest_rank=1,
    comet_value=7,
    comet_escalates=False,
    packs=_toy_packs,
    deal_sizes=_toy_sizes,
    play_payments=_toy_play_payments,
)
TOY_RULES = Ruleset(variant="old_comet")


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Variant:
    monkeypatch.setitem(REGISTRY, "old_comet", TOY)
    return TOY


def test_hooks_drive_players_packs_sizes_and_payments(toy: Variant) -> None:
    check_players(6, TOY_RULES)
    with pytest.raises(RecordError, match="not 4"):
        check_players(4, TOY_RULES)
    assert [p.name for p in packs_in_rotation(TOY_RULES, 3)] == ["toy"]
    assert deal_sizes(TOY_RULES, 3, 52) == (5, 37)
    s = shuffled_deal(TOY_RULES, 3, 2, seed=1)
    assert s.pack == "toy" and [len(h) for h in s.hands] == [5, 5, 5] and len(s.dead) == 37
    assert s.comet_value == 7
    # Ace low: an Ace may start a run, and a wild card led may stand for an Ace where a led wild card may
    # name any rank (RUL-COMET-LEAD = any_rank; by default it stands for the King, which continues nothing).
    any_rank = replace(TOY_RULES, comet_lead="any_rank")
    lead = replace(s, rules=any_rank, hands=((card(9, 1),), *s.hands[1:]), to_move=0)
    wilds = [a for a in legal_actions(lead) if a.as_rank]
    assert min(a.as_rank for a in wilds) == 1
    king_lead = replace(lead, rules=TOY_RULES)
    assert {a.as_rank for a in legal_actions(king_lead) if a.as_rank} == {13}
    first = legal_actions(s)[0]
    after = apply(s, first)
    assert after.chips()[s.to_move] == 2  # one chip from each of the two others, by the toy hook


def test_explicit_deal_is_variant_aware(toy: Variant) -> None:
    deck = list(full_deck().cards)
    hands = [deck[0:5], deck[5:10], deck[10:15]]
    s = explicit_deal(TOY_RULES, 3, 0, hands, deck[15:])
    assert s.pack == "toy"
    with pytest.raises(RecordError, match="toy pack"):
        explicit_deal(TOY_RULES, 3, 0, hands, deck[16:])
    with pytest.raises(RecordError, match="seat 0 holds 6"):
        explicit_deal(TOY_RULES, 3, 0, [deck[0:6], deck[6:10], deck[10:15]], deck[15:])


def test_game_uses_variant_comet_value_without_escalation(toy: Variant) -> None:
    g = new_game(TOY_RULES, 3, 3)
    for i in range(3):
        final, _ = play_deal(next_deal(g, i))
        assert final.comet_value == 7
        g = finish_deal(g, final)
    assert g.comet_values == (7,)


# --------------------------------------------------------------------- standard game unchanged


def test_standard_game_results_are_unchanged() -> None:
    """R-SETTLE-POINTS R-COMET-BONUS: a fixed seeded standard deal gives the chips it gave before the framework."""
    s = shuffled_deal(Ruleset(), 3, 2, 7)
    while not s.terminal:
        s = apply(s, legal_actions(s)[-1])
    assert returns(s) == (8, -4, -4)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_checked_deals_and_games(name: str) -> None:
    """R-END-OUT: every preset's deals keep cards, always offer an action, end, and balance."""
    p = PRESETS[name]
    for seed in range(4):
        players = p.variant.player_counts[seed % len(p.variant.player_counts)]
        start = shuffled_deal(p.rules, players, 0, seed)
        _, _, problems = play_checked(start, random_policy(random.Random(seed)))
        assert problems == []
        _, problems = check_game(p.rules, players, seed, deals=None if p.variant.game_end == "target" else players)
        assert problems == []


def test_checks_catch_a_hook_that_deadlocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a legal_actions hook that offers nothing once a card is played is reported."""

    def broken(state: DealState) -> tuple[Action, ...]:
        if state.played:
            return ()
        return legal_actions(replace(state, rules=Ruleset()))

    monkeypatch.setitem(REGISTRY, "two_player", Variant(name="two_player", legal_actions=broken))
    start = shuffled_deal(Ruleset(variant="two_player"), 3, 2, 5)
    _, actions, problems = play_checked(start, simple_policy)
    assert len(actions) == 1
    assert problems and "no legal action for seat" in problems[0]


def test_checks_catch_negative_deal_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a points hook that scores a seat below zero is reported."""
    monkeypatch.setitem(
        REGISTRY,
        "two_player",
        Variant(name="two_player", scoring="points", points_of_deal=lambda s: (-1,) + (0,) * (s.players - 1)),
    )
    _, _, problems = play_checked(shuffled_deal(Ruleset(variant="two_player"), 3, 2, 5), simple_policy)
    assert any("non-negative" in p and "(-1, 0, 0)" in p for p in problems), problems
