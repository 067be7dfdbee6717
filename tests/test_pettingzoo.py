"""comet.frameworks.pettingzoo: PettingZoo's own API and seed tests for every preset, Gymnasium's env checker
for the single-agent environment, and a differential test against comet.engine.

Skipped without the ``pettingzoo`` extra, unless ``COMET_REQUIRE_EXTRAS`` or ``CI`` is set (.ci/run sets both).
Rules exercised: R-DEAL-ORDER (a seed deals shuffled_deal's cards), R-REC-ACTION-ORDER (the mask is
the legal actions), R-PLAY-MUST (an illegal id is refused naming its rule), R-END-OUT."""

from __future__ import annotations

import os
import random
import re
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest

if os.environ.get("COMET_REQUIRE_EXTRAS") or os.environ.get("CI"):
    import pettingzoo  # noqa: F401
else:
    pytest.importorskip("pettingzoo")

from comet import PRESETS, engine
from comet.cards import cards_text
from comet.frameworks.actions import action_of, legal_ids
from comet.frameworks.chance import seeded_deal
from comet.frameworks.pettingzoo import CometAEC, env, single_agent_env
from comet.frameworks.utilities import utilities, utility_bounds
from comet.state import DealState
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore", UserWarning
        )  # "Observation is not a NumPy array": a dict, as in PettingZoo's own card games
        yield


@pytest.mark.parametrize("name", list(PRESETS))
def test_api_test_and_seed_test_every_preset(name: str) -> None:
    """PettingZoo's own checks: the AEC API, and two environments reset with one seed play alike."""
    api_test(env(preset=name), num_cycles=60)
    seed_test(lambda: env(preset=name), num_cycles=60)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("standard", {"players": 5, "comet_lead": "any_rank", "stuck_restart": "may"}),
        ("red_nines", {"players": 7, "red_nines_many": "cap_four"}),
        ("commit_cats", {"players": 8, "commit_removed": "any"}),
    ],
)
def test_api_test_other_readings_and_player_counts(name: str, kwargs: dict[str, Any]) -> None:
    e = env(preset=name, **kwargs)
    assert len(e.possible_agents) == kwargs["players"]
    api_test(e, num_cycles=40)


def aec_differences(e: CometAEC, seed: int) -> list[str]:
    """One random deal through the AEC environment and through comet.engine side by side: the mask is
    the engine's legal actions for the agent to move (and empty for the others), the state after each
    step is the engine's, and the final rewards are the utilities of the engine's end state."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    ref: DealState = seeded_deal(e.table, seed)
    problems: list[str] = []
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        mask = [int(i) for i in np.flatnonzero(obs["action_mask"])]
        if seat != ref.to_move or mask != legal_ids(ref):
            problems.append(f"step {ref.steps}: seat {seat} mask {mask} vs seat {ref.to_move} {legal_ids(ref)}")
            break
        for other in e.possible_agents:
            if other != agent and e.observe(other)["action_mask"].any():
                problems.append(f"step {ref.steps}: {other} has a mask while {agent} is to move")
        a = rng.choice(mask)
        e.step(a)
        ref = engine.apply(ref, action_of(a))
        if e.state != ref:
            problems.append(f"step {ref.steps}: states differ after {action_of(a)}")
            break
    if not ref.terminal or [totals[a] for a in e.possible_agents] != list(utilities(ref)):
        problems.append(f"rewards {totals} vs {utilities(ref)}")
    return problems


@pytest.mark.parametrize("name", list(PRESETS))
def test_differential_against_the_engine(name: str) -> None:
    e = env(preset=name)
    for seed in range(3):
        assert aec_differences(e, seed) == []


def test_differential_catches_a_mask_that_drops_an_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the mask loses the highest legal id (the legal ids a state keeps lose it)."""
    from comet.frameworks import pettingzoo as pz

    keep = pz._Legal.__init__

    def drop_last(self: Any, state: DealState) -> None:
        keep(self, state)
        self.ids = self.ids[:-1] or self.ids

    monkeypatch.setattr(pz._Legal, "__init__", drop_last)
    e = env(preset="standard")
    assert any(aec_differences(e, seed) for seed in range(5))


def test_a_seed_deals_the_engines_shuffled_deal() -> None:
    """reset(seed=S) deals comet.engine.shuffled_deal with seed S (what `comet deal --seed S` deals)."""
    e = env(preset="old_comet", players=4)
    e.reset(seed=123)
    assert e.state == engine.shuffled_deal(e.table.rules, 4, 3, 123)


