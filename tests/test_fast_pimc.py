"""The PIMC player on the fast engine (``comet.fast.pimc``) is the reference player (``comet.diverge.pimc``)
compiled: the same sampled worlds, roll-outs and ties, so the same choice at every position and the same
deals, the same strength figures; it keeps the coupled-play rules (a choice depends on the options offered,
not on their number) and never reads a hidden card.  Cites R-DEAL (the hidden hands it samples) and
R-PLAY-CONTINUE (the options it chooses among)."""

from __future__ import annotations

import random

import numpy as np
from comet.diverge.choices import option_key
from comet.diverge.pimc import Pimc, determinize
from comet.diverge.strength import fast_strength, strength
from comet.engine import apply, legal_actions, shuffled_deal
from comet.fast import config as kc
from comet.fast import kernel as k
from comet.fast import moves as fast_moves
from comet.fast import rng as fast_rng
from comet.fast.api import _base_state, _setup, action_of
from comet.fast.pimc import determinize as fast_determinize
from comet.fast.pimc import pimc_choice, pimc_seed, play_pimc
from comet.presets import preset
from comet.ruleset import Ruleset
from comet.state import DealState
from comet.variant import variant_of
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rulesets

GAMES = [("standard", 3), ("two_player", 2), ("opera", 3), ("old_comet", 4)]


def arrays_of(s: DealState) -> tuple[np.ndarray, ...]:
    """The kernel's arrays for a reference position: cnt, nat, size, dead, st, chips."""
    wild = s.wild[0]
    cnt = np.zeros((s.players, 56), np.int8)
    nat = np.zeros((s.players, 14), np.int8)
    for seat, hand in enumerate(s.hands):
        for c in hand:
            cnt[seat, c] += 1
            if c != wild:
                nat[seat, c >> 2] += 1
    size = np.array([len(h) for h in s.hands], np.int64)
    dead = np.zeros(56, np.int64)
    for c in s.dead:
        dead[c] += 1
    st = np.zeros(k.ST_SIZE, np.int64)
    st[k.S_TO_MOVE] = s.to_move
    st[k.S_RUN_TOP] = s.run[-1] if s.run else 0
    st[k.S_TURN_PLAYED] = int(s.turn_played)
    st[k.S_LAST] = s.last_player
    st[k.S_TURN] = s.turn
    st[k.S_STEPS] = s.steps
    st[k.S_WINNER] = s.winner
    st[k.S_WILD_AS] = s.out_wild_as
    st[k.S_DRAWN] = int(s.drawn)
    st[k.S_FREE_LEAD] = int(s.free_lead)
    st[k.S_DEALER] = s.dealer
    return cnt, nat, size, dead, st, np.array(s.chips(), np.int64)


def fast_choice(rules: Ruleset, s: DealState, seed: int, samples: int) -> tuple[int, int]:
    """The fast player's choice at a reference position (its option key) and the number of options."""
    setup = _setup(rules, s.players, "greedy", 0, None, 0)
    rcfg = setup.cfg.copy()
    rcfg[kc.H_POLICY] = kc.POLICY_GREEDY
    cnt, nat, size, dead, st, chips = arrays_of(s)
    acts = np.zeros(kc.MAX_ACTS, np.int64)
    n = fast_moves.legal(
        setup.cfg, setup.packnat, setup.packcnt, cnt, nat, s.to_move, int(st[k.S_RUN_TOP]), int(st[k.S_TURN_PLAYED]),
        int(st[k.S_FREE_LEAD]), s.last_player, acts,
    )  # fmt: skip
    points = variant_of(rules).scoring == "points"
    a = pimc_choice(
        setup.cfg, rcfg, setup.packnat, setup.packcnt, _base_state(), cnt, nat, size, dead, st, chips, acts, n, seed,
        samples, points,
    )  # fmt: skip
    return option_key(action_of(a, setup.pack)), n


def positions(rules: Ruleset, players: int, seeds: range) -> list[tuple[int, DealState]]:
    """Real positions with a choice, from seeded deals played a few greedy-ish steps in."""
    out = []
    for seed in seeds:
        s = shuffled_deal(rules, players, seed % players, seed)
        for _ in range(3 * (seed % 5)):
            if s.terminal:
                break
            s = apply(s, legal_actions(s)[-1])
        if not s.terminal and len(legal_actions(s)) > 1:
            out.append((seed, s))
    return out


