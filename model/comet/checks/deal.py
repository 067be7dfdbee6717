"""The one checker's deal invariants: every reachable state, every transition, the end of a deal (the
settlement against the game's own recomputation), replay and rejection.

Every check returns a list of violation strings (empty: all good).  Nothing here calls the function it
checks to compute the expected answer; engine functions are looked up through ``comet.engine`` at call
time, so a test that plants a bug by monkeypatching one of them is seen here."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

from comet import engine
from comet.cards import KING, card_text, cards_text, rank_of
from comet.checks.recompute import (
    Recomputation,
    payments_table,
    table_text,
)
from comet.checks.registry import check_of
from comet.errors import IllegalAction
from comet.state import Action, DealState


def check_settlement(
    state: DealState, recomputations: Mapping[str, Recomputation] | None = None
) -> tuple[list[str], bool]:
    """Compare ``engine.settlement(state)`` (and, in points games, ``engine.deal_points(state)``)
    with the independent recomputation for the state's variant.

    Returns (violations, skipped); ``skipped`` is True when the variant has no recomputation
    or the recomputation does not cover the state's readings.
    """
    if recomputations is None:
        check = check_of(state.rules.variant)
        recompute = check.settlement if check is not None else None
    else:
        recompute = recomputations.get(state.rules.variant)
    if recompute is None:
        return [], True
    expected = recompute(state)
    if expected is None:
        return [], True
    out: list[str] = []
    got = payments_table(engine.settlement(state))
    if got != dict(expected.chips):
        out.append(
            f"settlement {table_text(got)} differs from the recomputation from the leftover hands "
            f"{table_text(dict(expected.chips))}"
        )
    points = engine.deal_points(state)
    want = expected.points if expected.points is not None else (0,) * state.players
    if tuple(points) != want:
        out.append(f"deal points {tuple(points)} differ from the recomputation from the leftover hands {want}")
    return out, False


def payment_bound(state: DealState) -> int:
    """An upper bound on the chips any one player pays (or any one payee receives from one payer)
    in a single deal, computed from the deal's cards.

    Argument.  A player pays in two ways.  (1) Comet bonuses: each wild card leaves a hand when
    played, so it earns its bonus at most once per deal; one bonus is the Comet's value times at
    most 8 (the quadruple when it is the last card and stands for a 9, doubled by an option).  (2) The settlement: a
    loser pays for the cards left in their hand, each card scoring at most 18 (the Comet in
    hand), times at most 8 (the winner's last card the Comet standing for a 9: x4, doubled again
    by a doubling option, 002:31 "doubled again ... and doubled yet again"); a hand never
    grows, so it holds at most the cards it was dealt, which is at most the largest hand, bounded
    by all cards not yet played plus those played.  The bound is loose but finite and
    deal-specific; a failure means some payment rule multiplies more than the seeds allow.
    """
    cards = sum(len(h) for h in state.hands) + len(state.played)
    hand_cap = max([len(h) for h in state.hands] + [0]) + len(state.played)
    hand_cap = min(hand_cap, cards)
    return len(state.wild) * state.comet_value * 8 + hand_cap * 18 * 8


_CARDS_OF: dict[int, tuple[DealState, list[int]]] = {}


def _all_cards(start: DealState) -> list[int]:
    """Every card of a deal's start, sorted (cached per start object: checked after every step)."""
    hit = _CARDS_OF.get(id(start))
    if hit is None or hit[0] is not start:
        if len(_CARDS_OF) > 256:
            _CARDS_OF.clear()
        hit = (start, sorted(start.played + start.dead + tuple(c for h in start.hands for c in h)))
        _CARDS_OF[id(start)] = hit
    return hit[1]


