"""The standard game's encoding: the base rules of ``comet_proofs.encoding`` as they are, with the Opera's
readings listed as unquantified while the Opera is off (the Opera has its own encoding, ``games/opera/``)."""

from __future__ import annotations

from comet.state import DealState

from comet_proofs.encoding import BASE_UNQUANTIFIED, Encoding
from comet_proofs.solving import LIA2CARD
from comet_proofs.symbolic import AbstractState

# The base rules' unquantified fields, and the Opera's readings, which change nothing while the Opera is off.
STANDARD_UNQUANTIFIED: tuple[str, ...] = (
    *BASE_UNQUANTIFIED,
    "opera_draw",
    "opera_stack",
    "opera_comet_bonus",
    "opera_caught",
)

# The Comet's values the random cross-check deals this game at (``crosscheck.sample_states``; the other games
# add 10).
SAMPLED_COMET_VALUES: tuple[int, ...] = (0, 2, 4, 6)


class StandardEncoding(Encoding):
    """The standard game (preset ``standard``); the other games' encodings subclass it where they share its
    rules."""

    name = "standard"
    unquantified: tuple[str, ...] = STANDARD_UNQUANTIFIED
    # The counting encodings' joint step through ``lia2card`` (measured 2026-12-02, every player count, one process,
    # under the heavy lock at load ~3-4: standard 1.57 -> 1.22 s, opera 1.46 -> 1.14, old_comet 1.70 -> 1.10,
    # red_nines 4.96 -> 3.46 s of CPU; its 8 players 166 -> 20 million units of Z3's work).  Not the card-level
    # encodings: twice as slow there (``SuitedEncoding``).
    step_tactics: tuple[str, ...] = LIA2CARD
    outside: tuple[str, ...] = ("opera",)

    def abstract(self, state: DealState) -> AbstractState:
        """The base abstraction, for a deal without the Opera (ValueError with the Opera on)."""
        if state.rules.variant == self.name and state.rules.opera:
            raise ValueError("the encoding has no Opera yet (a drawn deal, a first-turn doubling)")
        return super().abstract(state)


ENCODING = StandardEncoding
