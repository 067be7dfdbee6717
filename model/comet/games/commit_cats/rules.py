"""Commit as CatsAtCards (002:32-45) describes it: points to 100, the whole deck dealt.

One 52-card deck without the 8♦, further sevens and eights taken out so that it
divides evenly (002's table, RUL-COMMIT-C-REMOVED); no dead hand.  A new run
starts with the player's lowest card (RUL-COMMIT-C-LOWEST), or with the Comet
standing for the King (RUL-COMMIT-C-COMET-LEAD), and goes up in its suit; a King
ends it (1 point).  The 9♦ (the Comet) replaces the card the run
needs (2 points); then the run goes on with the replaced card or the one after
it (RUL-COMMIT-C-COMET).  The first player out scores 1, 2 per King and 1 per
other card left in the other hands; whoever is caught with the Comet gives every
other player 1 point.  First to 100 wins (RUL-COMMIT-C-TARGET), after the deal or, under
RUL-COMMIT-C-RACE = race, the moment it is reached.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from comet.cards import CLUBS, HEARTS, KING, SPADES, Card, Pack, card, card_text, rank_of, suit_of
from comet.engine import remove_cards
from comet.errors import IllegalAction
from comet.games.commit_common import (
    at_new_run,
    continuations,
    deck_without_8d,
    may_pass_new_run,
    suited_end_turn,
    suited_play,
    suited_why_illegal,
)
from comet.ruleset import EVERY_GAME_RULINGS, Ruleset
from comet.state import PASS, Action, DealState, GameState, Payment
from comet.trace import rule
from comet.variant import Fixed, Preset, Variant, register

TARGET = 100
# 002:33-41: cards per player and how many sevens and eights go besides the 8♦.
CATS_TABLE: dict[int, tuple[int, int, int]] = {
    2: (25, 1, 0),
    3: (17, 0, 0),
    4: (12, 2, 1),
    5: (10, 1, 0),
    6: (8, 2, 1),
    7: (7, 1, 1),
    8: (6, 2, 1),
}
# RUL-COMMIT-C-REMOVED = fixed: the black sevens first, then the 8♣.
FIXED_SEVENS = (card(7, CLUBS), card(7, SPADES))
FIXED_EIGHT = card(8, CLUBS)
ALL_SEVENS = tuple(card(7, s) for s in range(4))
OTHER_EIGHTS = (card(8, CLUBS), card(8, HEARTS), card(8, SPADES))
DEFAULT_PLAYERS = 4


def _name(removed: tuple[Card, ...]) -> str:
    return "deck51" if not removed else "deck51-" + "-".join(card_text(c) for c in removed)


@rule("R-COMMIT-C-DECK")
def cats_packs(rules: Ruleset, players: int | None) -> tuple[Pack, ...]:
    """The deck for ``players`` (RUL-COMMIT-C-REMOVED: one fixed deck, or every choice of sevens and eights)."""
    n = DEFAULT_PLAYERS if players is None or players not in CATS_TABLE else players
    _, sevens, eights = CATS_TABLE[n]
    if rules.commit_removed == "fixed":
        removed = FIXED_SEVENS[:sevens] + ((FIXED_EIGHT,) if eights else ())
        return (deck_without_8d(_name(removed), removed),)
    packs = []
    for s in itertools.combinations(ALL_SEVENS, sevens):
        for e in itertools.combinations(OTHER_EIGHTS, eights):
            removed = tuple(sorted(s + e))
            packs.append(deck_without_8d(_name(removed), removed))
    return tuple(packs)


@rule("R-COMMIT-C-DEAL")
def cats_deal_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    """002's table: the whole (reduced) deck is dealt; there is no dead hand."""
    return CATS_TABLE[players][0], 0


