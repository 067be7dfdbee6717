"""Shared Hypothesis strategies and the deal state machine (issue 3: stateful fuzzing).

Everything is generic over ``comet.presets.PRESETS``: the preset is drawn, the ruleset draws
every field of ``Ruleset`` that applies to it (``comet.fuzz.preset_fields``, ``field_choices``),
player counts come from what the preset's rules accept, deals from ``shuffled_deal``/``explicit_deal`` (through
``comet.fuzz.make_deal``, which also builds the hand-shaped extremes).  The invariants are
those of ``comet.checks``, shared with ``comet fuzz``.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from comet import engine
from comet.checks import Counterexample, check_rejection, check_replay, check_state, check_terminal, check_transition
from comet.checks.coverage import all_rule_ids
from comet.engine import player_counts
from comet.fuzz import EXTREMES, INT_RANGE, make_deal, pack_count, preset_fields, ruleset_from_choices
from comet.presets import PRESETS
from comet.ruleset import Ruleset, field_readings
from comet.state import Action, DealState
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

KNOWN_RULES = all_rule_ids()
# How often the terminal settlement could not be recomputed, per variant (reported, never passed).
SETTLEMENT_SKIPPED: Counter[str] = Counter()


def budget(ci: int) -> int:
    """``ci`` examples under the ``ci`` profile, scaled up with the profile's max_examples."""
    from hypothesis import settings

    current = settings.default
    examples = 100 if current is None else current.max_examples
    return max(1, ci * examples // 100)


preset_names = st.sampled_from(sorted(PRESETS))


@st.composite
def rulesets(draw: st.DrawFn, preset_name: str | None = None) -> Ruleset:
    """A preset's ruleset with every ruling field that applies to it drawn (all their readings
    reachable; the others stay at their defaults, ``comet.ruleset.applies``)."""
    name = draw(preset_names) if preset_name is None else preset_name
    base = PRESETS[name].rules
    values: dict[str, object] = {}
    for field in preset_fields(name):
        readings = field_readings(field)
        values[field] = draw(st.integers(*INT_RANGE) if readings is None else st.sampled_from(readings))
    return ruleset_from_choices(base, values)


# Hypothesis shrinks a sampled_from towards its first element: a deal the first player can end
# in one turn comes first, so failing deals shrink towards the shortest deals there are.
SHAPES = ("one_turn_out", *(k for k in EXTREMES if k != "one_turn_out"))

comet_values = st.one_of(st.sampled_from((0, 2, 4, 6)), st.integers(0, 40))


@st.composite
def deal_starts(draw: st.DrawFn, rules: Ruleset | None = None, extremes: bool = True) -> DealState:
    """A fresh deal: rules, player count, dealer, pack in rotation, Comet value, shuffle, shape."""
    r = draw(rulesets()) if rules is None else rules
    players = draw(st.sampled_from(player_counts(r)))
    kind = draw(st.sampled_from(SHAPES)) if extremes else "shuffled"
    return make_deal(
        r,
        players,
        draw(st.integers(0, players - 1)),
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(0, pack_count(r, players) - 1)),
        draw(comet_values),
        kind,
        draw(st.integers(0, players - 1)),
    )


@st.composite
def arbitrary_actions(draw: st.DrawFn, state: DealState) -> Action:
    """Any action at all: cards from anywhere in the pack (held or not), any rank to stand for."""
    pool = sorted({c for h in state.hands for c in h} | set(state.played) | set(state.dead))
    hand = state.hands[state.to_move]
    from_hand: bool = draw(st.booleans())
    source = st.sampled_from(hand) if hand and from_hand else st.sampled_from(pool)
    cards = draw(st.lists(source, min_size=0, max_size=4))
    as_rank = draw(st.one_of(st.just(0), st.integers(-1, 15)))
    return Action(tuple(sorted(cards)), as_rank)


class DealMachine(RuleBasedStateMachine):
    """One deal, played step by step by Hypothesis among the legal actions (every Comet choice
    included), with every invariant of ``comet.checks`` checked after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.start: DealState | None = None
        self.state: DealState | None = None
        self.actions: list[Action] = []
        self.settled = False

    # -- helpers
    def record(self) -> str:
        assert self.start is not None
        return Counterexample(self.start, tuple(self.actions)).text()

    def expect(self, problems: list[str]) -> None:
        assert not problems, "; ".join(problems) + "\n" + self.record()

    def step(self, action: Action) -> None:
        assert self.state is not None and self.start is not None
        before = self.state
        self.actions.append(action)
        self.state = engine.apply(before, action)
        self.expect(check_transition(before, action, self.state) + check_state(self.state, self.start))

    @property
    def live(self) -> bool:
        return self.state is not None and not self.state.terminal

    # -- rules
    @initialize(start=deal_starts())
    def deal(self, start: DealState) -> None:
        self.start = self.state = start
        self.expect(check_state(start, start))

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        assert self.state is not None
        self.step(data.draw(st.sampled_from(engine.legal_actions(self.state)), label="action"))

    @precondition(lambda self: self.live)
    @rule(seed=st.integers(0, 2**16), n=st.integers(1, 40))
    def play_several(self, seed: int, n: int) -> None:
        rng = random.Random(seed)
        for _ in range(n):
            if not self.live:
                return
            assert self.state is not None
            legal = engine.legal_actions(self.state)
            self.step(legal[rng.randrange(len(legal))])

    @precondition(lambda self: self.state is not None and self.state.terminal)
    @rule()
    def settle(self) -> None:
        assert self.state is not None and self.start is not None
        problems, skipped = check_terminal(self.state)
        if skipped and not self.settled:
            SETTLEMENT_SKIPPED[self.state.rules.variant] += 1
        self.settled = True
        self.expect(problems + check_replay(self.start, self.actions, self.state))

    @invariant()
    def rebuilt_from_history(self) -> None:
        if self.start is not None and self.state is not None and len(self.actions) % 8 == 0:
            self.expect(check_replay(self.start, self.actions, self.state))


class LegalityMachine(DealMachine):
    """The deal machine plus arbitrary (mostly illegal) actions offered at every step: the model
    must accept exactly those in ``legal_actions`` and reject the others with a known rule id."""

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def offer_arbitrary(self, data: st.DataObject) -> None:
        assert self.state is not None
        action = data.draw(arbitrary_actions(self.state), label="arbitrary action")
        problems = check_rejection(self.state, action, set(KNOWN_RULES))
        self.expect([f"{p} (offered {action})" for p in problems])
        if action in engine.legal_actions(self.state):
            self.step(action)


ACTIONS_LINE = re.compile(r"^actions \((\d+)\):", re.MULTILINE)


def counterexample_length(message: str) -> int:
    """The number of actions in a counterexample printed by ``Counterexample.text``."""
    m = ACTIONS_LINE.search(message)
    assert m is not None, f"no deal record in the failure message:\n{message}"
    return int(m.group(1))
