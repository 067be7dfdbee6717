"""Playing ``python_comet``: OpenSpiel's playthroughs of every preset (spec/playthroughs/, regenerated with
``write_playthroughs``), its stock MCTS and information-set MCTS bots, and a deal played against random seats
(bench/framework_bots.py).  Importing this module registers the game (through ``comet.frameworks.openspiel``)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from comet.frameworks.openspiel import SHORT_NAME, CometGame, CometState


def playthrough_game_string(preset: str) -> str:
    return f"{SHORT_NAME}(preset={preset})"


def playthrough_text(game_string: str, actions: list[int] | None = None, seed: int = 0) -> str:
    """OpenSpiel's playthrough of ``game_string`` (``generate_playthrough``): a random deal drawn with
    ``seed``, or the given ``actions``."""
    from open_spiel.python.algorithms import generate_playthrough

    text: str = generate_playthrough.playthrough(game_string, actions, seed=seed)
    return text


def playthrough_actions(text: str) -> tuple[str, list[int]]:
    """The game string and the actions (chance outcomes included) of a stored playthrough."""
    game = ""
    actions: list[int] = []
    for line in text.splitlines():
        if line.startswith("game: "):
            game = line[len("game: ") :]
        elif line.startswith("action: "):
            actions.append(int(line[len("action: ") :]))
    if not game:
        raise ValueError("not a playthrough: no 'game:' line")
    return game, actions


def write_playthroughs(directory: str, seed: int = 0) -> list[str]:
    """One playthrough per preset into ``directory`` (spec/playthroughs/); returns the files written."""
    from pathlib import Path

    from comet.presets import PRESETS

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in PRESETS:
        path = out / f"{name}.txt"
        path.write_text(playthrough_text(playthrough_game_string(name), seed=seed), encoding="utf-8")
        written.append(str(path))
    return written


def mcts_bot(game: CometGame, simulations: int, seed: int, uct_c: float = 20.0) -> pyspiel.Bot:
    """OpenSpiel's stock MCTS bot (random rollouts).  It searches the true state, hidden cards
    included: a perfect-information baseline, not a fair player (see ``ismcts_bot``)."""
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)


def ismcts_bot(game: CometGame, simulations: int, seed: int, uct_c: float = 20.0) -> pyspiel.Bot:
    """OpenSpiel's stock information-set MCTS bot, searching deals redealt from what its seat knows
    (``CometState.resample_deal``), so it never sees a hidden card.  (A bare ``ISMCTSBot`` works too:
    it calls ``resample_from_infostate``; this one draws its redeals from ``seed``.)"""
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(seed)
    rng = random.Random(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, simulations, random_state=rs)
    bot.set_resampler(lambda state, player: state.resample_deal(player, rng))
    return bot


def play_against_random(game: CometGame, bot: pyspiel.Bot, seat: int, seed: int) -> CometState:
    """One whole deal: ``bot`` at ``seat``, uniform random players elsewhere, chance by its odds."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
