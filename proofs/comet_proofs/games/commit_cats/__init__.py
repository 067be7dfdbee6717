"""The commit_cats encoding for the proofs (its index: ``comet/games/commit_cats/__init__.py``)."""

from comet_proofs.games.commit_cats import encoding

__all__ = ["encoding"]
