"""Which rulings apply to which presets: the fields each game family declares (``Variant.rulings``, derived
per field by ``comet.ruleset.families_reading``) against the spec's
``**Applies to.**`` lines, the rejection of a reading that does not apply (RUL-OPERA on a Commit or Red
Nines preset, and every other field generically), the fuzzers drawing only the fields that apply, and an
empirical check that a field outside its variants really changes nothing (so rejecting it loses nothing).

Rulings exercised: RUL-OPERA (and every other ruling through the table); rules R-OPERA-DOUBLE,
R-COMMIT-H-POOL, R-DEAL-ORDER.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence

import pytest
from comet import engine
from comet.cli import main
from comet.errors import RecordError
from comet.fuzz import INT_RANGE, preset_fields, random_ruleset
from comet.game import play_game
from comet.policy import simple_policy
from comet.presets import PRESETS
from comet.records.deal_record import loads_record
from comet.ruleset import RULING_FIELDS, RULING_OF, Ruleset, VariantName, field_readings
from comet.state import DealState, GameState, Payment
from comet.variant import REGISTRY, applies, families_reading, variant_named
from hypothesis import HealthCheck, given, settings
from spec_checks import Section, applies_to, parse_files, spec_files
from strategies import rulesets

SECTIONS = parse_files(spec_files()).sections
VARIANTS: tuple[VariantName, ...] = tuple(dict.fromkeys(p.rules.variant for p in PRESETS.values()))


def declared() -> dict[str, tuple[str, tuple[VariantName, ...]]]:
    """Field -> (its ruling id, the families that declare they read it), for the fields some family reads."""
    return {f: (RULING_OF.get(f, ""), families_reading(f)) for f in RULING_FIELDS if families_reading(f)}


def table_problems(sections: Sequence[Section], table: Mapping[str, tuple[str, tuple[VariantName, ...]]]) -> list[str]:
    """``table`` (field -> ruling id, variants) against the spec: the field's readings stand in that
    ruling's section, and its variants are exactly those of the presets its ``**Applies to.**`` line names."""
    problems: list[str] = []
    for field in RULING_FIELDS:
        if field not in table:
            problems.append(f"Ruleset field {field!r} is read by no game family")
            continue
        ruling, variants = table[field]
        holders = [s for s in sections if s.kind == "ruling" and any(r.field == field for r in s.readings)]
        if [s.id for s in holders] != [ruling]:
            problems.append(f"{field}: RULING_OF names {ruling}, its readings stand in {[s.id for s in holders]}")
            continue
        named = applies_to(holders[0])
        spec = {PRESETS[p].rules.variant for p in named if p in PRESETS}
        if spec != set(variants):
            problems.append(
                f"{field}: the families declare the variants {sorted(variants)}, but {ruling}'s Applies to line "
                f"({', '.join(named)}) gives {sorted(spec)}"
            )
    problems.extend(f"RULING_OF names {f!r}, which is no Ruleset field" for f in table if f not in RULING_FIELDS)
    return problems


def test_the_table_agrees_with_the_applies_to_lines() -> None:
    assert table_problems(SECTIONS, declared()) == []
    assert set(RULING_OF) == set(RULING_FIELDS)


def hello_problems(sections: Sequence[Section], hello: Mapping[str, object]) -> list[str]:
    """The presets ``hello`` lists for each ruling field against its ruling's ``**Applies to.**`` line,
    preset by preset (issue 34 point 7: RUL-OPERA's line left out the ``opera`` preset that hello lists)."""
    by_id = {s.id: s for s in sections if s.kind == "ruling"}
    problems: list[str] = []
    for field, entry in sorted(hello.items()):
        assert isinstance(entry, dict)
        section = by_id.get(str(entry["ruling"]))
        if section is None:
            problems.append(f"{field}: hello names {entry['ruling']}, which has no section")
            continue
        named, listed = set(applies_to(section)), set(map(str, entry["presets"]))
        if named != listed:
            problems.append(
                f"{field}: {entry['ruling']}'s Applies to line names {sorted(named)}, hello lists {sorted(listed)}"
            )
    return problems


