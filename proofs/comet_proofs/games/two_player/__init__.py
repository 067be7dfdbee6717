"""The two_player encoding for the proofs (its index: ``comet/games/two_player/__init__.py``)."""

from comet_proofs.games.two_player import encoding

__all__ = ["encoding"]
