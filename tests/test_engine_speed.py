"""The reference engine's speed paths give the same answers as the plain forms they replace.

Speed is measured by bench/replay.py, never here; these tests only check behaviour: the binary
search for a rank's cards (R-FOUR-OF-A-KIND, R-PLAY-CONTINUE), the card-code table, the parse cache,
the state copy, and ``apply(..., legal=)`` (R-PLAY-MUST, R-PLAY-HELD: same verdicts either way)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import pickle
import random
from collections.abc import Callable, Sequence

import pytest
from comet import cards as cards_module
from comet import engine
from comet.cards import CARD_CODES, Card, of_rank, parse_card, rank_of
from comet.engine import STATE_FIELDS, _replace, apply, legal_actions, shuffled_deal
from comet.errors import IllegalAction
from comet.notation import parse_action
from comet.presets import PRESETS, preset
from comet.records.deal_record import CARD_RE, exact_action
from comet.state import PASS, Action, DealState
from comet.variant import variant_of
from hypothesis import given, settings
from hypothesis import strategies as st

hands = st.lists(st.integers(4, 4 * 13 + 3), max_size=20).map(lambda h: tuple(sorted(h)))


def rank_cards_mismatch(find: Callable[[Sequence[Card], int], Sequence[Card]], hand: tuple[Card, ...]) -> str | None:
    """The first rank for which ``find`` disagrees with filtering the hand card by card."""
    for rank in range(1, 14):
        plain = tuple(c for c in hand if rank_of(c) == rank)
        if tuple(find(hand, rank)) != plain:
            return f"rank {rank} in {hand}: {tuple(find(hand, rank))} instead of {plain}"
    return None


@given(hands)
def test_of_rank_finds_exactly_the_cards_of_the_rank(hand: tuple[Card, ...]) -> None:
    assert rank_cards_mismatch(of_rank, hand) is None


def test_a_planted_of_rank_that_misses_the_spades_is_caught() -> None:
    def no_spades(hand: Sequence[Card], rank: int) -> Sequence[Card]:
        return [c for c in of_rank(hand, rank) if c != rank * 4 + 3]

    problem = rank_cards_mismatch(no_spades, (8, 11, 11, 20))
    assert problem is not None and problem.startswith("rank 2 in (8, 11, 11, 20)"), problem


def test_card_codes_are_exactly_the_codes_the_record_grammar_accepts() -> None:
    candidates = {r + s for r in [*map(str, range(0, 15)), "A", "J", "Q", "K", "T", "a", "10 "] for s in "CDHScdhs"}
    accepted = {t for t in candidates if CARD_RE.fullmatch(t)}
    assert set(CARD_CODES) == accepted and len(accepted) == 52
    assert all(parse_card(t) == c for t, c in CARD_CODES.items())
    assert cards_module.black_pack() is cards_module.black_pack()  # built once, never changed


@pytest.mark.parametrize("text", ["pass", "play 5H", "play 9D as 2", "play 9C 9C 9S 9S"])
def test_exact_action_parses_well_formed_actions_once(text: str) -> None:
    assert exact_action(text) == parse_action(text) and exact_action(text) is exact_action(text)


@pytest.mark.parametrize("text", ["Play 5H", "play  5H", "play 5H as", "play 5h", "pass "])
def test_exact_action_refuses_what_the_grammar_refuses(text: str) -> None:
    assert exact_action(text) is None


def random_positions(count: int, seed: int) -> list[DealState]:
    """States met in random play of random presets and player counts."""
    rng = random.Random(seed)
    out: list[DealState] = []
    while len(out) < count:
        p = preset(rng.choice(sorted(PRESETS)))
        players = rng.choice(p.variant.player_counts)
        s = shuffled_deal(p.rules, players, rng.randrange(players), rng.randrange(10**6))
        while not s.terminal and len(out) < count:
            out.append(s)
            s = apply(s, rng.choice(legal_actions(s)))
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_apply_with_the_legal_actions_given_is_apply(seed: int) -> None:
    """Every legal action gives the same state with ``legal=``; an illegal one the same rule."""
    for s in random_positions(30, seed):
        legal = legal_actions(s)
        for a in legal:
            assert apply(s, a, legal=legal) == apply(s, a)
        for bad in (PASS, Action((s.hands[s.to_move][0] if s.hands[s.to_move] else 8,), 13)):
            if bad in legal:
                continue
            with pytest.raises(IllegalAction) as plain:
                apply(s, bad)
            with pytest.raises(IllegalAction) as given_legal:
                apply(s, bad, legal=legal)
            assert plain.value.rule == given_legal.value.rule


def test_replace_is_dataclasses_replace() -> None:
    s = random_positions(5, 1)[-1]
    assert _replace(s, to_move=1, run=(5,), turn_played=True) == dataclasses.replace(
        s, to_move=1, run=(5,), turn_played=True
    )
    assert _replace(s) == s and _replace(s) is not s


def replace_calls_with_unknown_fields(source: str) -> list[str]:
    """Every ``_replace(...)`` call in ``source`` that names a keyword ``DealState`` has no field for."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_replace":
            bad += [f"line {node.lineno}: {k.arg}" for k in node.keywords if k.arg not in STATE_FIELDS]
    return bad


