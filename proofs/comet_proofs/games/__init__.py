"""The games' encodings, behaviour classes and witness scenarios, one folder per game
(``comet_proofs/games/<name>/``: ``encoding.py``, ``classes.py``, ``scenarios.py``).

Each encoding subclasses ``comet_proofs.encoding.Encoding`` (or another game's encoding), overriding only
the seams where its rules differ, and names its class ``ENCODING``.  ``comet_proofs.registry`` finds the
folders, so no module lists them and every game found is proved by ``run_all``.
"""
