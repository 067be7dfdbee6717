"""Encodings of the variant presets (spec/proofs.md, one section per variant).

Each module subclasses ``StandardEncoding`` (or another variant's encoding), overriding only the
seams where its rules differ, and registers the class under the preset's name in ``ENCODINGS``.
``encoding_for`` imports this package, so every registered preset is proved by ``run_all``.
"""

from __future__ import annotations

from comet_proofs.variants import commit_cats, commit_hoyle, old_comet, opera, red_nines, two_player

__all__ = ["commit_cats", "commit_hoyle", "old_comet", "opera", "red_nines", "two_player"]