def test_every_replace_call_names_real_fields() -> None:
    """``_replace`` does not check its keywords at run time (it is on every action's path); the source does."""
    assert replace_calls_with_unknown_fields(inspect.getsource(engine)) == []
    assert replace_calls_with_unknown_fields("_replace(s, to_mvoe=1)") == ["line 1: to_mvoe"]


def test_a_ruleset_without_overrides_is_the_same_ruleset() -> None:
    rules = preset("opera").rules
    assert rules.with_overrides({}) is rules
    assert rules.with_overrides({"new_run": "may"}).new_run == "may"


def lean_mismatch(legal: Callable[[DealState], tuple[Action, ...]], states: Sequence[DealState]) -> str | None:
    """The first state at which ``legal`` differs from the general path of ``legal_actions``."""
    for s in states:
        if s.terminal or variant_of(s.rules).legal_actions is not None:
            continue
        general = engine.general_legal_actions(s, s.rules, s.hands[s.to_move])
        if legal(s) != general:
            return f"step {s.steps} of a {s.rules.variant} deal: {legal(s)} instead of {general}"
    return None


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_the_lean_paths_list_what_the_general_path_lists(seed: int) -> None:
    """R-LEAD-ANY, R-PLAY-CONTINUE, R-PLAY-MUST, R-COMET-WILD, R-FOUR-OF-A-KIND: ``legal_actions``' lean paths
    (the default readings) give the very actions of the general path, in every preset's positions."""
    assert lean_mismatch(legal_actions, random_positions(60, seed)) is None


def test_a_planted_lean_path_that_forgets_the_quartet_is_caught() -> None:
    """A lean continue path without R-FOUR-OF-A-KIND differs from the general path where a hand holds all four."""
    position = next(s for s in random_positions(4000, 3) if any(len(a.cards) >= 3 for a in legal_actions(s)))

    def no_quartet(s: DealState) -> tuple[Action, ...]:
        return tuple(a for a in legal_actions(s) if len(a.cards) < 3)

    problem = lean_mismatch(no_quartet, [position])
    assert problem is not None and "instead of" in problem, problem


