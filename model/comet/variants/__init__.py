"""Variants: every game of the sources as one engine plus data and small hooks.

How to add a variant
--------------------
1. Its name must be a reading of ``Ruleset.variant`` (``comet/ruleset.py``,
   ``VariantName``).  Create ``comet/variants/<name>.py`` (the module name is
   the variant name; it is imported the first time a ruleset names it).
2. In that module build one ``Variant`` (``comet.variants.base``) and pass it to
   ``register``.  Set the data that differ from the standard game
   (``player_counts``, ``scoring="points"``, ``lowest_rank=1`` for a low Ace,
   ``comet_value``/``comet_escalates``, ``game_end``/``target``/``lower_wins``,
   ``default_deals``) and only the hooks whose rules really differ; a hook left
   ``None`` runs the standard engine function.  Typical hooks:
   ``packs(rules, players)`` and ``deal_sizes(rules, players, pack_size)`` (what
   ``shuffled_deal``, ``explicit_deal`` and ``game.next_deal`` deal),
   ``play_payments``/``pass_payments``/``settlement`` (chips, zero-sum
   ``Payment``s), ``points_of_deal`` (points games: a non-negative score per
   seat for a finished deal; ``game.finish_deal`` adds it to the totals),
   ``card_points``, and for games whose runs work differently
   ``legal_actions``/``play``/``end_turn``/``why_illegal``/``step_bound``.
   A ``legal_actions`` hook must never return ``()`` for a non-terminal state,
   and every deal must end within ``step_bound`` actions.
3. Mark each function that implements a rule of ``spec/rules-variants.md`` with
   ``@rule("R-…")``.  New rulings are new ``Ruleset`` fields (default = our
   reading), written up in ``spec/rulings-variants.md`` with ``**Applies to.**``.
4. Add the preset(s) to ``comet.presets.PRESETS`` (``Ruleset(variant=...)``,
   a one-line description, sources ``NNN:L``); the CLI commands ``deal``,
   ``game`` and ``presets`` pick it up with no further change.
5. Tests go in ``tests/test_variant_<name>.py``: the sources' worked figures,
   and one test that a deliberately broken hook (monkeypatched) is caught.

The engine finds the hooks with ``variant_of(state.rules)``; the Opera option
is a ruleset flag handled by ``comet.variants.opera`` for every variant whose
deal ends by a player going out.
"""

from __future__ import annotations

from comet.variants.base import REGISTRY, Variant, register, variant_named, variant_of

__all__ = ["REGISTRY", "Variant", "register", "variant_named", "variant_of"]
