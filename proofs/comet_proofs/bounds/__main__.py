"""``python -m comet_proofs.bounds PRESET...``: the bounds table of each preset at every player count."""

from comet_proofs.bounds.table import main

main()
