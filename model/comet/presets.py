"""Named presets: a variant is data (a ``Ruleset``) plus, where its rules differ, engine hooks."""

from __future__ import annotations

from dataclasses import dataclass

from comet.errors import RecordError
from comet.ruleset import Ruleset
from comet.variant import Scoring, Variant, variant_of


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    rules: Ruleset
    description: str
    sources: tuple[str, ...]

    @property
    def variant(self) -> Variant:
        """The game family's data and hooks (``comet.games.<name>``)."""
        return variant_of(self.rules)

    @property
    def scoring(self) -> Scoring:
        """``"chips"`` (zero-sum payments) or ``"points"`` (non-negative deal scores summed per game)."""
        return self.variant.scoring

    @property
    def invariants(self) -> tuple[str, ...]:
        """The invariant kinds that fit this preset, for fuzzing and ``comet prove``."""
        return self.variant.invariants


PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard",
        Ruleset(),
        "The two-pack game for 2-5 players, chips, our default reading of every ruling",
        ("000:19", "002:1-30", "003:19"),
    ),
    "opera": Preset(
        "opera",
        Ruleset(opera=True),
        "The standard game with Opera: going out in the first turn doubles; drawn if the dealer could too",
        ("000:83", "002:31", "003:83"),
    ),
    "two_player": Preset(
        "two_player",
        Ruleset(variant="two_player"),
        "Two players (Arnold, 2011): 18 cards each, points not chips, Comet unpaid, doubling, first to 121",
        ("000:84", "003:84"),
    ),
    "old_comet": Preset(
        "old_comet",
        Ruleset(variant="old_comet"),
        "Old Comet (1718): one 52-card deck, Ace low, the 9D manille; chips for Kings, stuck runs, the manille",
        ("000:85", "003:85"),
    ),
    "commit_hoyle": Preset(
        "commit_hoyle",
        Ruleset(variant="commit_hoyle"),
        "Commit (000): 52 cards less the 8D, runs in suit, Kings and 7D stop, the 9D instead of 'without', chips",
        ("000:86", "003:86"),
    ),
    "commit_cats": Preset(
        "commit_cats",
        Ruleset(variant="commit_cats"),
        "Commit (002): 2-8 players, sevens/eights removed, lowest card leads, runs in suit, Comet 9D, first to 100",
        ("002:32-45",),
    ),
    "red_nines": Preset(
        "red_nines",
        Ruleset(variant="red_nines"),
        "Red Nines (002): a suit added per player past four, Ace low, red nines wild, penalty points, lowest wins",
        ("002:46-89",),
    ),
}


def preset(name: str) -> Preset:
    """The preset called ``name``; RecordError naming the known presets otherwise."""
    p = PRESETS.get(name)
    if p is None:
        raise RecordError("variant", f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return p
