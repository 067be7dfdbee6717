"""The fast kernels of the games that replace the standard play (one module per game family).

A module ``comet.fast.games.<variant>`` (named as ``Ruleset.variant``) plays that game; the fast
engine finds it by the variant's name, so no shared table lists the games.  Each module has

- ``FIELDS``: the ruling fields whose every reading its kernel plays;
- ``GAME_LEVEL``: the fields of the game that change no single deal (game length, ties);
- ``configure(rules, cfg)``: writes the game's readings into ``cfg`` from ``comet.fast.config.H_SIZE``;
- ``play_batch``: the compiled deals, with the signature of ``comet.fast.kernel.play_batch`` (``comet.fast.batch``);
- optionally ``pimc_batch(cfg, rcfg, deck, base, seeds, dealers, outcomes, rec, pimc_seats, samples)``: the same
  deals with the PIMC player in the seats ``pimc_seats`` (``comet.fast.pimc.play_pimc`` calls it; a game without
  one has no fast PIMC player).  The three games here write their play as step functions over one state array
  (``legal_now``, ``apply_action``, ``finish``: ``comet.fast.cardsets``), which their ``play_batch`` loop and their
  PIMC player's worlds and roll-outs share.

The shared parts are in ``comet.fast.cardsets`` (actions, their order, the policies) and ``comet.fast.batch``
(the arguments, the buffers, the deal, the outcome).
"""
