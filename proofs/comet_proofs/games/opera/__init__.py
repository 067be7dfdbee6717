"""The opera encoding for the proofs (its index: ``comet/games/opera/__init__.py``)."""

from comet_proofs.games.opera import encoding

__all__ = ["encoding"]
