"""Z3 proofs of the invariants of Comet's games, over a symbolic encoding of each whose
successors are cross-checked against the model (see spec/proofs.md).

Public API: ``run_all(preset, players) -> list[ProofResult]``; ``crosscheck.crosscheck`` (the module, imported by name) and
``sample_states`` for the model cross-check.

The names load their modules on first use, so that the package's data (``witnesses/``, ``certified/``)
reads without Z3 (the extra ``[proofs]``): ``comet vectors`` ships the stored witness deals from a bare
install.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from comet_proofs.crosscheck import CrossCheckResult as CrossCheckResult
    from comet_proofs.crosscheck import sample_states as sample_states
    from comet_proofs.encoding import Encoding as Encoding
    from comet_proofs.obligation import ProofResult as ProofResult
    from comet_proofs.proofs import plan as plan
    from comet_proofs.proofs import prove as prove
    from comet_proofs.proofs import run_all as run_all
    from comet_proofs.registry import ENCODINGS as ENCODINGS
    from comet_proofs.registry import encoding_for as encoding_for

#: Each public name and the module that defines it.
_HOME = {
    "CrossCheckResult": "crosscheck",
    "sample_states": "crosscheck",
    "Encoding": "encoding",
    "ProofResult": "obligation",
    "plan": "proofs",
    "prove": "proofs",
    "run_all": "proofs",
    "ENCODINGS": "registry",
    "encoding_for": "registry",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'comet_proofs' has no attribute {name!r}")
    return getattr(importlib.import_module(f"comet_proofs.{home}"), name)
