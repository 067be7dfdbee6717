"""``python -m comet_proofs.bounds PRESET...``: the bounds table of each preset at every player count."""

from comet_proofs.bounds.table import main

if __name__ == "__main__":  # imported (as a test that walks every module does), it runs nothing
    main()