def test_the_sampled_worlds_are_the_reference_ones() -> None:
    """The building block: the same generator seed deals the unseen cards back exactly as the reference's
    ``determinize`` (same hands, same order of draws over several samples)."""
    checked = 0
    for name, players in GAMES:
        rules = preset(name).rules
        for seed, s in positions(rules, players, range(8)):
            cnt, nat, size, dead, *_ = arrays_of(s)
            seat = s.to_move
            rng = random.Random(pimc_seed(seed, s.steps, seat))
            mts = np.zeros((624, 1), np.int64)
            fast_rng.seed_lanes(mts, _base_state(), np.array([pimc_seed(seed, s.steps, seat)], np.int64))
            mt, pos = mts[:, 0].copy(), np.zeros(2, np.int64)
            cards = np.zeros(80, np.int64)
            wcnt, wnat = np.zeros_like(cnt), np.zeros_like(nat)
            for _ in range(3):
                world = determinize(s, seat, rng)
                fast_determinize(k_cfg(rules, players), cnt, nat, size, dead, seat, mt, pos, cards, wcnt, wnat)
                for p in range(players):
                    assert sorted(np.repeat(np.arange(56), wcnt[p]).tolist()) == sorted(world.hands[p])
                checked += 1
    assert checked >= 30


def k_cfg(rules: Ruleset, players: int) -> np.ndarray:
    return _setup(rules, players, "greedy", 0, None, 0).cfg


def test_every_choice_is_the_reference_players() -> None:
    """At real positions of every game the fast engine's PIMC plays, and under other readings, the fast
    player picks the reference player's option (two samples, to keep the reference affordable)."""
    checked = 0
    rule_sets = [(preset(n).rules, p) for n, p in GAMES]
    base = preset("standard").rules
    rule_sets += [(base.with_overrides({"may_stop_early": True, "comet_after": "optional_restart"}), 4)]
    for rules, players in rule_sets:
        for seed, s in positions(rules, players, range(6)):
            ref = Pimc(seed, samples=2)(s, legal_actions(s))
            got, n = fast_choice(rules, s, seed, 2)
            assert n == len(legal_actions(s))
            assert got == option_key(ref), (rules.variant, seed, s.steps)
            checked += 1
    assert checked >= 15


def test_whole_deals_are_the_reference_players() -> None:
    """Deals played by PIMC in every seat: the same actions as the reference player, deal by deal."""
    rules = preset("standard").rules
    out = play_pimc(rules, 3, range(2), samples=2, record=True)
    pack = _setup(rules, 3, "greedy", 0, None, 0).pack
    for d, seed in enumerate(range(2)):
        s = shuffled_deal(rules, 3, seed % 3, seed)
        me = Pimc(seed, 2)
        ref = []
        while not s.terminal:
            a = me(s, legal_actions(s))
            ref.append(option_key(a))
            s = apply(s, a)
        fast = [option_key(action_of(int(a), pack)) for a in out.actions[d, : out.steps[d]]]
        assert fast == ref
    # planted: a different number of samples is a different player, and the comparison sees it
    other = play_pimc(rules, 3, range(6), samples=1, record=True)
    again = play_pimc(rules, 3, range(6), samples=2, record=True)
    assert not np.array_equal(other.actions, again.actions)


#: games with a kernel of their own (``comet.fast.games``), each with its PIMC player, and readings away from
#: the preset's defaults that change what the player faces
OWN_KERNELS: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("commit_hoyle", 4, {}),
    ("commit_hoyle", 3, {"commit_rest": "stop_cards", "commit_nine_lead": "last_resort"}),
    ("commit_cats", 4, {}),
    ("commit_cats", 5, {"commit_comet": "stop", "cats_new_run": "may"}),
    ("red_nines", 4, {}),
    ("red_nines", 5, {"red_nines_continue": "may", "red_nines_first": "all"}),
)


