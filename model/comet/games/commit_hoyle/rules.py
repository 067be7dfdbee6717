"""Commit as 000:86 (and 003:86) describe it: chips, runs in suit, the 9♦ instead of "without".

One 52-card deck without the 8♦, dealt as evenly as it goes round; the rest
lies face down (RUL-COMMIT-H-REST).  Runs go up in one suit from the Ace; Kings
and the 7♦ are stops.  A player who cannot go on may play the 9♦ instead of
saying "without": their turn ends, and the run may go on with the old run's
next card or with the 10♦ (RUL-COMMIT-H-NINE-RUN).  Chips: 1 from each other
player for a King played, 2 for the 9♦ (fixed: the deal's ``comet_value`` plays no part); at the end the pool
(RUL-COMMIT-H-STAKE) goes to the first player out, whoever holds the 9♦ pays 2
to each other player, and every King left in a hand costs 1 to each other
player (RUL-COMMIT-H-KINGS-HELD).
"""

from __future__ import annotations

from dataclasses import replace

from comet.cards import DIAMONDS, KING, Card, Pack, card, rank_of, suit_of
from comet.engine import remove_cards
from comet.errors import IllegalAction
from comet.games.commit_common import (
    NINE_OF_DIAMONDS,
    at_new_run,
    continuations,
    deck_without_8d,
    suited_end_turn,
    suited_play,
    suited_why_illegal,
)
from comet.ruleset import CHIP_RULINGS, EVERY_GAME_RULINGS, FIXED_LENGTH_RULINGS, Ruleset
from comet.state import PASS, Action, DealState, Payment
from comet.trace import rule
from comet.variant import Preset, Variant, register

SEVEN_OF_DIAMONDS = card(7, DIAMONDS)
# 000:86 "the 9♦ 2 counters", "whoever is caught with the 9♦ pays 2 to each": a fixed value.  Commit
# has no escalation, so the deal's ``comet_value`` (a record's ``comet_value``) plays no part here.
NINE_CHIPS = 2
KING_CHIPS = 1
TEN_OF_DIAMONDS = card(10, DIAMONDS)
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)


def hoyle_packs(rules: Ruleset, players: int | None) -> tuple[Pack, ...]:
    """One pack: 52 cards less the 8♦."""
    return (deck_without_8d("deck51"),)


@rule("R-COMMIT-H-DEAL")
def hoyle_deal_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    """As many cards each as go round evenly, but 9 each for five (RUL-COMMIT-H-FIVE; 10 under
    commit_five = ten); the rest lie face down."""
    each = pack_size // players
    if players == 5 and rules.commit_five == "nine":
        each = 9
    return each, pack_size - each * players


@rule("R-COMMIT-H-DEAL", "R-COMMIT-H-NINE", "R-STOP-STUCK")
def hoyle_ruling_absent(field: str, rules: Ruleset, players: int) -> str | None:
    """Why ``field``'s readings cannot part in any deal of ``players`` (None: they may).

    RUL-COMMIT-H-REST is read only for a card in the rest: where the pack goes round evenly (three
    players: 17 each of 51) nothing is left undealt.  RUL-COMMIT-H-NINE-RUN differs only for a player
    after the one who follows the 9♦: with two players, once that one passes the turn is back at the
    9♦'s player, where the run is dropped (R-STOP-STUCK), so no one else ever faces the choice."""
    if field == "commit_rest":
        pack = hoyle_packs(rules, players)[0]
        each, rest = hoyle_deal_sizes(rules, players, len(pack.cards))
        if rest == 0:
            return f"the whole pack is dealt ({each} cards each), so no card lies in the rest (R-COMMIT-H-DEAL)"
    if field == "commit_nine_branch" and players < 3:
        return (
            "once the player after the 9♦ passes, the turn is back at the 9♦'s player and the run is dropped, so no "
            "later player meets the choice (R-COMMIT-H-NINE, R-STOP-STUCK)"
        )
    return None


@rule("R-COMMIT-H-NINE")
def just_played_nine(state: DealState) -> bool:
    """The player to move has just played the 9♦ this turn, which ends their turn; a 9♦ that started
    a run (no old run, so no branch) ends it too, or under RUL-COMMIT-H-NINE-LEAD-TURN = goes_on lets
    the player go on with the diamonds from the 10♦ like any led card."""
    return (
        state.turn_played
        and state.last_player == state.to_move
        and bool(state.played)
        and state.played[-1] == NINE_OF_DIAMONDS
        and (state.rules.commit_nine_lead_turn == "ends" or bool(state.branch))
    )


@rule("R-COMMIT-H-NINE")
def nine_for_this_ending(state: DealState) -> bool:
    """May the 9♦ end this turn (the player can go on no further)?  Instead of "without" or of "pass"
    (RUL-COMMIT-H-NINE-PASS = without_or_pass), or only instead of "without": after the player has put a
    card on the run this turn (without_only)."""
    return state.rules.commit_nine_when == "without_or_pass" or state.turn_played


