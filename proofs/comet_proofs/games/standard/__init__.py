"""The standard game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/standard/__init__.py``)."""

from comet_proofs.games.standard import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
