"""The fast engine (``comet.fast``) against the reference engine, deal by deal, action by action.

The differential checks replay every deal the fast engine plays through ``comet.engine.apply``
(``comet.fast.check``): same cards for a seed (R-DEAL-ORDER), the same number of legal actions
before every action (R-LEAD-ANY, R-PLAY-CONTINUE, R-PLAY-MUST, R-NEW-RUN, R-COMET-WILD,
R-FOUR-OF-A-KIND, R-STOP-STUCK), every action accepted, and the same winner, net chips and
points (R-COMET-BONUS, R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST, R-OPERA-FIRST-TURN,
R-OPERA-DRAW, R-OPERA-DOUBLE; two players: R-2P-COMET-UNPAID, R-2P-POINTS, R-2P-DOUBLING; Old Comet:
R-OLD-ACE-LOW, R-OLD-KING, R-OLD-MANILLE-PLAY, R-OLD-LAST-CARD, R-OLD-POINTS, R-OLD-SETTLE,
R-OLD-MANILLE-CAUGHT).  Planted bugs (a test-only switch in the kernel) show the check fails
with a readable message.  The kernel is compiled once per session (and cached on disk).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from comet.engine import packs_in_rotation, player_counts, shuffled_deal
from comet.fast import (
    FLAG_DRAWN,
    FLAG_OPERA,
    FLAG_OUT_ON_WILD,
    GAME_LEVEL_FIELDS,
    POLICIES,
    SUPPORTED_FIELDS,
    play_deals,
    record_batch,
    record_explicit,
    record_of,
    supported_presets,
    unsupported_reason,
)
from comet.fast.check import check_deals, check_record
from comet.fuzz import make_deal, pack_count
from comet.presets import PRESETS
from comet.records.deal_record import replay_record
from comet.ruleset import RULING_FIELDS, Ruleset, field_readings
from comet.variant import families_reading
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import deal_starts, rulesets

SUPPORTED = supported_presets()


def test_every_preset_is_supported() -> None:
    assert set(SUPPORTED) == set(PRESETS)


def test_a_game_without_a_fast_kernel_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import comet.fast.api as api

    monkeypatch.setattr(api, "fast_game", lambda variant: None)
    rules = PRESETS["commit_hoyle"].rules
    reason = unsupported_reason(rules)
    assert reason is not None and "commit_hoyle" in reason
    with pytest.raises(ValueError, match="fast engine"):
        play_deals(rules, 4, [1])


def test_a_ruling_the_fast_engine_does_not_know_is_refused_not_ignored() -> None:
    """Every field that applies to a supported game is played, or does not change a deal, or is refused."""
    for name in RULING_FIELDS:
        variants = families_reading(name)
        if name in SUPPORTED_FIELDS or name in GAME_LEVEL_FIELDS:
            continue
        readings = field_readings(name)
        for variant in variants:
            if readings is None:
                continue
            base = Ruleset(variant=variant)
            for value in readings:
                if value != getattr(base, name):
                    rules = base.with_overrides({name: value})
                    assert unsupported_reason(rules) is not None, name


@pytest.mark.parametrize("name", ["standard", "two_player", "old_comet"])
def test_a_seed_deals_the_reference_cards(name: str) -> None:
    """R-DEAL-ORDER, R-DEAL-SIZES: CPython's shuffle reproduced, both deal orders, big seeds."""
    for order in ("round_robin", "blocks"):
        rules = PRESETS[name].rules.with_overrides({"deal_order": order})
        for players in player_counts(rules):
            packs = packs_in_rotation(rules, players)
            for seed in (0, 1, 2**31, 2**32 + 7, 2**62 + 12345):
                for pack in range(len(packs)):
                    ref = shuffled_deal(rules, players, seed % players, seed, packs[pack])
                    fast = record_of(rules, players, seed, "greedy", pack_index=pack)
                    assert fast.record.hands == ref.hands and fast.record.dead == ref.dead, (name, players, seed)


@pytest.mark.parametrize("name", sorted(SUPPORTED))
@pytest.mark.parametrize("policy", POLICIES)
def test_preset_deals_replay_through_the_reference(name: str, policy: str) -> None:
    rules = PRESETS[name].rules
    for players in player_counts(rules):
        problems = check_deals(rules, players, range(25), policy)  # type: ignore[arg-type]
        assert not problems, "\n".join(str(p) for p in problems[:3])


