"""Numba compilation for the fast kernels: ``jit`` (nopython, cached on disk, no GIL) and ``hot`` (``jit``,
inlined into its callers), typed for mypy as the function itself; the array types of the kernels' state."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, cast

import numba
import numpy as np
from numba import njit
from numpy.typing import NDArray

F = TypeVar("F", bound=Callable[..., object])

I64 = NDArray[np.int64]
I8 = NDArray[np.int8]


def cache_dir_for(sources: Path, base: Path) -> Path:
    """Where the kernels compiled from the ``.py`` files under ``sources`` are cached: a folder of ``base``
    named by a digest of every one of those files.  Numba's own check only looks at the file a compiled
    function is defined in, while a kernel inlines functions of other files (``policies.py`` into the games
    of ``games/``): with one folder per version of all the sources, a change anywhere compiles afresh."""
    digest = hashlib.sha256()
    for path in sorted(sources.rglob("*.py")):
        digest.update(path.relative_to(sources).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return base / digest.hexdigest()[:16]


def _use_versioned_cache() -> None:
    """Point Numba's cache at ``cache_dir_for`` this package (under ``$NUMBA_CACHE_DIR`` if set, else the
    user's cache folder); where that folder cannot be written, Numba keeps its default (``__pycache__``)."""
    root = Path(
        os.environ.get("NUMBA_CACHE_DIR")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "comet-numba"
    )
    target = cache_dir_for(Path(__file__).resolve().parent, root)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    if os.access(target, os.W_OK):
        setattr(numba.config, "CACHE_DIR", str(target))  # noqa: B010 (read by Numba at each cache lookup; not in its stubs)


_use_versioned_cache()


def jit(fn: F) -> F:
    """Compile ``fn`` with Numba in nopython mode, cached on disk (typed for mypy as ``fn`` itself)."""
    return cast(F, njit(cache=True, nogil=True)(fn))


def hot(fn: F) -> F:
    """``jit``, and inlined into its callers (a call with array arguments costs reference counting)."""
    return cast(F, njit(cache=True, nogil=True, inline="always")(fn))
