"""Old Comet (1718; 000:85, 003:85): one 52-card deck, Ace low, the 9D the only wild card (the manille).

Play is the standard game's.  Chips move at once for a King, for the last
card before everyone passes and for the manille (10 from each); the settlement
is 1 chip per point left in hand (Ace 1), and a player caught with the manille
pays 10 to each other player besides its 9 points to the winner.
"""

from __future__ import annotations

from comet.cards import ACE, DIAMONDS, KING, Card, Pack, card, full_deck, rank_of
from comet.engine import DEAL_TABLE, going_out_multiplier
from comet.games.opera.rules import OPERA, is_opera, opera_multiplier, stacked
from comet.ruleset import CHIP_RULINGS, EVERY_GAME_RULINGS, FIXED_LENGTH_RULINGS, STANDARD_PLAY_RULINGS, Ruleset
from comet.state import Action, DealState, Payment
from comet.trace import rule
from comet.variant import Preset, Variant, register

MANILLE = card(9, DIAMONDS)
MANILLE_BONUS = 10
MANILLE_CAUGHT = 10
KING_CHIPS = 1
LAST_CARD_CHIPS = 1
CAUGHT_NINE = 9


@rule("R-OLD-DECK")
def old_deck(rules: Ruleset, players: int | None) -> tuple[Pack, ...]:
    """One full 52-card deck, every deal; the 9D is its only wild card."""
    return (full_deck("deck52", (MANILLE,)),)


@rule("R-OLD-DEAL")
def old_deal_sizes(rules: Ruleset, players: int, pack_size: int) -> tuple[int, int]:
    """The standard table's hand sizes, the rest dead; or all cards evenly (RUL-OLD-DEAL-SIZES)."""
    each = DEAL_TABLE[players][0] if rules.old_deal_sizes == "table" else pack_size // players
    return each, pack_size - each * players


@rule("R-OLD-PLAYERS")
def old_player_counts() -> tuple[int, ...]:
    """Two to five players, as in the game "above" (000:21); the deal table (RUL-OLD-DEAL-SIZES) has rows
    for just those counts, and the even deal is not read as opening the game to more."""
    return tuple(sorted(DEAL_TABLE))


@rule("R-OLD-MANILLE-PLAY")
def old_escalates(rules: Ruleset) -> bool:
    """Does the manille's 10 rise by 2 for each deal it ends in the dead hand (RUL-OLD-ESCALATION =
    plus_two), back to 10 once dealt?  Not by default: 000:85 gives it a flat 10."""
    return rules.old_escalation == "plus_two"


@rule("R-OLD-ACE-LOW")
def ace_low() -> int:
    """The Ace is the lowest card: runs go Ace, 2, 3 … King."""
    return ACE


@rule("R-OLD-POINTS")
def old_card_points(c: Card) -> int:
    """Ace 1, 2 to 10 their number, Jack, Queen and King 10; the manille 9."""
    return min(rank_of(c), 10)


@rule("R-OLD-POINTS")
def old_hand_points(state: DealState, hand: tuple[Card, ...]) -> int:
    """The points of a hand left at the end (RUL-OLD-COURT-POINTS: Jack, Queen and King 10 each, or
    11, 12 and 13 under rank); the manille 9, the Ace 1."""
    if state.rules.old_court_points == "rank":
        return sum(9 if c in state.wild else rank_of(c) for c in hand)
    return sum(old_card_points(c) for c in hand)


def _from_each(state: DealState, seat: int, amount: int, rule_id: str) -> tuple[Payment, ...]:
    return tuple(Payment(p, seat, amount, rule_id) for p in range(state.players) if p != seat and amount)


