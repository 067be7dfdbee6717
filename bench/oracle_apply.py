"""Benchmark: ``apply`` requests per second through ``comet oracle``'s deal session, over a pipe.

Usage:  .venv/bin/python bench/oracle_apply.py [--seconds S]

Spawns ``comet oracle`` as a subprocess and streams ``new``/``apply``/``close`` requests for seeded
complete 4-player standard deals through its stdin, reading every response from its stdout
(``comet.oracle.bench.measure_oracle_apply``, which ``comet bench`` calls too).  Wall time: the
oracle and this client share the machine.  Measured, never asserted by a test.
"""

from __future__ import annotations

import argparse

from comet.oracle.bench import measure_oracle_apply


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=5.0, help="how long to stream requests")
    args = ap.parse_args()
    rate = measure_oracle_apply(args.seconds)
    print(f"comet oracle: {rate:,.0f} apply requests/s over a pipe (4-player standard deals)")


if __name__ == "__main__":
    main()
