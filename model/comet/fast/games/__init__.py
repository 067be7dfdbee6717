"""The fast kernels of the games that replace the standard play (one module per game family).

A module ``comet.fast.games.<variant>`` (named as ``Ruleset.variant``) plays that game; the fast
engine finds it by the variant's name, so no shared table lists the games.  Each module has

- ``FIELDS``: the ruling fields whose every reading its kernel plays;
- ``GAME_LEVEL``: the fields of the game that change no single deal (game length, ties);
- ``configure(rules, cfg)``: writes the game's readings into ``cfg`` from ``comet.fast.config.H_SIZE``;
- ``play_batch``: the compiled deals, with the signature of ``comet.fast.kernel.play_batch`` (``comet.fast.batch``).

The shared parts are in ``comet.fast.cardsets`` (actions, their order, the policies) and ``comet.fast.batch``
(the arguments, the buffers, the deal, the outcome).
"""
