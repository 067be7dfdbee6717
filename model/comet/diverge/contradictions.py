"""Defaults that another default contradicts.

A ruling's "Default and why" often rejects an outcome: RUL-COMET-RANK's default (the Comet stands for the
rank the run needs) rejects a player going out on the Comet "as a 9" by free choice, collecting four
times.  Another ruling's default can reopen the door (a Comet *led* as any rank, RUL-COMET-LEAD).  Each
rejected outcome is declared here as a predicate over one transition (state, action, next state); the
check plays the preset's *default* rules over seeded and planted deals (the hoarder policy keeps the
wild card to the end and calls it a 9 where it may) and reports the first deal where a rejected outcome
happens anyway, as a witness.  Add a ``Rejected`` entry when a ruling's reasoning rejects an outcome.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from comet.diverge.deal_search import deal_candidates, deal_witness
from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.diverge.records import Bound, Witness
from comet.engine import apply, legal_actions, returns
from comet.presets import preset
from comet.state import Action, DealState
from comet.variant import applies


def free_nine_out(s: DealState, a: Action, n: DealState) -> bool:
    """The last card, a wild card, goes out as a 9 the run did not need, and that choice raises the pay."""
    if not (n.terminal and a.as_rank == 9 and s.need != 9 and n.out_wild_as == 9):
        return False
    other = dataclasses.replace(n, out_wild_as=s.need or 8)
    return sum(abs(x) for x in returns(n)) > sum(abs(x) for x in returns(other))


@dataclass(frozen=True, slots=True)
class Rejected:
    ruling: str
    field: str  # the ruling's field: the check runs where it applies
    outcome: str
    test: Callable[[DealState, Action, DealState], bool]


REJECTED: tuple[Rejected, ...] = (
    Rejected(
        "RUL-COMET-RANK",
        "comet_as",
        "a player goes out on the Comet called a 9 that the run did not need, and everyone pays four times",
        free_nine_out,
    ),
)


@dataclass(frozen=True, slots=True)
class Contradiction:
    preset: str
    rejected: Rejected
    witness: Witness | None
    searched: int


SEARCH = Bound(seeds=6)


def find(preset_name: str, rejected: Rejected, bound: Bound = SEARCH) -> Contradiction | None:
    """The first deal under ``preset_name``'s defaults (with ``bound``'s deals) where ``rejected`` happens;
    None if the ruling does not apply to the preset."""
    rules = preset(preset_name).rules
    if not applies(rejected.field, rules.variant):
        return None
    tried = 0
    for origin, start, _ in deal_candidates(Pair(preset_name, "", rules, rules), bound):
        tried += 1
        for policy in ("hoarder", "simple"):
            choose = make_policy(policy, tried)
            s = start
            actions: list[Action] = []
            while not s.terminal:
                a = choose(s, legal_actions(s))
                n = apply(s, a)
                actions.append(a)
                if rejected.test(s, a, n):
                    w = deal_witness(start, "rejected", rejected.outcome, f"{origin}, {policy} policy", tuple(actions))
                    return Contradiction(preset_name, rejected, w, tried)
                s = n
    return Contradiction(preset_name, rejected, None, tried)


def describe(c: Contradiction) -> list[str]:
    """Markdown lines: what the ruling's reasoning rejects, and the deal where the defaults allow it."""
    from comet.notation import narrate

    head = f"**{c.preset}**, {c.rejected.ruling} rejects: {c.rejected.outcome}."
    if c.witness is None:
        return [f"- {head} Not reached under the defaults in {c.searched} deals (hoarder and simple policies)."]
    w = c.witness
    start = w.start(preset(c.preset).rules)
    lines = [f"- {head} **Reached under the defaults** ({w.origin}; {len(w.actions)} actions):", "", "```"]
    lines += narrate(start, w.actions)
    return [*lines, "```", ""]
