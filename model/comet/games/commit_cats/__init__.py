"""The commit cats game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.checks.coverage``).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).

Index: Commit as 002:32-45 describes it, everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/commit_cats/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/commit_cats/classes.py``, witness scenarios ``proofs/comet_proofs/games/commit_cats/scenarios.py``;
- fast engine: ``model/comet/fast/games/commit_cats.py``;
- tests: ``tests/test_variant_commit_cats.py``;
- spec: ``spec/rules-variants.md#commit-002``, ``spec/rulings-variants.md#commit-002``.
"""

from comet.games.commit_cats import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
