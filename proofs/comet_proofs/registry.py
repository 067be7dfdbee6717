"""The games the proofs know, found by discovery: every folder of ``comet_proofs/games/`` is a game, whose
``encoding`` module names its encoding class (``ENCODING``).  No shared module lists the games, and no
game imports this registry (it reads theirs).

``encoding_for(preset)`` is the encoding of a preset's game; ``ENCODINGS`` maps each preset to its
encoding class (a test may replace an entry for its duration).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import comet_proofs.games
from comet_proofs.encoding import Encoding

ENCODINGS: dict[str, type[Encoding]] = {}


# The game packages found, by the search path they were found on (a test that puts a folder on the path
# gets a search of its own; the folders are listed once per path, not on every look-up).
_FOUND: dict[tuple[str, ...], tuple[ModuleType, ...]] = {}


def game_packages() -> tuple[ModuleType, ...]:
    """Every game folder's package, imported (a folder put on ``comet_proofs.games.__path__`` included)."""
    path = tuple(comet_proofs.games.__path__)
    if path not in _FOUND:
        prefix = comet_proofs.games.__name__ + "."
        _FOUND[path] = tuple(
            importlib.import_module(info.name) for info in pkgutil.iter_modules(path, prefix) if info.ispkg
        )
    return _FOUND[path]


def game_module(package: ModuleType, name: str) -> ModuleType | None:
    """The game folder's module ``name`` (``encoding``, ``classes``, ``scenarios``), None if it has none."""
    try:
        return importlib.import_module(f"{package.__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{package.__name__}.{name}":
            raise
        return None


def load_encodings() -> None:
    """Put every game folder's encoding in ``ENCODINGS`` under its preset's name (an entry already there, as
    a test's replacement, is kept)."""
    for package in game_packages():
        module = game_module(package, "encoding")
        cls = getattr(module, "ENCODING", None)
        if isinstance(cls, type) and issubclass(cls, Encoding):
            ENCODINGS.setdefault(cls.name, cls)


def encoding_for(preset: str) -> Encoding:
    """The encoding of a preset's game; ValueError if the game has none yet."""
    load_encodings()
    cls = ENCODINGS.get(preset)
    if cls is None:
        raise ValueError(f"no proofs for preset {preset!r} yet; proved: {', '.join(sorted(ENCODINGS))}")
    return cls()


def encodings() -> dict[str, type[Encoding]]:
    """``ENCODINGS`` with every game folder's encoding loaded."""
    load_encodings()
    return ENCODINGS


def game_part(preset: str, module: str, name: str) -> object:
    """The value ``name`` in module ``module`` (``classes``, ``scenarios``) of the game folder whose encoding
    proves ``preset``; None if the folder has no such module or value.  ValueError for a preset no game
    folder's encoding names."""
    for package in game_packages():
        encoding = game_module(package, "encoding")
        cls = getattr(encoding, "ENCODING", None)
        if isinstance(cls, type) and issubclass(cls, Encoding) and cls.name == preset:
            part = game_module(package, module)
            return getattr(part, name, None)
    raise ValueError(f"no game folder for preset {preset!r} in comet_proofs/games/")
