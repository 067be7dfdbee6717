"""The naive yardstick of ``bench/naive.py`` agrees with the reference engine, action for action.

``comet bench`` measures the reference engine against that yardstick (issue 21), so the yardstick has
to be a correct implementation of the standard game: same legal actions in the same canonical order
(R-REC-ACTION-ORDER) at every step, same winner (R-END-OUT) and same chips (R-COMET-BONUS,
R-SETTLE-POINTS, R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST) over random deals of 2 to 5 players and both
packs (R-PACK-BLACK, R-PACK-RED); its replay agrees with ``replay_record``.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from comet.cards import card_text
from comet.engine import apply, legal_actions, packs_in_rotation, returns, shuffled_deal
from comet.records.deal_record import loads_record, record_from_state, replay_record
from comet.ruleset import Ruleset
from comet.state import Action, DealState

BENCH = Path(__file__).resolve().parent.parent / "bench" / "naive.py"


def load_naive() -> ModuleType:
    spec = importlib.util.spec_from_file_location("comet_bench_naive", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


NAIVE = load_naive()


def patch(module: ModuleType, name: str, value: object) -> None:
    """Plant a bug: replace one function of a freshly loaded yardstick."""
    module.__dict__[name] = value


def naive_from(state: DealState, naive: ModuleType) -> dict[str, object]:
    hands = [[card_text(c) for c in h] for h in state.hands]
    dead = [card_text(c) for c in state.dead]
    comet = card_text(state.wild[0])
    deal: dict[str, object] = naive.new_deal(state.players, state.dealer, hands, dead, comet, state.comet_value)
    return deal


def first_difference(players: int, seed: int, red: bool, naive: ModuleType = NAIVE) -> str | None:
    """Play one random deal through both; the first point where they disagree, or None."""
    rules = Ruleset()
    pack = packs_in_rotation(rules, players)[1 if red else 0]
    state = shuffled_deal(rules, players, seed % players, seed, pack=pack)
    deal = naive_from(state, naive)
    rng = random.Random(seed)
    while True:
        ref = [str(a) for a in legal_actions(state)]
        mine = naive.legal(deal)
        if ref != mine:
            return f"step {state.steps}: reference {ref} but naive {mine}"
        if not ref:
            break
        i = rng.randrange(len(ref))
        state = apply(state, legal_actions(state)[i])
        naive.apply(deal, ref[i])
    if (state.winner, list(returns(state))) != (deal["winner"], naive.chips(deal)):
        return f"end: reference {state.winner} {returns(state)} but naive {deal['winner']} {naive.chips(deal)}"
    return None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("red", [False, True])
def test_yardstick_agrees_with_the_reference(players: int, red: bool) -> None:
    """R-REC-ACTION-ORDER, R-PLAY-MUST, R-SETTLE-POINTS: 150 random deals, every step compared."""
    for seed in range(150):
        assert first_difference(players, seed, red) is None, (players, seed, red)


def test_yardstick_replay_agrees_with_replay_record() -> None:
    """R-REC-STATE: the naive replay of a record gives the verdict ``replay_record`` gives."""
    rules = Ruleset()
    for seed in range(60):
        players = 2 + seed % 4
        start = shuffled_deal(rules, players, seed % players, seed, pack=packs_in_rotation(rules)[seed % 2])
        state, rng = start, random.Random(seed)
        actions: list[Action] = []
        while not state.terminal and len(actions) < 10 + seed * 3:
            action = rng.choice(legal_actions(state))
            actions.append(action)
            state = apply(state, action)
        text = json.dumps(record_from_state(start, "standard", actions).to_json())
        verdict = replay_record(loads_record(text))
        mine = NAIVE.replay(json.loads(text))
        assert mine["legal"] is True
        assert mine["finished"] == state.terminal
        assert verdict.legal
        assert mine["chips"] == list(returns(state))

def test_yardstick_refuses_an_illegal_action() -> None:
    """R-PLAY-MUST: a pass while holding the needed rank is refused by the naive replay too."""
    state = shuffled_deal(Ruleset(), 4, 0, 3)
    lead = legal_actions(state)[0]
    after = apply(state, lead)
    needed = [a for a in legal_actions(after) if not a.is_pass]
    record = record_from_state(state, "standard", [lead]).to_json()
    record["actions"] = [str(lead), "pass"]
    verdict = NAIVE.replay(record)
    assert verdict["legal"] is (not needed or any(a.is_pass for a in legal_actions(after)))


def test_planted_bugs_in_the_yardstick_are_caught() -> None:
    """The comparison can fail: a yardstick that forgets the Comet's bonus (R-COMET-BONUS) differs at the
    end of a deal, and one that never lets a player pass while holding the Comet (R-COMET-OPTIONAL)
    differs in its legal actions."""
    no_bonus = load_naive()
    apply_all = no_bonus.apply

    def apply_without_bonus(deal: dict[str, list[object]], text: str) -> None:
        before = len(deal["payments"])
        apply_all(deal, text)
        del deal["payments"][before:]

    patch(no_bonus, "apply", apply_without_bonus)
    found = [first_difference(3, seed, False, no_bonus) for seed in range(20)]
    assert any(f is not None and f.startswith("end:") for f in found)

    no_pass = load_naive()
    legal_all = no_pass.legal
    patch(no_pass, "legal", lambda deal: [a for a in legal_all(deal) if a != "pass"] or legal_all(deal))
    found = [first_difference(4, seed, True, no_pass) for seed in range(20)]
    assert any(f is not None and f.startswith("step") for f in found)
