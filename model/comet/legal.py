"""Legal actions: what the player to move may do, in canonical order, and why an action is not legal.

Part of the rules engine (``comet.engine`` re-exports every name here, the public API, and its ``apply``
calls ``legal_actions`` and ``why_illegal`` through its own names, so a test may replace them there).
``legal_actions`` takes lean paths under the default readings of the rulings that decide play
(``LEGAL_FIELDS``: worked out once per ruleset, in its ``comet.plan.Plan``) and the general path otherwise;
tests keep the two equal.
"""

from __future__ import annotations

import functools
import itertools
import operator
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

from comet.cards import KING, Card, card_text, of_rank, rank_of, rank_text
from comet.errors import IllegalAction
from comet.plan import LAST, plan_of
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState, one_card
from comet.trace import rule
from comet.variant import variant_of


@rule("R-RANK-ORDER")
def lowest_rank(state: DealState) -> int:
    """Ranks run 2 (lowest) to King; the King is the top of every run (a variant may make the Ace low)."""
    return variant_of(state.rules).lowest_rank


def natural_count(state: DealState, rank: int) -> int:
    """How many natural (non-wild) cards of ``rank`` the deal's pack holds (hands, dead hand, played).

    Counted afresh each time (no cache keyed by pack name: two packs may share a name).  It is needed
    whenever a hand holds three or more of the rank needed (one action in a hundred), so the counting is
    done in C: every card as one byte (a card code is below 64), each byte turned into its rank by
    ``bytes.translate``, the rank's bytes counted, and the wild cards of that rank taken off again.
    """
    every = bytes(state.played + state.dead + sum(state.hands, ()))
    n = every.translate(_RANK_OF_BYTE).count(rank)
    for w in state.wild:
        if rank_of(w) == rank:
            n -= every.count(w)
    return n


#: The rank of every card code, by byte value (``natural_count``; codes are ``rank * 4 + suit``).
_RANK_OF_BYTE = bytes(rank_of(b) for b in range(256))


@rule("R-FOUR-OF-A-KIND", "R-THREE-NINES")
def quartet(state: DealState, hand: Sequence[Card], rank: int) -> tuple[Card, ...] | None:
    """All the natural cards of ``rank`` if the (sorted) hand holds every one of them (four, or the three 9s)."""
    held = of_rank(hand, rank)
    if len(held) < 3:  # the usual case: not even three cards of the rank
        return None
    wild = state.wild
    mine = tuple([c for c in held if c not in wild])
    if len(mine) >= 3 and len(mine) == natural_count(state, rank):
        return mine
    return None


@rule("R-FOUR-OF-A-KIND")
def sets_of_rank(state: DealState, hand: Sequence[Card], rank: int) -> list[tuple[Card, ...]]:
    """The sets of ``rank`` that may go down together from the (sorted) hand: all its natural cards
    (``quartet``), or where the family allows partial sets (``any_sets``) every choice of two or more."""
    if not any_sets(state):
        q = quartet(state, hand, rank)
        return [] if q is None else [q]
    mine = [c for c in of_rank(hand, rank) if c not in state.wild]
    return list(dict.fromkeys(combo for k in range(2, len(mine) + 1) for combo in itertools.combinations(mine, k)))


def any_sets(state: DealState) -> bool:
    """May two or more natural cards of the needed rank go down together, short of all of them?  Only in a
    family whose ``partial_sets`` hook says so for these rules (RUL-2P-SETS); never elsewhere."""
    hook = variant_of(state.rules).partial_sets
    return hook is not None and hook(state.rules)


def natural_cards(state: DealState, cards: Sequence[Card]) -> list[Card]:
    """The distinct natural (not wild) cards among the sorted ``cards`` (a hand or part of one), in order."""
    distinct = dict.fromkeys(cards)
    for w in state.wild:
        distinct.pop(w, None)
    return list(distinct)


