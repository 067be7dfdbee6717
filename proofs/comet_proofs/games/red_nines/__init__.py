"""The red_nines encoding for the proofs (its index: ``comet/games/red_nines/__init__.py``)."""

from comet_proofs.games.red_nines import encoding

__all__ = ["encoding"]
