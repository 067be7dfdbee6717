"""The Opera, a rule option the standard game, two players and Old Comet admit (000:83, 002:31).

- ``rules.py``: the option's hooks (``OPERA``), listed in those families' ``Variant.options``.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.checks.coverage``).
- ``check.py``: the Opera's doubling as the families' independent recomputations apply it.

Index: The Opera option (000:83, 002:31), everywhere else it lives (``tests/test_game_index.py`` checks every path
and name here):

- proofs: encoding ``proofs/comet_proofs/games/opera/encoding.py``, behaviour classes
  ``proofs/comet_proofs/games/opera/classes.py``, witness scenarios ``proofs/comet_proofs/games/opera/scenarios.py``;
- fast engine: ``model/comet/fast/kernel.py``;
- tests: ``tests/test_variant_opera.py``;
- spec: ``spec/rules-variants.md#opera``, ``spec/rulings-variants.md#opera``.
"""

from comet.games.opera import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
