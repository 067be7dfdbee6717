"""A ruleset's hooks and readings, resolved once for the engine's paths taken on every action.

``legal_actions`` and ``apply`` used to ask the registry for the family of ``state.rules`` on every call
(several times per action: the legal-action hook, the transition hooks, the payments hooks) and to work
out again whether the lean paths of ``legal_actions`` hold.  A ``Plan`` holds those answers for one
``Ruleset`` value and the family registered for it: the engine finds it through a one-entry cache (the
ruleset of the call before, most often this one), else a small table keyed by the ruleset's identity.
The registry tells this module when a family is registered again or swapped (``Registry.changed``), and
everything resolved is forgotten, so a test that replaces a family's hooks sees them on the next action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comet.ruleset import Ruleset
from comet.state import Action, DealState, Payment
from comet.variant import REGISTRY, Option, Variant, variant_of

#: The ``Ruleset`` fields the lean paths of ``legal_actions`` assume at their defaults (every field that
#: ``general_legal_actions`` and the functions it calls read; ``tests/test_engine_speed.py`` checks the
#: source against this list, so a new reading there cannot be skipped by the lean paths).
LEGAL_FIELDS = (
    "quartet_on_lead",
    "comet_lead",
    "new_run",
    "stuck_restart",
    "comet_in_quartet",
    "comet_requires_missing",
    "comet_as",
    "may_stop_early",
    "comet_after",
)
_DEFAULT_RULES = Ruleset()


def plain_readings(rules: Ruleset, v: Variant) -> bool:
    """Do ``rules`` read every ruling of ``LEGAL_FIELDS`` as the defaults do, in a family with no set hook
    (``partial_sets``) and the standard lowest rank?  Then ``legal_actions`` may take its lean paths."""
    return v.partial_sets is None and all(getattr(rules, f) == getattr(_DEFAULT_RULES, f) for f in LEGAL_FIELDS)


@dataclass(frozen=True, slots=True)
class Plan:
    """What the engine needs to know about ``rules`` on every action, looked up once."""

    rules: Ruleset
    variant: Variant
    #: ``legal_actions`` may take its lean paths (``plain_readings``).
    plain: bool
    #: RUL-COMET-AFTER = optional_restart: the run goes on after the Comet, or a new one may start.
    optional_restart: bool
    legal_actions: Callable[[DealState], tuple[Action, ...]] | None
    play: Callable[[DealState, Action], DealState] | None
    end_turn: Callable[[DealState], DealState] | None
    play_payments: Callable[[DealState, int, Action, bool], tuple[Payment, ...]] | None
    pass_payments: Callable[[DealState, DealState], tuple[Payment, ...]] | None
    options: tuple[Option, ...]


def make_plan(rules: Ruleset, v: Variant) -> Plan:
    return Plan(
        rules,
        v,
        plain_readings(rules, v),
        rules.comet_after == "optional_restart",
        v.legal_actions,
        v.play,
        v.end_turn,
        v.play_payments,
        v.pass_payments,
        v.options,
    )


class Last:
    """The plan last asked for (a mutable one-entry cache; a plan itself never changes).  The hot paths
    read it in line: ``plan = LAST.plan if LAST.rules is rules else plan_of(rules)``."""

    __slots__ = ("plan", "rules")

    def __init__(self) -> None:
        self.rules: Ruleset | None = None
        self.plan: Plan = make_plan(_DEFAULT_RULES, Variant("standard"))


LAST = Last()
_TABLE: dict[int, Plan] = {}


def plan_of(rules: Ruleset) -> Plan:
    """The plan of ``rules`` (under the family registered for it now), remembered as the last one asked for."""
    plan = _TABLE.get(id(rules))
    if plan is None or plan.rules is not rules:  # a ruleset made since, at the address of one gone
        if len(_TABLE) >= 256:  # rulesets made afresh in a loop: keep the table small
            _TABLE.clear()
        plan = _TABLE[id(rules)] = make_plan(rules, variant_of(rules))
    LAST.rules = None  # never a moment where the rules match a plan not theirs
    LAST.plan = plan
    LAST.rules = rules
    return plan


def forget() -> None:
    """Drop every plan (the registry changed: a family's hooks may be others now)."""
    LAST.rules = None
    _TABLE.clear()


REGISTRY.listeners.append(forget)
