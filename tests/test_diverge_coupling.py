"""Coupled play (issue 17): both readings of a pair make the same choice wherever they face the same
options, in the reference policies and in the fast engine alike.  Cites RUL-COMET-LEAD (the reading
used to show it) and R-LEAD-ANY (the lead the reading restricts)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from comet.cards import black_pack
from comet.diverge.choices import mix32, option_key, rank_key
from comet.diverge.pairs import pairs_for
from comet.diverge.policies import make_policy
from comet.engine import apply, legal_actions, shuffled_deal
from comet.fast import config as kc
from comet.fast import moves as fast_moves
from comet.fast import policies as fast_policies
from comet.fast.api import _setup, action_of
from comet.presets import PRESETS
from comet.state import Action, DealState

Chooser = Callable[[DealState, Sequence[Action]], Action]


def test_kernel_hash_and_option_key_agree_with_the_reference() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        x = rng.getrandbits(32)
        assert fast_policies.mix32(x) == mix32(x)
    setup = _setup(PRESETS["standard"].rules, 4, "random", 0, None, 0)
    pack = black_pack()
    codes = [kc.code(kc.SINGLE, c, c >> 2) for c in pack.cards if c not in pack.wild]
    codes += [kc.code(kc.WILD, pack.wild[0], r) for r in range(2, 14)]
    codes += [kc.code(kc.QUARTET, 0, r) for r in range(2, 14)] + [kc.code(kc.QUARTET_WILD, pack.wild[0], 7)]
    codes.append(kc.code(kc.PASS, 0, 0))
    for a in codes:
        action = action_of(a, pack)
        assert fast_moves.order_key(setup.cfg, setup.packcnt, a) == option_key(action), action
        for _ in range(5):
            seed, seat = rng.getrandbits(63), rng.randrange(8)
            assert fast_policies.rank_key(setup.cfg, setup.packcnt, seed, seat, a) == rank_key(seed, seat, action)


def first_splits(choose_of: Callable[[int], Chooser], seeds: range) -> tuple[int, list[int]]:
    """Play ``comet_lead = any_rank`` (A) and ``forbidden`` (B) side by side from the same deal; return
    the deals whose play parts ways, and those where it parts although the option chosen under one
    reading is also offered under the other (coupled play must make that list empty)."""
    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    split = 0
    bad = []
    for seed in seeds:
        sa = shuffled_deal(pair.a, 4, seed % 4, seed)
        sb = shuffled_deal(pair.b, 4, seed % 4, seed)
        ca, cb = choose_of(seed), choose_of(seed)
        while not sa.terminal and not sb.terminal:
            la, lb = legal_actions(sa), legal_actions(sb)
            a, b = ca(sa, la), cb(sb, lb)
            if a != b:
                split += 1
                if a in lb and b in la:
                    bad.append(seed)
                break
            sa, sb = apply(sa, a), apply(sb, b)
    return split, bad


def test_coupled_random_play_parts_only_where_the_option_is_taken() -> None:
    """RUL-COMET-LEAD: under coupled play a deal's play differs only at a choice one reading does not
    offer (a lead with the Comet), never because the number of options shifted a random stream."""
    split, bad = first_splits(lambda seed: make_policy("random", seed), range(150))
    assert split > 0 and bad == []


def test_an_uncoupled_random_stream_is_caught() -> None:
    """The planted bug: a shared random stream (the old policy, ``legal[rng.randrange(len(legal))]``)
    parts the play where both readings offer both choices; the check above must see it."""

    def uncoupled(seed: int) -> Chooser:
        rng = random.Random(seed)
        return lambda s, legal: legal[rng.randrange(len(legal))]

    _, bad = first_splits(uncoupled, range(150))
    assert bad


@pytest.mark.parametrize("policy", ["random", "greedy", "hoarder"])
def test_same_options_same_choice(policy: str) -> None:
    """A choice depends on the options offered, not on their number: removing an option that was not
    chosen leaves the choice alone (a random subset of the options of real positions)."""
    rng = random.Random(3)
    rules = PRESETS["standard"].rules
    checked = 0
    for seed in range(40):
        s = shuffled_deal(rules, 4, seed % 4, seed)
        choose = make_policy(policy, seed)
        while not s.terminal:
            legal = legal_actions(s)
            a = choose(s, legal)
            if len(legal) > 2:
                others = [x for x in legal if x != a]
                kept = sorted([a, *rng.sample(others, rng.randrange(1, len(others)))])
                assert choose(s, kept) == a
                checked += 1
            s = apply(s, a)
    assert checked > 100


def test_fast_engine_plays_the_reference_policies() -> None:
    """The fast engine's coupled policies choose exactly as the reference ones (a short replay; the
    full differential test is tests/test_fast_engine.py)."""
    from comet.fast.api import record_batch
    from comet.fast.check import check_record

    rules = PRESETS["standard"].rules
    for policy in ("random", "greedy", "hoarder"):
        for rec in record_batch(rules, 4, np.arange(25), policy):
            assert check_record(rec, rules) is None


@pytest.mark.parametrize("preset", ["standard", "commit_hoyle"])
def test_a_reference_priority_the_fast_copies_do_not_share_is_caught(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planted bug: the reference's priority changed (the seat left out of the hash) while the fast
    engine keeps its compiled copies (``fast/policies.py`` for the standard kernel, ``fast/cardsets.py``
    for Commit and Red Nines): replaying the fast deals through the reference (``comet.fast.check``, the
    test that ties the copies choice for choice) reports a choice that differs, in both action encodings."""
    from comet.diverge import choices
    from comet.fast.check import check_deals

    rules = PRESETS[preset].rules
    assert check_deals(rules, 4, range(10), "random") == ()
    real = choices.priority
    monkeypatch.setattr(choices, "priority", lambda seed, seat, key: real(seed, 0, key))
    found = check_deals(rules, 4, range(10), "random")
    assert found and any("the random policy chooses" in m.message for m in found)
