"""The commit_hoyle game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/commit_hoyle/__init__.py``)."""

from comet_proofs.games.commit_hoyle import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
