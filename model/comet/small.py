"""Small Comets for game-theory research: a reduced pack played under a preset's rules, unchanged.

These configurations are **not from the sources** and are not historical variants: no book deals five
cards.  They exist so that methods which need a game small enough to solve exactly (CFR, CFR+,
exploitability, sequence-form LPs) can be run on Comet.  Each one is data only: a preset (whose
``Ruleset`` and game family play it, through the one engine, with no rule written again), a number of
players, the ranks and suits kept from the preset's first pack (one copy of each card), the pack's wild
card kept as it is, and the hand size; the rest of the pack is the dead hand (R-DEAD-HAND).  What makes
Comet Comet stays: runs up by rank, the King stops (R-STOP-KING), a card in the dead hand stops a run
(R-STOP-STUCK), the wild card (R-COMET-WILD) and its bonus and doublings, settlement by the cards left.

spec/frameworks.md ("A small Comet for research") lists them with their sizes; the OpenSpiel game and
the PettingZoo environments take one with the parameter ``small``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from comet import engine
from comet.cards import ACE, CLUBS, JACK, KING, QUEEN, SUITS, Pack, rank_of, rank_text, suit_of
from comet.errors import RecordError
from comet.presets import preset
from comet.ruleset import Ruleset
from comet.state import DealState


@dataclass(frozen=True, slots=True)
class SmallComet:
    """A research configuration: ``preset``'s rules at ``players`` seats with a reduced pack."""

    name: str
    preset: str
    players: int
    ranks: tuple[int, ...]
    suits: tuple[int, ...]
    hand_size: int
    description: str

    @property
    def rules(self) -> Ruleset:
        return preset(self.preset).rules

    def pack(self) -> Pack:
        """One copy of each card of the preset's first pack whose rank and suit are kept, and its wild cards."""
        base = engine.packs_in_rotation(self.rules, self.players)[0]
        kept = sorted(
            {c for c in base.cards if c in base.wild or (rank_of(c) in self.ranks and suit_of(c) in self.suits)}
        )
        return Pack(f"small-{self.name}", tuple(kept), base.wild)

    @property
    def dead_size(self) -> int:
        return len(self.pack().cards) - self.players * self.hand_size

    def summary(self) -> str:
        """One line: the rules, the seats, the pack and the deal sizes."""
        pack = self.pack()
        ranks = "".join(rank_text(r) for r in self.ranks)
        suits = "".join(SUITS[s] for s in self.suits)
        return (
            f"{self.name}: {self.preset} rules, {self.players} players, ranks {ranks} of {suits} and the wild "
            f"card ({len(pack.cards)} cards), {self.hand_size} each, {self.dead_size} in the dead hand"
        )


TOP_RANKS = (10, JACK, QUEEN, KING)

#: The research configurations by name (not from the sources: see the module's docstring).
SMALL: dict[str, SmallComet] = {
    c.name: c
    for c in (
        SmallComet(
            "tiny",
            "standard",
            2,
            TOP_RANKS,
            (CLUBS,),
            2,
            "the standard game for two with 10 to King of clubs and the Comet: two cards each, one dead",
        ),
        SmallComet(
            "tiny_two_player",
            "two_player",
            2,
            TOP_RANKS,
            (CLUBS,),
            2,
            "two-player Comet (points) with 10 to King of clubs and the Comet: two cards each, one dead",
        ),
    )
}
assert all(ACE not in c.ranks for c in SMALL.values())  # the standard packs have no Aces


def small(name: str) -> SmallComet:
    """The research configuration ``name``; RecordError naming the known ones otherwise."""
    config = SMALL.get(name)
    if config is None:
        raise RecordError("variant", f"unknown small Comet {name!r}; known: {', '.join(SMALL)}")
    return config


def small_deal(name: str, seed: int, dealer: int = -1) -> DealState:
    """A deal of the small Comet ``name``: its pack shuffled with ``seed`` and dealt (R-DEAL-ORDER) by
    ``dealer`` (-1: the last seat, so seat 0 leads), played from here by ``comet.engine`` as any deal."""
    config = small(name)
    seat = config.players - 1 if dealer == -1 else dealer
    pack = config.pack()
    order = list(pack.cards)
    random.Random(seed).shuffle(order)
    hands, dead = engine.distribute(config.rules, order, config.players, seat, config.hand_size)
    return engine.start_deal(config.rules, pack, config.players, seat, hands, dead)