def reference_deal(rules: Ruleset, players: int, seed: int, samples: int) -> list[int]:
    """Deal ``seed`` played by the reference PIMC player in every seat: the option keys of its actions."""
    s = shuffled_deal(rules, players, seed % players, seed)
    me = Pimc(seed, samples)
    out = []
    while not s.terminal:
        a = me(s, legal_actions(s))
        out.append(option_key(a))
        s = apply(s, a)
    return out


def test_own_kernels_play_the_reference_players_deals() -> None:
    """Commit (both) and Red Nines (R-COMMIT-H-SUIT, R-COMMIT-C-SUIT, R-RED9-RUN), each game's kernel with its
    own PIMC player (``pimc_batch``): deals played by PIMC in every seat take the reference player's every
    action, under the preset's readings and others, at several player counts."""
    from comet.fast.api import cs_action_of

    for name, players, overrides in OWN_KERNELS:
        rules = preset(name).rules.with_overrides(overrides)
        seeds = [3, 8]
        out = play_pimc(rules, players, seeds, samples=2, record=True)
        for d, seed in enumerate(seeds):
            fast = [option_key(cs_action_of(int(a))) for a in out.actions[d, : out.steps[d]]]
            assert fast == reference_deal(rules, players, seed, 2), (name, players, overrides, seed)
    # planted: another number of samples is another player, and these deals tell them apart
    rules = preset("commit_cats").rules
    one = play_pimc(rules, 4, range(6), samples=1, record=True)
    two = play_pimc(rules, 4, range(6), samples=2, record=True)
    assert not np.array_equal(one.actions, two.actions)


#: two players with sets of any size (RUL-2P-SETS any_number), and with sets on a lead too (RUL-QUARTET-LEAD)
ANY_SETS = preset("two_player").rules.with_overrides({"two_player_sets": "any_number"})
ANY_SETS_READINGS = (ANY_SETS, ANY_SETS.with_overrides({"quartet_on_lead": True}))


def is_partial_set(a: object) -> bool:
    from comet.state import Action

    """A set short of the whole rank (the two-player packs hold four natural cards of a rank, three of the 9s)."""
    return isinstance(a, Action) and 2 <= len(a.cards) < (3 if a.rank == 9 else 4) and not a.as_rank


def test_sets_of_any_size_every_choice_is_the_reference_players() -> None:
    """RUL-2P-SETS any_number (R-FOUR-OF-A-KIND): at real two-player positions, many of them offering sets
    short of the whole rank, the fast player picks the reference player's option among the same options."""
    checked = offered = 0
    for rules in ANY_SETS_READINGS:
        for seed, s in positions(rules, 2, range(12)):
            legal = legal_actions(s)
            ref = Pimc(seed, samples=2)(s, legal)
            got, n = fast_choice(rules, s, seed, 2)
            assert n == len(legal)
            assert got == option_key(ref), (rules.quartet_on_lead, seed, s.steps)
            checked += 1
            offered += any(is_partial_set(a) for a in legal)
    assert checked >= 15 and offered >= 3, (checked, offered)


def test_sets_of_any_size_whole_deals_are_the_reference_players() -> None:
    """Deals played by PIMC in both seats under RUL-2P-SETS any_number: the reference player's every action,
    sets of two or three cards among them; a player with another number of samples is told apart."""
    seeds = [1, 4]
    out = play_pimc(ANY_SETS, 2, seeds, samples=2, record=True)
    pack = _setup(ANY_SETS, 2, "greedy", 0, None, 0).pack
    sets_played = 0
    for d, seed in enumerate(seeds):
        actions = [action_of(int(a), pack) for a in out.actions[d, : out.steps[d]]]
        assert [option_key(a) for a in actions] == reference_deal(ANY_SETS, 2, seed, 2), seed
        sets_played += sum(1 for a in actions if is_partial_set(a))
    assert sets_played > 0
    other = play_pimc(ANY_SETS, 2, seeds, samples=1, record=True)
    assert not np.array_equal(other.actions, out.actions)


