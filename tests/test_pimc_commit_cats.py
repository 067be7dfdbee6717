"""The Commit-Cats competent player (issue 17): PIMC with its game's own number of sampled deals per choice
(``comet.diverge.pimc.GAME_SAMPLES``), the same player on both engines, and better than greedy where the
better move can be checked by hand.  Cites R-COMMIT-C-LEAD (the lowest card starts a run), R-COMMIT-C-SUIT
(runs go up in suit), R-COMMIT-C-KING (a King ends the run and its player starts the next) and
R-COMMIT-C-OUT (the first player out wins the deal)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from comet.cards import parse_card
from comet.diverge import pimc as pimc_module
from comet.diverge.choices import greedy_choice, option_key
from comet.diverge.pimc import SAMPLES, Pimc, samples_for
from comet.diverge.results import policy_key
from comet.engine import apply, legal_actions, shuffled_deal
from comet.fast.api import cs_action_of
from comet.fast.pimc import play_pimc
from comet.policy import Policy
from comet.presets import PRESETS
from comet.state import Action, DealState

CATS = PRESETS["commit_cats"].rules


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(w) for w in text.split()))


def lead_position() -> DealState:
    """Two players, seat 0 to start a run.  Its lowest cards are the Jacks of Spades and Hearts, and it also holds
    the Queen and King of Hearts; seat 1 holds the Queen of Spades and a Two of Clubs.

    Led, the Jack of Hearts goes out at once: Queen and King of Hearts follow (seat 0 keeps playing while it
    holds the next card of the suit), the King ends the run, and seat 0 starts the next run with its last card.
    Led, the Jack of Spades leaves seat 0 without the Queen of Spades: seat 1 plays it, nobody holds the King
    of Spades, so seat 1 (the last to play) starts the next run with its Two of Clubs, its last card, and wins."""
    start = shuffled_deal(CATS, 2, 1, 0)
    return replace(start, hands=(cards("JS JH QH KH"), cards("QS 2C")), run=(), run_suit=-1, to_move=0, last_player=-1)


def finish(s: DealState, policy: Policy) -> DealState:
    while not s.terminal:
        legal = legal_actions(s)
        s = apply(s, policy(s, legal))
    return s


def leads_the_winning_jack(player: Policy, s: DealState) -> bool:
    """Whether ``player`` leads the Jack of Hearts (and so wins the deal, checked by playing it out with greedy
    in the other seat)."""
    legal = legal_actions(s)
    assert sorted(option_key(a) for a in legal) == sorted(option_key(Action((parse_card(c),))) for c in ("JS", "JH"))
    choice = player(s, legal)
    return choice == Action((parse_card("JH"),))


#: a deal seed whose greedy priorities lead the Jack of Spades here (greedy ranks the two Jacks alike: same
#: rank, the same ranks held above it, so its priority order decides)
GREEDY_SEED = next(
    seed
    for seed in range(50)
    if greedy_choice(seed, lead_position(), legal_actions(lead_position())).cards[0] == parse_card("JS")
)


def test_the_lead_position_is_what_it_says() -> None:
    """The hand check, played out: the Jack of Hearts wins the deal for seat 0, the Jack of Spades loses it
    (greedy in both seats afterwards)."""
    s = lead_position()
    greedy = lambda state, legal: greedy_choice(GREEDY_SEED, state, legal)  # noqa: E731
    assert finish(apply(s, Action((parse_card("JH"),))), greedy).winner == 0
    assert finish(apply(s, Action((parse_card("JS"),))), greedy).winner == 1


def test_pimc_leads_the_winning_suit_where_greedy_does_not() -> None:
    """The Commit-Cats player (its game's 100 worlds per choice) leads the Jack of Hearts; greedy, with the
    same priorities, leads the Jack of Spades.  So did the player with 6 worlds: the Jack of Spades loses only
    in worlds where seat 1 holds the Queen of Spades or the Comet, which 6 worlds rarely sample, and the tie
    went by the same priorities."""
    s = lead_position()
    assert samples_for(CATS) == 100
    assert leads_the_winning_jack(Pimc(GREEDY_SEED), s)
    assert not leads_the_winning_jack(lambda state, legal: greedy_choice(GREEDY_SEED, state, legal), s)
    assert not leads_the_winning_jack(Pimc(GREEDY_SEED, SAMPLES), s)


def test_a_player_that_minimises_its_points_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: the same player maximising its points negated leads the losing Jack, and the check fails."""
    real = pimc_module.value
    monkeypatch.setattr(pimc_module, "value", lambda state, seat: -real(state, seat))
    assert not leads_the_winning_jack(Pimc(GREEDY_SEED), lead_position())


def test_only_commit_cats_samples_more() -> None:
    """Every other game keeps 6 worlds per choice, so its saved PIMC figures keep their keys (the results
    store keys a PIMC unit by its samples, ``comet.diverge.results.policy_key``, and a strength row too); Commit-Cats' keys change, so its PIMC units and strength rows are measured afresh."""
    from comet.diverge.pairs import all_pairs

    for name, p in PRESETS.items():
        want = 100 if p.rules.variant == "commit_cats" else SAMPLES
        assert samples_for(p.rules) == want, name
    for name in ("commit_cats", "commit_hoyle"):
        pair = all_pairs([name])[0]
        key = policy_key(pair, 4, "pimc", 2000, 0, "fast")
        assert key["samples"] == (100 if name == "commit_cats" else 6), name


def reference_deal(seed: int, players: int, samples: int | None) -> tuple[list[int], int]:
    """Deal ``seed`` played by the reference player in every seat: its actions' option keys, and how many of
    them were a choice among more than one option."""
    s = shuffled_deal(CATS, players, seed % players, seed)
    me = Pimc(seed, samples)
    out = []
    choices = 0
    while not s.terminal:
        legal = legal_actions(s)
        choices += len(legal) > 1
        a = me(s, legal)
        out.append(option_key(a))
        s = apply(s, a)
    return out, choices


def fast_deals(seeds: Sequence[int], players: int, samples: int) -> list[list[int]]:
    out = play_pimc(CATS, players, seeds, samples=samples, record=True)
    return [[option_key(cs_action_of(int(a))) for a in out.actions[d, : out.steps[d]]] for d in range(len(seeds))]


def test_the_fast_player_is_the_reference_player_at_its_samples() -> None:
    """The player the report measures (``samples_for``, 100 worlds) is the same on both engines: deals played
    by it in every seat take the reference player's every action (the reference at its default samples)."""
    seeds = [4]
    fast = fast_deals(seeds, 7, samples_for(CATS))
    for d, seed in enumerate(seeds):
        ref, choices = reference_deal(seed, 7, None)
        assert fast[d] == ref, seed
        assert choices >= 2, choices  # the deal has choices to compare
    # planted: the old player (6 worlds) is another player, and these deals tell them apart
    assert fast_deals(range(8), 4, SAMPLES) != fast_deals(range(8), 4, samples_for(CATS))
