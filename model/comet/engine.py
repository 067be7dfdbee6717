"""The rules of play: deal, legal actions, transition, settlement.

Plain functions over immutable ``DealState`` values.  Each function names the
rule ids of ``spec/rules.md`` it implements with ``@rule``; the readings of the
rulings in ``spec/rulings.md`` come from ``state.rules`` (a ``Ruleset``).
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence

from comet.cards import KING, Card, Pack, black_pack, card_text, of_rank, rank_of, rank_text, red_pack
from comet.errors import IllegalAction, RecordError
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState, Payment, one_card
from comet.trace import rule
from comet.variant import REGISTRY, Variant, variant_of

# --------------------------------------------------------------------- packs and deal


PLAYER_COUNTS = (2, 3, 4, 5)
DEAL_TABLE = {2: (18, 12), 3: (12, 12), 4: (10, 8), 5: (9, 3)}


@rule("R-PLAYERS")
def check_players(players: int, rules: Ruleset | None = None) -> None:
    """The standard game is for two to five players (a variant may allow other counts)."""
    counts = PLAYER_COUNTS if rules is None else variant_of(rules).player_counts
    if players not in counts:
        game = "Comet" if rules is None else variant_of(rules).display
        contiguous = counts == tuple(range(counts[0], counts[-1] + 1))
        shown = f"{counts[0]} to {counts[-1]}" if contiguous else ", ".join(str(n) for n in counts)
        if len(counts) == 1:
            shown = str(counts[0])
        raise RecordError("players", f"{game} is played by {shown} players, not {players}")


def player_counts(rules: Ruleset) -> tuple[int, ...]:
    """The player counts these rules are dealt for: the game family's counts at which a deal can be dealt
    under the rules' readings (probed, so no table of counts lives outside the family)."""
    counts = []
    for n in variant_of(rules).player_counts:
        try:
            shuffled_deal(rules, n, n - 1, 0)
        except (RecordError, ValueError, KeyError):
            continue
        counts.append(n)
    return tuple(counts)


@rule("R-PACK-ALTERNATE")
def packs_in_rotation(rules: Ruleset, players: int | None = None) -> tuple[Pack, ...]:
    """The packs taken in turn, one per deal (RUL-PACKS); a variant may supply its own."""
    hook = variant_of(rules).packs
    if hook is not None:
        return hook(rules, players)
    if rules.packs == "black_only":
        return (black_pack(),)
    return (black_pack(), red_pack())


@rule("R-DEAL-SIZES")
def deal_sizes(rules: Ruleset, players: int, pack_size: int = 48) -> tuple[int, int]:
    """(cards per player, cards in the dead hand) (RUL-DEAL-SIZES)."""
    check_players(players, rules)
    hook = variant_of(rules).deal_sizes
    if hook is not None:
        return hook(rules, players, pack_size)
    if rules.deal_sizes == "table":
        return DEAL_TABLE[players]
    each = pack_size // players
    return each, pack_size - each * players


