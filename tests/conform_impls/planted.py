"""An implementation for tests/test_conform.py: the model's oracle behind the protocol, with one planted
bug (or none), run as ``python planted.py MODE``.

Modes: ``none`` (the model itself), ``pass-third`` (a deal whose third action is ``pass`` is judged
illegal: a bug a shrinker must bring down to three actions), ``standings`` (a game's standings off by one
for seat 0 after the first deal), ``payment`` (a deal's last payment one chip too many), ``slow`` (the fifth request never answered), ``crash`` (exits at the
fifth request), ``garbage`` (the fifth answer is not JSON), ``no-hello`` (hello refused).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from comet.oracle.protocol import handle_line


def planted(mode: str, request: Any, response: dict[str, Any]) -> dict[str, Any]:
    result = response.get("result")
    if not isinstance(request, dict) or not isinstance(result, dict):
        return response
    try:
        record = json.loads(request.get("record_text", "null"))
    except ValueError:
        return response
    if mode == "pass-third" and isinstance(record, dict) and "actions" in record:
        actions = record["actions"]
        if len(actions) >= 3 and actions[2] == "pass" and result.get("legal") is True:
            return {
                **response,
                "result": {
                    "format": result.get("format"),
                    "legal": False,
                    "applied": 2,
                    "error": {"rule": "R-PLAY-MUST", "index": 2, "action": "pass"},
                },
            }
    if mode == "payment" and isinstance(record, dict) and "actions" in record:
        payments = result.get("payments")
        if isinstance(payments, list) and payments:
            payments[-1]["amount"] += 1  # the last payment (a settlement's) one chip too many
    if mode == "standings" and isinstance(record, dict) and "deals" in record:
        deals = result.get("deals")
        if isinstance(deals, list) and deals and "standings" in deals[0]:
            deals[0]["standings"][0] += 1
    return response


def main() -> None:
    mode = sys.argv[1]
    n = 0
    for line in sys.stdin:
        n += 1
        if n == 5 and mode == "slow":
            time.sleep(3600)
        if n == 5 and mode == "crash":
            sys.exit(3)
        if n == 5 and mode == "garbage":
            print("this is not JSON", flush=True)
            continue
        response = handle_line(line)
        if response is None:
            continue
        if mode == "no-hello" and response.get("op") == "hello":
            response = {
                "id": response.get("id"),
                "ok": False,
                "op": "hello",
                "error": {"kind": "request", "message": "no"},
            }
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        print(json.dumps(planted(mode, request, response)), flush=True)


if __name__ == "__main__":
    main()
