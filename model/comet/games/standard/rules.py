"""The standard two-pack game: every hook left to the engine's own functions; the Opera admitted."""

from __future__ import annotations

from comet.games.opera.rules import OPERA
from comet.variant import Variant, register

STANDARD = register(Variant(name="standard", title="Comet", options=(OPERA,)))
