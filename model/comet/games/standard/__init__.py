"""The standard game family, all of it in this folder.

- ``rules.py``: its ``Variant`` record (every hook left to the engine's own functions; the Opera admitted).
- ``check.py``: its independent recomputation for the one invariant checker (``comet.checks``).

Index: The standard game (000:1-80, 002:1-30), everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/standard/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/standard/classes.py``, witness scenarios ``proofs/comet_proofs/games/standard/scenarios.py``;
- fast engine: ``model/comet/fast/kernel.py``;
- tests: ``tests/test_rules_standard.py``, ``tests/test_rulings_standard.py``;
- spec: ``spec/rules.md``, ``spec/rulings.md``.
"""

from comet.games.standard import check, rules

__all__ = ["check", "rules"]
