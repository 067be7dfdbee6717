"""Stored Z3 models ("certificates") for the satisfiable questions ``comet verify`` asks of an encoding, so
that it checks an answer instead of searching for one (spec/proofs.md, "Certificates").

A Z3 "sat" answer comes with a model, and anyone can check a model by evaluating the formula on it; only an
"unsat" answer needs the solver.  Several questions of ``comet verify`` are of the first kind and depend on
the encoding alone, not on the model's code:

- the directed refinement check's witness per behaviour class and reading combination: a step
  ``Inv(s) ∧ T(s, a, s2) ∧ guard ∧ readings ∧ realism`` (``refine.find_witness``);
- the bounds' optima (``bounds.maximise_all``): a model attaining the value ``b`` of each objective.

The models found are kept in a versioned JSON file per preset (``certified/<preset>.json``), written by
``python -m comet_proofs.certify --update`` (``comet_proofs.certify``, the command that
writes and checks the files; this module is only the store, so ``bounds`` and ``refine`` can read it).  A stored witness is used when the formula, built now
from the current encoding, evaluates to true on it (a few milliseconds); the model of the game is then
compared with the encoding on it exactly as on a witness Z3 found.  A stored optimum ``b`` is used when its
model satisfies the constraints and gives the objective the value ``b`` (so the optimum is at least
``b``) and Z3 proves ``constraints ∧ objective > b`` unsat (so it is at most ``b``): ``b`` is then the exact
optimum over the encoding, the same number ``Optimize`` gives.  A model that no longer fits (the encoding
changed), or an optimum that is no longer one, is not used: the question is searched afresh as without
certificates, and the result says so (``notes``), so a stale file costs time, never soundness.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import z3

FORMAT = 1
FOLDER = Path(__file__).parent / "certified"
UPDATE = "python -m comet_proofs.certify --update"

Values = dict[str, int | bool]


def values_of(model: z3.ModelRef) -> Values | None:
    """A Z3 model's values of its constants, without the zeros and falses (``model_of`` completes them); None
    if it interprets something else (a function, a value of another sort), which a certificate cannot hold."""
    out: Values = {}
    for decl in model.decls():
        if decl.arity() != 0:
            return None
        value = model[decl]
        if z3.is_true(value) or z3.is_false(value):
            if z3.is_true(value):
                out[decl.name()] = True
        elif z3.is_int_value(value):
            if value.as_long() != 0:
                out[decl.name()] = int(value.as_long())
        else:
            return None
    return dict(sorted(out.items()))


def model_of(values: Values) -> z3.ModelRef:
    """A Z3 model giving each named constant its value (Booleans for ``bool``, integers otherwise); evaluate
    with ``model_completion`` (``fits``), so every other constant is 0 or false."""
    model = z3.Model()
    for name, value in values.items():
        if isinstance(value, bool):
            model.update_value(z3.Bool(name), z3.BoolVal(value))
        else:
            model.update_value(z3.Int(name), z3.IntVal(value))
    return model


def fits(model: z3.ModelRef, formulas: Sequence[z3.BoolRef]) -> bool:
    """Every formula evaluates to true on ``model`` (each constant it does not name: 0 or false): then the
    formulas are satisfiable, with this model as the proof."""
    return all(z3.is_true(model.eval(f, model_completion=True)) for f in formulas)


def value_on(model: z3.ModelRef, term: z3.ArithRef) -> int | None:
    got = model.eval(term, model_completion=True)
    return int(got.as_long()) if z3.is_int_value(got) else None


@dataclass(frozen=True, slots=True)
class StoredWitness:
    """A refinement witness: the player count and whether the other readings were left free (the search's
    two passes), and the model."""

    players: int
    free: bool
    values: Values

    def json(self) -> dict[str, object]:
        return {"players": self.players, "free": self.free, "model": self.values}


@dataclass(frozen=True, slots=True)
class StoredOptimum:
    """A bound's optima: per objective its value and a model attaining it.  ``search``: at ``--update`` Z3's
    proof that nothing exceeds the values took longer than ``Optimize`` itself (or gave no answer), so
    ``comet verify`` searches this one; kept to say so."""

    values: tuple[int, ...]
    models: tuple[Values, ...]
    search: bool = False

    def json(self) -> dict[str, object]:
        return {"values": list(self.values), "models": list(self.models), "search": self.search}


@dataclass
class Certificates:
    """The stored certificates of one preset, and what a run did with them: ``found`` holds every answer of
    the run (stored and still good, or searched), which ``--update`` writes; ``notes`` one line per
    certificate that was stale or missing."""

    preset: str
    witnesses: dict[str, StoredWitness] = field(default_factory=dict)
    optima: dict[str, StoredOptimum] = field(default_factory=dict)
    # --update: also find a model attaining each optimum Optimize gives (costs a check per objective)
    recording: bool = False
    # a note for each answer with no stored certificate (off where none are meant to be: ``searching``)
    notify_missing: bool = True
    found_witnesses: dict[str, StoredWitness] = field(default_factory=dict)
    found_optima: dict[str, StoredOptimum] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    used: int = 0
    # the keys looked up (``check``: a stored entry never asked for is left over from an older encoding)
    asked: set[str] = field(default_factory=set)
    # no file for the preset (a new game): one note per run (``absence``) instead of one per answer
    absent: bool = False

    @classmethod
    def stored(cls, preset: str) -> Certificates:
        """The committed certificates of ``preset`` (none if it has no file)."""
        path = FOLDER / f"{preset}.json"
        if not path.exists():
            return cls(preset, notify_missing=False, absent=True)
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("preset") != preset:
            return cls(preset, notes=[f"{preset}: certificates of another format or preset ignored; run {UPDATE}"])
        witnesses = {
            k: StoredWitness(int(v["players"]), bool(v["free"]), dict(v["model"])) for k, v in data["witnesses"].items()
        }
        optima = {
            k: StoredOptimum(tuple(v["values"]), tuple(dict(m) for m in v["models"]), bool(v["search"]))
            for k, v in data["optima"].items()
        }
        return cls(preset, witnesses, optima)

    @classmethod
    def searching(cls, preset: str) -> Certificates:
        """No certificates: every answer searched, as without them, and no notes."""
        return cls(preset, notify_missing=False)

    def absence(self, what: str) -> None:
        """The note for a run of ``what`` (e.g. "refinement check") with no file of certificates."""
        if self.absent:
            self.notes.append(
                f"{self.preset}: no stored certificates: the {what} searched every answer; run {UPDATE} --preset {self.preset}"
            )

    def stale(self, what: str, why: str) -> None:
        self.notes.append(f"{self.preset}: {what}: certificate {why}: searched afresh; run {UPDATE}")

    def json(self) -> str:
        """The file ``--update`` writes: what this run found, one entry a line (small diffs)."""

        def section(entries: dict[str, dict[str, object]]) -> str:
            lines = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(entries.items())]
            return "{\n" + ",\n".join(lines) + "\n }" if lines else "{}"

        witnesses = section({k: v.json() for k, v in self.found_witnesses.items()})
        optima = section({k: v.json() for k, v in self.found_optima.items()})
        head = f' "format": {FORMAT},\n "preset": {json.dumps(self.preset)},\n "command": {json.dumps(UPDATE)},\n'
        return "{\n" + head + f' "witnesses": {witnesses},\n "optima": {optima}\n}}\n'