def check_state(state: DealState, start: DealState | None = None) -> list[str]:
    """Invariants that hold in every reachable state of a deal."""
    out: list[str] = []
    n = state.players
    # each physical card in exactly one place
    if start is not None:
        now_sorted = sorted(state.played + state.dead + tuple(c for h in state.hands for c in h))
        if now_sorted != _all_cards(start):
            now = Counter(now_sorted)
            then = Counter(_all_cards(start))
            extra = sorted((now - then).elements())
            missing = sorted((then - now).elements())
            out.append(f"cards not conserved: appeared [{cards_text(extra)}], lost [{cards_text(missing)}]")
        if state.dead != start.dead:
            out.append("the dead hand changed during the deal")
    for seat, h in enumerate(state.hands):
        if tuple(sorted(h)) != h:
            out.append(f"hand of seat {seat} is not sorted")
    # the pile is a valid run
    run = state.run
    for lo, hi in itertools.pairwise(run):
        if hi != lo + 1:
            out.append(f"run {list(run)} is not a sequence of consecutive ranks")
            break
    # a King ends a run (unless the game's check says a ruling lets a run pass it)
    game_check = check_of(state.rules.variant)
    highest = game_check.run_top(state.rules) if game_check is not None else KING
    if run and not (run[0] >= 1 and run[-1] < highest):
        out.append(f"run {list(run)} holds a rank outside Ace..Queen (a King ends a run)")
    if run and (not state.played or (rank_of(state.played[-1]) != run[-1] and state.played[-1] not in state.wild)):
        top = card_text(state.played[-1]) if state.played else "nothing"
        out.append(f"run {list(run)} does not end with the card last played ({top})")
    # the player to move is entitled to move
    if not 0 <= state.to_move < n:
        out.append(f"to_move {state.to_move} is not a seat of {n} players")
        return out
    if state.turn_played and state.to_move != state.last_player:
        out.append(f"seat {state.to_move} is to move mid-turn but seat {state.last_player} played last")
    if state.last_player == -1 and state.to_move != (state.dealer + 1 + state.steps) % n:
        out.append("before the first card the turn must go round from the dealer's left")
    if state.winner >= 0 and state.hands[state.winner]:
        out.append(f"winner seat {state.winner} still holds cards")
    if not state.terminal and any(not h for h in state.hands):
        out.append("a player has no cards but the deal goes on")
    # legal actions: at least one, canonical order, no duplicates, only held cards
    acts = engine.legal_actions(state)
    if not state.terminal and not acts:
        out.append(
            f"no legal action for seat {state.to_move} in a deal that goes on "
            f"(hand {cards_text(state.hands[state.to_move])}, run {list(state.run)})"
        )
    if state.terminal and acts:
        out.append("a terminal state offers legal actions")
    if list(acts) != sorted(set(acts)):
        out.append(f"legal actions not in canonical order without duplicates: {[str(a) for a in acts]}")
    if not state.terminal:
        held = Counter(state.hands[state.to_move])
        for act in acts:
            if Counter(act.cards) - held:
                out.append(f"legal action {act} uses cards seat {state.to_move} does not hold")
    # chips: well-formed transfers, zero-sum, within the bound
    bound = payment_bound(state)
    paid: Counter[int] = Counter()
    for p in state.payments:
        if p.amount <= 0 or p.payer == p.payee or not (0 <= p.payer < n and 0 <= p.payee < n) or not p.rule:
            out.append(f"malformed payment {p}")
        paid[p.payer] += p.amount
    if sum(state.chips()) != 0:
        out.append(f"chip transfers do not sum to zero: {state.chips()}")
    for seat, amount in paid.items():
        if amount > bound:
            out.append(f"seat {seat} paid {amount} during play, above the bound {bound}")
    # termination
    if state.steps > engine.step_bound(state):
        out.append(f"{state.steps} steps exceed the bound {engine.step_bound(state)}")
    # equal states hash equal (a field-by-field copy is equal and hashes the same)
    twin = DealState(*(getattr(state, f) for f in state.__dataclass_fields__))
    if twin != state or hash(twin) != hash(state):
        out.append("a field-by-field copy of the state is not equal or hashes differently")
    return out


def check_transition(before: DealState, action: Action, after: DealState) -> list[str]:
    """Invariants linking a state, the action taken and the next state."""
    out: list[str] = []
    if after.steps != before.steps + 1:
        out.append(f"step count went from {before.steps} to {after.steps}")
    if after.payments[: len(before.payments)] != before.payments:
        out.append("earlier payments were changed")
    if after.played != before.played + action.cards:
        out.append("the pile did not grow by exactly the cards played")
    if action.is_pass:
        if after.to_move != (before.to_move + 1) % before.players:
            out.append(f"after a pass the turn went to seat {after.to_move}, not to the left")
        if after.hands != before.hands:
            out.append("a pass changed the hands")
    elif after.to_move != before.to_move and not after.terminal:
        out.append("the turn left a player who had just played a card")
    return out + check_variant_step(before, action, after)


def check_variant_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """The payments or points one action made, against the game family's own recomputation."""
    check = check_of(before.rules.variant)
    return check.step(before, action, after) if check is not None else []


def check_terminal(
    final: DealState, recomputations: Mapping[str, Recomputation] | None = None
) -> tuple[list[str], bool]:
    """End-of-deal checks: the settlement recomputed, payments bounded.  Returns (violations, skipped)."""
    out, skipped = check_settlement(final, recomputations)
    bound = payment_bound(final)
    total: Counter[int] = Counter()
    for p in final.payments + engine.settlement(final):
        total[p.payer] += p.amount
    for seat, amount in total.items():
        if amount > bound:
            out.append(f"seat {seat} pays {amount} in the deal, above the bound {bound}")
    for p in engine.settlement(final):
        if p.amount <= 0 or p.payer == p.payee:
            out.append(f"settlement line {p} is not a positive payment between two seats")
    return out, skipped


def check_replay(start: DealState, actions: Sequence[Action], state: DealState) -> list[str]:
    """A state rebuilt from its deal and action history equals the state and hashes the same."""
    try:
        again = engine.replay(start, actions)
    except IllegalAction as e:
        return [f"replaying the history raised {e}"]
    if again != state:
        return ["the state rebuilt from the deal and the actions differs from the state"]
    if hash(again) != hash(state):
        return ["the rebuilt state is equal but hashes differently"]
    return []


def check_rejection(state: DealState, action: Action, known_rules: set[str]) -> list[str]:
    """An action outside ``legal_actions`` is rejected with a known rule id; a legal one is accepted."""
    legal = action in engine.legal_actions(state)
    try:
        after = engine.apply(state, action)
    except IllegalAction as e:
        if legal:
            return [f"legal action {action} was rejected: {e}"]
        if e.rule not in known_rules:
            return [f"illegal action {action} rejected with unknown rule id {e.rule!r}"]
        return []
    if not legal:
        return [f"action {action} is not among the legal actions but was accepted"]
    return check_transition(state, action, after)