@rule("R-COMMIT-H-NINE")
def nine_may_lead(state: DealState) -> bool:
    """May the player to move start a run with the 9♦ (the diamonds, the 10♦ next)?  Yes
    (RUL-COMMIT-H-NINE-LEAD = any), or only when it is the last card in the hand (last_resort)."""
    return state.rules.commit_nine_lead == "any" or len(state.hands[state.to_move]) == 1


@rule("R-COMMIT-H-SUIT", "R-COMMIT-H-NINE")
def hoyle_legal_actions(state: DealState) -> tuple[Action, ...]:
    """Any card leads; a run goes on with the next card of its suit (or the branch card); a player
    who holds none may play the 9♦ instead of "without", which ends their turn."""
    if state.terminal:
        return ()
    if just_played_nine(state):
        return (PASS,)
    hand = sorted(set(state.hands[state.to_move]))
    if at_new_run(state):
        return tuple(Action((c,)) for c in hand if c != NINE_OF_DIAMONDS or nine_may_lead(state))
    wanted = continuations(state)
    acts = [Action((c,)) for c in hand if c in wanted]
    if not acts:
        if NINE_OF_DIAMONDS in hand and nine_for_this_ending(state):
            acts.append(Action((NINE_OF_DIAMONDS,)))
        acts.append(PASS)
    return tuple(sorted(set(acts)))


def hoyle_why_illegal(state: DealState, action: Action) -> IllegalAction:
    if just_played_nine(state) and not action.is_pass:
        return IllegalAction("R-COMMIT-H-NINE", "the 9♦ was played instead of 'without': the turn is over", str(action))
    if action.cards == (NINE_OF_DIAMONDS,) and not action.as_rank and not at_new_run(state):
        if not nine_for_this_ending(state) and not (set(continuations(state)) & set(state.hands[state.to_move])):
            return IllegalAction(
                "R-COMMIT-H-NINE",
                "the 9♦ replaces 'without', not 'pass': only after a card this turn (commit_nine_when=without_only)",
                str(action),
            )
        return IllegalAction(
            "R-COMMIT-H-NINE", "the 9♦ is played only instead of 'without' (the player can go on)", str(action)
        )
    if action.as_rank:
        return IllegalAction("R-COMMIT-H-NINE", "in this Commit the 9♦ stands for no other card", str(action))
    if action.cards == (NINE_OF_DIAMONDS,) and at_new_run(state) and NINE_OF_DIAMONDS in state.hands[state.to_move]:
        return IllegalAction(
            "R-COMMIT-H-NINE",
            "the 9♦ starts a run only as the last card in hand (commit_nine_lead=last_resort)",
            str(action),
        )
    return suited_why_illegal(state, action, "R-LEAD-ANY", "R-COMMIT-H-SUIT")


@rule("R-COMMIT-H-STOPS")
def is_stop(state: DealState, c: Card) -> bool:
    """Kings and the 7♦ end a run (RUL-COMMIT-H-REST: also a card whose successor lies in the rest)."""
    if rank_of(c) == KING or c == SEVEN_OF_DIAMONDS:
        return True
    return state.rules.commit_rest == "stop_cards" and card(rank_of(c) + 1, suit_of(c)) in state.dead


@rule("R-COMMIT-H-KING-PAID", "R-COMMIT-H-NINE-PAID")
def hoyle_play_payments(state: DealState, seat: int, c: Card) -> tuple[Payment, ...]:
    """A King earns 1 chip from each other player, the 9♦ 2 from each (whatever the deal's ``comet_value``)."""
    if rank_of(c) == KING:
        amount, why = KING_CHIPS, "R-COMMIT-H-KING-PAID"
    elif c == NINE_OF_DIAMONDS:
        amount, why = NINE_CHIPS, "R-COMMIT-H-NINE-PAID"
    else:
        return ()
    return tuple(Payment(p, seat, amount, why) for p in range(state.players) if p != seat and amount)


@rule("R-COMMIT-H-NINE", "R-COMMIT-H-SUIT")
def hoyle_play(state: DealState, action: Action) -> DealState:
    """Put the card down: the 9♦ keeps the old run and opens the diamonds from the 10♦; the 10♦
    played on that branch makes the run 9♦ 10♦; a stop ends the run (the player leads again)."""
    seat = state.to_move
    c = action.cards[0]
    hands = remove_cards(state, action.cards)
    out = not hands[seat]
    run, suit, branch = state.run, state.run_suit, 0
    if c == NINE_OF_DIAMONDS:
        if state.run:
            branch = TEN_OF_DIAMONDS
        else:
            run, suit = (9,), DIAMONDS
    elif state.branch == c and c not in _suit_next(state):
        run, suit = (9, 10), DIAMONDS
    else:
        run, suit = state.run + (rank_of(c),), suit_of(c)
    if c != NINE_OF_DIAMONDS and is_stop(state, c):
        run, suit = (), -1
    after = suited_play(state, seat, hands, action.cards, run, suit, branch, out)
    return replace(after, payments=state.payments + hoyle_play_payments(state, seat, c))


