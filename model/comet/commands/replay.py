"""``comet replay``: replay a deal record and print the verdict as JSON (or narrate it)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from comet.errors import RecordError
from comet.records.deal_record import dumps_json, explain_lines, replay_record


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="replay a deal record (JSON) and print the verdict",
        description="Read a deal record (spec/record.md) from FILE or stdin ('-'), apply its actions and print "
        "one JSON object: the final state and payments (exit 0), or the first illegal action with the "
        "rule id it breaks (exit 1).  A game record (an object with 'deals') is checked deal by deal: "
        "each deal's verdict, the standings after it and the winners (exit 0), or the first illegal or "
        "inconsistent item with its rule id (exit 1).  Malformed input gives one line on stderr naming "
        "the error kind (exit 2).",
    )
    p.add_argument("file", metavar="FILE", help="the record file, or '-' for stdin")
    p.add_argument("--explain", action="store_true", help="narrate the deal for a person instead of printing JSON")
    p.set_defaults(run=run)


def read_text(path: str) -> str:
    """The text of ``path`` ('-': stdin); RecordError kind ``io`` if it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError("io", f"cannot read {path}: {e}") from None


def run(args: argparse.Namespace) -> int:
    # A RecordError propagates to comet.cli.main, which prints "[kind] message" on one line, exit 2.
    from comet.records.game_record import GameRecord, loads_any
    from comet.records.game_replay import replay_game
    from comet.records.game_verdict import explain_game

    rec = loads_any(read_text(args.file))
    if isinstance(rec, GameRecord):
        game = replay_game(rec)
        if args.explain:
            for line in explain_game(game):
                print(line)
        else:
            print(dumps_json(game.to_json()))
        return 0 if game.legal else 1
    verdict = replay_record(rec)
    if args.explain:
        for line in explain_lines(verdict):
            print(line)
        return 0 if verdict.legal else 1
    print(dumps_json(verdict.to_json()))
    return 0 if verdict.legal else 1
