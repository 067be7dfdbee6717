"""The red_nines game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/red_nines/__init__.py``)."""

from comet_proofs.games.red_nines import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
