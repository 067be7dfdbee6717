"""Z3 proofs of the invariants of Comet's standard game, over a symbolic encoding whose
successors are cross-checked against the model (see spec/proofs.md).

Public API: ``run_all(preset, players) -> list[ProofResult]``; ``crosscheck`` and
``sample_states`` for the model cross-check.
"""

from comet_proofs.crosscheck import CrossCheckResult, crosscheck, sample_states
from comet_proofs.encoding import ENCODINGS, StandardEncoding, encoding_for
from comet_proofs.proofs import ProofResult, plan, prove, run_all

__all__ = [
    "ENCODINGS",
    "CrossCheckResult",
    "ProofResult",
    "StandardEncoding",
    "crosscheck",
    "encoding_for",
    "plan",
    "prove",
    "run_all",
    "sample_states",
]
