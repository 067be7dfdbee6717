"""Every exception class of the project crosses a process boundary intact (issue 37, item 3): found by
walking the packages ``comet`` and ``comet_proofs`` (so a new class is covered without editing this file),
built from its own signature, pickled and unpickled with the same type, ``args``, text and fields.  A class
that Python pickles as ``cls(*self.args)`` while its ``__init__`` takes other parameters fails here, as
``RecordError(kind, message)`` did: raised in a ``comet verify`` worker, it broke the whole pool
(``BrokenProcessPool``) before any table printed.

Rules exercised: R-REC-STATE (a record's fault kinds travel with the error), R-PLAY-MUST (the rule an
``IllegalAction`` names).
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from comet.errors import IllegalAction, RecordError

#: Packages whose modules are walked for exception classes.
PACKAGES = ("comet", "comet_proofs")
#: First-party names: a module of these that fails to import is a failure, never skipped.
FIRST_PARTY = ("comet", "comet_proofs")


def error_classes(packages: tuple[str, ...] = PACKAGES) -> tuple[list[type[BaseException]], list[str]]:
    """Every exception class defined in a module of ``packages`` (each module imported), and the modules
    skipped because a third-party package they need (an extra) is not installed."""
    found: dict[str, type[BaseException]] = {}
    skipped: list[str] = []
    for name in packages:
        root = importlib.import_module(name)
        modules = [name, *(m.name for m in pkgutil.walk_packages(root.__path__, f"{name}."))]
        for module_name in modules:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as err:
                if (err.name or "").split(".")[0] in FIRST_PARTY:
                    raise
                skipped.append(f"{module_name} (needs {err.name})")
                continue
            for obj in vars(module).values():
                if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == module_name:
                    found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)], skipped


def example(cls: type[BaseException]) -> BaseException:
    """``cls`` built from its signature: each parameter a distinct value of its annotated kind (an int where
    the annotation names ``int``, else a string), defaults overridden so that a field left out shows."""
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except ValueError:  # no __init__ of its own: the built-in one takes a message
        return cls("message-0")
    values: list[object] = []
    for i, param in enumerate(parameters):
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = str(param.annotation)
        values.append(100 + i if annotation in ("int", "int | None") else f"{param.name}-{i}")
    return cls(*values)


def round_trip_problem(cls: type[BaseException]) -> str | None:
    """Why ``cls`` does not survive pickling with its fields (None: it does)."""
    where = f"{cls.__module__}.{cls.__qualname__}"
    try:
        err = example(cls)
    except Exception as e:
        return f"{where}: cannot be built from its signature {inspect.signature(cls)}: {e!r}"
    try:
        back = pickle.loads(pickle.dumps(err))
    except Exception as e:
        return f"{where}: does not pickle and unpickle: {type(e).__name__}: {e}"
    if type(back) is not cls:
        return f"{where}: comes back as {type(back).__name__}"
    for what, before, after in (
        ("args", err.args, back.args),
        ("text", str(err), str(back)),
        ("fields", vars(err), vars(back)),
    ):
        if before != after:
            return f"{where}: its {what} change across pickling: {before!r} -> {after!r}"
    return None


def test_every_error_class_of_the_project_pickles_with_its_fields() -> None:
    """The walk finds the known classes (so it is not empty), and each round-trips."""
    classes, skipped = error_classes()
    names = {c.__qualname__ for c in classes}
    expected = {"RecordError", "IllegalAction", "SessionError", "WorkerError"}
    if not any(s.startswith("comet_proofs.concrete ") for s in skipped):  # the bare install has no z3
        expected.add("ConcretiseError")
    assert expected <= names, (names, skipped)
    problems = [p for c in classes if (p := round_trip_problem(c)) is not None]
    assert not problems, "\n".join(problems)


def test_the_fields_survive(tmp_path: Path) -> None:
    """R-REC-STATE, R-PLAY-MUST: a record fault's kind and an illegal action's rule, message and action."""
    err = pickle.loads(pickle.dumps(RecordError("hand-size", "seat 0 holds 10 cards; 4 players get 11 each")))
    assert (
        isinstance(err, RecordError)
        and isinstance(err, ValueError)
        and err.kind == "hand-size"
        and str(err).startswith("seat 0 holds")
    )
    bad = pickle.loads(pickle.dumps(IllegalAction("R-PLAY-MUST", "must play the 7", "pass")))
    assert (bad.rule, bad.message, bad.action, str(bad)) == (
        "R-PLAY-MUST",
        "must play the 7",
        "pass",
        "R-PLAY-MUST: must play the 7",
    )


def raise_record_error(kind: str) -> None:
    raise RecordError(kind, f"a {kind} fault in a worker")


def test_a_record_error_raised_in_a_worker_process_arrives_whole() -> None:
    """R-REC-STATE: through a process pool (what ``comet verify`` runs its units in), the parent catches the
    same error with its kind; before, unpickling it broke the pool."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        fut = pool.submit(raise_record_error, "hand-size")
        with pytest.raises(RecordError) as caught:
            fut.result()
    assert caught.value.kind == "hand-size" and str(caught.value) == "a hand-size fault in a worker"


PLANTED = '''
class PlantedError(Exception):
    """Bug: its __init__ takes (kind, message) but passes only the message on, as RecordError did."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class FineError(Exception):
    """A plain exception: pickles as it is."""
'''


def test_a_new_error_class_is_found_and_a_planted_unpicklable_one_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package nobody listed: the walk finds both its classes, and the round trip fails the planted one
    with a readable message (the new class needs no line in this file to be checked)."""
    package = tmp_path / "plantedpkg"
    (package / "deep").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "deep" / "__init__.py").write_text("", encoding="utf-8")
    (package / "deep" / "errors.py").write_text(PLANTED, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    classes, _ = error_classes(("plantedpkg",))
    assert [c.__qualname__ for c in classes] == ["FineError", "PlantedError"]
    fine, planted = classes
    assert round_trip_problem(fine) is None
    problem = round_trip_problem(planted)
    assert problem is not None and "plantedpkg.deep.errors.PlantedError: does not pickle" in problem
    assert "missing 1 required positional argument" in problem
