"""Named presets: a variant is data (a ``Ruleset``) plus, where its rules differ, engine hooks.

Each game family declares its presets in its folder (``Variant.presets``, ``comet/games/<name>/rules.py``);
``PRESETS`` gathers them, the families of ``VariantName`` first, in its order.
"""

from __future__ import annotations

from comet.errors import RecordError
from comet.variant import Preset as Preset
from comet.variant import all_presets

PRESETS: dict[str, Preset] = all_presets()


def preset(name: str) -> Preset:
    """The preset called ``name``; RecordError naming the known presets otherwise.  A name not yet known
    is looked up again after the registry reads every folder on ``comet.games``' path (a plug-in's)."""
    p = PRESETS.get(name)
    if p is None:
        PRESETS.update(all_presets())
        p = PRESETS.get(name)
    if p is None:
        raise RecordError("variant", f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return p
