"""comet.frameworks.openspiel: OpenSpiel's own checks (random_sim_test with serialization, the playthrough
format), a differential test against comet.engine, what a seat may know, and OpenSpiel's stock
MCTS and ISMCTS bots playing whole deals of every preset.

Skipped without the ``openspiel`` extra, unless ``COMET_REQUIRE_EXTRAS`` or ``CI`` is set (.ci/run sets both, so a
missing wheel fails there instead of skipping).  Rules exercised: R-DEAL-ORDER (chance deals the
cards), R-REC-ACTION-ORDER (legal actions), R-DEAD-HAND (the dead hand stays hidden), R-END-OUT."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if os.environ.get("COMET_REQUIRE_EXTRAS") or os.environ.get("CI"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

import comet.frameworks.openspiel_resample as resample
from comet import PRESETS, engine
from comet.cards import card_text
from comet.frameworks.actions import action_of, legal_ids
from comet.frameworks.chance import chance_outcomes, deal_of, hands_so_far
from comet.frameworks.openspiel import CometState, load_game
from comet.frameworks.openspiel_play import (
    ismcts_bot,
    mcts_bot,
    play_against_random,
    playthrough_actions,
    playthrough_text,
)
from comet.frameworks.table import make_table
from comet.frameworks.utilities import utilities
from comet.state import DealState

PLAYTHROUGHS = Path(__file__).resolve().parent.parent / "spec" / "playthroughs"
READINGS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {"players": 5, "comet_lead": "any_rank", "stuck_restart": "may", "quartet_on_lead": True}),
    ("standard", {"players": 2, "deal_order": "blocks", "comet_in_quartet": True, "may_stop_early": True}),
    ("commit_hoyle", {"players": 6, "commit_rest": "stop_cards"}),
    ("red_nines", {"players": 6, "red_nines_first": "all", "cats_new_run": "may"}),
]


def random_state(game: Any, rng: random.Random, stop: float = 1.0) -> CometState:
    """A state reached by random play (chance by its odds), stopped early with chance 1 - ``stop``."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            if s.deal is not None and rng.random() > stop:
                break
            s.apply_action(rng.choice(s.legal_actions()))
    assert isinstance(s, CometState)
    return s


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_sim_test_with_serialization_every_preset(name: str) -> None:
    """OpenSpiel's own API check (pyspiel.random_sim_test), states serialized and restored."""
    pyspiel.random_sim_test(load_game(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), READINGS)
