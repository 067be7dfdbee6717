"""The rules of play: deal, legal actions, transition, settlement.

Plain functions over immutable ``DealState`` values.  Each function names the
rule ids of ``spec/rules.md`` it implements with ``@rule``; the readings of the
rulings in ``spec/rulings.md`` come from ``state.rules`` (a ``Ruleset``).

This module is the engine's public face and its transitions: ``apply``, a turn's end, a play and the
payments it makes, and the settlement at the end of a deal (the last payments of the deal: ``returns`` and
the proofs read them through here).  The deal (``comet.deal``) and the legal actions (``comet.legal``) are
modules of their own, re-exported here; ``apply``, ``play``, ``returns`` call ``legal_actions``,
``why_illegal``, ``end_turn``, ``play``, ``comet_bonus``, ``settlement`` and ``card_points`` through this
module's names, so a test that plants a bug in one of them here changes what the engine does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from comet.cards import KING, Card, rank_of
from comet.deal import (
    DEAL_TABLE,
    PLAYER_COUNTS,
    check_players,
    deal_sizes,
    distribute,
    explicit_deal,
    pack_diff,
    packs_in_rotation,
    player_counts,
    shuffled_deal,
    start_deal,
)
from comet.errors import IllegalAction, RecordError
from comet.legal import (
    NATURAL_PLAYS,
    PASS_ONLY,
    action_order,
    any_sets,
    general_legal_actions,
    lead_quartets,
    legal_actions,
    lowest_rank,
    may_pass_stuck_restart,
    natural_cards,
    natural_count,
    plain_continue,
    plain_lead,
    quartet,
    sets_of_rank,
    why_illegal,
)
from comet.plan import LAST, LEGAL_FIELDS, plain_readings, plan_of
from comet.ruleset import Ruleset
from comet.state import Action, DealState, Payment
from comet.trace import rule
from comet.variant import Variant, variant_of

__all__ = [
    "DEAL_TABLE",
    "LEGAL_FIELDS",
    "NATURAL_PLAYS",
    "PASS_ONLY",
    "PLAYER_COUNTS",
    "STATE_FIELDS",
    "IllegalAction",
    "RecordError",
    "action_order",
    "any_sets",
    "apply",
    "card_points",
    "check_players",
    "comet_bonus",
    "deal_points",
    "deal_sizes",
    "distribute",
    "end_turn",
    "explicit_deal",
    "general_legal_actions",
    "going_out_multiplier",
    "lead_quartets",
    "legal_actions",
    "lowest_rank",
    "may_pass_stuck_restart",
    "natural_cards",
    "natural_count",
    "pack_diff",
    "packs_in_rotation",
    "plain_continue",
    "plain_lead",
    "plain_readings",
    "play",
    "player_counts",
    "points_in_hand",
    "quartet",
    "remove_cards",
    "replay",
    "returns",
    "sets_of_rank",
    "settlement",
    "settlement_rule",
    "shuffled_deal",
    "standard_settlement",
    "start_deal",
    "step_bound",
    "why_illegal",
]

# --------------------------------------------------------------------- transition


def apply(state: DealState, action: Action, *, legal: Sequence[Action] | None = None) -> DealState:
    """The state after the player to move takes ``action``; IllegalAction if it is not legal.

    ``legal``: ``legal_actions(state)`` when the caller has just computed it (to choose the action
    from it); the action is then looked up there rather than the legal actions computed again."""
    options = legal_actions(state) if legal is None else legal
    for a in options:
        if a is action:  # the usual case: the action was picked from the list (no field-by-field comparison)
            break
    else:
        if action not in options:
            raise why_illegal(state, action)
    rules = state.rules
    plan = LAST.plan if LAST.rules is rules else plan_of(rules)  # the hooks of these rules, looked up once
    if not action.cards:
        turn_hook = plan.end_turn
        return end_turn(state) if turn_hook is None else turn_hook(state)
    play_hook = plan.play
    return play(state, action) if play_hook is None else play_hook(state, action)


@rule("R-TURN-END", "R-STOP-STUCK")
def end_turn(state: DealState) -> DealState:
    """'Without' or 'pass': the turn passes left; back at the last player to play, a new run starts."""
    d = state.__dict__  # the fields, read as a dictionary's items (cheaper than attributes, on every pass)
    nxt = (d["to_move"] + 1) % d["players"]
    # The next state's fields: this one's, with the changes written in (see _new_state); a pass changes
    # neither ``winner`` nor ``drawn``, so ``terminal``, if this state has it, is copied as it is.
    fields = d.copy()
    fields["to_move"] = nxt
    if nxt == d["last_player"]:
        fields["run"] = ()
    fields["turn_played"] = False
    fields["turn"] = d["turn"] + 1
    fields["steps"] = d["steps"] + 1
    fields["free_lead"] = False
    after = _blank()  # an object of no class yet: given the fields, then made a state (see _new_state)
    after.__dict__ = fields
    after.__class__ = DealState
    rules = d["rules"]
    hook = (LAST.plan if LAST.rules is rules else plan_of(rules)).pass_payments
    if hook is not None:
        paid = hook(state, after)
        if paid:
            after = _replace(after, payments=after.payments + paid)
    return after


def remove_cards(state: DealState, cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every hand after the player to move has laid down ``cards`` (which they hold)."""
    seat = state.to_move
    hand = list(state.hands[seat])
    for c in cards:
        hand.remove(c)
    return state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :]


