"""The Opera, a rule option the standard game, two players and Old Comet admit (000:83, 002:31).

- ``rules.py``: the option's hooks (``OPERA``), listed in those families' ``Variant.options``.
- ``check.py``: the Opera's doubling as the families' independent recomputations apply it.
"""

from comet.games.opera import check, rules

__all__ = ["check", "rules"]