def test_random_sim_test_other_readings_and_player_counts(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_comet", {"preset": name, **params})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_one_import_and_a_game_string_load_any_preset_and_reading() -> None:
    game = pyspiel.load_game("python_comet(preset=opera,players=4,comet_lead=any_rank,quartet_on_lead=true)")
    assert game.num_players() == 4
    assert game.table.rules.opera and game.table.rules.comet_lead == "any_rank" and game.table.rules.quartet_on_lead
    with pytest.raises(Exception, match="has no reading 'queen'"):
        pyspiel.load_game("python_comet(comet_lead=queen)")
    with pytest.raises(Exception, match="does not apply to the standard game"):
        pyspiel.load_game("python_comet(red_nines_many=cap_four)")


@pytest.mark.parametrize("name", list(PRESETS))
def test_stored_playthrough_regenerates_identically(name: str) -> None:
    """spec/playthroughs/<preset>.txt is OpenSpiel's playthrough format; replaying its actions gives
    the same text (regenerate: comet.frameworks.openspiel_play.write_playthroughs("spec/playthroughs"))."""
    stored = (PLAYTHROUGHS / f"{name}.txt").read_text(encoding="utf-8")
    game, actions = playthrough_actions(stored)
    assert game == f"python_comet(preset={name})"
    regen = "comet.frameworks.openspiel_play.write_playthroughs('spec/playthroughs')"
    assert playthrough_text(game, actions) == stored, (
        f"spec/playthroughs/{name}.txt is stale (a new ruling field is a new parameter): regenerate with {regen}"
    )


def test_a_changed_playthrough_is_noticed() -> None:
    """The comparison fails on a stored playthrough that no longer matches (one line edited)."""
    stored = (PLAYTHROUGHS / "standard.txt").read_text(encoding="utf-8")
    game, actions = playthrough_actions(stored)
    edited = stored.replace("CurrentPlayer() = 0", "CurrentPlayer() = 1", 1)
    assert edited != stored and playthrough_text(game, actions) != edited


def engine_differences(game: Any, seed: int) -> list[str]:
    """Play one random deal through OpenSpiel and through comet.engine side by side: the same legal
    actions before every action, the same state after it, the same returns at the end."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    order: list[int] = []
    while s.is_chance_node():
        if s.chance_outcomes() != chance_outcomes(game.table, order):
            return [f"chance outcomes after {len(order)} cards differ from the cards left"]
        outcomes, probs = zip(*s.chance_outcomes(), strict=True)
        o = rng.choices(outcomes, probs)[0]
        order.append(o + 4)
        s.apply_action(o)
    ref: DealState = deal_of(game.table, order)
    problems: list[str] = []
    while not ref.terminal:
        wrapped = [action_of(i) for i in s.legal_actions()]
        if sorted(wrapped) != sorted(engine.legal_actions(ref)) or s.current_player() != ref.to_move:
            problems.append(f"step {ref.steps}: legal {wrapped} vs {engine.legal_actions(ref)}")
            break
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        ref = engine.apply(ref, action_of(a))
        if s.deal != ref:
            problems.append(f"step {ref.steps}: states differ after {action_of(a)}")
            break
    if not s.is_terminal() or s.returns() != list(utilities(ref)):
        problems.append(f"returns {s.returns()} vs {utilities(ref)}")
    return problems


@pytest.mark.parametrize("name", list(PRESETS))
def test_differential_against_the_engine(name: str) -> None:
    game = load_game(name)
    for seed in range(3):
        assert engine_differences(game, seed) == []


def test_differential_catches_a_wrapper_that_drops_an_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the wrapper's legal actions lose the last one whenever there are several."""
    monkeypatch.setattr(CometState, "_legal_actions", lambda self, p: legal_ids(self.deal)[:-1] or legal_ids(self.deal))
    game = load_game("standard")
    assert any(engine_differences(game, seed) for seed in range(5))


def swapped_twin(game: Any, s: CometState, player: int, rng: random.Random) -> CometState | None:
    """The same deal with two unplayed cards of two other seats (or of one seat and the dead hand)
    exchanged and the same actions replayed: a deal ``player`` could not tell apart, if every action
    stays legal and the table sees the same things.  None if no such exchange was found."""
    table = game.table
    d = s.deal
    assert d is not None
    played = set(d.played)
    moves = s.moves()
    hands = [list(s.dealt_to(p)) for p in range(table.players)]
    dead = list(d.dead)
    for _ in range(50):
        owners = [p for p in range(table.players) if p != player] + (["dead"] if dead else [])
        a, b = rng.sample(owners, 2)
        pile_a = hands[a] if a != "dead" else dead  # type: ignore[index]
        pile_b = hands[b] if b != "dead" else dead  # type: ignore[index]
        free_a = [c for c in pile_a if c not in played]
        free_b = [c for c in pile_b if c not in played]
        if not free_a or not free_b:
            continue
        ca, cb = rng.choice(free_a), rng.choice(free_b)
        if ca == cb:
            continue
        new_hands = [list(h) for h in hands]
        new_dead = list(dead)
        for pile, out, into in ((a, ca, cb), (b, cb, ca)):
            target = new_dead if pile == "dead" else new_hands[pile]  # type: ignore[index]
            target.remove(out)
            target.append(into)
        twin = game.new_initial_state()
        ref = engine.start_deal(
            table.rules, table.pack, table.players, table.dealer, new_hands, new_dead, table.comet_value
        )
        for c in _order_for(table, ref):
            twin.apply_action(c - 4)
        ok = True
        for seat, act in moves:
            if twin.current_player() != seat or act not in twin.legal_actions():
                ok = False
                break
            twin.apply_action(act)
        if ok and twin.events() == s.events():
            assert isinstance(twin, CometState)
            return twin
    return None


def _order_for(table: Any, deal: DealState) -> list[int]:
    """Chance outcomes that deal exactly ``deal``'s hands (R-DEAL-ORDER, through engine.distribute)."""
    marks = list(range(table.dealt))
    seats, _ = engine.distribute(table.rules, marks, table.players, table.dealer, table.hand_size)
    order = [0] * table.dealt
    for seat, positions in enumerate(seats):
        for pos, c in zip(positions, deal.hands[seat], strict=True):
            order[pos] = c
    return order


def leaks(game: Any, observe: Any, seeds: range) -> tuple[list[str], int]:
    """States a seat cannot tell apart (``swapped_twin``) must look the same to it through ``observe``:
    the differences found, and how many pairs were compared."""
    found: list[str] = []
    compared = 0
    for seed in seeds:
        rng = random.Random(seed)
        s = random_state(game, rng, stop=0.97)
        if s.deal is None or s.is_terminal():  # at the end every hand is shown, to settle
            continue
        for player in range(game.num_players()):
            twin = swapped_twin(game, s, player, rng)
            if twin is None:
                continue
            compared += 1
            if observe(s, player) != observe(twin, player):
                found.append(f"seed {seed} seat {player}: {observe(s, player)!r} != {observe(twin, player)!r}")
    return found, compared


@pytest.mark.parametrize("name", ["standard", "old_comet", "red_nines"])
def test_information_state_and_observation_reveal_only_what_the_seat_may_know(name: str) -> None:
    """Own hand, the cards played, the run, chips: yes; another hand or the dead hand (R-DEAD-HAND):
    no.  Swapping two cards nobody has played between two other hands (or the dead hand), with the
    same actions still legal and the same public events, leaves every string and tensor unchanged."""
    game = load_game(name)

    def tensor(state: CometState, player: int) -> list[float]:
        return list(state.information_state_tensor(player)) + list(state.observation_tensor(player))

    for observe in (
        lambda st, p: st.information_state_string(p),
        lambda st, p: st.observation_string(p),
        tensor,
    ):
        found, compared = leaks(game, observe, range(6))
        assert found == [] and compared >= 6


def test_the_leak_check_catches_a_view_of_every_hand() -> None:
    """A planted leak: OpenSpiel's ALL_PLAYERS observation (every hand, the dead hand) is caught."""
    game = load_game("standard")
    from open_spiel.python.observation import make_observation

    everything = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    )
    found, _ = leaks(game, lambda st, p: everything.string_from(st, p), range(6))
    assert found


