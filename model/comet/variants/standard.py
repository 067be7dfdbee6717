"""The standard two-pack game: every hook left to the engine's own functions; the Opera admitted."""

from __future__ import annotations

from comet.variants.base import Variant, register
from comet.variants.opera import OPERA

STANDARD = register(Variant(name="standard", options=(OPERA,)))