def test_an_illegal_id_names_the_rule_it_breaks() -> None:
    e = env(illegal="raise")
    e.reset(seed=1)
    legal = set(legal_ids(e.state))
    pass_id = 0
    assert pass_id not in legal  # the first player must lead (R-PLAY-MUST)
    with pytest.raises(ValueError, match="R-PLAY-MUST"):
        e.step(pass_id)


def test_bad_constructor_arguments_get_a_plain_message() -> None:
    with pytest.raises(ValueError, match="unknown ruling 'comet_leed'"):
        env(comet_leed="king")
    with pytest.raises(ValueError, match="does not apply to the standard game"):
        env(red_nines_many="cap_four")
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        single_agent_env(opponents="clever")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2"):
        single_agent_env(seat=3)


def test_gymnasium_single_agent_env_passes_check_env() -> None:
    """With the defaults (an illegal id ends the episode with the penalty), and rendering checked too."""
    check_env(single_agent_env(preset="opera", players=4, opponents="greedy", render_mode="ansi"))
    check_env(single_agent_env(small="tiny"))


@pytest.mark.parametrize("name", list(PRESETS))
def test_single_agent_env_plays_whole_deals_against_our_policies(name: str) -> None:
    """The other seats play our policies; the agent's reward is its utility of the engine's end state."""
    players = PRESETS[name].variant.default_players
    g = single_agent_env(preset=name, seat=1, opponents=["greedy", "random", "hoarder", "simple"][: players - 1])
    for seed in range(2):
        obs, _ = g.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            assert g.state.to_move == 1
            choice = int(np.flatnonzero(obs["action_mask"])[-1])
            obs, reward, done, _, _ = g.step(choice)
            total += reward
        assert g.state.terminal and total == utilities(g.state)[1]
    with pytest.raises(ValueError, match="the deal is over"):
        g.step(0)


def test_an_illegal_id_ends_the_deal_with_a_penalty() -> None:
    """R-PLAY-MUST: by default, as PettingZoo's classic environments (TerminateIllegalWrapper), an illegal id
    ends the deal: the agent that chose it gets the penalty (the table's least utility), the others 0."""
    e = env()
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(0)  # a pass where the first player must lead
    assert all(e.terminations.values())
    low = utility_bounds(e.table).low
    assert e._cumulative_rewards == {a: (low if a == agent else 0.0) for a in e.agents}
    assert "without" in e.infos[agent]["illegal"] or "pass" in e.infos[agent]["illegal"]
    for _ in e.agent_iter():
        e.step(None)
    assert e.agents == []
    e = env(illegal_reward=-1.0)
    e.reset(seed=1)
    e.step(0)
    assert e.rewards[agent] == -1.0
    with pytest.raises(ValueError, match="illegal must be"):
        env(illegal="ignore")


def hidden_cards_shown(text: str) -> list[str]:
    """The lines of a render that name the cards of a seat other than the one to move (before the end)."""
    to_move = re.search(r"^to move (\d+);", text, re.M)
    if to_move is None:  # the deal is over: every hand is shown to settle it
        return []
    return [
        line
        for line in text.splitlines()
        if re.match(r"seat \d+:", line)
        and not line.startswith(f"seat {to_move.group(1)}:")
        and not re.fullmatch(r"seat \d+: (\d+ cards|-)", line)
    ]


@pytest.mark.parametrize("kwargs", [{}, {"small": "tiny"}, {"preset": "red_nines"}])
def test_render_test_passes_and_hides_other_hands(kwargs: dict[str, Any]) -> None:
    """PettingZoo's render_test ("human" and "ansi"); the ansi text names the cards of the seat to move
    (R-PLAY-HELD) and only the sizes of the other hands."""

    def hides(text: str) -> bool:
        return isinstance(text, str) and not hidden_cards_shown(text)

    shown = env(render_mode="ansi", **kwargs)
    render_test(lambda render_mode=None: env(render_mode=render_mode, **kwargs), custom_tests={"ansi": hides})
    shown.reset(seed=3)
    text = shown.render()
    assert isinstance(text, str)
    assert f"seat {shown.state.to_move}: {cards_text(shown.state.hands[shown.state.to_move])}" in text
    assert not hidden_cards_shown(text)
    revealed = env(render_mode="ansi", reveal=True, **kwargs)
    revealed.reset(seed=3)
    planted = revealed.render()
    assert isinstance(planted, str) and hidden_cards_shown(planted)  # the check sees a shown hand


