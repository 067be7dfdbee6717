"""The commit hoyle game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.coverage``).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).
"""

from comet.games.commit_hoyle import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
