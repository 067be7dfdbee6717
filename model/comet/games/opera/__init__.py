"""The Opera, a rule option the standard game, two players and Old Comet admit (000:83, 002:31).

- ``rules.py``: the option's hooks (``OPERA``), listed in those families' ``Variant.options``.
- ``coverage.py``: which of its rule ids a transition exercised (``comet.coverage``).
- ``check.py``: the Opera's doubling as the families' independent recomputations apply it.
"""

from comet.games.opera import check, coverage, rules

__all__ = ["check", "coverage", "rules"]
