"""The two player game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (data and the hooks where its rules differ), registered on import.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.checks.coverage``).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).

Index: Two players (000:84), everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/two_player/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/two_player/classes.py``, witness scenarios ``proofs/comet_proofs/games/two_player/scenarios.py``;
- fast engine: ``model/comet/fast/kernel.py``;
- tests: ``tests/test_variant_two_player.py``;
- spec: ``spec/rules-variants.md#two-players``, ``spec/rulings-variants.md#two-players``.
"""

from comet.games.two_player import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
