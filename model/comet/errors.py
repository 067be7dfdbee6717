"""The exception types of the public API, and what lets every exception of the project cross a process
boundary with its fields (``PortableError``)."""

from __future__ import annotations

from typing import TypeVar

E = TypeVar("E", bound=BaseException)


def rebuilt(cls: type[E], args: tuple[object, ...], fields: dict[str, object]) -> E:
    """``cls`` with ``args`` and ``fields`` as they were when it was pickled, without calling its ``__init__``
    (whose parameters need not be its ``args``)."""
    err = cls.__new__(cls, *args)
    err.args = args
    err.__dict__.update(fields)
    return err


class PortableError(Exception):
    """An exception that pickles with every field it holds, whatever its ``__init__`` takes.

    Python pickles an exception as its class called on ``self.args``; an ``__init__`` taking other
    parameters (``RecordError(kind, message)`` passes only the message on) then fails when a worker
    process's exception is unpickled in the parent, and ``concurrent.futures`` reports the whole pool broken.
    Every exception class of the project with an ``__init__`` of its own derives from this one
    (``tests/test_errors_pickle.py`` round-trips each)."""

    def __reduce__(self) -> tuple[object, tuple[type[PortableError], tuple[object, ...], dict[str, object]]]:
        return (rebuilt, (type(self), self.args, dict(self.__dict__)))


class IllegalAction(PortableError):
    """An action that the rules forbid in this state.

    ``rule`` is the id of the rule in ``spec/rules.md`` that forbids it and
    ``message`` says why in plain words.
    """

    def __init__(self, rule: str, message: str, action: str = "") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.action = action


class RecordError(PortableError, ValueError):
    """Malformed input: a record, card code, action text or deal that cannot be read.

    ``kind`` is a short error class (``json``, ``card``, ``pack``, ``hand-size``,
    ``dealer``, ``action-syntax``, ``field``, ``ruling``, ``players``) that
    conformance vectors name; ``str(err)`` is one plain line for a person.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
