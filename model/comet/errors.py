"""The two exception types of the public API."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules forbid in this state.

    ``rule`` is the id of the rule in ``spec/rules.md`` that forbids it and
    ``message`` says why in plain words.
    """

    def __init__(self, rule: str, message: str, action: str = "") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.action = action


class RecordError(ValueError):
    """Malformed input: a record, card code, action text or deal that cannot be read.

    ``kind`` is a short error class (``json``, ``card``, ``pack``, ``hand-size``,
    ``dealer``, ``action-syntax``, ``field``, ``ruling``, ``players``) that
    conformance vectors name; ``str(err)`` is one plain line for a person.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
