"""Issue 9: the stored witnesses part their readings, and the divergence vectors tell every reading apart.

For every reading pair of every ruling field in every preset it applies to, the witness stored in
``comet/diverge/witnesses.json`` is replayed under both readings; an implementation that ignores the
reading (it plays the preset's default instead, or hard-codes the other reading) must get at least one
vector of the pair wrong.  Rule ids touched by the witnesses include R-COMET-WILD, R-NEW-RUN, R-PLAY-MUST.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from comet.diverge.conformance import divergence_cases, points, verdict
from comet.diverge.game_search import game_outcome
from comet.diverge.pairs import Pair, all_pairs
from comet.diverge.store import load, missing, pair_for, witness_of
from comet.presets import preset
from comet.records.deal_record import JsonObject
from comet.ruleset import Ruleset

ENTRIES = load()


def test_every_reading_pair_has_a_stored_search() -> None:
    """Every field with two or more readings, in every preset it applies to, was searched (regenerate
    with `comet diverge --all --search --update --deals 0 --games 0` after adding a ruling)."""
    assert ENTRIES, "no stored witnesses"
    assert missing(ENTRIES) == []


def test_stored_entries_are_current_pairs() -> None:
    keys = {p.key for p in all_pairs()}
    stale = sorted(k for k in ENTRIES if k not in keys)
    assert stale == [], f"stored witnesses for readings that no longer exist: {stale}"


def _deal_entries() -> list[JsonObject]:
    return [
        e
        for k, e in sorted(ENTRIES.items())
        if e.get("found") and e.get("level") == "deal" and e.get("kind") != "dealt"
    ]


@pytest.mark.parametrize("e", _deal_entries(), ids=lambda e: str(e["key"]))
def test_stored_deal_witness_parts_the_readings(e: JsonObject) -> None:
    """Replaying the witness under A and under B gives different verdicts (legality with rule id,
    chips, winner) or points, and the witness is no longer than its first point of difference."""
    pair = pair_for(e)
    rec = e["record"]
    assert isinstance(rec, dict)
    va = (verdict(rec, pair.a), points(rec, pair.a))
    vb = (verdict(rec, pair.b), points(rec, pair.b))
    assert va != vb, f"{e['key']}: the stored witness no longer parts the readings"
    w = witness_of(e)
    assert w is not None and w.step == len(w.actions) - 1


def test_short_game_witnesses_part_the_readings() -> None:
    """Game witnesses of at most two deals replay to different outcomes (the longer ones are checked by
    `comet diverge --search`)."""
    checked = 0
    for e in ENTRIES.values():
        if e.get("found") and e.get("level") == "game":
            w = witness_of(e)
            assert w is not None
            if 1 <= w.game_deals <= 2 and w.players <= 3:
                pair = pair_for(e)
                a = game_outcome(pair.a, w.players, w.game_deals, w.game_seed, w.game_policy, w.game_record)
                b = game_outcome(pair.b, w.players, w.game_deals, w.game_seed, w.game_policy, w.game_record)
                assert a != b, e["key"]
                checked += 1
    assert checked >= 3


def uncaught_readings(blind: Callable[[Pair, bool], Ruleset] | None = None) -> list[str]:
    """Vectors an implementation that ignores the reading still passes.  ``blind(pair, is_b_vector)``
    gives the rules such an implementation plays; by default: the preset's default for the field on
    reading B's vector, reading B on the default's vector."""
    uncaught = []
    for case in divergence_cases():
        pair = pair_for(ENTRIES[case.witness_of])
        base = preset(pair.preset).rules
        is_b = case.reading != "default"
        if blind is not None:
            wrong = blind(pair, is_b)
        elif is_b:
            wrong = dataclasses.replace(pair.b, **{pair.field: getattr(base, pair.field)})
        else:
            wrong = pair.b
        if verdict(case.record, wrong) == (case.expected, case.exit) and not case.points_only:
            uncaught.append(f"{case.witness_of} ({case.reading})")
    return uncaught


def test_vectors_follow_the_vector_layout() -> None:
    """Each case sits at <preset>/<reading>/<kind>/ with the replay/illegal/malformed case format."""
    cases = list(divergence_cases())
    assert len(cases) == 2 * len(_deal_entries())
    for c in cases:
        assert c.path.startswith(f"{c.preset}/{c.reading}/{c.kind}/divergence-")
        rulings = c.record["rulings"]
        assert isinstance(rulings, dict)
        assert (c.field in rulings) == (c.reading != "default")
        assert set(c.content()) == ({"input", "expected", "exit"} if c.exit == 2 else {"record", "expected", "exit"})


def test_no_witness_is_invisible_to_the_replay_output() -> None:
    """Readings that differ only in a points game's scores (RUL-RED9-OUT, RUL-COMMIT-C-COMET-KING) are told
    apart by the replay output's ``points``: no pair's two verdicts agree."""
    only = sorted({c.witness_of for c in divergence_cases() if c.points_only})
    assert only == []


def test_default_only_model_fails_a_vector_of_every_reading() -> None:
    """For every non-default reading with a deal witness, replaying its vector with that field reset
    to the preset default (an implementation that ignores the reading) gets it wrong; and a model
    hard-wired to the other reading gets the default's vector wrong."""
    assert uncaught_readings() == []


def test_planted_faithful_model_is_reported() -> None:
    """The check can fail: a 'blind' model that in fact plays each vector's own reading passes every
    vector, and the check reports every discriminating vector as uncaught."""

    def faithful(pair: Pair, is_b: bool) -> Ruleset:
        return pair.b if is_b else pair.a

    expected = [c for c in divergence_cases() if not c.points_only]
    assert len(uncaught_readings(faithful)) == len(expected) > 0