def test_information_state_keeps_own_cards_and_the_public_record() -> None:
    game = load_game("standard")
    s = random_state(game, random.Random(3), stop=0.98)
    d = s.deal
    seat = 1
    text = s.information_state_string(seat)
    assert text.startswith(f"seat {seat} dealt " + " ".join(card_text(c) for c in s.dealt_to(seat)))
    assert len(text.splitlines()) >= 1 + len(s.moves())
    other = s.information_state_string(0)
    assert other.splitlines()[1:] == text.splitlines()[1:]  # the public record is the same for all
    if d is not None and d.terminal:
        assert "dead " in text.splitlines()[-1]  # shown at the end, to settle
    else:
        assert "dead" not in text


def test_resampled_deals_agree_with_what_the_seat_knows() -> None:
    """ISMCTS's resampler: every redealt state has the same information state for the seat, the same
    legal actions when it is to move, and keeps the seat's own cards."""
    game = load_game("standard", players=4)
    rng = random.Random(5)
    for seed in range(4):
        s = random_state(game, random.Random(seed), stop=0.97)
        if s.deal is None or s.is_terminal():
            continue
        p = s.current_player()
        for _ in range(3):
            r = s.resample_deal(p, rng)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.legal_actions() == s.legal_actions()
            assert r.dealt_to(p) == s.dealt_to(p)


def test_a_bare_stock_ismcts_bot_uses_the_resampling_hook() -> None:
    """ISMCTSBot built with no resampler calls state.resample_from_infostate, which redeals."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load_game("standard")
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, None), 20.0, 4)
    end = play_against_random(game, bot, seat=1, seed=3)
    assert end.is_terminal()
    s = random_state(game, random.Random(4), stop=0.98)
    if not s.is_terminal():
        p = s.current_player()
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == s.information_state_string(p)


@pytest.mark.parametrize("name", list(PRESETS))
def test_stock_bots_play_whole_deals_of_every_preset(name: str) -> None:
    """OpenSpiel's MCTSBot and ISMCTSBot play seat 0 of a whole deal against random players."""
    game = load_game(name)
    for bot in (mcts_bot(game, 4, seed=1), ismcts_bot(game, 4, seed=1)):
        end = play_against_random(game, bot, seat=0, seed=2)
        assert end.is_terminal() and end.deal is not None and end.deal.terminal
        assert abs(sum(end.returns())) < 1e-9


