"""``comet oracle``: a JSON-lines session on stdin/stdout for other implementations' test harnesses."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from comet.oracle.protocol import serve


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "oracle",
        help="answer JSON-lines requests on stdin (legal actions, apply, settle)",
        description="Read one JSON request per line on stdin and write one JSON response per line on stdout: "
        "ops hello, legal, apply, settle, replay, explain, deal, perft, quit (see spec/record.md).  Each request carries "
        "the record prefix it is about.  A malformed request gets an error response and the session "
        "goes on.  Deals can also be held open by id: new, apply (with deal_id), legal_actions, state, "
        "undo, close, one action at a time without replaying the deal.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    serve(sys.stdin, sys.stdout)
    return 0
