"""The ``comet`` command line.  Each sub-command lives in ``comet/commands/<name>.py``
and exposes ``register(subparsers)``; this module only wires them up and turns
bad input into one plain line on stderr (exit 2), never a traceback."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from comet.errors import RecordError

# Order shown in ``comet --help``.
COMMANDS = ("verify", "deal", "game", "presets", "replay", "oracle", "vectors", "perft", "fuzz", "prove", "rules", "diverge", "bench", "site")


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line on stderr with exit code 2 (``--help`` still shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="comet",
        description="Comet, the 18th-century stops card game, and its relatives: "
        "an executable, formally checked rules specification.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"comet.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except RecordError as err:
        print(f"comet {args.command}: error: [{err.kind}] {err}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"comet {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"comet {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
