"""Encodings of the game families and options other than the standard game (spec/proofs.md, a section each),
one folder per family: ``comet_proofs/games/<name>/encoding.py``.

Each subclasses ``StandardEncoding`` (or another family's encoding), overriding only the seams where its
rules differ, and registers the class under the preset's name in ``ENCODINGS``.  ``encoding_for`` imports
every folder here (``load_encodings``), so no module lists them and every registered preset is proved by
``run_all``.
"""

from __future__ import annotations

import importlib
import pkgutil


def load_encodings() -> None:
    """Import every folder of this package, so that each registers its encoding."""
    for info in pkgutil.iter_modules(__path__, __name__ + "."):
        if info.ispkg:
            importlib.import_module(info.name)