@rule(
    "R-LEAD-ANY",
    "R-PLAY-HELD",
    "R-PLAY-CONTINUE",
    "R-PLAY-MUST",
    "R-NEW-RUN",
    "R-COMET-WILD",
    "R-COMET-OPTIONAL",
    "R-TURN-END",
)
def legal_actions(state: DealState) -> tuple[Action, ...]:
    """Every legal action of the player to move, in canonical (sorted) order, no duplicates."""
    d = state.__dict__  # the fields, read as a dictionary's items (cheaper than attributes, on every action)
    if d["winner"] >= 0 or d["drawn"]:  # state.terminal, without the property's call
        return ()
    rules = d["rules"]
    plan = LAST.plan if LAST.rules is rules else plan_of(rules)  # the hooks of these rules, looked up once
    hook = plan.legal_actions
    if hook is not None:
        return hook(state)
    hand = d["hands"][d["to_move"]]
    run = d["run"]
    if run and not d["free_lead"]:
        # Going on with a run.  The usual position: the hand holds no card of the rank needed and no wild
        # card, so the turn passes (R-PLAY-MUST); a binary search over the sorted hand and a look for the
        # wild card tell (a card is ``rank * 4 + suit``: the rank's cards sit side by side from ``lo``).
        need = run[-1] + 1
        lo = bisect_left(hand, need * 4)
        if lo == len(hand) or hand[lo] >> 2 != need:  # no card of the rank needed
            hi = lo
            for w in d["wild"]:
                if w in hand:
                    if plan.plain and len(d["wild"]) == 1:
                        return comet_or_pass(w, need)  # only the Comet could go on, and it is never compulsory
                    break
            else:  # no wild card in hand either
                return PASS_ONLY
        else:
            hi = bisect_left(hand, need * 4 + 4, lo + 1)
            for w in d["wild"]:
                if w in hand:
                    break
            else:  # no wild card in hand
                if hi - lo < 3 and plan.plain:  # one or two natural cards of the rank needed (R-PLAY-MUST): no set
                    if hi - lo == 1 or hand[lo] == hand[lo + 1]:  # one card, or two copies of it: one action
                        return MUST_PLAY[hand[lo]]
                    return (NATURAL_PLAYS[hand[lo]], NATURAL_PLAYS[hand[lo + 1]])
        if plan.plain:
            return plain_continue(state, hand[lo:hi], need)
    elif not run and plan.plain:
        return plain_lead(state, hand)
    return general_legal_actions(state, rules, hand)


def general_legal_actions(state: DealState, rules: Ruleset, hand: tuple[Card, ...]) -> tuple[Action, ...]:
    """``legal_actions`` under any readings of the rulings (the lean paths cover the defaults)."""
    need = state.need
    wilds = [*filter(hand.__contains__, state.wild)]  # the pack's wild cards that the hand holds, sorted
    if need == 0:
        # R-LEAD-ANY: a new run starts with any card.
        naturals = natural_cards(state, hand)
        others: list[Action] = []  # the plays other than one natural card: sets, and the Comet for each rank
        if rules.quartet_on_lead:
            others.extend(lead_quartets(state, hand, naturals))
        if rules.comet_lead == "any_rank":
            others.extend(one_card(w, r) for w in wilds for r in range(lowest_rank(state), KING + 1))
        elif rules.comet_lead == "king":
            # RUL-COMET-LEAD: no card is needed on a lead; the led Comet stands for the King, the one
            # rank that continues nothing (so going out on it pays x2, never the x4 of a 9).
            others.extend(one_card(w, KING) for w in wilds)
        can_decline = (rules.new_run == "may" and state.turn_played) or may_pass_stuck_restart(state)
        may_pass = not (naturals or others) or can_decline
    else:
        held = of_rank(hand, need)
        if not held and not wilds and not state.free_lead:
            return PASS_ONLY  # R-PLAY-MUST: nothing to go on with (the usual position): the turn passes
        naturals = natural_cards(state, held)
        others = []
        q = quartet(state, held, need) if len(held) >= 3 else None  # a set needs three cards at least
        if q is not None:
            others.append(Action(q))
            if rules.comet_in_quartet and len(q) == 3:  # RUL-COMET-QUARTET: three natural 9s + Comet
                others.extend(Action(tuple(sorted(q + (w,))), need) for w in wilds)
        if len(held) >= 2 and any_sets(state):  # RUL-2P-SETS: two or more at once
            others.extend(Action(c) for c in sets_of_rank(state, held, need) if c != q)
        if wilds and not (rules.comet_requires_missing and naturals):
            ranks = range(lowest_rank(state), KING + 1) if rules.comet_as == "any_rank" else (need,)
            others.extend(one_card(w, r) for w in wilds for r in ranks)
        # R-PLAY-MUST: pass only without a natural card to play (the Comet is never compulsory),
        # or after a first card when a player may stop early (RUL-MUST-CONTINUE).
        may_pass = not naturals or (rules.may_stop_early and state.turn_played)
        if state.free_lead:
            # RUL-COMET-AFTER (optional_restart): instead of going on, start a new run with any card (the
            # natural cards of the rank needed are among them), and with four of a kind where a lead may
            # be one (RUL-QUARTET-LEAD; rulings.md section 6).
            naturals = natural_cards(state, hand)
            if rules.quartet_on_lead:
                others.extend(lead_quartets(state, hand, naturals))
                others = list(dict.fromkeys(others))  # a set that both continues and restarts is one action
    # R-REC-ACTION-ORDER: by the cards played, then the rank a wild card stands for.  The natural cards
    # come in the hand's order and a pass (no cards) comes first; only sets and the Comet need sorting in.
    acts = [*map(NATURAL_PLAYS.__getitem__, naturals)]
    if others:
        acts += others
        acts.sort(key=action_order)
    if may_pass:
        acts.insert(0, PASS)
    return tuple(acts)