@rule("R-COMMIT-C-LEAD")
def lowest_cards(state: DealState, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards a new run may start with: the lowest natural card(s), Ace low (RUL-COMMIT-C-LOWEST)."""
    naturals = sorted({c for c in hand if c not in state.wild})
    if not naturals:
        return ()
    if state.rules.commit_lowest == "rank_then_suit":
        return (naturals[0],)
    low = rank_of(naturals[0])
    return tuple(c for c in naturals if rank_of(c) == low)


@rule("R-COMMIT-C-SUIT", "R-COMMIT-C-COMET")
def cats_legal_actions(state: DealState) -> tuple[Action, ...]:
    """A new run starts with the lowest card or, "never required" (002:43), the Comet standing for the
    King (RUL-COMMIT-C-COMET-LEAD = last_resort: only from a hand of nothing else, as a 9); a run goes
    on in its suit, the Comet replacing the card needed; a player holding the next card must play it, or
    (RUL-COMMIT-C-CONTINUE = may) may say "Without" once they have played a card this turn."""
    if state.terminal:
        return ()
    hand = state.hands[state.to_move]
    wilds = sorted({c for c in hand if c in state.wild})
    if at_new_run(state):
        low = lowest_cards(state, hand)
        leads = [Action((c,)) for c in low]
        if state.rules.commit_comet_lead == "king":
            leads += [Action((w,), KING) for w in wilds]  # RUL-COMMIT-C-COMET-LEAD: led, it stands for the King
        elif not low:
            leads += [Action((w,), 9) for w in wilds]  # last_resort: a hand of only the Comet goes out with it
        if may_pass_new_run(state):
            leads.append(PASS)  # RUL-CATS-NEW-RUN = may
        return tuple(sorted(leads))
    wanted = continuations(state)
    acts = [Action((c,)) for c in sorted(set(hand)) if c in wanted and c not in state.wild]
    matching = bool(acts)
    if state.run:
        # RUL-COMMIT-C-COMET-CARD: the next card of the run's suit, or (any_higher) any card above it
        top = KING if state.rules.commit_comet_card == "any_higher" else state.run[-1] + 1
        acts.extend(Action((w,), r) for w in wilds for r in range(state.run[-1] + 1, top + 1))
    if not matching or (state.rules.cats_continue == "may" and state.turn_played):
        acts.append(PASS)  # RUL-COMMIT-C-CONTINUE = may: "Without" after a card, the next one held or not
    return tuple(sorted(set(acts)))


def cats_why_illegal(state: DealState, action: Action) -> IllegalAction:
    lead = not action.is_pass and at_new_run(state) and action.cards[0] not in state.wild
    if lead and action.cards[0] in state.hands[state.to_move]:
        return IllegalAction("R-COMMIT-C-LEAD", "a new run starts with the player's lowest card", str(action))
    if action.as_rank or (action.cards and action.cards[0] in state.wild):
        if not at_new_run(state):
            why = "the Comet replaces the card the run needs"
        elif state.rules.commit_comet_lead == "king":
            why = "a Comet that starts a run stands for the King (RUL-COMMIT-C-COMET-LEAD)"
        else:
            why = "the Comet starts a run only from a hand of nothing else (RUL-COMMIT-C-COMET-LEAD = last_resort)"
        return IllegalAction("R-COMMIT-C-COMET", why, str(action))
    return suited_why_illegal(state, action, "R-COMMIT-C-LEAD", "R-COMMIT-C-SUIT")


@rule("R-COMMIT-C-KING", "R-COMMIT-C-COMET")
def cats_play(state: DealState, action: Action) -> DealState:
    """A natural card goes on the run (the replaced card keeps the run where it is); the Comet stands
    for the card needed and leaves the replaced card as a second way on; a King (or, with
    RUL-COMMIT-C-COMET = stop, the Comet) ends the run.  Kings score 1, the Comet 2 (standing for a
    King: 2, or 3 under RUL-COMMIT-C-COMET-KING = comet_and_king)."""
    seat = state.to_move
    c = action.cards[0]
    hands = remove_cards(state, action.cards)
    out = not hands[seat]
    wild = c in state.wild
    rank = action.rank
    scores = list(state.scores or (0,) * state.players)
    branch = 0
    if wild:
        scores[seat] += 2
        suit = state.run_suit
        # a Comet that skips cards (RUL-COMMIT-C-COMET-CARD = any_higher) starts the run's ranks afresh
        run = (state.run + (rank,) if rank == state.need else (rank,)) if state.run else ()
        if state.run and rank < KING:
            branch = card(rank, suit)
        if state.rules.commit_comet == "stop":
            run, branch = (), 0
    elif state.branch == c and state.run and rank == state.run[-1]:
        run, suit = state.run, state.run_suit
    else:
        run, suit = state.run + (rank,), suit_of(c)
    if run and rank < KING and missing_successor_stops(state, hands, action, card(run[-1] + 1, suit)):
        run, branch = (), 0  # RUL-COMMIT-C-STOPS = missing_successor: the card ends the run like a King
    if rank == KING:
        if not wild or state.rules.commit_comet_king == "comet_and_king":
            scores[seat] += 1  # RUL-COMMIT-C-COMET-KING: the Comet as a King scores its 2 only, or 2 + 1
        run, branch = (), 0
    if not run:
        suit = -1
    after = suited_play(state, seat, hands, action.cards, run, suit, branch, out)
    return replace(after, scores=tuple(scores), out_wild_as=rank if (out and wild) else 0)


@rule("R-COMMIT-C-KING")
def missing_successor_stops(
    state: DealState, hands: tuple[tuple[Card, ...], ...], action: Action, successor: Card
) -> bool:
    """RUL-COMMIT-C-STOPS = missing_successor: the run's next card is not in the deck (the 8♦, or a seven or
    eight taken out by 002's table), so the card just played is a stop.  Every card of the deck is held or
    played, so "not in the deck" is "nowhere".  kings: never (only a King is a stop)."""
    if state.rules.commit_stops != "missing_successor":
        return False
    return successor not in state.played + action.cards and not any(successor in h for h in hands)


@rule("R-COMMIT-C-COMET")
def cats_end_turn(state: DealState) -> DealState:
    """The end of a turn (``suited_end_turn``); under RUL-COMMIT-C-REPLACED = player_only the card the
    Comet replaced is no longer open once its player's turn is over (the run goes on with the next card)."""
    after = suited_end_turn(state)
    if state.rules.commit_comet_branch == "player_only" and after.branch:
        after = replace(after, branch=0)
    return after


def out_on_comet_multiplier(state: DealState) -> int:
    """RUL-COMMIT-C-COMET-OUT = doubled: the winner who went out on the Comet scores the cards left in the
    other hands twice (four times when it stood for a 9), "as in the standard version"; plain: once."""
    if state.rules.commit_comet_out != "doubled" or not state.out_wild_as:
        return 1
    return 4 if state.out_wild_as == 9 else 2


@rule("R-COMMIT-C-OUT", "R-COMMIT-C-CAUGHT", "R-COMMIT-C-KING", "R-COMMIT-C-COMET")
def cats_points(state: DealState) -> tuple[int, ...]:
    """Points of a finished deal: those scored in play (Kings 1, the Comet 2), the winner's 1 + 2 per
    King + 1 per other card left in the other hands, and 1 to everyone but a player caught with the Comet."""
    return cats_points_in_order(state)[-1]


def cats_points_in_order(state: DealState) -> tuple[tuple[int, ...], ...]:
    """The deal's points as they arrive, one tuple per moment: those scored in play; for a finished deal
    then with the winner's (1 + 2 per King + 1 per other card left in the other hands), then with the
    caught Comet's (1 to everyone but its holder).  The last tuple is the deal's points."""
    scores = list(state.scores or (0,) * state.players)
    moments = [tuple(scores)]
    if state.winner < 0:
        return tuple(moments)
    mult = out_on_comet_multiplier(state)
    others = [seat for seat in range(state.players) if seat != state.winner]
    scores[state.winner] += 1
    for seat in others:
        hand = state.hands[seat]
        scores[state.winner] += mult * sum(2 if rank_of(c) == KING and c not in state.wild else 1 for c in hand)
    moments.append(tuple(scores))
    for seat in others:
        for _ in range(sum(1 for c in state.hands[seat] if c in state.wild)):
            for other in range(state.players):
                if other != seat:
                    scores[other] += 1
    moments.append(tuple(scores))
    return tuple(moments)


def no_chips(state: DealState) -> tuple[Payment, ...]:
    """No chips change hands: the deal is scored in points (``cats_points``)."""
    return ()


@rule("R-COMMIT-C-GAME")
def cats_game_over(game: GameState) -> bool:
    """The game ends after the deal in which someone reaches 100 (RUL-COMMIT-C-TARGET: tied leaders
    share the win, or play on)."""
    return target_reached(game.rules, game.balances)


@rule("R-COMMIT-C-GAME")
def cats_race_end(game: GameState, state: DealState) -> tuple[int, ...] | None:
    """RUL-COMMIT-C-RACE = race: the game ends the moment a total reaches 100 with its leader alone (or,
    RUL-COMMIT-C-TARGET = share, with the leaders tied), even inside a deal; the standings are the totals
    of that moment, and points not yet scored then are never scored.  Inside a deal only the player who
    plays a King or the Comet scores, so the deal's points arrive one moment at a time
    (``cats_points_in_order``): in play, then the winner's, then the caught Comet's.  after_deal: None
    (the deal is played out and ``cats_game_over`` judges the totals after it)."""
    if game.rules.commit_race != "race":
        return None
    for moment in cats_points_in_order(state):
        totals = tuple(b + p for b, p in zip(game.balances, moment, strict=True))
        if target_reached(game.rules, totals):
            return totals
    return None


def target_reached(rules: Ruleset, totals: tuple[int, ...]) -> bool:
    """Someone has 100, and the leader is alone or (RUL-COMMIT-C-TARGET = share) tied leaders share."""
    best = max(totals)
    return best >= TARGET and not (rules.commit_tie == "play_on" and totals.count(best) > 1)


COMMIT_CATS = register(
    Variant(
        name="commit_cats",
        rulings=(
            *(f for f in EVERY_GAME_RULINGS if f != "deal_order"),  # fixed by 002:42 (``fixed`` below)
            "commit_removed",
            "commit_lowest",
            "commit_comet",
            "commit_tie",
            "commit_race",
            "commit_comet_king",
            "commit_comet_lead",
            "commit_comet_branch",
            "commit_comet_out",
            "commit_comet_card",
            "commit_stops",
            "cats_new_run",
            "cats_continue",
        ),
        fixed=(Fixed("deal_order", "round_robin", '002:42 "one card at a time"'),),
        presets=(
            Preset(
                "commit_cats",
                Ruleset(variant="commit_cats"),
                "Commit (002): 2-8 players, sevens/eights removed, lowest card leads, runs in suit, Comet 9D, first to 100",
                ("002:32-45",),
            ),
        ),
        player_counts=tuple(sorted(CATS_TABLE)),
        default_players=DEFAULT_PLAYERS,
        scoring="points",
        lowest_rank=1,
        comet_value=2,
        comet_escalates=False,
        game_end="target",
        target=TARGET,
        max_deals=1000,
        game_over=cats_game_over,
        race_end=cats_race_end,
        packs=cats_packs,
        deal_sizes=cats_deal_sizes,
        legal_actions=cats_legal_actions,
        why_illegal=cats_why_illegal,
        play=cats_play,
        end_turn=cats_end_turn,
        settlement=no_chips,
        points_of_deal=cats_points,
    )
)