def test_the_applies_to_lines_name_the_presets_hello_lists() -> None:
    """Every ruling's ``**Applies to.**`` line names exactly the presets ``comet oracle``'s hello lists for
    its field.  Planted: hello listing a preset the line leaves out is reported by field."""
    from comet.oracle.protocol import handle

    result = handle({"id": 0, "op": "hello"})["result"]
    assert isinstance(result, dict)
    rulings = result["rulings"]
    assert isinstance(rulings, dict)
    assert hello_problems(SECTIONS, rulings) == []
    planted = json.loads(json.dumps(rulings))
    planted["opera"]["presets"].append("commit_hoyle")
    assert hello_problems(SECTIONS, planted) == [
        "opera: RUL-OPERA's Applies to line names ['old_comet', 'opera', 'standard', 'two_player'], hello lists "
        "['commit_hoyle', 'old_comet', 'opera', 'standard', 'two_player']"
    ]


def test_a_table_that_strays_from_the_spec_is_reported() -> None:
    """Planted: the declarations claim RUL-OPERA applies to commit_hoyle, drop a field and name another ruling."""
    bad = declared()
    bad["opera"] = ("RUL-OPERA", (*bad["opera"][1], "commit_hoyle"))
    del bad["red_nines_out"]
    bad["commit_stake"] = ("RUL-COMMIT-H-FIVE", ("commit_hoyle",))
    assert table_problems(SECTIONS, bad) == [
        "opera: the families declare the variants ['commit_hoyle', 'old_comet', 'standard', 'two_player'], but "
        "RUL-OPERA's Applies to line (standard, opera, two_player, old_comet) gives ['old_comet', 'standard', 'two_player']",
        "commit_stake: RULING_OF names RUL-COMMIT-H-FIVE, its readings stand in ['RUL-COMMIT-H-STAKE']",
        "Ruleset field 'red_nines_out' is read by no game family",
    ]


# ----------------------------------------------------------------- rejection


@pytest.mark.parametrize("name", ["commit_hoyle", "commit_cats", "red_nines"])
def test_opera_is_rejected_where_it_does_not_apply(name: str) -> None:
    """RUL-OPERA applies to standard, two_player and old_comet only: elsewhere ``opera=true`` is an error
    naming the ruling and the presets; the default reading (false) is accepted."""
    with pytest.raises(ValueError) as e:
        PRESETS[name].rules.with_overrides({"opera": "true"})
    assert str(e.value) == (
        f"ruling 'opera' (RUL-OPERA) does not apply to the {name} game; "
        "it applies to the presets standard, opera, two_player, old_comet"
    )
    assert PRESETS[name].rules.with_overrides({"opera": "false"}) == PRESETS[name].rules
    assert PRESETS["two_player"].rules.with_overrides({"opera": True}).opera is True


def test_every_reading_outside_its_variants_is_rejected() -> None:
    """Generic: for every field, every variant its ruling does not apply to and every other reading,
    ``with_overrides`` raises a ValueError naming the field, its ruling and the presets it applies to."""
    checked = 0
    for field, (ruling, variants) in declared().items():
        default = getattr(Ruleset(), field)
        others = [r for r in field_readings(field) or (default + 7,) if r != default]
        for variant in VARIANTS:
            base = Ruleset(variant=variant)
            for value in others:
                if variant in variants:
                    assert getattr(base.with_overrides({field: value}), field) == value
                    continue
                if any(f.field == field for f in variant_named(variant).fixed):
                    with pytest.raises(ValueError, match=rf"ruling '{field}' \({ruling}\) is fixed in the {variant}"):
                        base.with_overrides({field: value})
                    continue
                with pytest.raises(ValueError, match=rf"ruling '{field}' \({ruling}\) does not apply") as e:
                    base.with_overrides({field: value})
                listed = str(e.value).split("it applies to the presets ")[1].split(", ")
                assert listed == [p.name for p in PRESETS.values() if p.rules.variant in variants], str(e.value)
                assert base.with_overrides({field: default}) == base
                assert _with(base, field, value).inapplicable() == (field,)
                checked += 1
    assert checked > 100