@rule("R-OLD-KING", "R-OLD-MANILLE-PLAY", "R-OLD-LAST-CARD")
def old_play_payments(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
    """The chips for a play, and under RUL-OLD-LAST-CARD = every_run_end 1 from each when the play ends a
    run (a King, the manille as a stop, the player's last card)."""
    paid = _card_payments(state, seat, action, out)
    if state.rules.old_last_card == "every_run_end" and ends_run(state, action, out):
        paid += _from_each(state, seat, LAST_CARD_CHIPS, "R-OLD-LAST-CARD")
    return paid


def ends_run(state: DealState, action: Action, out: bool) -> bool:
    """Does this play end its run: a King, the manille when it is a stop (RUL-COMET-AFTER), going out?"""
    return out or action.rank == KING or (bool(action.as_rank) and state.rules.comet_after == "stop")


def _card_payments(state: DealState, seat: int, action: Action, out: bool) -> tuple[Payment, ...]:
    """A King played earns 1 chip from each other player (per King); the manille earns 10 from each
    (RUL-OLD-MANILLE-KING: standing for a King, also the King's 1; RUL-OLD-BONUS-LAST: as the last card,
    10, or x2 / x4 as a 9)."""
    if action.as_rank:
        bonus = state.comet_value
        if out and state.rules.old_bonus_last == "multiplied":
            bonus *= going_out_multiplier(action.as_rank)
        paid = _from_each(state, seat, bonus, "R-OLD-MANILLE-PLAY")
        if action.as_rank == KING and state.rules.old_manille_king == "manille_and_king":
            paid += _from_each(state, seat, KING_CHIPS, "R-OLD-KING")
        return paid
    kings = sum(1 for c in action.cards if rank_of(c) == KING)
    if kings and state.rules.old_king_quartet == "per_play":  # RUL-OLD-KING-QUARTET: one chip for the play
        kings = 1
    return _from_each(state, seat, KING_CHIPS * kings, "R-OLD-KING")


@rule("R-OLD-LAST-CARD")
def old_pass_payments(before: DealState, after: DealState) -> tuple[Payment, ...]:
    """When everyone has passed after a run stuck, its last player collects 1 chip from each other player."""
    if before.run and not after.run and after.to_move == before.last_player:
        return _from_each(after, before.last_player, LAST_CARD_CHIPS, "R-OLD-LAST-CARD")
    return ()


@rule("R-OLD-SETTLE", "R-OLD-MANILLE-CAUGHT")
def old_settlement(state: DealState) -> tuple[Payment, ...]:
    """1 chip per point left (Ace 1, the manille 9) to the winner; the manille's holder also pays 10 to each
    other (RUL-OLD-CAUGHT; RUL-OLD-OPERA-CAUGHT: an Opera doubles the points only, or the 10s as well)."""
    if state.winner < 0:
        return ()
    mult = 1
    caught_chips = MANILLE_CAUGHT
    if state.out_wild_as and state.rules.old_manille_last == "multiplied":
        mult = going_out_multiplier(state.out_wild_as)
    mult = opera_multiplier(state, mult)
    if state.rules.old_opera_caught == "doubled" and is_opera(state):
        caught_chips *= 2
    pays: list[Payment] = []
    for seat, hand in enumerate(state.hands):
        if seat == state.winner or not hand:
            continue
        caught = any(c in state.wild for c in hand)
        # RUL-OLD-CAUGHT-DOUBLE = doubled: the standard game's double for a held wild card (000:63) as well
        doubled = 2 if caught and state.rules.old_caught_double == "doubled" else 1
        points = old_hand_points(state, hand) * mult * doubled
        if points:
            pays.append(Payment(seat, state.winner, points, "R-OLD-SETTLE"))
        if caught and state.rules.old_caught_nine == "extra":  # RUL-OLD-CAUGHT-NINE: 9 chips on top
            pays.append(Payment(seat, state.winner, CAUGHT_NINE, "R-OLD-MANILLE-CAUGHT"))
        if caught:
            for other in range(state.players):
                if other == seat or (other == state.winner and state.rules.old_caught == "nine_only"):
                    continue
                pays.append(Payment(seat, other, caught_chips, "R-OLD-MANILLE-CAUGHT"))
    return tuple(pays) + opera_manille_bonus(state)


@rule("R-OPERA-DOUBLE", "R-OLD-MANILLE-PLAY")
def opera_manille_bonus(state: DealState) -> tuple[Payment, ...]:
    """RUL-OLD-OPERA-BONUS = doubled: when the Opera's first player went out on the manille, the 10 it
    earned on that play is raised by the Opera's x2 (stacked as RUL-OPERA-STACK says, on top of
    RUL-OLD-BONUS-LAST's multiplier), the extra paid at the settlement as ``R-OPERA-DOUBLE``; plain: never."""
    if state.rules.old_opera_bonus != "doubled" or not state.out_wild_as or not is_opera(state):
        return ()
    factor = going_out_multiplier(state.out_wild_as) if state.rules.old_bonus_last == "multiplied" else 1
    extra = state.comet_value * (stacked(state, factor) - factor)
    return _from_each(state, state.winner, extra, "R-OPERA-DOUBLE")


OLD_COMET = register(
    Variant(
        name="old_comet",
        rulings=(
            *EVERY_GAME_RULINGS,
            *STANDARD_PLAY_RULINGS,
            *CHIP_RULINGS,
            "creditor_order",
            *FIXED_LENGTH_RULINGS,
            "comet_reset",
            "escalate_on",
            "old_deal_sizes",
            "old_caught",
            "old_manille_last",
            "old_opera_caught",
            "old_manille_king",
            "old_opera_bonus",
            "old_court_points",
            "old_caught_double",
            "old_caught_nine",
            "old_bonus_last",
            "old_king_quartet",
            "old_last_card",
            "old_escalation",
        ),
        presets=(
            Preset(
                "old_comet",
                Ruleset(variant="old_comet"),
                "Old Comet (1718): one 52-card deck, Ace low, the 9D manille; chips for Kings, stuck runs, the manille",
                ("000:85", "003:85"),
            ),
        ),
        player_counts=old_player_counts(),
        lowest_rank=ace_low(),
        comet_value=MANILLE_BONUS,
        comet_escalates=False,
        escalates=old_escalates,
        wild_name="manille",
        packs=old_deck,
        deal_sizes=old_deal_sizes,
        play_payments=old_play_payments,
        pass_payments=old_pass_payments,
        settlement=old_settlement,
        card_points=old_card_points,
        options=(OPERA,),
    )
)
