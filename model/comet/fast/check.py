"""The differential check: replay the fast engine's deals through the reference engine.

For every deal the reference must deal the same cards from the seed
(``comet.engine.shuffled_deal``), see the same number of legal actions before every
action, accept every action the fast engine took (``comet.engine.apply``), choose the
same action with the reference policy (``reference_policy``), and end in
the same winner (or draw), net chips (``returns``) and points (``deal_points``) after
the same number of actions.  Each disagreement becomes one ``Mismatch`` with a
readable message and the deal record to reproduce it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from comet.engine import apply, deal_points, explicit_deal, legal_actions, packs_in_rotation, returns, shuffled_deal
from comet.errors import IllegalAction
from comet.fast.api import FastRecord, PolicyName, record_batch
from comet.notation import seat_name
from comet.policy import Policy, simple_policy
from comet.records.deal_record import dumps_json
from comet.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One deal where the fast engine and the reference disagree."""

    seed: int
    step: int  # the action index where they first disagree (-1: the deal; len(actions): the outcome)
    message: str
    record: str  # the deal record (JSON) as the fast engine played it

    def __str__(self) -> str:
        return f"{self.message}\n  record: {self.record}"


def reference_policy(name: PolicyName, seed: int) -> Policy:
    """The reference policy the fast engine reproduces (seeded with the deal's seed)."""
    if name == "simple":
        return simple_policy
    from comet.diverge.policies import make_policy

    return make_policy(name, seed)


def check_record(fast: FastRecord, rules: Ruleset) -> Mismatch | None:
    """Replay one fast-engine deal through the reference; the first disagreement, or None."""
    rec = fast.record
    out = fast.outcome
    players = rec.players
    where = f"seed {out.seed}, {players} players, {rules.variant}"
    text = dumps_json(rec.to_json())

    def bad(step: int, message: str) -> Mismatch:
        return Mismatch(out.seed, step, f"{where}: {message}", text)

    if fast.shuffled:
        packs = packs_in_rotation(rules, players)
        pack = packs[fast.pack_index % len(packs)]
        start = shuffled_deal(rules, players, rec.dealer, out.seed, pack, rec.comet_value)
        if start.hands != rec.hands or start.dead != rec.dead:
            return bad(-1, "the fast engine dealt other cards than the reference's shuffled_deal for this seed")
    else:
        start = explicit_deal(rules, players, rec.dealer, rec.hands, rec.dead, rec.comet_value)
    choose = reference_policy(fast.policy, out.seed)
    s = start
    for i, action in enumerate(rec.actions):
        legal = legal_actions(s)
        seat = f"seat {s.to_move}, {seat_name(s.to_move)}"
        expected = choose(s, legal)
        if action not in legal:
            try:
                apply(s, action)
                why = "the reference has it in no legal list"
            except IllegalAction as e:
                why = f"[{e.rule}] {e.message}"
            return bad(i, f"action {i} ({seat}): the fast engine played '{action}' but the reference rejects it: {why}")
        if len(legal) != fast.legal_counts[i]:
            shown = ", ".join(str(a) for a in legal)
            return bad(
                i,
                f"action {i} ({seat}): the fast engine saw {fast.legal_counts[i]} legal actions, "
                f"the reference {len(legal)} ({shown})",
            )
        if expected != action:
            return bad(i, f"action {i} ({seat}): the {fast.policy} policy chooses '{expected}' in the reference, '{action}' in the fast engine")
        s = apply(s, action)
    if not s.terminal:
        return bad(len(rec.actions), f"the fast engine ended the deal after {len(rec.actions)} actions; the reference goes on")
    ref_winner = s.winner if not s.drawn else -1
    if ref_winner != out.winner:
        return bad(len(rec.actions), f"winner: reference {ref_winner}, fast engine {out.winner} (-1: drawn)")
    ref_chips = returns(s)
    if ref_chips != out.chips:
        return bad(len(rec.actions), f"net chips per seat: reference {ref_chips}, fast engine {out.chips}")
    ref_points = deal_points(s)
    if ref_points != out.points:
        return bad(len(rec.actions), f"points per seat: reference {ref_points}, fast engine {out.points}")
    return None


def check_deals(
    rules: Ruleset,
    players: int,
    seeds: Sequence[int] | NDArray[np.int64],
    policy: PolicyName = "random",
    *,
    pack_index: int = 0,
    comet_value: int | None = None,
    _mutant: int = 0,
) -> tuple[Mismatch, ...]:
    """Play the seeds in the fast engine (recording) and replay each deal through the reference."""
    fast = record_batch(
        rules, players, seeds, policy, pack_index=pack_index, comet_value=comet_value, _mutant=_mutant
    )
    found = (check_record(f, rules) for f in fast)
    return tuple(m for m in found if m is not None)
