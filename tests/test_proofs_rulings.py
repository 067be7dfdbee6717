"""Every ruling that changes play is in the proofs: each encoding accounts for every ``Ruleset`` field
that applies to its preset (a free Boolean, "unquantified" and then varied by the cross-check, or
"outside" the encoding), RUL-COMET-AFTER is quantified by the standard encoding (and the ones built on
it; its hand-made positions are in test_proofs.py), and the readings added to Old Comet and 000's Commit
agree successor-exactly with the model.
Planted bugs: an encoding that drops a field, or treats RUL-COMET-AFTER as if it changed nothing, is
caught with a readable report.

Rules and rulings exercised: R-COMET-STOP (RUL-COMET-AFTER), R-OLD-MANILLE-PLAY, R-OLD-KING
(RUL-OLD-MANILLE-KING), R-COMMIT-H-NINE-PAID, R-COMMIT-H-CAUGHT.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from builders import position
from comet import engine
from comet.games.commit_hoyle.rules import hoyle_packs
from comet.games.old_comet.rules import old_deck
from comet.notation import parse_action
from comet.presets import PRESETS
from comet.ruleset import RULING_FIELDS
from comet.state import DealState
from comet.variant import applies
from comet_proofs import ENCODINGS, encoding_for, sample_states
from comet_proofs.crosscheck import check_state, coverage_problems, crosscheck, sampled_fields
from comet_proofs.games.standard.encoding import StandardEncoding

STD = PRESETS["standard"].rules
OLD = PRESETS["old_comet"].rules
HOYLE = PRESETS["commit_hoyle"].rules
RESTART = STD.with_overrides({"comet_after": "optional_restart"})


def encoded_presets() -> list[str]:
    encoding_for("standard")  # imports every variant encoding into ENCODINGS
    return sorted(ENCODINGS)


# ----------------------------------------------------------------- every field is accounted for


@pytest.mark.parametrize("preset", encoded_presets())
def test_every_field_that_applies_is_accounted_for(preset: str) -> None:
    enc = encoding_for(preset)
    assert coverage_problems(preset, enc) == []
    # the cross-check varies all of them but those outside the encoding
    variant = PRESETS[preset].rules.variant
    want = {f for f in RULING_FIELDS if applies(f, variant)} - set(enc.outside)
    assert set(sampled_fields(enc)) == want


def test_an_encoding_that_forgets_a_field_is_reported() -> None:
    """Planted: the standard encoding without RUL-COMET-AFTER and with a stray Commit field."""

    class Forgetful(StandardEncoding):
        rulings = tuple(r for r in StandardEncoding.rulings if r[0] != "comet_after")
        unquantified = (*StandardEncoding.unquantified, "commit_rest")

    assert coverage_problems("standard", Forgetful()) == [
        "standard: ruling field 'comet_after' applies to the preset, but the standard encoding neither "
        "quantifies it nor lists it as unquantified or outside",
        "standard: the standard encoding lists 'commit_rest' (unquantified), which does not apply to it",
    ]


class CometAfterIgnored(StandardEncoding):
    """Planted: RUL-COMET-AFTER declared as if it changed nothing (no Boolean: the Comet always stops)."""

    rulings = tuple(r for r in StandardEncoding.rulings if r[0] != "comet_after")
    unquantified = (*StandardEncoding.unquantified, "comet_after")


def _restart_position() -> DealState:
    """Anna holds the Comet, 2 and 7; the run needs a 5 (Ben holds it); RUL-COMET-AFTER = optional_restart."""
    return position(["9D 2C 7S", "5C KC", "QS 3C"], run=(3, 4), last_player=2, to_move=0, rules=RESTART)


def test_comet_after_ignored_by_the_encoding_is_caught_by_the_cross_check() -> None:
    """The cross-check samples every field, so an encoding that leaves RUL-COMET-AFTER out disagrees
    with the model on a state where the Comet is playable under optional_restart."""
    _, problem = check_state(CometAfterIgnored(), _restart_position())
    assert problem is not None
    assert "leads to a state T forbids" in problem and "(or, after the Comet, any new lead)" in problem
    _, fine = check_state(encoding_for("standard"), _restart_position())
    assert fine is None, fine


def test_sampling_reaches_a_free_lead_and_the_encoding_agrees() -> None:
    """R-COMET-STOP under optional_restart in sampled deals: some sampled states have a free lead."""
    states = sample_states([3], 40, seed=4, per_deal=10)
    free = [s for s in states if s.free_lead]
    assert free and {s.rules.comet_after for s in states} == {"stop", "optional_restart"}
    result = crosscheck(encoding_for("standard"), free[:6])
    assert result.ok, result.mismatches


# ----------------------------------------------------------------- Old Comet and 000's Commit


@pytest.mark.parametrize("reading", ["manille_only", "manille_and_king"])
def test_manille_as_a_king_cross_checks(reading: str) -> None:
    """R-OLD-MANILLE-PLAY, R-OLD-KING: RUL-OLD-MANILLE-KING in the Old Comet encoding."""
    rules = OLD.with_overrides({"old_manille_king": reading})
    s = position(
        ["9D 7C", "KH 2C", "QS 3C"], run=(11, 12), last_player=2, to_move=0, rules=rules, pack=old_deck(OLD, None)[0]
    )
    s = replace(s, comet_value=10)
    after = engine.apply(s, parse_action("play 9D as K"))
    assert engine.returns(after)[0] == (20 if reading == "manille_only" else 22)
    for state in (s, after):
        _, problem = check_state(encoding_for("old_comet"), state)
        assert problem is None, problem


@pytest.mark.parametrize("value", [0, 2, 7])
def test_the_nine_of_diamonds_pays_two_whatever_the_comet_value(value: int) -> None:
    """R-COMMIT-H-NINE-PAID, R-COMMIT-H-CAUGHT: 000:86 fixes the 9♦ at 2; the encoding agrees for any
    ``comet_value`` (which plays no part in 000's Commit)."""
    deck = hoyle_packs(HOYLE, 3)[0]
    start = engine.shuffled_deal(HOYLE, 3, 2, 5, deck, value)
    rng = random.Random(value)
    s = start
    enc = encoding_for("commit_hoyle")
    while not s.terminal:
        acts = engine.legal_actions(s)
        nine = [a for a in acts if a.cards and a.cards[0] == engine_nine()]
        s = engine.apply(s, nine[0] if nine else acts[rng.randrange(len(acts))])
        if nine:
            assert all(p.amount == 2 for p in s.payments if p.rule == "R-COMMIT-H-NINE-PAID")
            _, problem = check_state(enc, s)
            assert problem is None, problem
    _, problem = check_state(enc, s)
    assert problem is None, problem


def engine_nine() -> int:
    from comet.games.commit_common import NINE_OF_DIAMONDS

    return NINE_OF_DIAMONDS