@rule("R-DEAL-ORDER")
def distribute(
    rules: Ruleset, order: Sequence[Card], players: int, dealer: int, hand_size: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal ``order`` (top card first) clockwise from the dealer's left (RUL-DEAL-ORDER): one card at a time
    (the dealer's left neighbour gets the 1st, 1st + players-th, ... card), or each player a block of cards."""
    hands: list[tuple[Card, ...]] = [()] * players
    dealt = players * hand_size
    for i in range(players):  # the i-th player from the dealer's left
        if rules.deal_order == "round_robin":
            cards = order[i:dealt:players]
        else:
            cards = order[i * hand_size : (i + 1) * hand_size]
        hands[(dealer + 1 + i) % players] = tuple(sorted(cards))
    return tuple(hands), tuple(sorted(order[dealt:]))


@rule("R-DEAD-HAND", "R-LEAD-FIRST")
def start_deal(
    rules: Ruleset,
    pack: Pack,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    comet_value: int | None = None,
) -> DealState:
    """The state before the first action: the dealer's left neighbour is to move.

    ``comet_value`` defaults to the variant's starting value of the wild card."""
    if comet_value is None:
        comet_value = variant_of(rules).comet_value
    if not 0 <= dealer < players:
        raise RecordError("dealer", f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    if comet_value < 0:
        raise RecordError("field", f"comet_value must not be negative, not {comet_value}")
    return DealState(
        rules=rules,
        players=players,
        dealer=dealer,
        pack=pack.name,
        wild=pack.wild,
        comet_value=comet_value,
        hands=tuple(tuple(sorted(h)) for h in hands),
        dead=tuple(sorted(dead)),
        played=(),
        run=(),
        to_move=(dealer + 1) % players,
        turn_played=False,
        last_player=-1,
        turn=0,
        steps=0,
        payments=(),
    )


def shuffled_deal(
    rules: Ruleset, players: int, dealer: int, seed: int, pack: Pack | None = None, comet_value: int | None = None
) -> DealState:
    """Shuffle ``pack`` (default: the first pack in rotation) with ``seed`` and deal it."""
    check_players(players, rules)
    p = pack if pack is not None else packs_in_rotation(rules, players)[0]
    order = list(p.cards)
    random.Random(seed).shuffle(order)
    size, _ = deal_sizes(rules, players, len(p.cards))
    hands, dead = distribute(rules, order, players, dealer, size)
    return start_deal(rules, p, players, dealer, hands, dead, comet_value)


def explicit_deal(
    rules: Ruleset,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    comet_value: int | None = None,
) -> DealState:
    """A deal given card by card; checks it is exactly one pack of the variant with its deal sizes."""
    check_players(players, rules)
    if len(hands) != players:
        raise RecordError("hand-size", f"expected {players} hands, got {len(hands)}")
    everything = sorted([c for h in hands for c in h] + list(dead))  # a multiset, as a sorted list
    packs = packs_in_rotation(rules, players)
    pack = next((p for p in packs if sorted(p.cards) == everything), None)
    if pack is None:
        names = " or ".join(p.name for p in packs)
        diff = pack_diff(Counter(everything), rules, players)
        raise RecordError("pack", f"the hands and dead hand are not exactly one {names} pack{diff}")
    size, dead_size = deal_sizes(rules, players, len(pack.cards))
    for seat, h in enumerate(hands):
        if len(h) != size:
            raise RecordError("hand-size", f"seat {seat} holds {len(h)} cards; {players} players get {size} each")
    if len(dead) != dead_size:
        raise RecordError("hand-size", f"the dead hand holds {len(dead)} cards; it should hold {dead_size}")
    return start_deal(rules, pack, players, dealer, hands, dead, comet_value)


def pack_diff(have: Counter[Card], rules: Ruleset, players: int | None = None) -> str:
    """A short description of how ``have`` differs from the nearest pack."""
    best = min(
        packs_in_rotation(rules, players), key=lambda p: sum(((p.counts() - have) + (have - p.counts())).values())
    )
    extra = sorted((have - best.counts()).elements())
    missing = sorted((best.counts() - have).elements())
    parts = []
    if extra:
        parts.append("extra: " + " ".join(card_text(c) for c in extra))
    if missing:
        parts.append("missing: " + " ".join(card_text(c) for c in missing))
    return f" ({best.name} pack; {'; '.join(parts)})" if parts else ""


# --------------------------------------------------------------------- legal actions


@rule("R-RANK-ORDER")
def lowest_rank(state: DealState) -> int:
    """Ranks run 2 (lowest) to King; the King is the top of every run (a variant may make the Ace low)."""
    return variant_of(state.rules).lowest_rank


def natural_count(state: DealState, rank: int) -> int:
    """How many natural (non-wild) cards of ``rank`` the deal's pack holds (hands, dead hand, played).

    Counted afresh each time (no cache keyed by pack name: two packs may share a name); it is only
    needed when a hand holds three or more of a rank, so it stays off the hot path.
    """
    n = sum(1 for c in state.played if rank_of(c) == rank and c not in state.wild)
    n += sum(1 for c in state.dead if rank_of(c) == rank and c not in state.wild)
    return n + sum(1 for h in state.hands for c in h if rank_of(c) == rank and c not in state.wild)


@rule("R-FOUR-OF-A-KIND", "R-THREE-NINES")
def quartet(state: DealState, hand: Sequence[Card], rank: int) -> tuple[Card, ...] | None:
    """All the natural cards of ``rank`` if the (sorted) hand holds every one of them (four, or the three 9s)."""
    held = of_rank(hand, rank)
    if len(held) < 3:  # the usual case: not even three cards of the rank
        return None
    mine = tuple(c for c in held if c not in state.wild)
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
    if state.winner >= 0 or state.drawn:  # state.terminal, without the property's call
        return ()
    rules = state.rules
    v = REGISTRY.get(rules.variant) or variant_of(rules)
    hook = v.legal_actions
    if hook is not None:
        return hook(state)
    hand = state.hands[state.to_move]
    run = state.run
    if run and not state.free_lead:
        # Going on with a run.  The usual position: the hand holds no card of the rank needed and no wild
        # card, so the turn passes (R-PLAY-MUST); two binary searches over the sorted hand tell.
        need = run[-1] + 1
        lo = bisect_left(hand, need * 4)
        hi = bisect_left(hand, need * 4 + 4, lo)
        if lo == hi:
            for w in state.wild:
                if w in hand:
                    break
            else:
                return PASS_ONLY
        if plain_readings(rules, v):
            return plain_continue(state, hand[lo:hi], need)
    elif not run and plain_readings(rules, v):
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
_PLAIN: dict[int, tuple[Ruleset, Variant, bool]] = {}


def plain_readings(rules: Ruleset, v: Variant) -> bool:
    """Do ``rules`` read every ruling of ``LEGAL_FIELDS`` as the defaults do, in a family with no set hook
    (``partial_sets``) and the standard lowest rank?  Worked out once per ``Ruleset`` value and family (a
    small table keyed by the ruleset's identity; a family re-registered under its name is seen)."""
    entry = _PLAIN.get(id(rules))
    if entry is not None and entry[0] is rules and entry[1] is v:
        return entry[2]
    plain = v.partial_sets is None and all(getattr(rules, f) == getattr(_DEFAULT_RULES, f) for f in LEGAL_FIELDS)
    if len(_PLAIN) >= 256:  # rulesets made afresh in a loop: keep the table small
        _PLAIN.clear()
    _PLAIN[id(rules)] = (rules, v, plain)
    return plain


_DEFAULT_RULES = Ruleset()


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
    return tuple([NATURAL_PLAYS[c] if c not in wild else one_card(c, KING) for c in dict.fromkeys(hand)])


def lead_quartets(state: DealState, hand: Sequence[Card], naturals: Sequence[Card]) -> list[Action]:
    """RUL-QUARTET-LEAD: the sets (four of a kind, or the three natural 9s; under RUL-2P-SETS = any_number
    any two or more of a rank) the hand may lead, by rank."""
    return [Action(q) for r in sorted({rank_of(c) for c in naturals}) for q in sets_of_rank(state, hand, r)]


action_order = operator.attrgetter("cards", "as_rank")
#: The action of playing one natural card, by card: the very values ``one_card(card, 0)`` gives.
NATURAL_PLAYS = tuple(one_card(c, 0) for c in range(4 * (KING + 1)))
PASS_ONLY = (PASS,)


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
    v = REGISTRY.get(rules.variant) or variant_of(rules)
    if not action.cards:
        return end_turn(state) if v.end_turn is None else v.end_turn(state)
    return play(state, action) if v.play is None else v.play(state, action)


@rule("R-TURN-END", "R-STOP-STUCK")
def end_turn(state: DealState) -> DealState:
    """'Without' or 'pass': the turn passes left; back at the last player to play, a new run starts."""
    nxt = (state.to_move + 1) % state.players
    after = _new_state(
        state.__dict__
        | {
            "to_move": nxt,
            "run": () if nxt == state.last_player else state.run,
            "turn_played": False,
            "turn": state.turn + 1,
            "steps": state.steps + 1,
            "free_lead": False,
        }
    )
    rules = state.rules
    hook = (REGISTRY.get(rules.variant) or variant_of(rules)).pass_payments
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
    seat = state.to_move
    cards = action.cards
    hands = state.hands
    hand = hands[seat]
    if len(cards) == 1:  # the usual play: one card, found in the sorted hand
        i = hand.index(cards[0])
        hand = hand[:i] + hand[i + 1 :]
        hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    else:
        hands = remove_cards(state, cards)
        hand = hands[seat]
    as_rank = action.as_rank
    rank = as_rank or cards[0] >> 2  # action.rank (a card is rank * 4 + suit)
    out = not hand
    payments = state.payments
    rules = state.rules
    v = REGISTRY.get(rules.variant) or variant_of(rules)
    hook = v.play_payments
    if hook is not None:
        payments = payments + hook(state, seat, action, out)
    elif as_rank:
        payments = payments + comet_bonus(state, seat, out, as_rank)
    # R-COMET-STOP; under RUL-COMET-AFTER=optional_restart the run goes on from the Comet's rank,
    # and the player may instead start a new run (free_lead).  A card that does not continue the
    # run (a lead, that free restart, or a Comet standing for another rank) starts a run of its own.
    go_on = bool(as_rank) and rules.comet_after == "optional_restart" and rank != KING
    if rank == KING or (as_rank and not go_on):
        run: tuple[int, ...] = ()
    else:
        run = state.run
        run = run + (rank,) if run and rank == run[-1] + 1 else (rank,)
    after = _new_state(
        state.__dict__
        | {
            "hands": hands,
            "played": state.played + cards,
            "run": run,
            "turn_played": True,
            "last_player": seat,
            "steps": state.steps + 1,
            "payments": payments,
            "winner": seat if out else -1,
            "out_wild_as": as_rank if out else 0,
            "free_lead": go_on and not out,
        }
    )
    if out:
        for option in v.options:
            after = option.on_going_out(after, bool(as_rank) and hook is None)
    return after


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
    key of the dictionaries ``end_turn`` and ``play`` give ``_new_state``) against ``STATE_FIELDS`` in
    the source instead."""
    return _new_state(state.__dict__ | changes)


def _new_state(fields: dict[str, object]) -> DealState:
    """A state with exactly ``fields`` (every field of ``DealState``, in a dictionary made for it alone):
    the merged copy is given to the new state whole (a frozen state is assigned through
    ``object.__setattr__``, as dataclasses does)."""
    after = _object_new(DealState)
    _set_attribute(after, "__dict__", fields)
    return after


_object_new = object.__new__
_set_attribute = object.__setattr__


# --------------------------------------------------------------------- settlement


@rule("R-SETTLE-POINTS")
def card_points(c: Card) -> int:
    """2 to 10 count their number; Jack, Queen and King 10 each; the Comet 9."""
    return min(rank_of(c), 10)


def points_in_hand(state: DealState, hand: Iterable[Card]) -> int:
    """The value of ``hand`` left at the end of a deal, by the variant's card values."""
    values = variant_of(state.rules).card_points or card_points
    return sum(map(values, hand))


@rule("R-SETTLE-POINTS", "R-SETTLE-CAUGHT", "R-SETTLE-COMET-LAST")
def settlement(state: DealState) -> tuple[Payment, ...]:
    """What each loser pays the winner for the cards left in hand (empty while the deal goes on)."""
    if state.winner < 0:
        return ()
    hook = variant_of(state.rules).settlement
    if hook is not None:
        return hook(state)
    return standard_settlement(state)


def standard_settlement(state: DealState) -> tuple[Payment, ...]:
    """The standard game's end-of-deal payments (also the base of a points family's scoring)."""
    if state.winner < 0:
        return ()
    out_mult = going_out_multiplier(state.out_wild_as) if state.out_wild_as else 1
    options = variant_of(state.rules).options
    for option in options:
        out_mult = option.out_multiplier(state, out_mult)
    pays: list[Payment] = []
    for seat, hand in enumerate(state.hands):
        if seat == state.winner or not hand:
            continue
        points = points_in_hand(state, hand)
        caught = 2 if any(c in state.wild for c in hand) else 1
        mult = caught * out_mult
        if caught > 1:
            for option in options:
                mult = option.caught_multiplier(state, caught, out_mult)
        amount = points * mult
        if amount:
            pays.append(Payment(seat, state.winner, amount, settlement_rule(state, caught > 1, out_mult)))
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
        return next((o.payment_rule for o in variant_of(state.rules).options), "R-SETTLE-POINTS")
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
    hook = variant_of(state.rules).points_of_deal
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
