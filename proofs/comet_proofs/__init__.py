"""Z3 proofs of the invariants of Comet's games, over a symbolic encoding of each whose
successors are cross-checked against the model (see spec/proofs.md).

Public API: ``run_all(preset, players) -> list[ProofResult]``; ``crosscheck`` and
``sample_states`` for the model cross-check.
"""

from comet_proofs.crosscheck import CrossCheckResult, crosscheck, sample_states
from comet_proofs.encoding import Encoding
from comet_proofs.obligation import ProofResult
from comet_proofs.proofs import plan, prove, run_all
from comet_proofs.registry import ENCODINGS, encoding_for

__all__ = [
    "ENCODINGS",
    "CrossCheckResult",
    "Encoding",
    "ProofResult",
    "crosscheck",
    "encoding_for",
    "plan",
    "prove",
    "run_all",
    "sample_states",
]