def test_strength_is_the_same_on_both_engines() -> None:
    """``strength`` (PIMC in one seat moving round the table) gives the same integers on either engine, in
    the standard kernel's game and in the games with kernels of their own."""
    for opponent in ("greedy", "hoarder"):
        assert fast_strength("standard", 3, 6, opponent, samples=2) == strength(
            "standard", 3, 6, opponent, samples=2, engine="reference"
        )
    for name, opponent in (("commit_hoyle", "random"), ("commit_cats", "hoarder"), ("red_nines", "greedy")):
        assert fast_strength(name, 4, 4, opponent, samples=2) == strength(
            name, 4, 4, opponent, samples=2, engine="reference"
        ), name


def test_same_options_same_choice_and_no_peeking() -> None:
    """Coupled play holds for PIMC as for the fixed policies: removing options it did not choose leaves its
    choice alone (each option's total does not depend on the others, ties go by priority); and dealing the
    hidden cards afresh among the other hands leaves its choice alone (it reads only what its seat knows)."""
    rules = preset("standard").rules
    rng = random.Random(5)
    kept_checks = peek_checks = 0
    for seed, s in positions(rules, 4, range(24)):
        legal = legal_actions(s)
        me = Pimc(seed, samples=2)
        a = me(s, legal)
        if len(legal) > 2:
            others = [x for x in legal if x != a]
            kept = sorted([a, *rng.sample(others, rng.randrange(1, len(others)))])
            assert me(s, kept) == a
            kept_checks += 1
        shuffled = determinize(s, s.to_move, rng)
        if shuffled.hands != s.hands:
            assert fast_choice(rules, shuffled, seed, 2)[0] == fast_choice(rules, s, seed, 2)[0]
            peek_checks += 1
    assert kept_checks >= 3 and peek_checks >= 10


def test_the_impact_study_measures_pimc_alike_on_both_engines() -> None:
    """The paired sums of PIMC deals (every seat PIMC, as the study plays it) are the same integers from the
    fast engine and from the reference engine, and the study says which engine played PIMC."""
    from comet.diverge.pairs import pairs_for
    from comet.diverge.study import measure_pair

    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    fast = measure_pair(pair, 3, 0, 0, (), "fast", extra=(("pimc", 3),))
    ref = measure_pair(pair, 3, 0, 0, (), "reference", extra=(("pimc", 3),))
    assert fast.deals == ref.deals and fast.deals["pimc"].deals == 3
    assert (fast.engine, fast.pimc_engine, ref.pimc_engine) == ("fast", "fast", "reference")
    # sets of any size (RUL-2P-SETS): the fast engine plays both readings now, PIMC included, and alike
    sets = next(p for p in pairs_for("two_player_sets", ["two_player"]) if p.value_b == "any_number")
    fast = measure_pair(sets, 2, 0, 0, (), "auto", extra=(("pimc", 2),))
    ref = measure_pair(sets, 2, 0, 0, (), "reference", extra=(("pimc", 2),))
    assert fast.deals == ref.deals and fast.deals["pimc"].changed > 0
    assert (fast.engine, fast.pimc_engine) == ("fast", "fast")


def test_pimc_is_the_headline_where_the_fast_engine_plays_it() -> None:
    """``--pimc-deals`` measures PIMC by default in every preset whose game the fast PIMC plays: every preset
    since Commit and Red Nines have theirs (two players and Commit here)."""
    from comet.cli import main
    from comet.commands.diverge_plan import fast_pimc_presets
    from comet.presets import PRESETS

    assert set(fast_pimc_presets()) == set(PRESETS)
    import io
    from contextlib import redirect_stdout

    for field, name, backend, expected in (
        ("comet_lead", "two_player", "auto", True),
        ("two_player_sets", "two_player", "auto", True),  # sets of any size: on the fast engine since issue 17
        ("commit_comet", "commit_cats", "auto", True),
        ("commit_comet", "commit_cats", "reference", False),  # the reference player only when its preset is named
    ):
        buf = io.StringIO()
        with redirect_stdout(buf):
            argv = ["diverge", field, "--preset", name, "--deals", "4", "--games", "0", "--policies", "random"]
            assert main([*argv, "--pimc-deals", "2", "--backend", backend, "--full", "--measure"]) == 0
        assert ("**Answer (pimc," in buf.getvalue()) is expected, (name, backend)


