"""The symbolic types of the encodings: an abstract deal state (concrete, ``AbstractState``, and symbolic,
``SymState``), a symbolic action (``SymAction``: a kind and a rank), and the readings of the rulings an
encoding quantifies over (``Readings``: one Z3 Boolean per ruling).

An abstract deal state is a handful of integers: for each seat the number of natural cards of each rank
it holds, where the Comet is, the played and dead counts per rank, the needed rank of the run (0 when a
new run is to be started), whose turn it is and so on; an encoding adds the fields its game needs
(``extra``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import z3
from comet.ruleset import Ruleset, field_readings

from comet_proofs.terms import is_variable

RANKS: tuple[int, ...] = tuple(range(2, 14))
KING = 13
NINE = 9
COMET_DEAD = -1
COMET_PLAYED = -2

# Action kinds of the symbolic action (kind, rank).
PASS, NATURAL, QUARTET, COMET, COMET_QUARTET = 0, 1, 2, 3, 4
# Card-level encodings: kind CARD plays the one card whose int code is the action's ``rank``.
CARD = 5
# Kind GROUP_BASE + k puts down k natural cards of one rank at once (a game's first play of a group).
GROUP_BASE = 10
KIND_NAMES = {
    PASS: "pass",
    NATURAL: "natural",
    QUARTET: "four of a kind",
    COMET: "Comet",
    COMET_QUARTET: "three natural 9s + Comet",
}

# The rulings whose readings change the transition relation: (Ruleset field, the reading the Boolean stands for).
PLAY_RULINGS: tuple[tuple[str, object], ...] = (
    ("may_stop_early", True),
    ("new_run", "may"),
    ("quartet_on_lead", True),
    # RUL-COMET-LEAD has three readings: two Booleans (king takes precedence; neither: forbidden)
    ("comet_lead", "king"),
    ("comet_lead", "any_rank"),
    ("comet_as", "any_rank"),
    ("comet_requires_missing", True),
    ("comet_bonus_last", "multiplied"),
    ("comet_in_quartet", True),
    ("comet_after", "optional_restart"),
    ("stuck_restart", "may"),
)
# Rulings that only shape the initial deal (hand sizes): also quantified symbolically.
DEAL_RULINGS: tuple[tuple[str, object], ...] = (("deal_sizes", "even"),)
FALSE = z3.BoolVal(False)


@dataclass(frozen=True, slots=True)
class AbstractState:
    """A concrete abstract state.  ``hands[p][i]`` counts seat p's natural cards of rank ``RANKS[i]``;
    ``comet`` is the seat holding the Comet, ``COMET_DEAD`` or ``COMET_PLAYED``."""

    players: int
    hands: tuple[tuple[int, ...], ...]
    comet: int
    played: tuple[int, ...]
    dead: tuple[int, ...]
    need: int
    to_move: int
    last_player: int
    turn_played: bool
    chips: tuple[int, ...]
    winner: int
    out_wild_as: int
    steps: int
    comet_value: int
    # The ranks the rows are indexed by (variants with a low Ace add rank 1), and the
    # variant encodings' extra fields as (name, value) pairs.
    ranks: tuple[int, ...] = RANKS
    extra: tuple[tuple[str, int], ...] = ()
    # How to print the rows' entries (default: rank codes); a card-level encoding names cards.
    labels: tuple[str, ...] = ()
    # RUL-COMET-AFTER (optional_restart): right after the Comet the mover may also start a new run.
    free_lead: bool = False


Rulings = tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class Readings:
    """One Z3 Boolean per ruling of ``fields`` (default ``PLAY_RULINGS`` + ``DEAL_RULINGS``; true: the named
    reading).  A variant encoding names its own rulings (``Encoding.rulings``)."""

    flags: tuple[z3.BoolRef, ...]
    fields: Rulings = PLAY_RULINGS + DEAL_RULINGS

    @staticmethod
    def fresh(prefix: str = "rd", fields: Rulings = PLAY_RULINGS + DEAL_RULINGS) -> Readings:
        names = [name for name, _ in fields]

        def label(name: str, value: object) -> str:
            return name if names.count(name) == 1 else f"{name}={value}"

        return Readings(tuple(z3.Bool(f"{prefix}.{label(name, value)}") for name, value in fields), fields)

    def flag(self, name: str, value: object) -> z3.BoolRef:
        """The Boolean standing for reading ``value`` of ``name`` (a field with several Booleans)."""
        for (field, reading), flag in zip(self.fields, self.flags, strict=True):
            if field == name and reading == value:
                return flag
        raise KeyError(f"{name}={value}")

    @staticmethod
    def of(rules: Ruleset, fields: Rulings = PLAY_RULINGS + DEAL_RULINGS) -> Readings:
        return Readings(tuple(z3.BoolVal(getattr(rules, name) == value) for name, value in fields), fields)

    def __getitem__(self, name: str) -> z3.BoolRef:
        for (field, _), flag in zip(self.fields, self.flags, strict=True):
            if field == name:
                return flag
        raise KeyError(name)

    def describe(self, model: z3.ModelRef) -> tuple[tuple[str, str], ...]:
        """The readings a Z3 model picked, as (field, reading) pairs."""
        out: dict[str, str] = {}
        named: dict[str, list[object]] = {}
        for (field, value), flag in zip(self.fields, self.flags, strict=True):
            named.setdefault(field, []).append(value)
            chosen = z3.is_true(model.eval(flag, model_completion=True))
            if chosen and field not in out:
                out[field] = reading_text(field, value, True)
        for field, values in named.items():
            if field not in out:
                rest = [r for r in field_readings(field) or () if r not in values]
                out[field] = reading_text(field, rest[0], True) if len(rest) == 1 else "?"
        return tuple((field, out[field]) for field in named)


def reading_text(field: str, value: object, chosen: bool) -> str:
    """The reading of ``field`` a Boolean stands for when it is ``chosen`` (true), else the other one."""
    if chosen:
        picked = value
    else:
        others = [r for r in field_readings(field) or () if r != value]
        picked = others[0] if len(others) == 1 else "?"
    return str(picked).lower() if isinstance(picked, bool) else str(picked)


@dataclass(frozen=True, slots=True)
class SymState:
    """A symbolic abstract state (Z3 terms, or constants for a concrete one)."""

    players: int
    hands: tuple[tuple[z3.ArithRef, ...], ...]
    comet: z3.ArithRef
    played: tuple[z3.ArithRef, ...]
    dead: tuple[z3.ArithRef, ...]
    need: z3.ArithRef
    to_move: z3.ArithRef
    last_player: z3.ArithRef
    turn_played: z3.BoolRef
    chips: tuple[z3.ArithRef, ...]
    winner: z3.ArithRef
    out_wild_as: z3.ArithRef
    steps: z3.ArithRef
    comet_value: z3.ArithRef
    ranks: tuple[int, ...] = RANKS
    extra: tuple[tuple[str, z3.ArithRef], ...] = ()
    labels: tuple[str, ...] = ()
    # RUL-COMET-AFTER: symbolic in encodings that quantify over comet_after, else the constant false.
    free_lead: z3.BoolRef = FALSE

    @staticmethod
    def fresh(
        prefix: str,
        players: int,
        ranks: tuple[int, ...] = RANKS,
        extra: tuple[str, ...] = (),
        free_lead: bool = False,
    ) -> SymState:
        def i(name: str) -> z3.ArithRef:
            return z3.Int(f"{prefix}.{name}")

        return SymState(
            players=players,
            hands=tuple(tuple(i(f"hand{p}.{r}") for r in ranks) for p in range(players)),
            comet=i("comet"),
            played=tuple(i(f"played.{r}") for r in ranks),
            dead=tuple(i(f"dead.{r}") for r in ranks),
            need=i("need"),
            to_move=i("to_move"),
            last_player=i("last_player"),
            turn_played=z3.Bool(f"{prefix}.turn_played"),
            chips=tuple(i(f"chips{p}") for p in range(players)),
            winner=i("winner"),
            out_wild_as=i("out_wild_as"),
            steps=i("steps"),
            comet_value=i("comet_value"),
            ranks=ranks,
            extra=tuple((name, i(name)) for name in extra),
            free_lead=z3.Bool(f"{prefix}.free_lead") if free_lead else FALSE,
        )

    @staticmethod
    def const(a: AbstractState) -> SymState:
        return _mapped(a, z3.IntVal, z3.BoolVal, SymState)

    def x(self, name: str) -> z3.ArithRef:
        """The extra field ``name`` (variant encodings)."""
        for key, term in self.extra:
            if key == name:
                return term
        raise KeyError(name)

    def terms(self) -> list[z3.ExprRef]:
        """Every term, in a fixed order (for equality and blocking clauses)."""
        out: list[z3.ExprRef] = [x for h in self.hands for x in h]
        out += [self.comet, *self.played, *self.dead, self.need, self.to_move, self.last_player]
        out += [self.turn_played, *self.chips, self.winner, self.out_wild_as, self.steps, self.comet_value]
        return out + [term for _, term in self.extra] + [self.free_lead]

    def equals(self, other: SymState) -> z3.BoolRef:
        return z3.And([a == b for a, b in zip(self.terms(), other.terms(), strict=True)])

    def same_variables(self, other: SymState) -> z3.BoolRef:
        """``equals`` on the fields that are variables: the same states, since every other term (the
        card-level encodings' ``hands``, ``played``, ``dead``) is built from them; for blocking clauses,
        where the whole ``equals`` costs a term per card and seat."""
        return z3.And([a == b for a, b in zip(self.terms(), other.terms(), strict=True) if is_variable(a)])

    def evaluate(self, model: z3.ModelRef) -> AbstractState:
        def n(x: z3.ExprRef) -> int:
            return int(model.eval(x, model_completion=True).as_long())

        def flag(x: z3.ExprRef) -> bool:
            return bool(z3.is_true(model.eval(x, model_completion=True)))

        return _mapped(self, n, flag, AbstractState)


State = TypeVar("State", AbstractState, SymState)


def _mapped(
    source: AbstractState | SymState, number: Callable[[Any], Any], flag: Callable[[Any], Any], make: Callable[..., State]
) -> State:
    """``source``'s fields with ``number`` applied to every count and ``flag`` to every Boolean, as a ``make``
    (a concrete state's values as Z3 constants, or a symbolic state's values in a model)."""
    return make(
        players=source.players,
        hands=tuple(tuple(number(x) for x in h) for h in source.hands),
        comet=number(source.comet),
        played=tuple(number(x) for x in source.played),
        dead=tuple(number(x) for x in source.dead),
        need=number(source.need),
        to_move=number(source.to_move),
        last_player=number(source.last_player),
        turn_played=flag(source.turn_played),
        chips=tuple(number(x) for x in source.chips),
        winner=number(source.winner),
        out_wild_as=number(source.out_wild_as),
        steps=number(source.steps),
        comet_value=number(source.comet_value),
        ranks=source.ranks,
        extra=tuple((name, number(x)) for name, x in source.extra),
        labels=source.labels,
        free_lead=flag(source.free_lead),
    )


@dataclass(frozen=True, slots=True)
class SymAction:
    kind: z3.ArithRef
    rank: z3.ArithRef

    @staticmethod
    def fresh(prefix: str = "a") -> SymAction:
        return SymAction(z3.Int(f"{prefix}.kind"), z3.Int(f"{prefix}.rank"))

