"""The standard game's encoding for the proofs (its index: ``comet/games/standard/__init__.py``)."""

from comet_proofs.games.standard import encoding

__all__ = ["encoding"]
