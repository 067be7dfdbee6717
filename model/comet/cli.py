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

#: The optional packages, by the extra of pyproject.toml that installs them (a bare install is the engine,
#: the records, the oracle and the site; spec/implementing.md).
EXTRAS: dict[str, str] = {
    "z3": "proofs",
    "numba": "fast",
    "numpy": "fast",
    "dask": "study",
    "distributed": "study",
    "matplotlib": "study",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "pettingzoo",
}


def extra_for(module: str | None) -> str | None:
    """The extra that installs ``module`` (a dotted name: its top package decides), or None for any other."""
    return EXTRAS.get((module or "").split(".")[0])


# Order shown in ``comet --help``.
COMMANDS = ("verify", "deal", "game", "presets", "replay", "oracle", "conform", "vectors", "perft", "fuzz", "prove", "rules", "diverge", "bench", "site", "bounds")


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
        try:
            module = importlib.import_module(f"comet.commands.{name}")
        except ModuleNotFoundError as err:
            extra = extra_for(err.name)
            if extra is None:
                raise
            _register_missing(sub, name, extra, err.name or extra)
            continue
        module.register(sub)
    return parser


def _register_missing(sub: argparse._SubParsersAction[OneLineParser], name: str, extra: str, module: str) -> None:
    """A command whose module needs an extra that is not installed: listed by ``comet --help`` with the
    extra it needs; run, it says so in one line and exits 2 (whatever arguments it was given)."""
    p = sub.add_parser(name, help=f"(needs the extra [{extra}]: pip install 'comet-rules[{extra}]')")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def run(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)

    p.set_defaults(run=run)


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
    except ModuleNotFoundError as err:
        extra = extra_for(err.name)
        if extra is None:
            raise
        print(
            f"comet {args.command}: error: this needs the extra [{extra}] ({err.name} is not installed); "
            f"install it with: pip install 'comet-rules[{extra}]'",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(f"comet {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
