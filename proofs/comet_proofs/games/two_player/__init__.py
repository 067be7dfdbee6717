"""The two_player game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/two_player/__init__.py``)."""

from comet_proofs.games.two_player import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
