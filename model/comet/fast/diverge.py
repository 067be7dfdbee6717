"""The fast engine as a backend of the divergence impact study (``comet.diverge.impact``).

``deal_results(rules, players, seeds, policy)`` plays the seeds in one kernel call and returns the
study's ``DealResult`` per seed, exactly as ``comet.diverge.impact.reference_deal`` would (same
deal, same policy choices: see ``comet.fast.kernel``); ``register()`` adds the single-seed form to
``comet.diverge.impact.BACKENDS`` as ``"fast"``, so ``check_backend("fast", ...)`` can compare the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from comet.diverge.impact import BACKENDS, DealResult
from comet.fast.api import FLAG_CAPPED, FLAG_DRAWN, POLICIES, PolicyName, play_deals
from comet.ruleset import Ruleset
from comet.variants.base import variant_of


def policy_named(name: str) -> PolicyName:
    """The fast engine's policy called ``name``; ValueError naming the choices otherwise."""
    for p in POLICIES:
        if p == name:
            return p
    raise ValueError(f"the fast engine has no policy {name!r}; choose one of: {', '.join(POLICIES)}")


def deal_results(rules: Ruleset, players: int, seeds: Sequence[int], policy: str) -> list[DealResult]:
    """The impact study's result of each seeded deal (dealer ``seed % players``), played by the fast engine."""
    out = play_deals(rules, players, list(seeds), policy_named(policy))
    chips_game = variant_of(rules).scoring == "chips"
    results = []
    for i in range(len(out)):
        o = out.outcome(i)
        order = [(o.dealer + 1 + k) % players for k in range(players)]
        scores = o.chips if chips_game else o.points
        drawn = bool(o.flags & FLAG_DRAWN)
        stuck = bool(o.flags & FLAG_CAPPED) or (o.winner < 0 and not drawn)
        pos = order.index(o.winner) if o.winner >= 0 else -1
        results.append(DealResult(pos, drawn, stuck, o.actions, tuple(scores[s] for s in order)))
    return results


def fast_deal(rules: Ruleset, players: int, seed: int, policy: str) -> DealResult:
    """One seeded deal (the ``Backend`` signature of ``comet.diverge.impact``)."""
    return deal_results(rules, players, [seed], policy)[0]


def register() -> None:
    """Make the fast engine available to the impact study as backend ``"fast"``."""
    BACKENDS["fast"] = fast_deal
