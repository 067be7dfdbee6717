"""Run an OpenSpiel script or module with ``python_comet`` registered (spec/frameworks.md, "Loading by name").

OpenSpiel finds a Python game only once the module that registers it is imported, and its example
scripts import none of ours, so ``--game python_comet`` fails there with a list of every game's name.
This runner imports ``comet.frameworks.openspiel`` (which registers ``python_comet``) and then runs the
given module, or script file, as ``__main__`` with the arguments that follow::

    python -m comet.frameworks.run open_spiel.python.examples.cfr_example --game "python_comet(small=tiny)" --iterations 20
    python -m comet.frameworks.run my_experiment.py --game python_comet
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from collections.abc import Sequence

import comet.frameworks.openspiel  # noqa: F401  (registers python_comet with pyspiel)

USAGE = (
    "usage: python -m comet.frameworks.run MODULE_OR_SCRIPT [ARGUMENTS...]\n"
    "Run an OpenSpiel module (e.g. open_spiel.python.examples.cfr_example) or a script file with the game\n"
    "python_comet registered, so that --game python_comet(...) loads it."
)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    target, rest = args[0], args[1:]
    if not target.endswith(".py"):
        try:
            found = importlib.util.find_spec(target) is not None
        except ImportError:
            found = False
        if not found:
            print(f"error: no module {target!r} to run", file=sys.stderr)
            return 2
    sys.argv = [target, *rest]
    try:
        if target.endswith(".py"):
            runpy.run_path(target, run_name="__main__")
        else:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
    except SystemExit as done:  # absl's app.run and argparse end with sys.exit
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
