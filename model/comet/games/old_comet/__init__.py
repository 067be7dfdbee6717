"""The old comet game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).
"""

from comet.games.old_comet import check, rules

__all__ = ["check", "rules"]
