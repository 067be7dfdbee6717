"""The opera game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/opera/__init__.py``)."""

from comet_proofs.games.opera import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
