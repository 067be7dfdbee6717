"""The old_comet game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/old_comet/__init__.py``)."""

from comet_proofs.games.old_comet import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
