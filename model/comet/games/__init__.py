"""Game families: every game of the sources as one engine plus data and small hooks, one folder each.

A folder ``comet/games/<name>/`` holds all of one family: ``rules.py`` builds its ``Variant`` record
(``comet.variant``: the data that differ from the standard game and only the hooks whose rules really
differ; a hook left ``None`` runs the standard engine function) and registers it; ``check.py`` is its
independent recomputation for the one invariant checker (``comet.checks``), written from the seeds and
registered with ``register_check``.  The package is imported the first time a ruleset names the family
(``variant_of``), so no shared module lists the families.  The Opera (``opera/``) is a rule option, not a
family: the families that admit it list ``OPERA`` in ``Variant.options``.

How to add a game family
------------------------
1. Its name is a reading of ``Ruleset.variant`` (``comet/ruleset.py``, ``VariantName``).
2. ``comet/games/<name>/rules.py``: one ``Variant`` passed to ``register``; mark each function that
   implements a rule of ``spec/rules-variants.md`` with ``@rule("R-…")``.  A ``legal_actions`` hook
   must never return ``()`` for a non-terminal state, and every deal must end within ``step_bound``.
3. ``comet/games/<name>/check.py``: the settlement (or points), the payments in play, the game's carry-over
   and its end, recomputed from the seeds without calling ``rules.py``; ``register_check``.
4. ``comet/games/<name>/__init__.py`` imports both.  The ``Variant`` declares the ruling fields the family reads
   (``rulings``; the shared groups ``comet.ruleset.*_RULINGS`` for the engine code it reuses) and its preset(s)
   (``presets``), which ``comet.presets.PRESETS`` then lists.
5. New rulings are new ``Ruleset`` fields (default = our reading, ruling id in ``ruleset.RULING_OF``), named in
   the family's ``rulings``, written up in ``spec/rulings-variants.md`` with ``**Applies to.**``; tests in
   ``tests/test_variant_<name>.py``.
6. Its proofs: ``comet_proofs/games/<name>/`` with ``encoding.py`` (a subclass of the standard encoding or a
   kin's, named ``ENCODING``; every ruling the family reads quantified, unquantified or outside), ``classes.py``
   (``CLASSES``, its behaviour classes, the standard game's groups where it shares its rules) and, for witness
   deals, ``scenarios.py``; the registry (``comet_proofs.registry``) finds the folder.
"""
