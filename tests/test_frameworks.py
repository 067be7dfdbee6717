"""The framework-free layer under comet.frameworks.openspiel and comet.frameworks.pettingzoo (spec/frameworks.md):
the canonical action ids, the table from parameters, the deal as chance outcomes, utilities.

Rules exercised through the engine: R-REC-ACTION-ORDER (the legal actions the ids encode),
R-DEAL-ORDER (whose card a chance outcome is), R-SETTLE-POINTS (utilities are the settlement)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from comet import PRESETS, engine
from comet.errors import RecordError
from comet.frameworks.actions import NUM_ACTIONS, action_id, action_of, legal_ids
from comet.frameworks.chance import chance_outcomes, deal_of, seeded_deal, seeded_order
from comet.frameworks.table import Table, make_table, parameter_defaults, table_from_params
from comet.frameworks.utilities import utilities, utility_bounds
from comet.ruleset import RULING_FIELDS, field_readings
from comet.state import Action, DealState
from comet.variant import applies, variant_named


def every_reading() -> Iterator[tuple[str, dict[str, object]]]:
    """Every preset with its own readings, then with each other reading of each ruling that applies."""
    for name, p in PRESETS.items():
        yield name, {}
        for field in RULING_FIELDS:
            if not applies(field, p.rules.variant):
                continue
            for reading in field_readings(field) or ():
                if reading != getattr(p.rules, field):
                    yield name, {field: reading}


def random_deal(table: Table, seed: int) -> Iterator[DealState]:
    rng = random.Random(seed)
    s = seeded_deal(table, seed)
    yield s
    while not s.terminal:
        legal = engine.legal_actions(s)
        s = engine.apply(s, legal[rng.randrange(len(legal))], legal=legal)
        yield s


def test_every_id_decodes_and_encodes_back() -> None:
    for i in range(NUM_ACTIONS):
        assert action_id(action_of(i)) == i
    with pytest.raises(ValueError, match="out of range"):
        action_of(NUM_ACTIONS)
    with pytest.raises(ValueError, match="several ranks"):
        action_id(Action((20, 24)))


def ids_problems(encode: Callable[[Action], int]) -> list[str]:
    """Every legal action of every reading of every preset (one deal each, R-REC-ACTION-ORDER) must
    have an id, distinct from the ids of the other actions legal with it, that decodes to it."""
    problems: list[str] = []
    for i, (name, rulings) in enumerate(every_reading()):
        table = make_table(name, rulings=rulings)
        for s in random_deal(table, i):
            legal = engine.legal_actions(s)
            ids = [encode(a) for a in legal]
            if len(set(ids)) != len(ids):
                problems.append(f"{name} {rulings}: two legal actions share an id: {legal}")
            problems += [
                f"{name}: {a} -> {k} -> {action_of(k)}" for a, k in zip(legal, ids, strict=True) if action_of(k) != a
            ]
        if len(problems) > 5:
            break
    return problems


def test_every_legal_action_of_every_reading_has_its_own_id() -> None:
    assert ids_problems(action_id) == []


def test_an_encoding_that_forgets_the_declared_rank_is_caught() -> None:
    """A planted bug: the wild card's declared rank dropped from the id (R-COMET-WILD's 'as RANK')."""

    def forgetful(a: Action) -> int:
        return action_id(Action(a.cards, 0)) if len(a.cards) == 1 else action_id(a)

    problems = ids_problems(forgetful)
    assert problems and ("share an id" in problems[0] or "->" in problems[0])


def test_parameters_select_preset_players_and_readings() -> None:
    t = table_from_params({**parameter_defaults(), "preset": "opera", "players": 4, "comet_lead": "any_rank"})
    assert (t.preset, t.players, t.dealer) == ("opera", 4, 3)
    assert t.rules.opera and t.rules.comet_lead == "any_rank"
    # A ruling parameter left at the standard game's reading keeps the preset's reading.
    assert table_from_params({**parameter_defaults(), "preset": "red_nines"}).players == 4
    t = table_from_params({**parameter_defaults(), "preset": "old_comet", "old_caught": "nine_only"})
    assert t.rules.old_caught == "nine_only"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"preset": "chess"}, "unknown preset 'chess'"),
        ({"comet_lead": "queen"}, "has no reading 'queen'"),
        ({"old_caught": "nine_only"}, "does not apply to the standard game"),
        ({"players": 9}, "2 to 5 players, not 9"),
        ({"dealer": 7}, "dealer must be a seat from 0 to 2"),
        ({"pack": 5}, "pack must be 0..1"),
        ({"comet_value": -3}, "must not be negative"),
        ({"players": "four"}, "takes a whole number"),
    ],
)
def test_bad_parameters_get_a_plain_message(params: dict[str, object], message: str) -> None:
    with pytest.raises((ValueError, RecordError), match=message):
        table_from_params({**parameter_defaults(), **params})
    with pytest.raises(ValueError, match="unknown ruling 'comet_leed'"):
        make_table("standard", rulings={"comet_leed": "king"})


@pytest.mark.parametrize("name", list(PRESETS))
def test_chance_outcomes_deal_the_engines_deal(name: str) -> None:
    """Dealt card by card (R-DEAL-ORDER through engine.distribute), a seed's shuffle is the engine's
    shuffled_deal for that seed; the outcomes' odds are the cards left, summing to 1."""
    fixed = any(f.field == "deal_order" for f in variant_named(PRESETS[name].rules.variant).fixed)
    for rulings in ({},) if fixed else ({}, {"deal_order": "blocks"}):  # RUL-DEAL-ORDER fixed by 002:42
        table = make_table(name, rulings=rulings)
        for seed in range(3):
            order = seeded_order(table, seed)
            assert deal_of(table, order) == seeded_deal(table, seed)
            for k in (0, len(order) // 2, len(order) - 1):
                odds = chance_outcomes(table, order[:k])
                assert abs(sum(p for _, p in odds) - 1.0) < 1e-9
                assert all(p > 0 for _, p in odds)


def test_utilities_are_the_engines_returns_or_zero_sum_points() -> None:
    """Chip games: engine.returns (R-SETTLE-POINTS); points games: the deal's points about their mean,
    negated where the lowest total wins (Red Nines), so the seat out first is never worse off there."""
    for name, p in PRESETS.items():
        for players in p.variant.player_counts[:2]:
            table = make_table(name, players)
            for seed in range(4):
                *_, end = random_deal(table, seed)
                u = utilities(end)
                assert abs(sum(u)) < 1e-9
                bounds = utility_bounds(table)
                assert bounds.low <= min(u) and max(u) <= bounds.high, (name, players, seed, u, bounds)
                if p.scoring == "chips":
                    assert u == tuple(float(c) for c in engine.returns(end))
                else:
                    points = engine.deal_points(end)
                    sign = -1 if p.variant.lower_wins else 1
                    order = sorted(range(players), key=lambda s: sign * points[s])
                    assert [u[s] for s in order] == sorted(u)


def test_legal_ids_are_sorted_and_exactly_the_engines_actions() -> None:
    table = make_table("standard", 4)
    for s in random_deal(table, 11):
        if s.terminal:
            assert legal_ids(s) == []
            continue
        ids = legal_ids(s)
        assert ids == sorted(ids)
        assert sorted(action_of(i) for i in ids) == sorted(engine.legal_actions(s))


def test_spec_examples_of_action_ids_hold() -> None:
    """spec/frameworks.md's worked ids ("`play 5C` 321") are what action_id gives."""
    import re
    from pathlib import Path

    from comet.notation import parse_action

    text = (Path(__file__).resolve().parent.parent / "spec" / "frameworks.md").read_text(encoding="utf-8")
    examples = re.findall(r"`((?:play|pass)[^`]*)` (?:is )?(\d[\d,]*)", text)
    assert len(examples) >= 7
    for action, ident in examples:
        assert action_id(parse_action(action)) == int(ident.replace(",", "")), action
    assert f"{NUM_ACTIONS:,} ids" in text


def test_every_ruling_field_is_a_parameter() -> None:
    from comet.ruleset import RULING_FIELDS

    assert set(parameter_defaults()) == {"preset", "players", "dealer", "pack", "comet_value", "small", *RULING_FIELDS}


def test_bench_rows_measure_each_installed_wrapper_beside_the_engine() -> None:
    """comet bench's framework rows: steps/s of the engine, then of each installed wrapper with its
    overhead against the engine stated."""
    from comet.frameworks.bench import WRAPPERS, available, framework_rows

    rows = framework_rows("standard", 3, 0.05)
    assert [r[0] for r in rows] == [what for what, module in WRAPPERS if available(module)]
    assert rows[0][0] == "engine-steps" and all(rate > 0 for _, rate, _ in rows)
    assert all("x the engine's time per step" in note for _, _, note in rows[1:])


def test_framework_floors_are_measured_beside_the_wrappers() -> None:
    """``python -m comet.frameworks.bench``: each framework with no rules at all (its floor) runs faster than our
    wrapper of it, and the report states the best ratio a wrapper could reach."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from comet.frameworks.bench import (
        floor_report,
        openspiel_floor_steps,
        openspiel_steps,
        pettingzoo_floor_steps,
        pettingzoo_steps,
    )

    assert openspiel_floor_steps(0.2) > openspiel_steps("standard", 4, 0.2)
    assert pettingzoo_floor_steps(0.2) > pettingzoo_steps("standard", 4, 0.2)
    text = floor_report(0.05)
    assert text.startswith("engine: ") and text.count("so at best") == 2


def test_utility_bounds_cite_the_proved_deal_bound() -> None:
    """R-SETTLE-CAUGHT, R-SETTLE-COMET-LAST: the standard family's bound is spec/proofs.md's obligation 11,
    -(F x P + 4v) .. (n-1)(F x P + 4v) with P = 336 for the two-pack game, F = 4 (8 with the Opera); a preset
    without a proved bound says so."""
    t = make_table("standard", 3)
    b = utility_bounds(t)
    assert (b.low, b.high) == (-(4 * 336 + 4 * 2), 2 * (4 * 336 + 4 * 2)) and b.source.startswith("proved")
    b = utility_bounds(make_table("opera", 4, comet_value=5))
    assert (b.low, b.high) == (-(8 * 336 + 20), 3 * (8 * 336 + 20))
    assert utility_bounds(make_table("two_player")).high == 4 * 336 / 2
    assert utility_bounds(make_table("red_nines", 6)).source.startswith("not proved")


def proof_disagreements(chips: dict[str, dict[int, tuple[int, int]]], points: dict[str, dict[int, int]]) -> list[str]:
    """Each stored per-deal figure against the proofs' (``comet_proofs.bounds``, the stored certificates):
    a figure below the proved one could cut off a real deal; one above it is stale."""
    from comet_proofs.bounds import DEAL_GAIN, DEAL_LOSS, POINTS, proved_bounds_in_value
    from comet_proofs.certificates import Certificates

    out: list[str] = []
    rows = [(g, n) for table in (chips, points) for g, by_n in table.items() for n in by_n]
    for game, n in rows:
        proved = {k: v[0] for k, v in proved_bounds_in_value(game, n, Certificates.stored(game)).items()}
        if game in chips:
            stored = dict(zip((DEAL_LOSS, DEAL_GAIN), chips[game][n], strict=True))
        else:
            stored = {POINTS: points[game][n]}
        for quantity, figure in stored.items():
            if proved.get(quantity) != figure:
                out.append(f"{game} {n} players, {quantity}: stored {figure}, proved {proved.get(quantity)}")
    return out


def test_proved_bounds_of_the_other_presets_are_the_proofs() -> None:
    """Old Comet, Commit and Red Nines: MinUtility/MaxUtility at the preset's readings come from the proofs'
    per-deal bounds (spec/proofs.md "Bounds"; points games with obligation 13), each figure recomputed here
    by Z3 from the stored certificates; another reading or Comet value falls back to the stated envelope."""
    pytest.importorskip("z3")
    from comet.frameworks.utilities import PROVED_CHIPS, PROVED_POINTS

    assert proof_disagreements(PROVED_CHIPS, PROVED_POINTS) == []
    b = utility_bounds(make_table("old_comet", 3))
    assert (b.low, b.high) == (-161, 268) and b.source.startswith("proved")
    b = utility_bounds(make_table("red_nines", 5))
    assert (b.low, b.high) == (-1248, 1248) and "obligation 13" in b.source  # 1560 x 4/5
    assert utility_bounds(make_table("old_comet", 3, comet_value=9)).source.startswith("not proved")
    assert utility_bounds(make_table("commit_hoyle", 3, rulings={"commit_rest": "stop_cards"})).source.startswith(
        "not proved"
    )
    assert utility_bounds(make_table("commit_hoyle", 7)).source.startswith("not proved")


def test_a_figure_below_the_proof_is_caught() -> None:
    """A planted bug: Old Comet's 3-player loss bound stored below what is proved (and one above: stale)."""
    pytest.importorskip("z3")
    low = proof_disagreements({"old_comet": {3: (150, 1102)}}, {})
    assert low and "stored 150, proved 161" in low[0]
    assert proof_disagreements({}, {"commit_cats": {3: 200}})


def test_observations_lie_in_their_space() -> None:
    """The chips so far are divided by the utility bound's scale: every observation lies in [-1, 1]."""
    for name in PRESETS:
        table = make_table(name)
        scale = utility_bounds(table).scale
        for seed in range(3):
            for state in random_deal(table, seed):
                assert all(abs(c) <= scale for c in state.chips())
