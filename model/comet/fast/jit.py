"""Numba compilation for the fast kernels: ``jit`` (nopython, cached on disk, no GIL) and ``hot`` (``jit``,
inlined into its callers), typed for mypy as the function itself; the array types of the kernels' state."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

F = TypeVar("F", bound=Callable[..., object])

I64 = NDArray[np.int64]
I8 = NDArray[np.int8]


def jit(fn: F) -> F:
    """Compile ``fn`` with Numba in nopython mode, cached on disk (typed for mypy as ``fn`` itself)."""
    return cast(F, njit(cache=True, nogil=True)(fn))


def hot(fn: F) -> F:
    """``jit``, and inlined into its callers (a call with array arguments costs reference counting)."""
    return cast(F, njit(cache=True, nogil=True, inline="always")(fn))
