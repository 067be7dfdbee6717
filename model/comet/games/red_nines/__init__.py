"""The red nines game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.checks.coverage``).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).

Index: Red Nines (002:46-89), everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/red_nines/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/red_nines/classes.py``, witness scenarios ``proofs/comet_proofs/games/red_nines/scenarios.py``;
- fast engine: ``model/comet/fast/games/red_nines.py``;
- tests: ``tests/test_variant_red_nines.py``;
- spec: ``spec/rules-variants.md#red-nines``, ``spec/rulings-variants.md#red-nines``.
"""

from comet.games.red_nines import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
