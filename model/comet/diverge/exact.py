"""Exact effects of payment-only rulings: the same actions replayed under both readings.

Where two readings offer the same options at every step and differ only in what is paid, the effect is a
function of the deal and its actions, not of a player's choices: each deal is played under A
(``measure.reference_trace``'s dealing and policy) and the very same actions are replayed under B; the change
of the winner's result (B − A) and of the other seats' total is read off each deal.  If B ever offers other
options than A, or one of A's actions is not legal under B, the ruling is not payment-only and
``exact_effect`` returns None (so an "exact effect" is never claimed for a ruling whose play can part).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.diverge.verdicts import ExactEffect
from comet.engine import apply, deal_points, legal_actions, returns, shuffled_deal
from comet.ruleset import Ruleset
from comet.state import DealState
from comet.variant import variant_of


def _result(rules: Ruleset, s: DealState) -> tuple[int, ...]:
    return tuple(returns(s) if variant_of(rules).scoring == "chips" else deal_points(s))


def replay_both(pair: Pair, players: int, seed: int, policy: str) -> tuple[int, tuple[int, ...]] | None:
    """Deal ``seed`` played by ``policy`` under A and its actions replayed under B: (A's winner seat, B − A
    per seat); None if B offers other options at some step (the readings' play can part)."""
    dealer = seed % players
    sa = shuffled_deal(pair.a, players, dealer, seed)
    sb = shuffled_deal(pair.b, players, dealer, seed)
    if sa.hands != sb.hands or sa.dead != sb.dead:
        return None
    choose = make_policy(policy, seed)
    while not sa.terminal:
        la = legal_actions(sa)
        lb = legal_actions(sb)
        if la != lb or sb.terminal:
            return None
        act = choose(sa, la)
        sa = apply(sa, act, legal=la)
        sb = apply(sb, act, legal=lb)
    if not sb.terminal or sa.winner != sb.winner:
        return None
    ra, rb = _result(pair.a, sa), _result(pair.b, sb)
    return sa.winner, tuple(y - x for x, y in zip(ra, rb, strict=True))


def exact_effect(pair: Pair, players: int, seeds: Sequence[int], policies: Sequence[str]) -> ExactEffect | None:
    """The exact effect over ``seeds`` played by each of ``policies`` (see the module note), or None if the
    readings' play parts in any deal."""
    deals = 0
    arose = 0
    changes: Counter[tuple[int, int]] = Counter()
    for policy in policies:
        for seed in seeds:
            got = replay_both(pair, players, seed, policy)
            if got is None:
                return None
            winner, diff = got
            deals += 1
            if any(diff):
                arose += 1
                own = diff[winner] if winner >= 0 else 0
                changes[(own, sum(diff) - own)] += 1
    return ExactEffect(deals, arose, tuple(changes.most_common()), players)
