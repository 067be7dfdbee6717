"""The standard two-pack game: every hook left to the engine's own functions."""

from __future__ import annotations

from comet.variants.base import Variant, register

STANDARD = register(Variant(name="standard"))
