"""Running ``comet verify``'s units of work: in this process (``--jobs 1``) or in a pool of worker processes,
with one progress bar, and a unit that raises reported as a ``UnitFailure`` (its check, preset, player
count and message) while every other unit still runs and its result still prints.

A unit's result or error comes back from a worker pickled.  Every error class of the project pickles with
its fields (``comet.errors.PortableError``); an error that does not (a third-party class, a planted one)
is replaced in the worker by a ``WorkerError`` carrying its type, text and traceback, so it cannot break
the pool.  A worker that dies outright (killed, out of memory) breaks the pool: every unit not finished is
then a failure saying so, and the results already in still print."""

from __future__ import annotations

import pickle
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rich.console import Console

from comet.errors import PortableError

T = TypeVar("T")


@dataclass(frozen=True)
class Unit(Generic[T]):
    """One unit of work: ``call`` (a picklable callable: a module-level function or a ``functools.partial``
    of one) runs in a worker, ``take`` receives its result in this process.  ``check``, ``preset``,
    ``players`` and ``what`` say what it is, in the progress bar and in a failure's row."""

    check: str
    preset: str
    players: str
    what: str
    call: Callable[[], T]
    take: Callable[[T], None]


@dataclass(frozen=True, slots=True)
class UnitFailure:
    """A unit that raised: what it was, the error in one line, where it was raised, the traceback."""

    check: str
    preset: str
    players: str
    what: str
    message: str
    where: str
    traceback: str


class WorkerError(PortableError):
    """An error raised in a worker that would not have survived pickling, as text."""

    def __init__(self, kind: str, message: str, trace: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.trace = trace


def guarded(call: Callable[[], T]) -> T:
    """``call()`` in a worker; an error that would not unpickle in the parent is raised as a ``WorkerError``."""
    try:
        return call()
    except Exception as err:
        try:
            pickle.loads(pickle.dumps(err))
        except Exception:
            raise WorkerError(type(err).__name__, str(err), traceback.format_exc()) from None
        raise


def one_line(err: BaseException) -> str:
    """The error as one line: its type, a record error's kind, its text."""
    if isinstance(err, WorkerError):
        return str(err)
    kind = getattr(err, "kind", None)
    shown = f"{type(err).__name__} [{kind}]" if isinstance(kind, str) else type(err).__name__
    text = " ".join(str(err).split())
    return f"{shown}: {text}" if text else shown


def trace_of(err: BaseException) -> str:
    """The traceback where ``err`` was raised: a worker's (sent along by ``concurrent.futures`` as the cause),
    a ``WorkerError``'s own, or this process's."""
    if isinstance(err, WorkerError):
        return err.trace
    remote = getattr(err.__cause__, "tb", None)
    if isinstance(remote, str):
        return remote
    return "".join(traceback.format_exception(err))


def raised_at(trace: str) -> str:
    """The innermost ``File "...", line N, in f`` of a traceback, shortened to the package path."""
    frames = [line.strip() for line in trace.splitlines() if line.strip().startswith('File "')]
    if not frames:
        return ""
    last = frames[-1]
    for root in ("/comet/", "/comet_proofs/"):
        if root in last:
            tail = last.partition(root)[2]
            return f'File "{root.strip("/")}/{tail}'
    return last


def failure(check: str, preset: str, players: str, what: str, err: BaseException) -> UnitFailure:
    """``err``, raised by the unit ``check`` of ``preset`` at ``players``, as a failure's row."""
    if isinstance(err, BrokenProcessPool):
        message = f"the worker process running it died ({type(err).__name__}: {err})"
        return UnitFailure(check, preset, players, what, message, "", "")
    trace = trace_of(err)
    return UnitFailure(check, preset, players, what, one_line(err), raised_at(trace), trace)


def run_units(
    units: Sequence[Unit[Any]],
    jobs: int,
    console: Console,
    meanwhile: Callable[[], None] | None = None,
) -> list[UnitFailure]:
    """Every unit, in the order given (the longest first, so that workers finish close together), each result
    handed to its ``take``; ``meanwhile`` runs in this process while the workers work (with ``jobs`` 1, before
    the units).  The failures, in the order they happened."""
    from rich.progress import Progress

    failures: list[UnitFailure] = []
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("verify", total=len(units))

        def done(unit: Unit[Any], outcome: Callable[[], Any]) -> None:
            try:
                result = outcome()
            except Exception as err:
                failures.append(failure(unit.check, unit.preset, unit.players, unit.what, err))
                bar.update(task, description=f"[red]failed[/red] {unit.check} of {unit.preset}")
            else:
                unit.take(result)
                bar.update(task, description=f"{unit.check}: {unit.preset} {unit.what}".rstrip())
            bar.advance(task)

        if jobs <= 1:
            if meanwhile is not None:
                meanwhile()
            for unit in units:
                done(unit, unit.call)
            return failures
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            what: dict[Future[Any], Unit[Any]] = {pool.submit(guarded, u.call): u for u in units}
            if meanwhile is not None:
                meanwhile()
            for fut in as_completed(what):
                done(what[fut], fut.result)
    return failures
