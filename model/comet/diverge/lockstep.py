"""Two rule sets stepped in lockstep: what an observer sees of a state, the actions legal under one rule
set only, the kind of difference one action makes, and its description.  Shared by the witness search
(``comet.diverge.witness``) and the Z3 search for the smallest witness (``comet_proofs.smallest``), which
label a difference the same way.
"""

from __future__ import annotations

from comet.engine import apply, deal_points, legal_actions, returns
from comet.state import Action, DealState


def observed(s: DealState) -> tuple[object, ...]:
    """What an observer sees of a state: chips moved so far, whether it is over, who won, a draw, and
    (at the end) the settled chips and points."""
    if s.terminal:
        return (True, s.winner, s.drawn, returns(s), deal_points(s))
    return (False, s.chips(), s.scores)


def legal_split(sa: DealState, sb: DealState) -> Action | None:
    """An action legal under exactly one of the two states' rules (preferring one A allows), or None."""
    if sa.terminal or sb.terminal:
        return None
    la = legal_actions(sa)
    lb = legal_actions(sb)
    if la == lb:
        return None
    only_a = [a for a in la if a not in set(lb)]
    if only_a:
        return only_a[0]
    only_b = [a for a in lb if a not in set(la)]
    return only_b[0] if only_b else None


def describe(kind: str, sa: DealState, sb: DealState, action: Action) -> str:
    if kind == "legal":
        allowed = "A allows it, B does not" if action in legal_actions(sa) else "B allows it, A does not"
        return f"'{action}': {allowed}"
    if kind == "payments":
        if sa.scores != sb.scores:
            return f"after '{action}' points so far: A {list(sa.scores)}, B {list(sb.scores)}"
        return f"after '{action}' chips so far: A {list(sa.chips())}, B {list(sb.chips())}"
    parts = []
    if sa.terminal != sb.terminal:
        parts.append(
            f"the deal is {'over' if sa.terminal else 'not over'} under A, {'over' if sb.terminal else 'not over'} under B"
        )
    if sa.winner != sb.winner:
        parts.append(f"winner A {sa.winner}, B {sb.winner}")
    if sa.drawn != sb.drawn:
        parts.append(f"drawn under {'A' if sa.drawn else 'B'} only")
    if sa.terminal and sb.terminal:
        if returns(sa) != returns(sb):
            parts.append(f"chips A {list(returns(sa))}, B {list(returns(sb))}")
        if deal_points(sa) != deal_points(sb):
            parts.append(f"points A {list(deal_points(sa))}, B {list(deal_points(sb))}")
    return f"after '{action}': " + "; ".join(parts)


def step_both(sa: DealState, sb: DealState, action: Action) -> tuple[DealState, DealState, str | None]:
    """Apply ``action`` under both; the kind of difference it makes (None: none visible)."""
    na = apply(sa, action)
    nb = apply(sb, action)
    oa, ob = observed(na), observed(nb)
    if oa == ob:
        return na, nb, None
    if not na.terminal and not nb.terminal:
        return na, nb, "payments"
    return na, nb, "outcome"
