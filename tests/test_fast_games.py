"""The fast kernels of Commit (both) and Red Nines (``comet.fast.games``) against the reference engine.

Every deal the fast engine plays is replayed through ``comet.engine`` (``comet.fast.check``): the
same cards for a seed (R-DEAL-ORDER, R-COMMIT-H-DEAL, R-COMMIT-C-DECK, R-COMMIT-C-DEAL, R-RED9-DECK,
R-RED9-DEAL), the same number of legal actions before every action (R-COMMIT-H-SUIT, R-COMMIT-H-NINE,
R-COMMIT-H-STOPS, R-COMMIT-C-LEAD, R-COMMIT-C-SUIT, R-COMMIT-C-COMET, R-RED9-RUN, R-RED9-WILD,
R-RED9-FIRST-PLAY), the same choice by the same policy, and the same winner, chips and points
(R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID, R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD,
R-COMMIT-C-KING, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT, R-RED9-SCORE, R-RED9-DOUBLE).

``COMET_FAST_CHECK_DEALS`` (default 1000) sets how many deals per preset and player count the
large replay plays; planted bugs (a test-only switch in each kernel) show the check fails readably.
"""

from __future__ import annotations

import os

import pytest
from comet.engine import packs_in_rotation, player_counts, shuffled_deal
from comet.fast import POLICIES, SUPPORTED_FIELDS, play_deals, record_explicit, record_of, unsupported_reason
from comet.fast.api import fast_game
from comet.fast.check import check_deals, check_record
from comet.fuzz import make_deal
from comet.presets import PRESETS
from comet.ruleset import Ruleset, field_readings

GAMES = ("commit_hoyle", "commit_cats", "red_nines")
DEALS = int(os.environ.get("COMET_FAST_CHECK_DEALS", "1000"))


def readings(name: str) -> list[tuple[str, object]]:
    """Every reading away from the preset's default of every field the game's kernel plays."""
    game = fast_game(name)
    assert game is not None
    base = PRESETS[name].rules
    out: list[tuple[str, object]] = []
    for field in game.fields:
        values = field_readings(field) or (0, 3, 7)
        out += [(field, v) for v in values if v != getattr(base, field)]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_the_game_is_played_and_its_fields_are_supported(name: str) -> None:
    game = fast_game(name)
    assert game is not None and unsupported_reason(PRESETS[name].rules) is None
    assert set(game.fields) <= set(SUPPORTED_FIELDS)


