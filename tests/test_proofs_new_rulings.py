"""The rulings added to the model on 2026-12-01 are quantified by the encodings (spec/proofs.md "Proved,
assumed, only tested"): for each, an encoding that ignores its non-default reading (a planted bug: the
reading's Boolean read as false) is caught by the directed refinement check with a readable report, and
the real encoding agrees with the model on the same classes.

Rules and rulings exercised: R-OLD-POINTS (RUL-OLD-COURT-POINTS), R-OLD-SETTLE and R-OLD-MANILLE-CAUGHT
(RUL-OLD-CAUGHT-DOUBLE, RUL-OLD-CAUGHT-NINE), R-OLD-MANILLE-PLAY (RUL-OLD-BONUS-LAST), R-OLD-KING
(RUL-OLD-KING-QUARTET), R-OLD-LAST-CARD (RUL-OLD-LAST-CARD), R-OPERA-DOUBLE (RUL-OPERA-CAUGHT,
RUL-OPERA-COMET-BONUS), R-STOP-STUCK (RUL-STUCK-RESTART).
"""

from __future__ import annotations

import pytest
import z3
from comet.ruleset import Ruleset
from comet_proofs.encoding import Encoding
from comet_proofs.games.old_comet.encoding import OldCometEncoding
from comet_proofs.games.opera.encoding import OperaEncoding
from comet_proofs.refine import refine
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import Readings


class _Blind(Readings):
    """Readings whose Boolean for the field ``blind`` reads false wherever the encoding asks for it by name
    (``rd[field]``); the Boolean itself stays, so the refinement check still picks witnesses under it."""

    blind = ""

    def __getitem__(self, name: str) -> z3.BoolRef:
        return z3.BoolVal(False) if name == self.blind else Readings.__getitem__(self, name)


def ignoring(base: type[Encoding], field: str) -> Encoding:
    """Planted: ``base`` whose transition and returns ignore the non-default reading of ``field``, while
    the field stays declared quantified."""
    blind = type(f"Blind_{field}", (_Blind,), {"blind": field})

    def wrap(rd: Readings) -> Readings:
        out: Readings = blind(rd.flags, rd.fields)
        return out

    class Ignores(base):  # type: ignore[valid-type,misc]
        def fresh_readings(self, prefix: str = "rd") -> Readings:
            return wrap(super().fresh_readings(prefix))

        def readings_of(self, rules: Ruleset) -> Readings:
            return wrap(super().readings_of(rules))

    enc: Encoding = Ignores()
    return enc


# (field, a class whose witnesses are under its other reading, what the report names)
OLD_CASES = (
    ("old_court_points", "a loser pays for court cards", "old_court_points=rank"),
    ("old_caught_double", "the manille caught at settlement", "old_caught_double=doubled"),
    ("old_caught_nine", "the manille caught at settlement", "old_caught_nine=extra"),
    ("old_bonus_last", "going out on the manille", "old_bonus_last=multiplied"),
    ("old_king_quartet", "the four Kings at once", "old_king_quartet=per_play"),
    ("old_last_card", "a play ends the run", "old_last_card=every_run_end"),
)


def test_old_comet_quantifies_the_new_fields() -> None:
    enc = encoding_for("old_comet")
    for field, _, _ in OLD_CASES:
        assert enc.has_ruling(field) and field not in enc.outside, field
    assert "old_escalation" in enc.unquantified  # only the manille's value between deals


OPERA_CASES = (
    ("opera_caught", "a loser caught with the Comet in an Opera", "opera_caught=highest"),
    ("opera_comet_bonus", "going out in the first turn on the Comet", "opera_comet_bonus=doubled"),
)


@pytest.mark.parametrize(
    ("base", "preset", "field", "cls", "named"),
    [(OldCometEncoding, "old_comet", *c) for c in OLD_CASES] + [(OperaEncoding, "opera", *c) for c in OPERA_CASES],
)
def test_an_encoding_ignoring_a_reading_is_caught(
    base: type[Encoding], preset: str, field: str, cls: str, named: str
) -> None:
    planted = ignoring(base, field)
    result = refine(preset, players=(3,), random_deals=0, enc=planted, only=(cls,))
    assert not result.ok, f"ignoring {field} went unnoticed"
    report = "\n".join(result.failures())
    # the model disagrees with the planted encoding on a witness under the reading (not a missing witness)
    assert named in report and "no witness" not in report, report
    assert "differ" in report or "forbids" in report or "returns" in report, report
    good = refine(preset, players=(3,), random_deals=0, only=(cls,))
    assert good.ok, "\n".join(good.failures())


def test_opera_quantifies_its_new_fields() -> None:
    enc = encoding_for("opera")
    for field, _, _ in OPERA_CASES:
        assert enc.has_ruling(field) and field not in enc.outside and field not in enc.unquantified, field


STUCK = "a stuck run's last player leads the new run"


@pytest.mark.parametrize("preset", ["standard", "old_comet"])
def test_encoding_ignoring_stuck_restart_is_caught(preset: str) -> None:
    """R-STOP-STUCK, RUL-STUCK-RESTART = may: where a stuck run's last player leads, the model also lets
    them pass the lead on; an encoding blind to the reading forbids that pass, and the refinement check
    reports the model's successor (the class of the pass itself then has no witness at all)."""
    planted = ignoring(type(encoding_for(preset)), "stuck_restart")
    result = refine(preset, players=(3,), random_deals=0, enc=planted, only=(STUCK,))
    assert not result.ok, "ignoring stuck_restart went unnoticed"
    report = "\n".join(result.failures())
    assert "stuck_restart=may" in report and "no witness" not in report, report
    assert "pass" in report and ("forbids" in report or "differ" in report), report
    good = refine(preset, players=(3,), random_deals=0, only=(STUCK,))
    assert good.ok, "\n".join(good.failures())


@pytest.mark.parametrize("preset", ["standard", "opera", "two_player", "old_comet"])
def test_stuck_restart_is_quantified(preset: str) -> None:
    enc = encoding_for(preset)
    assert enc.has_ruling("stuck_restart") and "stuck_restart" not in enc.outside
    # the ranking reads whether the Comet may lead and the reading itself (copied into the state)
    assert enc.reading_fields()[:2] == ("comet_may_lead", "stuck_restart_may")
