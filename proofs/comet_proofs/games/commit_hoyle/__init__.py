"""The commit_hoyle encoding for the proofs (its index: ``comet/games/commit_hoyle/__init__.py``)."""

from comet_proofs.games.commit_hoyle import encoding

__all__ = ["encoding"]
