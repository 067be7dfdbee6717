"""What both Commit presets share: the 51-card deck, suit-following runs, the end of a turn.

A run in Commit follows one suit (``DealState.run_suit``) up from the Ace to the
King; ``DealState.branch`` holds a second card that may also continue the run
(000's 9♦ opens "the diamonds from the 10♦", 002's Comet allows "the card the
Comet was set to replace").  ``run`` keeps the ranks, as in every other game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from comet.cards import DIAMONDS, KING, Card, Pack, card, card_text, rank_of, rank_text, suit_of
from comet.errors import IllegalAction
from comet.state import Action, DealState
from comet.trace import rule

EIGHT_OF_DIAMONDS = card(8, DIAMONDS)
NINE_OF_DIAMONDS = card(9, DIAMONDS)


@rule("R-COMMIT-H-DECK", "R-COMMIT-C-DECK")
def deck_without_8d(name: str, removed: tuple[Card, ...] = ()) -> Pack:
    """One 52-card deck without the 8♦ (and without ``removed``); the 9♦ is the special card."""
    cards = [card(r, s) for r in range(1, KING + 1) for s in range(4)]
    for c in (EIGHT_OF_DIAMONDS, *removed):
        cards.remove(c)
    return Pack(name, tuple(sorted(cards)), (NINE_OF_DIAMONDS,))


def continuations(state: DealState) -> frozenset[Card]:
    """The cards that continue the current run: the next card of the run's suit, and the branch card."""
    out: set[Card] = set()
    if state.run and state.run_suit >= 0 and state.run[-1] < KING:
        out.add(card(state.run[-1] + 1, state.run_suit))
    if state.branch:
        out.add(state.branch)
    return frozenset(out)


def at_new_run(state: DealState) -> bool:
    """The player to move starts a new run (nothing to continue)."""
    return not state.run and not state.branch


def may_pass_new_run(state: DealState) -> bool:
    """RUL-CATS-NEW-RUN = may (002's Commit and Red Nines): a player who has just ended a run with a King
    (a stop) this turn, or to whom a stuck run has come back, may pass the new run on; the left neighbour
    (who has played nothing this turn and is not the last player) must then start it."""
    if state.rules.cats_new_run != "may":
        return False
    return state.turn_played or state.to_move == state.last_player


@rule("R-COMMIT-H-SUIT", "R-COMMIT-C-SUIT")
def follows_suit(state: DealState, c: Card) -> bool:
    """A natural card continues a run only as the next higher card of the run's suit (or the branch card)."""
    return c in continuations(state)


def suited_play(
    state: DealState,
    seat: int,
    hands: tuple[tuple[Card, ...], ...],
    cards: tuple[Card, ...],
    run: tuple[int, ...],
    suit: int,
    branch: Card,
    out: bool,
) -> DealState:
    """The state after ``seat`` put ``cards`` on the run in a suit-following game (000's and 002's Commit):
    the hands, the run with its suit and branch card as the game's play rule computed them, the turn played
    and, when the hand is empty, the winner; each game adds its payments or scores."""
    return replace(
        state,
        hands=hands,
        played=state.played + cards,
        run=run,
        run_suit=suit,
        branch=branch,
        turn_played=True,
        last_player=seat,
        steps=state.steps + 1,
        winner=seat if out else -1,
    )


def suited_end_turn(state: DealState) -> DealState:
    """The standard end of a turn (the run is dropped once the turn is back at the last player),
    clearing the run's suit and branch with it."""
    from comet import engine

    after = engine.end_turn(state)
    if not after.run:
        after = replace(after, run_suit=-1, branch=0)
    return after


def suited_why_illegal(state: DealState, action: Action, lead_rule: str, suit_rule: str) -> IllegalAction:
    """A plain reason for an action outside ``legal_actions`` in a Commit game."""
    text = str(action)
    if action.is_pass:
        if at_new_run(state):
            return IllegalAction(lead_rule, "the player must start a new run", text)
        return IllegalAction(suit_rule, "the player holds a card that continues the run and must play it", text)
    if Counter(action.cards) - Counter(state.hands[state.to_move]):
        return IllegalAction("R-PLAY-HELD", f"the player to move does not hold {text[5:]}", text)
    if len(action.cards) > 1:
        return IllegalAction(suit_rule, "Commit is played one card at a time", text)
    c = action.cards[0]
    if at_new_run(state):
        return IllegalAction(lead_rule, f"{card_text(c)} may not start this run", text)
    wanted = " or ".join(card_text(x) for x in sorted(continuations(state)))
    if rank_of(c) == (state.run[-1] + 1 if state.run else 0) and suit_of(c) != state.run_suit:
        return IllegalAction(suit_rule, f"the run follows suit: it needs {wanted}, not {card_text(c)}", text)
    shown = rank_text(action.as_rank) if action.as_rank else card_text(c)
    return IllegalAction(suit_rule, f"the run needs {wanted or 'a new lead'}, not {shown}", text)