def test_chance_outcomes_kept_as_cards_are_dealt_are_the_cards_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """The state keeps the cards left as they are dealt (OpenSpiel asks at every chance node); the
    differential test compares them with ``chance.chance_outcomes`` and catches a state that forgets a
    dealt card's second copy.  An outcome that is not a card left is refused."""
    for name in ("standard", "old_comet"):  # two copies of most cards; one copy of each
        assert engine_differences(load_game(name), 7) == []
    s = load_game("standard").new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not a card left"):
        s.apply_action(60)
    monkeypatch.setattr(CometState, "chance_outcomes", lambda self: chance_outcomes(self.table, self._order[:-1]))
    assert any(engine_differences(load_game("standard"), seed) for seed in range(3))


def test_a_clone_and_its_original_go_their_own_ways() -> None:
    """A state shares its history, legal actions and engine state with its clones (they are immutable):
    playing on in a clone changes nothing in the original, at every step of a deal."""
    game = load_game("standard", players=4)
    rng = random.Random(3)
    s = random_state(game, rng, stop=0.0)
    while not s.is_terminal():
        before = (s.legal_actions(), s.deal, s.events(), s.moves(), s.information_state_string(s.current_player()))
        twin = s.clone()
        twin.apply_action(twin.legal_actions()[-1])
        assert twin.moves() != s.moves()
        after = (s.legal_actions(), s.deal, s.events(), s.moves(), s.information_state_string(s.current_player()))
        assert after == before
        s.apply_action(rng.choice(s.legal_actions()))


def test_tables_are_cached_per_game_not_per_state() -> None:
    game = load_game("standard")
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a.table is b.table is game.table
    assert make_table("standard") == game.table


def test_an_illegal_action_is_refused_naming_its_rule() -> None:
    """R-PLAY-MUST: the first player may not pass; the engine's IllegalAction comes through OpenSpiel."""
    from comet.errors import IllegalAction

    s = load_game("standard").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    with pytest.raises(IllegalAction, match="must start a new run"):
        s.apply_action(0)


def test_every_preset_loads_at_every_player_count() -> None:
    for name, p in PRESETS.items():
        for n in p.variant.player_counts:
            game = load_game(name, players=n)
            assert game.num_players() == n
            assert game.max_game_length() == engine.step_bound(engine.shuffled_deal(p.rules, n, n - 1, 0))


def resample_many(name: str, deals: int, per_state: int, seed: int) -> tuple[int, int, int]:
    """(resamples, fallbacks to the true state, resamples that kept the whole deal) at random decision
    points of random deals of ``name``; every redeal must leave the seat's information state alone."""
    game = load_game(name)
    rng = random.Random(seed)
    calls, fallbacks, same = resample.RESAMPLE_CALLS[0], resample.RESAMPLE_FALLBACKS[0], 0
    for d in range(deals):
        s = random_state(game, random.Random(seed * 1000 + d), stop=0.5 + 0.5 * rng.random())
        if s.deal is None or s.is_terminal():
            continue
        p = s.current_player()
        for _ in range(per_state):
            r = s.resample_deal(p, rng)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.deal is not None
            same += r.deal.hands == s.deal.hands and r.deal.dead == s.deal.dead
    return resample.RESAMPLE_CALLS[0] - calls, resample.RESAMPLE_FALLBACKS[0] - fallbacks, same


def test_the_resampler_never_falls_back_to_the_true_state() -> None:
    """R-DEAD-HAND: over 10,000 redeals at random points of every preset's deals (the issue-36 figure was 88
    fallbacks in 6,450), the resampler always finds a deal consistent with what the seat saw, so a bot never
    searches the hidden cards themselves."""
    total = 0
    for i, name in enumerate(PRESETS):
        calls, fallbacks, _ = resample_many(name, deals=40, per_state=38, seed=i)
        assert fallbacks == 0, f"{name}: {fallbacks} of {calls} redeals fell back to the true state"
        total += calls
    assert total >= 10_000, total