def _suit_next(state: DealState) -> tuple[Card, ...]:
    if state.run and state.run_suit >= 0 and state.run[-1] < KING:
        return (card(state.run[-1] + 1, state.run_suit),)
    return ()


@rule("R-COMMIT-H-NINE")
def hoyle_end_turn(state: DealState) -> DealState:
    """A pass; under RUL-COMMIT-H-NINE-RUN = next_player the diamonds branch lapses once the player
    after the 9♦ has passed."""
    after = suited_end_turn(state)
    if (
        state.rules.commit_nine_branch == "next_player"
        and after.branch
        and state.played
        and state.played[-1] == NINE_OF_DIAMONDS
        and state.to_move == (state.last_player + 1) % state.players
    ):
        after = replace(after, branch=0)
    return after


@rule("R-COMMIT-H-POOL", "R-COMMIT-H-CAUGHT", "R-COMMIT-H-KINGS-HELD")
def hoyle_settlement(state: DealState) -> tuple[Payment, ...]:
    """The first player out wins the pool (each other player's stake); a player caught with the 9♦
    pays 2 to each other player; each King left in a hand costs 1 chip per other player."""
    if state.winner < 0:
        return ()
    n = state.players
    stake = state.rules.commit_stake
    pays: list[Payment] = []
    for seat in range(n):
        if seat != state.winner and stake:
            pays.append(Payment(seat, state.winner, stake, "R-COMMIT-H-POOL"))
    for seat, hand in enumerate(state.hands):
        caught = hand.count(NINE_OF_DIAMONDS) * NINE_CHIPS
        kings = sum(1 for c in hand if rank_of(c) == KING)
        for other in range(n):
            if other == seat:
                continue
            if caught:
                pays.append(Payment(seat, other, caught, "R-COMMIT-H-CAUGHT"))
            if kings:
                if state.rules.commit_king_payer == "holder":
                    pays.append(Payment(seat, other, kings * KING_CHIPS, "R-COMMIT-H-KINGS-HELD"))
                else:
                    pays.append(Payment(other, seat, kings * KING_CHIPS, "R-COMMIT-H-KINGS-HELD"))
    return tuple(pays)


@rule("R-COMMIT-H-POOL", "R-COMMIT-H-CAUGHT", "R-COMMIT-H-KINGS-HELD", "R-COMMIT-H-KING-PAID", "R-COMMIT-H-NINE-PAID")
def most_paid_in_a_deal(rules: Ruleset, players: int) -> int:
    """The most chips one seat can pay in a deal of ``players``: its stake to the winner, the 9♦ (2 to each
    other player when caught with it, 2 to its player when another plays it) and the four Kings (1 to each
    other player per King held, RUL-COMMIT-H-KINGS-HELD = holder, or 1 to whoever plays or holds it).  An
    upper bound (``diverge.game_search.game_floor``); ``tests/test_diverge_game_floor.py`` checks it on deals."""
    others = players - 1
    kings = 4 * KING_CHIPS * (others if rules.commit_king_payer == "holder" else 1)
    return rules.commit_stake + NINE_CHIPS * others + kings


COMMIT_HOYLE = register(
    Variant(
        name="commit_hoyle",
        rulings=(
            *EVERY_GAME_RULINGS,
            *CHIP_RULINGS,
            "creditor_order",
            *FIXED_LENGTH_RULINGS,
            "commit_five",
            "commit_rest",
            "commit_nine_branch",
            "commit_king_payer",
            "commit_stake",
            "commit_nine_lead_turn",
            "commit_nine_when",
            "commit_nine_lead",
        ),
        presets=(
            Preset(
                "commit_hoyle",
                Ruleset(variant="commit_hoyle"),
                "Commit (000): 52 cards less the 8D, runs in suit, Kings and 7D stop, the 9D instead of 'without', chips",
                ("000:86", "003:86"),
            ),
        ),
        player_counts=PLAYER_COUNTS,
        default_players=4,
        lowest_rank=1,
        comet_value=NINE_CHIPS,
        comet_escalates=False,
        wild_name="9♦",
        packs=hoyle_packs,
        deal_sizes=hoyle_deal_sizes,
        ruling_absent=hoyle_ruling_absent,
        legal_actions=hoyle_legal_actions,
        why_illegal=hoyle_why_illegal,
        play=hoyle_play,
        end_turn=hoyle_end_turn,
        settlement=hoyle_settlement,
    )
)
