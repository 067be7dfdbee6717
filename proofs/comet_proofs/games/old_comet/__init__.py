"""The old_comet encoding for the proofs (its index: ``comet/games/old_comet/__init__.py``)."""

from comet_proofs.games.old_comet import encoding

__all__ = ["encoding"]