@rule("R-STOP-KING", "R-COMET-STOP", "R-END-OUT", "R-COMET-BONUS")
def play(state: DealState, action: Action) -> DealState:
    """Put ``action.cards`` on the pile; stops (King, Comet) end the run; an empty hand ends the deal."""
    d = state.__dict__  # the fields, read as a dictionary's items (cheaper than attributes)
    seat = d["to_move"]
    cards = action.cards
    if len(cards) == 1:  # the usual play: one card (lists, then tuples again: cheaper than slicing)
        left = list(d["hands"][seat])
        left.remove(cards[0])
        hand = tuple(left)
        every = list(d["hands"])
        every[seat] = hand
        hands = tuple(every)
    else:
        hands = remove_cards(state, cards)
        hand = hands[seat]
    out = not hand
    payments = d["payments"]
    rules = d["rules"]
    plan = LAST.plan if LAST.rules is rules else plan_of(rules)
    hook = plan.play_payments
    if hook is not None:
        payments = payments + hook(state, seat, action, out)
    as_rank = action.as_rank
    if as_rank:
        if hook is None:
            payments = payments + comet_bonus(state, seat, out, as_rank)
        # R-COMET-STOP; under RUL-COMET-AFTER=optional_restart the run goes on from the Comet's rank, and
        # the player may instead start a new run (free_lead).
        go_on = plan.optional_restart and as_rank != KING
        rank = as_rank
        stop = not go_on
    else:
        go_on = False
        rank = cards[0] >> 2  # action.rank (a card is rank * 4 + suit)
        stop = rank == KING  # R-STOP-KING
    if stop:
        run: tuple[int, ...] = ()
    else:  # a card that does not continue the run (a lead, a free restart) starts one of its own
        run = d["run"]
        run = run + _ONE_RANK[rank] if run and rank == run[-1] + 1 else _ONE_RANK[rank]
    fields = d.copy()  # the next state's fields: this one's, with the changes written in (see _new_state)
    fields["hands"] = hands
    fields["played"] = d["played"] + cards
    fields["run"] = run
    fields["turn_played"] = True
    fields["last_player"] = seat
    fields["steps"] = d["steps"] + 1
    fields["payments"] = payments
    fields["free_lead"] = go_on and not out
    if out:  # a deal in play has no winner yet (``winner`` -1, ``out_wild_as`` 0: copied as they are)
        fields["winner"] = seat
        fields["out_wild_as"] = as_rank
        fields["terminal"] = True  # DealState.terminal, derived: written here, read in every loop
    after = _blank()  # an object of no class yet: given the fields, then made a state (see _new_state)
    after.__dict__ = fields
    after.__class__ = DealState
    if out:
        for option in plan.options:
            after = option.on_going_out(after, as_rank != 0 and hook is None)
    return after


