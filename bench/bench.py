"""Benchmark: a thin wrapper around ``comet bench`` (the one table of issue 10).

Usage:  .venv/bin/python bench/bench.py [--quick] [--json FILE] [--seconds S] [--check sample|all] [--preset P]

Same options as ``comet bench --help``; kept so that older notes pointing here still work.
Measured, never asserted by any test.
"""

from __future__ import annotations

import sys

from comet.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