def rules_fields_read(functions: Sequence[Callable[..., object]]) -> set[str]:
    """Every ``rules.X`` / ``state.rules.X`` attribute the source of ``functions`` reads."""
    read: set[str] = set()
    for fn in functions:
        for node in ast.walk(ast.parse(inspect.getsource(fn).strip())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "rules":
                read.add(node.attr)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "rules":
                read.add(node.attr)
    return read - {"variant"}


GENERAL_PATH = (
    engine.general_legal_actions,
    engine.may_pass_stuck_restart,
    engine.lead_quartets,
    engine.sets_of_rank,
    engine.quartet,
    engine.any_sets,
    engine.lowest_rank,
    engine.natural_cards,
)


def test_the_lean_paths_assume_every_reading_the_general_path_makes() -> None:
    """Every ruling field the general path reads is in ``LEGAL_FIELDS`` (checked at its defaults before a lean
    path is taken); a field read there and missing from the list is named."""
    assert rules_fields_read(GENERAL_PATH) <= set(engine.LEGAL_FIELDS)

    def reads_a_new_field(state: DealState) -> bool:
        return state.rules.comet_bonus_last == "plain"

    assert rules_fields_read([*GENERAL_PATH, reads_a_new_field]) - set(engine.LEGAL_FIELDS) == {"comet_bonus_last"}


#: What the engine writes into a new state's dictionary besides its fields: ``DealState.terminal``, derived.
DERIVED_KEYS = frozenset({"terminal"})


def new_state_keys_unknown(source: str) -> list[str]:
    """Every key written into the copy of a state's fields that the next state is built from
    (``fields["key"] = ...``, as ``end_turn`` and ``play`` do; or merged in, ``fields | {...}``) that is
    neither a field of ``DealState`` nor a derived key it keeps (``DERIVED_KEYS``)."""
    known = STATE_FIELDS | DERIVED_KEYS
    keys: list[tuple[int, object]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and isinstance(node.right, ast.Dict):
            keys += [(node.lineno, k.value) for k in node.right.keys if isinstance(k, ast.Constant)]
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "fields"
                    and isinstance(target.slice, ast.Constant)
                ):
                    keys.append((node.lineno, target.slice.value))
    return [f"line {line}: {k}" for line, k in keys if k not in known]


def test_every_new_state_names_real_fields() -> None:
    """``end_turn`` and ``play`` build the next state from a copy of the fields with the changes written in:
    every key written is a field (or the derived ``terminal``); a misspelt one is named."""
    assert new_state_keys_unknown(inspect.getsource(engine)) == []
    assert new_state_keys_unknown('_set_attribute(a, "__dict__", d | {"to_mvoe": 1})') == ["line 1: to_mvoe"]
    assert new_state_keys_unknown('fields = d.copy()\nfields["to_mvoe"] = 1\nfields["terminal"] = 0') == [
        "line 2: to_mvoe"
    ]


def test_terminal_is_the_deal_being_over_however_the_state_was_made() -> None:
    """R-END-OUT: ``terminal`` (kept in the state's dictionary once known) follows ``winner`` and ``drawn``
    through the engine's transitions, ``_replace`` and ``dataclasses.replace``."""
    for s in random_positions(300, 5):
        for a in legal_actions(s):
            after = apply(s, a)
            assert after.terminal == (after.winner >= 0 or after.drawn), (s, a)
            # made as _new_state makes it, the next state is a DealState like one built field by field
            assert type(after) is DealState and after == dataclasses.replace(after), (s, a)
            assert pickle.loads(pickle.dumps(after)) == after
        over = _replace(s, winner=s.to_move)
        assert over.terminal and not _replace(over, winner=-1).terminal
        assert dataclasses.replace(over, winner=-1).terminal is s.drawn


def test_the_shortcuts_of_a_run_list_what_the_general_path_lists() -> None:
    """R-PLAY-MUST, R-COMET-OPTIONAL: the positions ``legal_actions`` answers from a table (one card of the
    rank needed, two, or only the Comet) are each met in standard deals, and each answer is the general path's."""
    met = {"one card": 0, "two cards": 0, "only the Comet": 0}
    rng = random.Random(11)
    for seed in range(150):
        players = 2 + seed % 4
        s = shuffled_deal(preset("standard").rules, players, seed % players, seed)
        while not s.terminal:
            legal = legal_actions(s)
            if s.run and not s.free_lead:
                assert legal == engine.general_legal_actions(s, s.rules, s.hands[s.to_move]), s
                if legal[0] == PASS and len(legal) == 2 and legal[1].as_rank:
                    met["only the Comet"] += 1
                elif not legal[0].is_pass and all(len(a.cards) == 1 and not a.as_rank for a in legal):
                    met["one card" if len(legal) == 1 else "two cards"] += 1
            s = apply(s, rng.choice(legal), legal=legal)
    assert min(met.values()) > 0, met


def test_the_card_points_table_is_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-POINTS: ``points_in_hand`` reads ``CARD_POINTS`` while ``card_points`` is the rule as written;
    the table gives every card the rule's value, and a replaced ``card_points`` is obeyed, not the table."""
    assert [engine.CARD_POINTS[c] for c in range(len(engine.CARD_POINTS))] == [
        engine.card_points(c) for c in range(len(engine.CARD_POINTS))
    ]
    state = random_positions(1, 2)[0]
    hand = state.hands[0]
    assert engine.points_in_hand(state, hand) == sum(engine.card_points(c) for c in hand)
    monkeypatch.setattr(engine, "card_points", lambda c: 1)
    assert engine.points_in_hand(state, hand) == len(hand)