KERNEL_PRESETS = ("standard", "opera", "two_player", "old_comet")


def both_ways(rules: Ruleset, players: int, seeds: list[int], policy: str, run_policy: str | None = None) -> bool:
    """The deals of ``seeds`` played by ``kernel.play_batch`` (with ``run_policy``, default ``policy``) and
    by the PIMC kernel's loop over ``kernel.step`` with no PIMC seat (every seat ``policy``): all equal?"""
    from comet.fast.api import _run

    seed_arr = np.array(seeds, dtype=np.int64)
    setup = _setup(rules, players, run_policy or policy, 0, None, 0)
    ref: tuple[np.ndarray, ...] = _run(setup, seed_arr, seed_arr % players, record=True)
    got = play_pimc(
        rules, players, seed_arr, samples=1, pimc_seats=[players] * len(seeds), opponent=policy, record=True
    )
    mine: tuple[np.ndarray, ...] = (
        got.winner,
        got.chips,
        got.points,
        got.steps,
        got.flags,
        got.actions,
        got.legal,
        got.cards,
    )
    return all(np.array_equal(x, y) for x, y in zip(ref, mine, strict=True))


def test_the_transition_function_is_play_batchs_loop() -> None:
    """``kernel.play_batch`` keeps its own copy of the transition (as a function it cost a fifth of its
    speed); ``kernel.step``, which the PIMC player resumes deals with, must play every deal alike: every
    preset it plays, every policy, 150 seeds (R-TURN-END, R-END-OUT, R-COMET-BONUS, R-OPERA-FIRST-TURN)."""
    from comet.fast.api import POLICIES

    for name in KERNEL_PRESETS:
        rules = preset(name).rules
        for players in (2, 3, 4, 5):
            if players not in variant_of(rules).player_counts:
                continue
            for policy in POLICIES:
                assert both_ways(rules, players, list(range(150)), policy), (name, players, policy)
    for rules in ANY_SETS_READINGS:  # sets of any size (RUL-2P-SETS any_number)
        for policy in POLICIES:
            assert both_ways(rules, 2, list(range(150)), policy), (rules.quartet_on_lead, policy)
    # planted: two different players are told apart by the comparison
    assert not both_ways(preset("standard").rules, 3, list(range(20)), "random", run_policy="greedy")


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_transition_function_under_random_readings(data: st.DataObject) -> None:
    """Hypothesis: random readings of every field the kernel plays, seeds, player counts and policies."""
    from comet.fast.api import POLICIES, SUPPORTED_FIELDS

    name = data.draw(st.sampled_from(KERNEL_PRESETS), label="preset")
    base = preset(name).rules
    drawn = data.draw(rulesets(name), label="rules")
    rules = base.with_overrides(
        {f: getattr(drawn, f) for f in SUPPORTED_FIELDS if getattr(drawn, f) != getattr(base, f)}
    )
    players = data.draw(st.sampled_from(variant_of(rules).player_counts), label="players")
    policy = data.draw(st.sampled_from(POLICIES), label="policy")
    seeds = data.draw(st.lists(st.integers(0, 2**40), min_size=1, max_size=6), label="seeds")
    try:
        ok = both_ways(rules, players, seeds, policy)
    except ValueError:  # a reading this player count refuses (a deal that cannot be dealt)
        return
    assert ok


def test_the_strength_is_measured_in_the_presets_of_the_run() -> None:
    """``--strength`` measures PIMC against each policy in every preset of the run it measures, at the game's
    usual player count (Commit Cats: 4), and not in the standard game when the run has none of its pairs."""
    import io
    from contextlib import redirect_stdout

    from comet.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        argv = ["diverge", "commit_comet", "--preset", "commit_cats", "--deals", "4", "--games", "0"]
        assert main([*argv, "--policies", "random", "--pimc-deals", "2", "--strength", "8", "--full", "--measure"]) == 0
    section = buf.getvalue().split("## The competent player", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:4] for line in section.splitlines() if line.startswith("| commit_cats")]
    assert [[c.strip() for c in r] for r in rows] == [["commit_cats", p, "4"] for p in ("random", "greedy", "hoarder")]
    assert "| standard |" not in section
