"""How many ``apply`` requests per second ``comet oracle`` answers over a pipe (deal session ops).

``measure_oracle_apply(seconds)`` starts ``comet oracle`` as a subprocess and streams requests
through its stdin while reading the responses from its stdout, as a test harness would: for
seeded complete 4-player standard deals in turn, ``new`` (from the seed), every action of the deal
as one ``apply`` each, then ``close``.  Requests are written by a second thread so that the
pipe never stalls; every response is checked to be ``"ok": true``.  The figure is ``apply``
responses received per second of wall time (``new`` and ``close`` take their share of the time).
It is a measurement for ``bench/oracle_apply.py`` and ``comet bench``, never asserted by a test.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import threading
import time
from typing import IO

from comet.engine import apply, legal_actions, shuffled_deal
from comet.policy import random_policy
from comet.presets import preset

#: The command that runs ``comet oracle`` with this interpreter (no console script needed).
ORACLE_COMMAND = (sys.executable, "-c", "import sys; from comet.cli import main; sys.exit(main(['oracle']))")


def session_requests(deals: int, players: int = 4, variant: str = "standard") -> list[tuple[str, bool]]:
    """Request lines for ``deals`` seeded complete deals, each flagged True if it is an ``apply``."""
    rules = preset(variant).rules
    lines: list[tuple[str, bool]] = []
    for seed in range(deals):
        dealer = players - 1
        s = shuffled_deal(rules, players, dealer, seed)
        choose = random_policy(random.Random(seed))
        new = {"op": "new", "deal_id": seed, "variant": variant, "players": players, "dealer": dealer, "seed": seed}
        lines.append((json.dumps(new), False))
        while not s.terminal:
            action = choose(s, legal_actions(s))
            s = apply(s, action)
            lines.append((json.dumps({"op": "apply", "deal_id": seed, "action": str(action)}), True))
        lines.append((json.dumps({"op": "close", "deal_id": seed}), False))
    return lines


def measure_oracle_apply(seconds: float, deals: int = 20) -> float:
    """``apply`` requests per second that ``comet oracle`` answers over a pipe, over about ``seconds``.

    Raises RuntimeError if any response is not ``"ok": true`` or the oracle stops answering."""
    requests = session_requests(deals)
    proc = subprocess.Popen(ORACLE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 16)
    assert proc.stdin is not None and proc.stdout is not None
    stop = threading.Event()
    sent_applies: list[bool] = []  # which requests were applies, in the order they were sent

    def write(out: IO[str]) -> None:
        try:
            while not stop.is_set():
                for i in range(0, len(requests), 64):
                    chunk = requests[i : i + 64]
                    sent_applies.extend(is_apply for _, is_apply in chunk)  # before a response can come
                    out.write("".join(line + "\n" for line, _ in chunk))
                    out.flush()
                    if stop.is_set():
                        break
            out.write('{"op": "quit"}\n')
            out.flush()
        except (BrokenPipeError, ValueError):
            pass

    writer = threading.Thread(target=write, args=(proc.stdin,), daemon=True)
    applies = received = 0
    try:
        writer.start()
        t0 = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("comet oracle stopped answering")
            if '"ok":true' not in line:
                raise RuntimeError(f"comet oracle answered an error: {line.strip()}")
            applies += sent_applies[received]
            received += 1
            elapsed = time.perf_counter() - t0
        stop.set()
        for _ in proc.stdout:  # drain what is still in flight, until quit
            pass
    finally:
        stop.set()
        proc.stdout.close()
        writer.join(timeout=10)
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        proc.wait(timeout=10)
    return applies / elapsed
