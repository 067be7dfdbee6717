"""Traceability: which function implements which rule of ``spec/``.

``@rule("R-…")`` registers a function as the implementation of a rule id and
returns it unchanged (no run-time cost).  ``tests/test_traceability.py`` checks
that every rule id in ``spec/rules.md`` has at least one implementation here and
at least one test that cites it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

IMPLEMENTATIONS: dict[str, list[str]] = {}


def rule(*rule_ids: str) -> Callable[[F], F]:
    """Mark the decorated function as implementing ``rule_ids``."""

    def mark(fn: F) -> F:
        name = f"{fn.__module__}.{getattr(fn, '__qualname__', repr(fn))}"
        for rid in rule_ids:
            IMPLEMENTATIONS.setdefault(rid, []).append(name)
        return fn

    return mark