def plain_continue(state: DealState, held: tuple[Card, ...], need: int) -> tuple[Action, ...]:
    """``legal_actions`` going on with a run under the default readings: each natural card of the rank
    needed, all of them together when they are every one in the pack (``quartet``), the Comet for that
    rank; a pass first when no natural card can go on (R-PLAY-MUST, R-COMET-OPTIONAL)."""
    wild = state.wild
    acts = [NATURAL_PLAYS[c] for c in dict.fromkeys(held) if c not in wild]
    naturals = len(acts)
    if len(held) >= 3:
        q = quartet(state, held, need)
        if q is not None:
            acts.append(Action(q))
    hand = state.hands[state.to_move]
    for w in wild:
        if w in hand:
            acts.append(one_card(w, need))
    if len(acts) > naturals:
        acts.sort(key=action_order)
    if not naturals:
        acts.insert(0, PASS)
    return tuple(acts)


def plain_lead(state: DealState, hand: tuple[Card, ...]) -> tuple[Action, ...]:
    """``legal_actions`` starting a run under the default readings: each distinct card of the hand, a
    wild card standing for the King (RUL-COMET-LEAD); it sorts where its card does, as no other action
    plays that card alone.  No pass: the hand is not empty (R-NEW-RUN, R-LEAD-ANY)."""
    if not hand:
        return PASS_ONLY  # no card to lead (a hand is empty only once the deal is over)
    wild = state.wild
    for w in wild:
        if w in hand:
            return tuple([NATURAL_PLAYS[c] if c not in wild else one_card(c, KING) for c in dict.fromkeys(hand)])
    # No wild card: one natural play per distinct card.  The hand is sorted, so the copies of a card sit
    # side by side and a card is new when it differs from the one before (measured: twice as fast as
    # ``dict.fromkeys`` and ``map``).
    last = -1
    return tuple([NATURAL_PLAYS[last := c] for c in hand if c != last])


@functools.cache
def comet_or_pass(wild: Card, need: int) -> tuple[Action, ...]:
    """``plain_continue`` when the hand's one card that may go on is the wild card (R-COMET-OPTIONAL: a pass,
    or the Comet standing for the rank needed); one value per card and rank, as actions are."""
    return (PASS, one_card(wild, need))


def lead_quartets(state: DealState, hand: Sequence[Card], naturals: Sequence[Card]) -> list[Action]:
    """RUL-QUARTET-LEAD: the sets (four of a kind, or the three natural 9s; under RUL-2P-SETS = any_number
    any two or more of a rank) the hand may lead, by rank."""
    return [Action(q) for r in sorted({rank_of(c) for c in naturals}) for q in sets_of_rank(state, hand, r)]


action_order = operator.attrgetter("cards", "as_rank")
#: The action of playing one natural card, by card: the very values ``one_card(card, 0)`` gives.
NATURAL_PLAYS = tuple(one_card(c, 0) for c in range(4 * (KING + 1)))
PASS_ONLY = (PASS,)
#: The legal actions when the one card the hand holds of the rank needed must be played, by card.
MUST_PLAY = tuple((a,) for a in NATURAL_PLAYS)


