"""Red Nines (002:46-89): penalty points, the lowest total after one hand per player wins.

One 52-card deck for four players, one more whole suit per extra player (as many
red suits as black, or one red more); the whole deck is dealt, 13 each.  The Ace
is low; runs go up regardless of suit to the King, which ends them.  The very
first play of a hand may be several cards of one rank.  The red nines are wild
(never compulsory).  The first player out scores 0; the others score their
cards (Ace 20, King 13, Queen 12, Jack 11, others face value), doubled for each
red nine held (RUL-RED9-MANY) and doubled again if the winner went out on a red
nine (RUL-RED9-OUT).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from comet.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, SPADES, SUITS, Card, Pack, card, rank_of, suit_of
from comet.engine import remove_cards
from comet.errors import IllegalAction
from comet.games.commit_common import may_pass_new_run
from comet.ruleset import EVERY_GAME_RULINGS, FIXED_LENGTH_RULINGS, Ruleset
from comet.state import PASS, Action, DealState, GameState, Payment
from comet.trace import rule
from comet.variant import Preset, Variant, register

RED_NINES = (card(9, DIAMONDS), card(9, HEARTS))
# The suits added for a fifth, sixth, ... player: red and black kept equal, or one more red
# (RUL-RED9-SUITS: hearts first, or diamonds first).
EXTRA_SUITS = (HEARTS, SPADES, DIAMONDS, CLUBS)
EXTRA_SUITS_DIAMONDS_FIRST = (DIAMONDS, CLUBS, HEARTS, SPADES)
PLAYER_COUNTS = (4, 5, 6, 7, 8)
HAND = 13


@rule("R-RED9-DECK")
def red_nines_packs(rules: Ruleset, players: int | None) -> tuple[Pack, ...]:
    """One deck for four players, plus one whole suit per further player (hearts, spades, diamonds,
    clubs in turn, so there are as many red suits as black, or one more red; RUL-RED9-SUITS =
    diamonds_first: diamonds, clubs, hearts, spades); every red nine is wild."""
    n = 4 if players is None else max(4, players)
    order = EXTRA_SUITS if rules.red_nines_suits == "hearts_first" else EXTRA_SUITS_DIAMONDS_FIRST
    extra = order[: n - 4]
    cards = [card(r, s) for r in range(ACE, KING + 1) for s in range(4)]
    cards += [card(r, s) for s in extra for r in range(ACE, KING + 1)]
    name = "deck52" + "".join("+" + SUITS[s] for s in extra)
    return (Pack(name, tuple(sorted(cards)), RED_NINES),)


@rule("R-RED9-DEAL")
def red_nines_deal_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    """The whole deck is dealt: 13 cards each, no dead hand."""
    return pack_size // players, pack_size % players


def first_play(state: DealState) -> bool:
    """No card has been played yet in this hand."""
    return not state.played


@rule("R-RED9-FIRST-PLAY")
def opening_groups(state: DealState, naturals: list[Card]) -> list[Action]:
    """The first play of the hand may be several natural cards of one rank (RUL-RED9-FIRST-PLAY:
    any number of them, or all)."""
    acts: list[Action] = []
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(naturals):
        by_rank.setdefault(rank_of(c), []).append(c)
    for cards in by_rank.values():
        if len(cards) < 2:
            continue
        if state.rules.red_nines_first == "all":
            acts.append(Action(tuple(cards)))
        else:
            for k in range(2, len(cards) + 1):
                acts.extend(Action(combo) for combo in set(itertools.combinations(cards, k)))
    return acts


@rule("R-RED9-RUN", "R-RED9-WILD")
def red_nines_legal_actions(state: DealState) -> tuple[Action, ...]:
    """Any card leads (the first lead also a group of one rank); a run goes on with the next rank in
    any suit, which a player who holds it must play (RUL-RED9-CONTINUE: or may pass); a red nine may
    stand for the rank needed, or lead as any rank (RUL-RED9-LEAD), and is never compulsory."""
    if state.terminal:
        return ()
    hand = state.hands[state.to_move]
    naturals = [c for c in hand if c not in state.wild]
    singles = sorted(set(naturals))
    wilds = sorted({c for c in hand if c in state.wild})
    acts: list[Action] = []
    need = state.need
    if need == 0:
        acts.extend(Action((c,)) for c in singles)
        if first_play(state):
            acts.extend(opening_groups(state, naturals))
        if state.rules.red_nines_lead == "any_rank" or not singles:
            ranks = [r for r in range(ACE, KING + 1) if wild_may_stand_for(state, naturals, r)]
            acts.extend(Action((w,), r) for w in wilds for r in ranks)
        if not acts or may_pass_new_run(state):  # RUL-CATS-NEW-RUN = may: the new run may be passed on
            acts.append(PASS)
    else:
        matching = [Action((c,)) for c in singles if rank_of(c) == need]
        acts.extend(matching)
        # nothing follows a King left standing (RUL-RED9-KING = suit_king)
        if need <= KING and wild_may_stand_for(state, naturals, need):
            acts.extend(Action((w,), need) for w in wilds)
        if not matching or state.rules.red_nines_continue == "may":  # RUL-RED9-CONTINUE
            acts.append(PASS)
    return tuple(sorted(set(acts)))


@rule("R-RED9-WILD")
def wild_may_stand_for(state: DealState, naturals: list[Card], rank: int) -> bool:
    """May a red nine of the player to move stand for ``rank``?  Always (RUL-RED9-HOLDING: the default), or
    (``red_nines_requires_missing``) only while they hold no natural card of that rank."""
    return not (state.rules.red_nines_requires_missing and any(rank_of(c) == rank for c in naturals))


def red_nines_why_illegal(state: DealState, action: Action) -> IllegalAction:
    text = str(action)
    hand = list(state.hands[state.to_move])
    for c in action.cards:
        if c not in hand:
            return IllegalAction("R-PLAY-HELD", "the player to move does not hold those cards", text)
        hand.remove(c)
    if action.is_pass:
        return IllegalAction("R-RED9-RUN", "the player must play: a new run, or the next rank they hold", text)
    if any(c in state.wild for c in action.cards):
        if len(action.cards) > 1:
            return IllegalAction("R-RED9-WILD", "a red nine is played on its own", text)
        if not action.as_rank:
            return IllegalAction("R-RED9-WILD", "say which rank the red nine stands for: 'play 9D as RANK'", text)
        naturals = [c for c in state.hands[state.to_move] if c not in state.wild]
        stands_as_allowed = state.need == 0 or action.as_rank == state.need
        if stands_as_allowed and not wild_may_stand_for(state, naturals, action.as_rank):
            return IllegalAction(
                "R-RED9-WILD",
                f"the player holds a natural {action.as_rank} (ruling red_nines_requires_missing=true)",
                text,
            )
        if state.need == 0:
            return IllegalAction("R-RED9-WILD", "a red nine leads only from a hand of red nines (red_nines_lead)", text)
        return IllegalAction("R-RED9-WILD", f"the red nine must stand for the rank needed, {state.need}", text)
    if action.as_rank:
        return IllegalAction("R-RED9-WILD", "only a red nine may stand for another rank", text)
    if len(action.cards) > 1:
        return IllegalAction(
            "R-RED9-FIRST-PLAY", "several cards of one rank go down only as the first play of the hand", text
        )
    return IllegalAction("R-RED9-RUN", f"the run needs a {state.need}", text)


@rule("R-RED9-RUN")
def king_ends_run(state: DealState, action: Action, suit: int) -> bool:
    """Does this King end the run at once?  Any King (RUL-RED9-KING = any_king); under suit_king only
    "the King of the suit": a natural King of the suit of the run's first card, or a red nine standing
    for the King (it is whatever card the run needs).  Another King leaves the run standing at the King:
    nothing can follow, everyone passes, and its player starts the next run."""
    if state.rules.red_nines_king == "any_king" or action.as_rank:
        return True
    return suit_of(action.cards[0]) == suit


@rule("R-RED9-RUN", "R-RED9-WILD")
def red_nines_play(state: DealState, action: Action) -> DealState:
    """Put the cards on the pile; the run gets their rank (a King ends it, whatever its suit; a red nine
    goes on from the rank it stands for, or ends the run under RUL-RED9-NINE-STOP = stop)."""
    seat = state.to_move
    hands = remove_cards(state, action.cards)
    rank = action.rank
    out = not hands[seat]
    suit = state.run_suit
    if state.rules.red_nines_king == "suit_king" and state.need == 0:
        suit = suit_of(action.cards[0])  # the run's suit: that of its first card
    stop = (rank == KING and king_ends_run(state, action, suit)) or (
        bool(action.as_rank) and state.rules.red_nines_wild_stop == "stop"
    )
    return replace(
        state,
        hands=hands,
        played=state.played + action.cards,
        run=() if stop else state.run + (rank,),
        run_suit=suit,
        turn_played=True,
        last_player=seat,
        steps=state.steps + 1,
        winner=seat if out else -1,
        out_wild_as=action.as_rank if out else 0,
    )


@rule("R-RED9-SCORE")
def red_nines_card_points(c: Card) -> int:
    """Penalty points of a card left in hand: Ace 20, King 13, Queen 12, Jack 11, others face value."""
    r = rank_of(c)
    return 20 if r == ACE else r


@rule("R-RED9-DOUBLE")
def red_nines_multiplier(state: DealState, hand: tuple[Card, ...]) -> int:
    """x2 for one red nine held, x4 for two (RUL-RED9-MANY: x2 for each, or at most x4); x2 more if
    the winner went out on a red nine (RUL-RED9-OUT: x4 if it stood for a 9)."""
    mult = nines_factor(state.rules, sum(1 for c in hand if c in state.wild))
    if state.out_wild_as:
        mult *= 4 if state.rules.red_nines_out == "like_comet" and state.out_wild_as == 9 else 2
    return mult


@rule("R-RED9-DOUBLE")
def nines_factor(rules: Ruleset, held: int) -> int:
    """The factor of ``held`` red nines (RUL-RED9-MANY: x2 for each, or x2 for one and x4 for more)."""
    return 2**held if rules.red_nines_many == "double_each" else (1, 2, 4)[min(held, 2)]


@rule("R-RED9-DECK", "R-RED9-DOUBLE")
def red_nines_ruling_absent(field: str, rules: Ruleset, players: int) -> str | None:
    """Why ``field``'s readings cannot part in any deal of ``players`` (None: they may): RUL-RED9-MANY
    reads how many red nines a hand holds, and with no more than two in the deck (four players: no suit
    added, R-RED9-DECK) every reading gives one or two the same factor (``nines_factor``)."""
    if field == "red_nines_many":
        pack = red_nines_packs(rules, players)[0]
        nines = sum(1 for c in pack.cards if c in pack.wild)
        readings = ("double_each", "cap_four")
        if (
            len(
                {
                    tuple(nines_factor(rules.with_overrides({"red_nines_many": r}), k) for k in range(nines + 1))
                    for r in readings
                }
            )
            == 1
        ):
            return (
                f"the deck of {players} players holds {nines} red nines, and every reading gives as many the same "
                "factor (R-RED9-DECK, R-RED9-DOUBLE)"
            )
    return None


@rule("R-RED9-SCORE", "R-RED9-DOUBLE")
def red_nines_points(state: DealState) -> tuple[int, ...]:
    """Penalty points of a finished hand: 0 for the winner, the cards left times the multiplier for the others."""
    if state.winner < 0:
        return (0,) * state.players
    return tuple(
        0 if seat == state.winner else sum(red_nines_card_points(c) for c in hand) * red_nines_multiplier(state, hand)
        for seat, hand in enumerate(state.hands)
    )


def no_chips(state: DealState) -> tuple[Payment, ...]:
    """No chips change hands: hands are scored in penalty points."""
    return ()


@rule("R-RED9-GAME")
def red_nines_hands(players: int) -> int:
    """A game is as many hands as there are players; the lowest total wins."""
    return players


@rule("R-RED9-GAME")
def red_nines_game_over(game: GameState) -> bool:
    """The game is over once its hands (one per player unless more were agreed) are played."""
    return game.deal_index >= game.deals


RED_NINES_VARIANT = register(
    Variant(
        name="red_nines",
        rulings=(
            *EVERY_GAME_RULINGS,
            *FIXED_LENGTH_RULINGS,
            "red_nines_many",
            "red_nines_lead",
            "red_nines_first",
            "red_nines_out",
            "cats_new_run",
            "red_nines_continue",
            "red_nines_requires_missing",
            "red_nines_wild_stop",
            "red_nines_king",
            "red_nines_suits",
        ),
        presets=(
            Preset(
                "red_nines",
                Ruleset(variant="red_nines"),
                "Red Nines (002): a suit added per player past four, Ace low, red nines wild, penalty points, lowest wins",
                ("002:46-89",),
            ),
        ),
        player_counts=PLAYER_COUNTS,
        default_players=4,
        scoring="points",
        lower_wins=True,
        lowest_rank=1,
        comet_value=0,
        comet_escalates=False,
        wild_name="red nine",
        default_deals=red_nines_hands,
        game_over=red_nines_game_over,
        packs=red_nines_packs,
        deal_sizes=red_nines_deal_sizes,
        ruling_absent=red_nines_ruling_absent,
        legal_actions=red_nines_legal_actions,
        why_illegal=red_nines_why_illegal,
        play=red_nines_play,
        settlement=no_chips,
        points_of_deal=red_nines_points,
        card_points=red_nines_card_points,
    )
)