def test_gymnasium_make_by_id() -> None:
    """The ids registered on import, so gymnasium.make("module:id") needs no other import."""
    g = gymnasium.make("comet.frameworks.pettingzoo:comet/Comet-v0", preset="opera", players=4)
    obs, _ = g.reset(seed=2)
    assert g.observation_space.contains(obs)
    assert np.array_equal(g.get_wrapper_attr("action_masks")(), obs["action_mask"].astype(bool))
    tiny = gymnasium.make("comet/TinyComet-v0")
    assert tiny.unwrapped.table.small == "tiny"  # type: ignore[attr-defined]


def test_action_masks_are_the_legal_ids() -> None:
    """R-REC-ACTION-ORDER: action_masks() is the legal actions of the learner's seat (the MaskablePPO convention)."""
    g = single_agent_env(players=4, opponents="random")
    for seed in range(3):
        g.reset(seed=seed)
        done = False
        while not done:
            mask = g.action_masks()
            assert mask.dtype == np.bool_ and sorted(np.flatnonzero(mask)) == legal_ids(g.state)
            _, _, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
        assert not g.action_masks().any()


def test_self_play_opponents_are_functions_of_an_observation() -> None:
    """Every other seat played by a function of its own observation (self-play); an illegal choice is a plain
    error naming the seat."""
    seen: list[int] = []

    def last_legal(obs: dict[str, Any]) -> int:
        seen.append(int(np.flatnonzero(obs["observation"][:3])[0]))  # the one-hot seat of the observer
        return int(np.flatnonzero(obs["action_mask"])[-1])

    g = single_agent_env(players=3, seat=1, opponents=last_legal)
    obs, _ = g.reset(seed=4)
    done = False
    while not done:
        obs, _, done, _, _ = g.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert seen and set(seen) <= {0, 2}
    bad = single_agent_env(players=3, opponents=[lambda obs: 0, "random"])
    with pytest.raises(ValueError, match="opponent at seat 1 chose illegal action 0"):
        for seed in range(20):
            bad.reset(seed=seed)
            while not bad.state.terminal:
                bad.step(int(np.flatnonzero(bad.action_masks())[0]))
    with pytest.raises(ValueError, match="one opponent per other seat"):
        single_agent_env(players=3, opponents=["random"])


def test_the_seat_is_chosen_at_reset() -> None:
    g = single_agent_env(players=4)
    obs, _ = g.reset(seed=1, options={"seat": 2})
    assert g.seat == 2 and g.state.to_move == 2 and obs["observation"][2] == 1.0
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        g.reset(options={"seat": 4})


def observation_differences(name: str, seed: int, players: int = 0) -> list[str]:
    """Every seat's observation at every step of a random deal, written the fast way (``_observe``: card
    planes kept ready, a few assignments) and through ``fill_tensor`` (the OpenSpiel observer's writer)."""
    from comet.frameworks import pettingzoo as pz
    from comet.frameworks.table import make_table

    table = make_table(name, players)
    rng = random.Random(seed)
    s = seeded_deal(table, seed)
    problems: list[str] = []
    while True:
        for seat in range(table.players):
            mine = not s.terminal and s.to_move == seat
            fast = pz._observe(table, s, seat, legal_ids(s) if mine else [])
            ref = pz._observe_reference(table, s, seat, [])
            for key in ("observation", "action_mask"):
                if not np.array_equal(fast[key], ref[key]):
                    problems.append(f"{name} seed {seed} step {s.steps} seat {seat}: {key} differs")
        if s.terminal or problems:
            return problems
        s = engine.apply(s, rng.choice(engine.legal_actions(s)))


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_fast_observation_is_the_tensor_fill_tensor_writes(name: str) -> None:
    """The observation is written in a few numpy assignments (card planes of recent hands and of the cards
    played kept ready: comet bench's PettingZoo rate); it must equal ``fill_tensor``'s, every seat, every step."""
    for seed in range(3):
        assert observation_differences(name, seed) == []


def test_the_observation_comparison_catches_a_lost_second_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the played cards' planes forget that a card played twice has a second copy."""
    from comet.frameworks import pettingzoo as pz

    def one_plane(out: Any, cards: Any, before: Any) -> None:
        for c in cards:
            out[c - 4] = 1.0

    monkeypatch.setattr(pz, "_set_cards", one_plane)
    pz._LAYOUTS.clear()
    try:
        assert any(observation_differences("standard", seed) for seed in range(5))
    finally:
        pz._LAYOUTS.clear()