@rule("R-STOP-STUCK")
def may_pass_stuck_restart(state: DealState) -> bool:
    """RUL-STUCK-RESTART (``stuck_restart = "may"``): a stuck run has come back to the player to move
    (the last to play a card, who has not played in this turn), who may pass the new run to the left
    neighbour, provided that neighbour can start it; otherwise the lead would come straight back."""
    if state.rules.stuck_restart != "may" or state.turn_played or state.last_player != state.to_move:
        return False
    left = state.hands[(state.to_move + 1) % state.players]
    return state.rules.comet_lead != "forbidden" or any(c not in state.wild for c in left)


@rule("R-REC-ILLEGAL-PRECEDENCE")
def why_illegal(state: DealState, action: Action) -> IllegalAction:
    """The rule an action breaks, with a plain explanation (the action is known to be illegal)."""
    text = str(action)
    if state.terminal:
        return IllegalAction("R-END-OUT", "the deal is over: no further actions", text)
    v = variant_of(state.rules)
    if v.why_illegal is not None:
        return v.why_illegal(state, action)
    if v.legal_actions is not None:
        return IllegalAction("R-PLAY-CONTINUE", f"not a legal play in the {v.name} game here", text)
    hand = Counter(state.hands[state.to_move])
    need = state.need
    if action.is_pass:
        if need == 0:
            if state.turn_played:
                return IllegalAction(
                    "R-NEW-RUN", "after a stop the player must start a new run (ruling new_run=must)", text
                )
            if state.rules.stuck_restart == "may" and state.last_player == state.to_move:
                why = "the left neighbour holds only the Comet and may not lead it, so the player must start the run"
                return IllegalAction("R-STOP-STUCK", why, text)
            return IllegalAction("R-PLAY-MUST", "the player must start a new run with any card", text)
        if state.turn_played:
            return IllegalAction(
                "R-PLAY-MUST", f"the player holds a {rank_text(need)} and must go on as far as able", text
            )
        return IllegalAction("R-PLAY-MUST", f"the player holds a {rank_text(need)} and must play it", text)
    if Counter(action.cards) - hand:
        return IllegalAction(
            "R-PLAY-HELD", f"the player to move does not hold {' '.join(card_text(c) for c in action.cards)}", text
        )
    wild = [c for c in action.cards if c in state.wild]
    if wild:
        if len(action.cards) > 1:
            return IllegalAction("R-COMET-WILD", "the Comet is played on its own", text)
        if not action.as_rank:
            return IllegalAction("R-COMET-WILD", "say which rank the Comet stands for: 'play CARD as RANK'", text)
        if not lowest_rank(state) <= action.as_rank <= KING:
            return IllegalAction("R-COMET-WILD", f"the Comet cannot stand for rank {action.as_rank}", text)
        if need == 0:
            if state.rules.comet_lead == "king":
                why = "a Comet that starts a run stands for the King (ruling comet_lead=king)"
                return IllegalAction("R-COMET-WILD", why, text)
            return IllegalAction("R-COMET-WILD", "the Comet may not start a run (ruling comet_lead=forbidden)", text)
        if action.as_rank != need:
            return IllegalAction(
                "R-COMET-WILD",
                f"the Comet must stand for the rank needed, {rank_text(need)} (ruling comet_as=needed_rank)",
                text,
            )
        return IllegalAction(
            "R-COMET-WILD", f"the player holds a natural {rank_text(need)} (ruling comet_requires_missing=true)", text
        )
    if action.as_rank:
        return IllegalAction("R-COMET-WILD", "only the Comet may stand for another rank", text)
    ranks = {rank_of(c) for c in action.cards}
    if len(action.cards) > 1:
        if len(ranks) > 1 or action.cards not in sets_of_rank(state, state.hands[state.to_move], next(iter(ranks))):
            if any_sets(state):
                why = "several cards go down together only if they are all of one rank"
            else:
                why = "several cards go down together only as all four of a rank (or the three natural 9s)"
            return IllegalAction("R-FOUR-OF-A-KIND", why, text)
        if need == 0 or (state.free_lead and next(iter(ranks)) != need):
            return IllegalAction(
                "R-FOUR-OF-A-KIND", "four of a kind may not start a run (ruling quartet_on_lead=false)", text
            )
    r = next(iter(ranks))
    if need and r != need:
        return IllegalAction("R-PLAY-CONTINUE", f"the run needs a {rank_text(need)}, not a {rank_text(r)}", text)
    return IllegalAction("R-PLAY-CONTINUE", "not a legal play here", text)
