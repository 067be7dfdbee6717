"""The old comet game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.checks.coverage``).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).

Index: Old Comet of 1718 (000:85), everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/old_comet/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/old_comet/classes.py``, witness scenarios ``proofs/comet_proofs/games/old_comet/scenarios.py``;
- fast engine: ``model/comet/fast/kernel.py``;
- tests: ``tests/test_variant_old_comet.py``;
- spec: ``spec/rules-variants.md#old-comet``, ``spec/rulings-variants.md#old-comet``.
"""

from comet.games.old_comet import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
