"""``comet diverge``: where two readings of a ruling part ways, and how much it matters (issue 9).

Modules: ``pairs`` (which rule sets are compared, from ``Ruleset`` and the fields each family reads), ``witness`` (the
smallest deal or game where they differ), ``narrate`` (told side by side), ``store`` (witnesses kept as
JSON), ``conformance`` (discriminating vectors), ``policies``, ``impact`` (paired seeded deals and games),
``interactions``, ``report`` and ``plot``.
"""