#: ``(rank,)`` for every rank: the run a card starts, and what a card continuing a run adds to it (one tuple
#: fewer to make per play).
_ONE_RANK = tuple((r,) for r in range(KING + 1))


@rule("R-COMET-BONUS", "R-SETTLE-COMET-LAST")
def comet_bonus(state: DealState, seat: int, last_card: bool, as_rank: int) -> tuple[Payment, ...]:
    """Every other player pays the Comet's value to whoever plays it (RUL-COMET-BONUS-LAST)."""
    amount = state.comet_value
    if last_card and state.rules.comet_bonus_last == "multiplied":
        amount *= going_out_multiplier(as_rank)
    return tuple(Payment(p, seat, amount, "R-COMET-BONUS") for p in range(state.players) if p != seat and amount)


def going_out_multiplier(wild_as: int) -> int:
    """x2 when the last card is the Comet, x4 when it stood for a 9."""
    return 4 if wild_as == 9 else 2


STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(DealState))


def _replace(state: DealState, **changes: object) -> DealState:
    """``dataclasses.replace`` for states, made for the engine's one new state per action: a copy of
    the fields with the changes applied, built without a call per field (``DealState`` has no slots
    for this reason).  A new state is never written to again.  The field names are not checked here,
    on the path of every action: ``tests/test_engine_speed.py`` checks every call's keywords (and every
    key ``end_turn`` and ``play`` write into the copy of the fields they build the next state from, as
    ``_new_state`` does, written out) against ``STATE_FIELDS`` in the source instead."""
    fields = state.__dict__ | changes
    fields.pop("terminal", None)  # derived from the fields (``DealState.terminal``): worked out again if read
    return _new_state(fields)


def _new_state(fields: dict[str, object]) -> DealState:
    """A state with exactly ``fields`` (every field of ``DealState``, in a dictionary made for it alone).

    The cheapest way measured to make an object with a given dictionary: a blank object of a plain class
    (``_Blank``: made by one C call, no ``__init__``), its dictionary assigned by ordinary attribute
    assignment (no ``object.__setattr__`` call, which a frozen class needs), and then its class set to
    ``DealState``, which has the very same layout (a dictionary and weak references, no slots).  The result
    is a ``DealState`` like any other (``type(s) is DealState``, equal to the same fields built by
    ``DealState(...)``); 140 ns an action against ``object.__new__`` and ``object.__setattr__``.
    ``end_turn`` and ``play`` do this in line."""
    after = _blank()
    after.__dict__ = fields
    after.__class__ = DealState
    return after


class _Blank:
    """See ``_new_state``."""


#: ``_Blank`` seen by the type checker as what it becomes.
_blank = cast("Callable[[], DealState]", _Blank)


# --------------------------------------------------------------------- settlement


@rule("R-SETTLE-POINTS")
def card_points(c: Card) -> int:
    """2 to 10 count their number; Jack, Queen and King 10 each; the Comet 9."""
    return min(rank_of(c), 10)


#: ``card_points`` of every card code, read by ``points_in_hand`` while ``card_points`` is the rule as written
#: (a test that replaces ``comet.engine.card_points`` is obeyed; ``tests/test_engine_speed.py`` checks the table).
CARD_POINTS = tuple(min(rank_of(c), 10) for c in range(4 * (KING + 1)))
_card_points_as_written = card_points
_card_points_of = CARD_POINTS.__getitem__


def points_in_hand(state: DealState, hand: Iterable[Card]) -> int:
    """The value of ``hand`` left at the end of a deal, by the variant's card values."""
    return sum(map(_points_of(_variant(state.rules)), hand))