def test_a_resampler_without_its_search_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: a single rejection try and no search give fallbacks, and the check above sees them."""
    monkeypatch.setattr(resample, "deal_avoiding", lambda *args: None)
    original = CometState.resample_deal
    monkeypatch.setattr(CometState, "resample_deal", lambda self, p, rng, tries=1: original(self, p, rng, 1))
    _, fallbacks, same = resample_many("red_nines", deals=30, per_state=5, seed=1)
    assert fallbacks > 0 and same >= fallbacks


def test_small_games_load_by_their_own_names() -> None:
    """``python_comet_tiny`` is ``python_comet(small=tiny)``, so a script passing its own parameters
    (OpenSpiel's cfr_example passes ``players``) loads it by name."""
    from comet.small import SMALL

    for name in SMALL:
        game = pyspiel.load_game(f"python_comet_{name}", {"players": 2})
        assert game.table.small == name and game.table == pyspiel.load_game("python_comet", {"small": name}).table
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_scripts_run_with_the_game_registered(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m comet.frameworks.run MODULE ARGS``: OpenSpiel's own cfr_example on the small Comet."""
    from comet.frameworks.run import main

    assert main(["open_spiel.python.examples.cfr_example", "--game", "python_comet_tiny", "--iterations", "2"]) == 0
    assert "Iteration 0 exploitability 9.0" in capsys.readouterr().out
    assert main(["no_such.module"]) == 2
    assert "no module 'no_such.module'" in capsys.readouterr().err


def test_loading_by_name_needs_the_one_documented_import() -> None:
    """spec/frameworks.md "Loading by name": in a fresh interpreter, ``import comet`` registers nothing (the core
    imports no framework) and OpenSpiel says the game is unknown; ``import comet.frameworks.openspiel`` is what
    makes ``python_comet`` and the small Comets' names load, and a bad parameter is then one short sentence."""
    import subprocess
    import sys

    script = """
import pyspiel, comet
try:
    pyspiel.load_game("python_comet")
except Exception as e:
    print("before:", str(e).splitlines()[0])
import comet.frameworks.openspiel
print("after:", pyspiel.load_game("python_comet_tiny").num_players())
try:
    pyspiel.load_game("python_comet(comet_lead=queen)")
except Exception as e:
    print("bad:", len(str(e).splitlines()), str(e))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    lines = run.stdout.splitlines()
    assert lines[0] == "before: Unknown game 'python_comet'. Available games are:", lines
    assert lines[1] == "after: 2"
    assert lines[2].startswith("bad: 1 ") and "has no reading 'queen'" in lines[2] and len(lines[2]) < 200, lines[2]


def numbering_problems(game: Any, seed: int) -> list[str]:
    """spec/frameworks.md "One card numbering": after the deal, each seat's cards as the chance outcomes that
    dealt them, as the columns set in its ``hand`` tensor plane, and as the card names its information state
    and the chance actions' strings show are the same cards, ``(rank - 1) * 4 + suit``."""
    from comet.cards import parse_card

    rng = random.Random(seed)
    s = game.new_initial_state()
    outcomes: list[int] = []
    while s.is_chance_node():
        o = rng.choice([a for a, _ in s.chance_outcomes()])
        if s.action_to_string(pyspiel.PlayerId.CHANCE, o) != "deal " + card_text(o + 4):
            return [f"chance outcome {o} is not shown as {card_text(o + 4)}"]
        outcomes.append(o)
        s.apply_action(o)
    problems: list[str] = []
    hands = hands_so_far(game.table, [o + 4 for o in outcomes])
    for seat in range(game.num_players()):
        by_outcome = sorted(o - 4 for o in hands[seat])
        obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        obs.set_from(s, seat)
        columns = sorted(int(c) for c in np.flatnonzero(obs.dict["hand"][0]))
        columns += sorted(int(c) for c in np.flatnonzero(obs.dict["hand"][1])) if obs.dict["hand"].shape[0] > 1 else []
        first = s.information_state_string(seat).splitlines()[0]
        named = sorted(parse_card(t) - 4 for t in first.split(" dealt ")[1].split())
        if not by_outcome == sorted(columns) == named:
            problems.append(f"seat {seat}: outcomes {by_outcome}, tensor columns {sorted(columns)}, names {named}")
    return problems


def test_one_card_numbering_across_outcomes_tensors_and_text() -> None:
    for name in ("standard", "old_comet", "red_nines"):
        assert numbering_problems(load_game(name), 5) == []


def test_a_tensor_numbered_another_way_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the tensor's card columns shifted by one from the chance outcomes."""
    import comet.frameworks.tensors as tensors

    def shifted(out: Any, cards: Any) -> None:
        for c in cards:
            out[0, (c - 4 + 1) % 52] = 1.0

    monkeypatch.setattr(tensors, "cards_into", shifted)
    assert numbering_problems(load_game("old_comet"), 5)