@pytest.mark.parametrize("name", GAMES)
def test_a_seed_deals_the_reference_cards(name: str) -> None:
    """R-DEAL-ORDER and the game's deck and deal sizes: both deal orders, every pack in rotation, big seeds."""
    # 002's Commit deals one card at a time (002:42): RUL-DEAL-ORDER is fixed there (``Variant.fixed``)
    for order in ("round_robin",) if name == "commit_cats" else ("round_robin", "blocks"):
        rules = PRESETS[name].rules.with_overrides({"deal_order": order})
        if name == "commit_cats":
            rules = rules.with_overrides({"commit_removed": "any"})  # RUL-COMMIT-C-REMOVED: every deck
        for players in player_counts(rules):
            packs = packs_in_rotation(rules, players)
            for seed in (0, 1, 2**31, 2**32 + 7, 2**62 + 12345):
                for pack in {0, len(packs) // 2, len(packs) - 1}:
                    ref = shuffled_deal(rules, players, seed % players, seed, packs[pack])
                    fast = record_of(rules, players, seed, "greedy", pack_index=pack)
                    assert fast.record.hands == ref.hands and fast.record.dead == ref.dead, (players, seed, pack)


@pytest.mark.parametrize("name", GAMES)
def test_thousands_of_deals_per_player_count_replay_through_the_reference(name: str) -> None:
    """``DEALS`` deals per player count, a quarter per policy, replayed action for action."""
    rules = PRESETS[name].rules
    per_policy = max(1, DEALS // len(POLICIES))
    for players in player_counts(rules):
        for i, policy in enumerate(POLICIES):
            seeds = range(10**9 * (i + 1), 10**9 * (i + 1) + per_policy)
            problems = check_deals(rules, players, seeds, policy)
            assert not problems, "\n".join(str(p) for p in problems[:3])


@pytest.mark.parametrize("name", GAMES)
def test_every_reading_of_every_ruling_replays_through_the_reference(name: str) -> None:
    """Each reading away from the default, at every player count, every policy (RUL-COMMIT-H-*,
    RUL-COMMIT-C-*, RUL-RED9-*, RUL-CATS-NEW-RUN, RUL-DEAL-ORDER)."""
    base = PRESETS[name].rules
    for field, value in readings(name):
        rules = base.with_overrides({field: value})
        for players in player_counts(rules):
            for policy in POLICIES:
                packs = len(packs_in_rotation(rules, players))
                problems = check_deals(rules, players, range(6), policy, pack_index=players % packs)
                assert not problems, f"{field}={value}: " + "\n".join(str(p) for p in problems[:2])


@pytest.mark.parametrize("name", GAMES)
def test_shaped_deals_replay_through_the_reference(name: str) -> None:
    """Extreme hands (the wild card dead or last, one-turn outs...) from explicit cards."""
    from comet.fuzz import EXTREMES

    base = PRESETS[name].rules
    for i, kind in enumerate(sorted(EXTREMES)):
        for players in player_counts(base):
            start = make_deal(base, players, i % players, 1000 + i, 0, 2, kind, players - 1)
            policy = POLICIES[(i + players) % len(POLICIES)]
            fast = record_explicit(base, players, start.dealer, start.hands, start.dead, policy, seed=i)
            problem = check_record(fast, base)
            assert problem is None, f"{kind}: {problem}"


def test_a_ruling_away_from_its_default_that_no_kernel_plays_is_refused() -> None:
    """A field outside the game's ``FIELDS`` is refused, not ignored (here: a stubbed game playing none)."""
    from dataclasses import replace

    import comet.fast.api as api

    game = fast_game("red_nines")
    assert game is not None
    rules = PRESETS["red_nines"].rules.with_overrides({"red_nines_king": "suit_king"})
    stub = replace(game, fields=())
    original = api.fast_game
    try:
        api.fast_game = lambda variant: stub  # type: ignore[assignment]
        reason = unsupported_reason(rules)
    finally:
        api.fast_game = original
    assert reason is not None and "red_nines_king" in reason


def test_bad_input_is_a_plain_value_error() -> None:
    with pytest.raises(ValueError, match="commit_stake"):
        play_deals(Ruleset(variant="commit_hoyle", commit_stake=-1), 4, [1])
    with pytest.raises(ValueError, match="policy"):
        play_deals(PRESETS["red_nines"].rules, 4, [1], "clever")  # type: ignore[arg-type]


# --------------------------------------------------------------------- planted bugs


def test_planted_bug_kings_left_in_hand_cost_nothing_in_commit_is_caught() -> None:
    """R-COMMIT-H-KINGS-HELD broken in the Commit kernel: the check names the chips per seat."""
    rules = PRESETS["commit_hoyle"].rules
    assert not check_deals(rules, 4, range(20), "random")
    problems = check_deals(rules, 4, range(20), "random", _mutant=1)
    assert problems
    message = str(problems[0])
    assert "net chips per seat: reference" in message and "commit_hoyle" in message and "record:" in message


def test_planted_bug_the_winners_own_point_is_lost_in_cats_commit_is_caught() -> None:
    """R-COMMIT-C-OUT broken in the CatsAtCards kernel: every deal's points differ, and the check says so."""
    rules = PRESETS["commit_cats"].rules
    problems = check_deals(rules, 4, range(10), "greedy", _mutant=1)
    assert len(problems) == 10
    assert "points per seat: reference" in problems[0].message


def test_planted_bug_any_card_may_lead_in_cats_commit_is_caught() -> None:
    """R-COMMIT-C-LEAD broken in the CatsAtCards kernel: the legal actions differ at a lead."""
    rules = PRESETS["commit_cats"].rules
    problems = check_deals(rules, 4, range(10), "random", _mutant=2)
    assert problems
    first = problems[0].message
    assert "the fast engine saw" in first or "rejects it: [R-COMMIT-C-LEAD]" in first, first


def test_planted_bug_a_red_nine_held_doubles_nothing_is_caught() -> None:
    """R-RED9-DOUBLE broken in the Red Nines kernel."""
    rules = PRESETS["red_nines"].rules
    problems = check_deals(rules, 4, range(40), "hoarder", _mutant=1)
    assert problems
    assert "points per seat: reference" in problems[0].message and "red_nines" in problems[0].message