def test_the_command_line_and_records_reject_it_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """RUL-OPERA through ``--ruling`` (exit 2, one line on stderr) and a record's ``rulings`` (RecordError)."""
    assert main(["deal", "--preset", "commit_cats", "--ruling", "opera=true"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "RUL-OPERA" in err and "two_player" in err and "Traceback" not in err
    start = engine.shuffled_deal(PRESETS["red_nines"].rules, 4, 3, 1)
    record = {
        "variant": "red_nines",
        "rulings": {"red_nines_many": "cap_four", "opera_stack": "highest"},
        "players": 4,
        "dealer": 3,
        "hands": [[_code(c) for c in h] for h in start.hands],
        "dead": [],
        "actions": [],
    }
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps(record)).ruleset()
    assert e.value.kind == "ruling" and "'opera_stack' (RUL-OPERA-STACK)" in str(e.value)


def _code(c: int) -> str:
    from comet.cards import card_text

    return card_text(c).replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")


# ----------------------------------------------------------------- the fuzzers


def test_the_fuzzer_draws_every_reading_that_applies_and_nothing_else() -> None:
    """``random_ruleset`` draws only the fields that apply to a preset, and every reading of every field
    is reached for every preset it applies to."""
    rng = random.Random(3)
    for name, p in PRESETS.items():
        fields = preset_fields(name)
        assert set(fields) == {f for f in RULING_FIELDS if applies(f, p.rules.variant)}
        seen: dict[str, set[object]] = {f: set() for f in fields}
        for _ in range(200):
            r = random_ruleset(name, rng)
            assert r.variant == p.rules.variant and r.inapplicable() == ()
            for f in fields:
                seen[f].add(getattr(r, f))
        for f in fields:
            want = field_readings(f)
            if want is None:
                ints = {v for v in seen[f] if isinstance(v, int)}
                assert ints == seen[f] and len(ints) > 50 and min(ints) >= INT_RANGE[0], f
            else:
                assert seen[f] == set(want), (name, f, seen[f])
    assert {f for name in PRESETS for f in preset_fields(name)} == set(RULING_FIELDS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets())
def test_the_hypothesis_strategy_draws_only_fields_that_apply(rules: Ruleset) -> None:
    assert rules.inapplicable() == ()


# ----------------------------------------------------------------- outside its variants a field does nothing


def _with(base: Ruleset, field: str, value: object) -> Ruleset:
    """``base`` with one field set, bypassing ``with_overrides`` (and so its check)."""
    return dataclasses.replace(base, **{field: value})  # type: ignore[arg-type]


def _other_reading(field: str) -> object:
    default = getattr(Ruleset(), field)
    readings = field_readings(field)
    return default + 7 if readings is None else next(r for r in readings if r != default)


def deal_difference(a_rules: Ruleset, b_rules: Ruleset, players: int, seed: int) -> str | None:
    """Play the same shuffled deal under both rulesets (the same random choices); the first place
    where the legal actions, the states (rules aside), the settlement or the points differ."""
    rng = random.Random(seed)
    a = engine.shuffled_deal(a_rules, players, seed % players, seed)
    b = engine.shuffled_deal(b_rules, players, seed % players, seed)
    step = 0
    while True:
        if dataclasses.replace(b, rules=a_rules) != a:
            return f"step {step}: the states differ"
        if a.terminal:
            break
        la, lb = engine.legal_actions(a), engine.legal_actions(b)
        if la != lb:
            return f"step {step}: legal actions {[str(x) for x in la]} vs {[str(x) for x in lb]}"
        act = la[rng.randrange(len(la))]
        a, b = engine.apply(a, act), engine.apply(b, act)
        step += 1
    if engine.settlement(a) != engine.settlement(b):
        return f"settlement {engine.settlement(a)} vs {engine.settlement(b)}"
    if engine.deal_points(a) != engine.deal_points(b):
        return f"deal points {engine.deal_points(a)} vs {engine.deal_points(b)}"
    return None


def game_difference(a_rules: Ruleset, b_rules: Ruleset, players: int, seed: int) -> str | None:
    """A whole seeded game under both rulesets: its length, balances and history."""

    def outcome(g: GameState) -> tuple[object, ...]:
        # the Comet's values as a set: one entry per pack or one shared entry holds the same value
        return (g.deals, g.dealer, g.deal_index, g.balances, set(g.comet_values), g.history, g.extra_rounds)

    ga = play_game(a_rules, players, 2 * players, seed, simple_policy)  # games to a target: at most this
    gb = play_game(b_rules, players, 2 * players, seed, simple_policy)
    return None if outcome(ga) == outcome(gb) else f"games differ: {outcome(ga)} vs {outcome(gb)}"


def inapplicable_differences(seeds: Sequence[int] = (1, 2), fields: Sequence[str] = RULING_FIELDS) -> list[str]:
    """For every field and every variant its ruling does not apply to: the field changed away from its
    default (bypassing ``with_overrides``) changes no deal and no game."""
    out: list[str] = []
    for field in fields:
        variants = families_reading(field)
        for variant in VARIANTS:
            if variant in variants or any(f.field == field for f in variant_named(variant).fixed):
                continue  # a field the family's source fixes is refused at the door (test_a_fixed_ruling...)
            base = Ruleset(variant=variant)
            other = _with(base, field, _other_reading(field))
            players = variant_named(variant).default_players
            for seed in seeds:
                diff = deal_difference(base, other, players, seed) or (
                    game_difference(base, other, players, seed) if seed == seeds[0] else None
                )
                if diff:
                    out.append(f"{field}={_other_reading(field)} changes the {variant} game (seed {seed}): {diff}")
                    break
    return out


def test_a_field_changes_nothing_outside_its_variants() -> None:
    assert inapplicable_differences() == []


def test_a_field_that_matters_outside_its_table_entry_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: 000's Commit doubles its settlement when ``opera`` is set (as if RUL-OPERA applied to
    it while the table says it does not); the empirical check names the field, the game and the change."""
    v = REGISTRY["commit_hoyle"]
    real = v.settlement
    assert real is not None

    def doubled(state: DealState) -> tuple[Payment, ...]:
        pays = real(state)
        return tuple(dataclasses.replace(p, amount=2 * p.amount) for p in pays) if state.rules.opera else pays

    monkeypatch.setitem(REGISTRY, "commit_hoyle", dataclasses.replace(v, settlement=doubled))
    found = inapplicable_differences(seeds=(1,), fields=("opera", "commit_stake"))
    assert len(found) == 1 and found[0].startswith("opera=True changes the commit_hoyle game (seed 1): settlement")


def test_a_ruling_fixed_by_the_source_is_refused_citing_it(capsys: pytest.CaptureFixture[str]) -> None:
    """RUL-DEAL-ORDER (R-COMMIT-C-DEAL): 002's Commit deals "one card at a time" (002:42), so deal_order = blocks
    is refused in that game with the citation, on the command line too; round_robin is accepted, and the
    ruling still applies to Red Nines, whose source does not say."""
    cats = PRESETS["commit_cats"].rules
    assert cats.with_overrides({"deal_order": "round_robin"}) == cats
    with pytest.raises(ValueError, match='fixed in the commit_cats game by its source, 002:42 "one card at a time"'):
        cats.with_overrides({"deal_order": "blocks"})
    assert "deal_order" not in variant_named("commit_cats").reads
    assert PRESETS["red_nines"].rules.with_overrides({"deal_order": "blocks"}).deal_order == "blocks"
    assert main(["deal", "--preset", "commit_cats", "--ruling", "deal_order=blocks"]) == 2
    err = capsys.readouterr().err
    assert "002:42" in err and "Traceback" not in err
