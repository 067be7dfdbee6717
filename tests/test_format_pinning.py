"""Format pinning (R-REC-FORMAT, issue 34 point 9): a record's ``format`` replays under that format's defaults
(``comet.records.contract.FORMAT_DEFAULTS``), obsolete formats are refused naming the supported ones."""

from __future__ import annotations

import json

import comet.records.contract as contract
import pytest
from comet.errors import RecordError
from comet.presets import PRESETS, preset
from comet.records.contract import FORMAT, FORMAT_DEFAULTS, OBSOLETE_FORMATS, SUPPORTED_FORMATS, check_format
from comet.records.deal_record import loads_record, replay_record
from comet.records.game_record import loads_game_record
from test_record import HAND_RECORD

#: Anna leads the Comet as a 5: R-COMET-LEAD under the default (``comet_lead = "king"``), legal under
#: ``"any_rank"`` (format 1's default, which a pinned format restores).
LED_COMET = {**HAND_RECORD, "actions": ["play 9D as 5"]}


def test_the_tables_agree() -> None:
    """Every supported format has its defaults, the current one none; no format is both."""
    assert FORMAT in SUPPORTED_FORMATS and set(FORMAT_DEFAULTS) == set(SUPPORTED_FORMATS)
    assert FORMAT_DEFAULTS[FORMAT] == {}
    assert not set(OBSOLETE_FORMATS) & set(SUPPORTED_FORMATS)
    assert max(SUPPORTED_FORMATS) == FORMAT


@pytest.mark.parametrize("fmt", sorted(FORMAT_DEFAULTS))
def test_every_pinned_reading_is_a_reading(fmt: int) -> None:
    """A pinned default names a ruling of the preset and one of its readings (with_overrides accepts it)."""
    for name, readings in FORMAT_DEFAULTS[fmt].items():
        presets = list(PRESETS) if name == "*" else [name]
        for p in presets:
            preset(p).rules.with_overrides(dict(readings))


def test_obsolete_format_is_refused_naming_the_supported() -> None:
    """Format 1 is refused (kind field), and the message names every supported format."""
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps({**HAND_RECORD, "format": 1}))
    assert e.value.kind == "field" and "obsolete" in e.value.message
    assert all(str(f) in e.value.message for f in SUPPORTED_FORMATS)
    why = check_format(FORMAT + 1)
    assert why is not None and str(FORMAT + 1) in why


def _legal(rec: dict[str, object]) -> bool:
    return replay_record(loads_record(json.dumps(rec))).legal


def test_a_pinned_default_replays_the_old_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pinning at work: were format 2's default of RUL-COMET-LEAD ``any_rank``, a format-2 record leading
    the Comet as a 5 would be legal and the same record at the current format illegal (R-COMET-LEAD)."""
    assert not _legal({**LED_COMET, "format": 2}) and not _legal(LED_COMET)
    monkeypatch.setitem(contract.FORMAT_DEFAULTS, 2, {"*": {"comet_lead": "any_rank"}})
    assert _legal({**LED_COMET, "format": 2})
    assert not _legal({**LED_COMET, "format": FORMAT}) and not _legal(LED_COMET)
    # the record's own rulings win over the pinned default
    assert not _legal({**LED_COMET, "format": 2, "rulings": {"comet_lead": "king"}})


def test_a_game_pins_its_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal record in a game record is read under the game's format; stating another is kind field."""
    monkeypatch.setitem(contract.FORMAT_DEFAULTS, 2, {"*": {"comet_lead": "any_rank"}})
    game = {"format": 2, "variant": "standard", "players": 5, "length": 5, "first_dealer": 4, "deals": []}
    assert dict(loads_game_record(json.dumps(game)).ruleset().differences(preset("standard").rules)) == {
        "comet_lead": "any_rank"
    }