def fast_rulesets(name: str) -> st.SearchStrategy[Ruleset]:
    """A supported preset with every field the fast engine plays drawn (others at their defaults:
    a new field stays out of this test until the kernel plays it, and is refused meanwhile)."""
    base = PRESETS[name].rules

    def keep_supported(r: Ruleset) -> Ruleset:
        return base.with_overrides({f: getattr(r, f) for f in SUPPORTED_FIELDS if getattr(r, f) != getattr(base, f)})

    return rulesets(name).map(keep_supported)


supported_rulesets = st.sampled_from(sorted(SUPPORTED)).flatmap(fast_rulesets)


@settings(max_examples=60)
@given(rules=supported_rulesets, data=st.data())
def test_random_rulings_replay_through_the_reference(rules: Ruleset, data: st.DataObject) -> None:
    """Hypothesis: random readings of every supported field, seeds, player counts, policies, packs."""
    players = data.draw(st.sampled_from(player_counts(rules)), label="players")
    policy = data.draw(st.sampled_from(POLICIES), label="policy")
    seeds = data.draw(st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=4), label="seeds")
    pack = data.draw(st.integers(0, pack_count(rules, players) - 1), label="pack")
    value = data.draw(st.one_of(st.none(), st.integers(0, 40)), label="comet_value")
    problems = check_deals(rules, players, seeds, policy, pack_index=pack, comet_value=value)
    assert not problems, "\n".join(str(p) for p in problems)


@settings(max_examples=60)
@given(start=supported_rulesets.flatmap(deal_starts), data=st.data())
def test_shaped_deals_replay_through_the_reference(start: object, data: st.DataObject) -> None:
    """Extreme hands (quartets, the Comet dead or last, one-turn outs: Opera and its draw) from
    explicit cards; the reference starts from ``explicit_deal``."""
    from comet.state import DealState

    assert isinstance(start, DealState)
    policy = data.draw(st.sampled_from(POLICIES), label="policy")
    fast = record_explicit(
        start.rules, start.players, start.dealer, start.hands, start.dead, policy, seed=7, comet_value=start.comet_value
    )
    problem = check_record(fast, start.rules)
    assert problem is None, str(problem)