def _points_of(v: Variant) -> Callable[[Card], int]:
    """The value of one card left in hand in family ``v``: its own ``card_points``, else ``card_points`` read
    from ``CARD_POINTS`` while it is the rule as written (a test may replace ``comet.engine.card_points``)."""
    values = v.card_points or card_points
    return _card_points_of if values is _card_points_as_written else values


def _variant(rules: Ruleset) -> Variant:
    """The family that ``rules`` play, from their plan (``variant_of`` without the registry's lookup)."""
    return (LAST.plan if LAST.rules is rules else plan_of(rules)).variant


@rule("R-SETTLE-POINTS", "R-SETTLE-CAUGHT", "R-SETTLE-COMET-LAST")
def settlement(state: DealState) -> tuple[Payment, ...]:
    """What each loser pays the winner for the cards left in hand (empty while the deal goes on)."""
    if state.winner < 0:
        return ()
    hook = _variant(state.rules).settlement
    if hook is not None:
        return hook(state)
    return standard_settlement(state)


def standard_settlement(state: DealState) -> tuple[Payment, ...]:
    """The standard game's end-of-deal payments (also the base of a points family's scoring)."""
    winner = state.winner
    if winner < 0:
        return ()
    v = _variant(state.rules)
    out_mult = going_out_multiplier(state.out_wild_as) if state.out_wild_as else 1
    options = v.options
    for option in options:
        out_mult = option.out_multiplier(state, out_mult)
    values = _points_of(v)  # points_in_hand, its family looked up once for every hand
    wild = state.wild
    pays: list[Payment] = []
    for seat, hand in enumerate(state.hands):
        if seat == winner or not hand:
            continue
        points = sum(map(values, hand))
        caught = 2 if any(map(hand.__contains__, wild)) else 1
        mult = caught * out_mult
        if caught > 1:
            for option in options:
                mult = option.caught_multiplier(state, caught, out_mult)
        amount = points * mult
        if amount:
            pays.append(Payment(seat, winner, amount, settlement_rule(state, caught > 1, out_mult)))
    return tuple(pays)


@rule("R-REC-PAYMENTS")
def settlement_rule(state: DealState, caught: bool, out_mult: int) -> str:
    """The rule id a settlement payment carries: the most specific multiplier that applied to it
    (the Comet as the last card, then caught with the Comet, then an option's doubling),
    else plain points."""
    if state.out_wild_as:
        return "R-SETTLE-COMET-LAST"
    if caught:
        return "R-SETTLE-CAUGHT"
    if out_mult > 1:
        return next((o.payment_rule for o in _variant(state.rules).options), "R-SETTLE-POINTS")
    return "R-SETTLE-POINTS"


def returns(state: DealState) -> tuple[int, ...]:
    """Net chips per seat for the deal: payments during play plus the settlement."""
    net = list(state.chips())
    for p in settlement(state):
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return tuple(net)


def deal_points(state: DealState) -> tuple[int, ...]:
    """Points per seat scored in this deal (points games; all zero in chip games and while it goes on)."""
    hook = _variant(state.rules).points_of_deal
    if hook is None or not state.terminal:
        return (0,) * state.players
    return hook(state)


def replay(start: DealState, actions: Iterable[Action]) -> DealState:
    """Apply ``actions`` in order from ``start``."""
    s = start
    for a in actions:
        s = apply(s, a)
    return s


def step_bound(state: DealState) -> int:
    """An upper bound on the number of actions in a deal (see spec/rules.md, R-END-OUT).

    Every play removes at least one card; every turn ends with one pass except
    the last; between two plays at most ``players`` passes occur (a full round
    returns the lead to the last player, who must play unless they hold only
    the Comet and may not lead it, and then the next player must).
    """
    hook = variant_of(state.rules).step_bound
    if hook is not None:
        return hook(state)
    cards = sum(len(h) for h in state.hands) + len(state.played)
    return cards + (cards + 1) * (2 * state.players)
