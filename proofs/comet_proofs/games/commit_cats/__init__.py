"""The commit_cats game for the proofs: its encoding, behaviour classes and witness scenarios (its index:
``comet/games/commit_cats/__init__.py``)."""

from comet_proofs.games.commit_cats import classes, encoding, scenarios

__all__ = ["classes", "encoding", "scenarios"]