def opera_deal(dealer_too: bool) -> tuple[list[list[int]], list[int]]:
    """Four players, dealer seat 0: seat 1 holds 4C..KC (out in its first turn); the dealer holds
    4S..KS (could go out as well) or, if not ``dealer_too``, the same with a hole at 7."""
    from collections import Counter

    from comet.cards import black_pack, parse_card

    first = [parse_card(f"{r}C") for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    dealer = [parse_card(f"{r}S") for r in ("4", "5", "6", "7" if dealer_too else "2", "8", "9", "10", "J", "Q", "K")]
    rest = list((Counter(black_pack().cards) - Counter(first) - Counter(dealer)).elements())
    return [dealer, first, rest[:10], rest[10:20]], rest[20:]


@pytest.mark.parametrize("stack", ["multiply", "highest"])
def test_opera_and_its_draw_are_reached_and_agree(stack: str) -> None:
    """R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-OPERA-DOUBLE: a first-turn out, drawn when the dealer could
    go out too (unless opera_draw=never); also random one-turn-out shapes."""
    for dealer_too in (True, False):
        for draw_reading in ("dealer_could", "never"):
            rules = PRESETS["opera"].rules.with_overrides({"opera_draw": draw_reading, "opera_stack": stack})
            hands, dead = opera_deal(dealer_too)
            fast = record_explicit(rules, 4, 0, hands, dead, "greedy")
            assert check_record(fast, rules) is None
            drawn = dealer_too and draw_reading == "dealer_could"
            assert fast.outcome.flags & (FLAG_DRAWN if drawn else FLAG_OPERA), (dealer_too, draw_reading)
            assert (fast.outcome.winner == -1) == drawn
    rules = PRESETS["opera"].rules
    for seed in range(30):
        players = 2 + seed % 4
        start = make_deal(rules, players, seed % players, seed, 0, 2, "one_turn_out" if seed % 3 else "comet_last", 0)
        fast = record_explicit(rules, players, start.dealer, start.hands, start.dead, "greedy", seed=seed)
        assert check_record(fast, rules) is None


def test_records_replay_and_outcomes_match_the_batch() -> None:
    rules = PRESETS["standard"].rules
    seeds = list(range(40))
    batch = play_deals(rules, 4, seeds, "random")
    records = record_batch(rules, 4, seeds, "random")
    for i, rec in enumerate(records):
        assert rec.outcome == batch.outcome(i)
        verdict = replay_record(rec.record)
        assert verdict.error is None and verdict.final.terminal
    chips = batch.chips.sum(axis=1)
    assert np.all(chips == 0)  # zero-sum (RUL-INSOLVENCY aside)
    assert np.all(batch.winner >= 0)


def test_bad_input_is_a_plain_value_error() -> None:
    rules = PRESETS["standard"].rules
    with pytest.raises(ValueError, match="policy"):
        play_deals(rules, 4, [1], "clever")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seeds"):
        play_deals(rules, 4, [-1])
    with pytest.raises(ValueError, match="dealer"):
        play_deals(rules, 4, [1, 2], dealers=[0, 9])


# --------------------------------------------------------------------- planted bugs


def test_planted_bug_going_out_on_the_comet_pays_plain_is_caught() -> None:
    """R-SETTLE-COMET-LAST broken in the kernel (test-only switch): the check names the chips."""
    rules = PRESETS["standard"].rules
    out = play_deals(rules, 4, range(3000), "hoarder")
    seeds = [int(s) for s, f in zip(out.seeds, out.flags, strict=True) if f & FLAG_OUT_ON_WILD][:5]
    assert seeds, "no deal went out on the Comet"
    assert not check_deals(rules, 4, seeds, "hoarder")
    problems = check_deals(rules, 4, seeds, "hoarder", _mutant=1)
    assert len(problems) == len(seeds)
    message = str(problems[0])
    assert "net chips per seat: reference" in message and f"seed {seeds[0]}" in message and "record:" in message


def test_planted_bug_pass_always_legal_is_caught() -> None:
    """R-PLAY-MUST broken in the kernel: a player holding the needed card may pass."""
    rules = PRESETS["standard"].rules
    problems = check_deals(rules, 4, range(10), "random", _mutant=2)
    assert problems
    first = problems[0].message
    assert "the fast engine saw" in first or "rejects it: [R-PLAY-MUST]" in first, first


def test_the_generator_is_cpythons_past_its_first_block() -> None:
    """R-DEAL-ORDER relies on it: the kernel's Mersenne Twister gives CPython's outputs, lazily for the
    first 227 draws and then by whole twists, for one- and two-word seeds."""
    import random

    from comet.fast import rng as fast_rng
    from comet.fast.api import _base_state

    seeds = np.array([0, 1, 7, 2**32 - 1, 2**32, 2**40 + 3, *range(100, 126)], dtype=np.int64)
    mts = np.zeros((624, fast_rng.LANES), np.int64)
    fast_rng.seed_lanes(mts, _base_state(), seeds)
    for lane in (0, 3, 5, 31):
        mt = np.ascontiguousarray(mts[:, lane])
        pos = np.zeros(2, np.int64)
        ours = [fast_rng._draw(mt, pos) for _ in range(1400)]
        ref = random.Random(int(seeds[lane]))
        assert ours == [ref.getrandbits(32) for _ in range(1400)], int(seeds[lane])


def test_planted_bug_going_out_ends_no_run_is_caught() -> None:
    """RUL-OLD-LAST-CARD every_run_end broken in the kernel (test-only switch 3: the last card of a hand
    earns nothing): the check names the chips."""
    rules = PRESETS["old_comet"].rules.with_overrides({"old_last_card": "every_run_end"})
    assert not check_deals(rules, 3, range(10), "random")
    problems = check_deals(rules, 3, range(10), "random", _mutant=3)
    assert problems
    assert "net chips per seat: reference" in str(problems[0]), str(problems[0])


def test_planted_bug_the_old_opera_bonus_unpaid_is_caught() -> None:
    """RUL-OLD-OPERA-BONUS doubled broken in the kernel (test-only switch 4: the Opera's extra on the
    manille never paid), on the three-player Opera deals out on the manille."""
    rules = PRESETS["old_comet"].rules.with_overrides({"opera": True, "old_opera_bonus": "doubled"})
    seeds = [13511, 14879, 27151]
    out = play_deals(rules, 3, seeds, "hoarder")
    assert all(f & FLAG_OPERA and f & FLAG_OUT_ON_WILD for f in out.flags)
    assert not check_deals(rules, 3, seeds, "hoarder")
    problems = check_deals(rules, 3, seeds, "hoarder", _mutant=4)
    assert len(problems) == len(seeds)
    assert "net chips per seat: reference" in str(problems[0]), str(problems[0])


# --------------------------------------------------------------------- sets of any size (RUL-2P-SETS)

#: two players with sets of any size, and the readings that change where a set may go down: on a lead
#: (RUL-QUARTET-LEAD), after the Comet (RUL-COMET-AFTER), with the Comet among the three 9s (RUL-COMET-QUARTET)
ANY_SETS = PRESETS["two_player"].rules.with_overrides({"two_player_sets": "any_number"})
ANY_SETS_READINGS = (
    ANY_SETS,
    ANY_SETS.with_overrides({"quartet_on_lead": True}),
    ANY_SETS.with_overrides(
        {"quartet_on_lead": True, "comet_after": "optional_restart", "comet_lead": "any_rank", "comet_as": "any_rank"}
    ),
    ANY_SETS.with_overrides({"comet_in_quartet": True, "may_stop_early": True, "new_run": "may", "opera": True}),
)


def partial_sets_played(records: tuple[object, ...]) -> int:
    """How many sets short of the whole rank ``records`` hold (two or three natural cards of one rank; the
    two-player packs hold four natural cards of a rank, three of the 9s)."""
    from comet.fast.api import FastRecord

    return sum(
        1
        for f in records
        if isinstance(f, FastRecord)
        for a in f.record.actions
        if 2 <= len(a.cards) < (3 if a.rank == 9 else 4) and not a.as_rank
    )


@pytest.mark.parametrize("rules", ANY_SETS_READINGS, ids=range(len(ANY_SETS_READINGS)))
@pytest.mark.parametrize("policy", POLICIES)
def test_sets_of_any_size_replay_through_the_reference(rules: Ruleset, policy: str) -> None:
    """RUL-2P-SETS any_number (R-FOUR-OF-A-KIND): every choice of two or more natural cards of a rank, copies of
    one card counted once, in the reference's order among the rank's other plays, from both packs (each card
    twice); the deals do put such sets down."""
    for pack in (0, 1):
        problems = check_deals(rules, 2, range(60), policy, pack_index=pack)  # type: ignore[arg-type]
        assert not problems, "\n".join(str(p) for p in problems[:3])
    assert partial_sets_played(record_batch(rules, 2, range(60), policy)) > 0  # type: ignore[arg-type]


def test_sets_of_any_size_only_where_the_family_allows_them() -> None:
    """The kernel reads RUL-2P-SETS through the family's hook (``comet.engine.any_sets``): the seeds' reading
    plays no partial set, and the engine's flag is off there."""
    from comet.fast import config as kc
    from comet.fast.api import _setup

    assert partial_sets_played(record_batch(PRESETS["two_player"].rules, 2, range(60), "greedy")) == 0
    assert _setup(PRESETS["two_player"].rules, 2, "greedy", 0, None, 0).cfg[kc.C_ANY_SETS] == 0
    assert _setup(ANY_SETS, 2, "greedy", 0, None, 0).cfg[kc.C_ANY_SETS] == 1


def test_planted_bug_no_pairs_is_caught() -> None:
    """RUL-2P-SETS any_number broken in the kernel (test-only switch 5: sets of exactly two cards are never
    offered): the check names the position, the two legal lists and the deal record; the seeds' reading,
    which has no such sets, is untouched by the switch."""
    assert not check_deals(ANY_SETS, 2, range(10), "random")
    problems = check_deals(ANY_SETS, 2, range(10), "random", _mutant=5)
    assert problems
    first = str(problems[0])
    assert "legal actions, the reference" in first and "record:" in first, first
    listed = first.split("the reference", 1)[1].split("record:", 1)[0]
    assert re.search(r"play \w+ \w+[,)]", listed), first  # the reference lists a set of two the kernel left out
    assert not check_deals(PRESETS["two_player"].rules, 2, range(10), "random", _mutant=5)
