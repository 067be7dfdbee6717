"""The fast engine: a second, compiled implementation of the standard play for million-deal studies.

Checked against the reference engine (``comet.fast.check``), never a replacement for it.
"""

from __future__ import annotations

from comet.fast.api import (
    FLAG_CAPPED,
    FLAG_DRAWN,
    FLAG_OPERA,
    FLAG_OUT_ON_WILD,
    GAME_LEVEL_FIELDS,
    POLICIES,
    SUPPORTED_FIELDS,
    FastRecord,
    Outcome,
    Outcomes,
    PolicyName,
    action_of,
    play_deals,
    record_batch,
    record_explicit,
    record_of,
    supported_presets,
    unsupported_reason,
)

__all__ = [
    "FLAG_CAPPED",
    "FLAG_DRAWN",
    "FLAG_OPERA",
    "FLAG_OUT_ON_WILD",
    "GAME_LEVEL_FIELDS",
    "POLICIES",
    "SUPPORTED_FIELDS",
    "FastRecord",
    "Outcome",
    "Outcomes",
    "PolicyName",
    "action_of",
    "play_deals",
    "record_batch",
    "record_explicit",
    "record_of",
    "supported_presets",
    "unsupported_reason",
]
