"""The ``Ruleset``: one typed field per ruling of ``spec/rulings.md``.

Each field selects one reading of one ruling; the field's docstring-comment
names the ruling id.  A ``Ruleset`` is frozen and hashable, so it can sit inside
a state value.  ``Ruleset.with_overrides`` turns ``FIELD=VALUE`` strings (from
the command line or a record's ``rulings`` object) into a new ruleset and
rejects unknown fields or readings with a plain message.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

#: The game families of the sources, in the order presets are listed (a plug-in folder on ``comet.games``'
#: path comes after them).  Defined here, below the registry (``comet.variant``), because a ruleset names
#: the family it plays.
VariantName = Literal["standard", "two_player", "old_comet", "commit_hoyle", "commit_cats", "red_nines"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every ruling's reading.  Defaults are the ``standard`` preset's."""

    # Which game family the engine plays (a preset sets it; not a ruling).
    variant: VariantName = "standard"
    # RUL-DEAL-SIZES: the deal table of 002, or as many cards as go round evenly.
    deal_sizes: Literal["table", "even"] = "table"
    # RUL-DEAL-ORDER: one card at a time clockwise, or each player's cards in one block.
    deal_order: Literal["round_robin", "blocks"] = "round_robin"
    # RUL-PACKS: alternate the black and red packs, or play every deal with the black pack.
    packs: Literal["alternate", "black_only"] = "alternate"
    # RUL-MUST-CONTINUE: must a player go on as far as able, or may they stop after one card?
    may_stop_early: bool = False
    # RUL-NEW-RUN: after a stop, must the player start a new run, or may they pass it on?
    new_run: Literal["must", "may"] = "must"
    # RUL-QUARTET-LEAD: may four of a kind (or the three natural 9s) be played as a lead?
    quartet_on_lead: bool = False
    # RUL-COMET-LEAD: may the Comet be led, and for what does it stand (the King, any rank, or not at all)?
    comet_lead: Literal["king", "any_rank", "forbidden"] = "king"
    # RUL-COMET-RANK: when continuing, must the Comet stand for the needed rank?
    comet_as: Literal["needed_rank", "any_rank"] = "needed_rank"
    # RUL-COMET-HOLDING: may the Comet replace a rank the player holds?
    comet_requires_missing: bool = False
    # RUL-COMET-BONUS-LAST: is the Comet bonus itself doubled/quadrupled when it is the last card?
    comet_bonus_last: Literal["multiplied", "plain"] = "multiplied"
    # RUL-ESCALATION-PACKS: one Comet value for both packs, or one per pack.
    escalation: Literal["shared", "per_pack"] = "shared"
    # RUL-ESCALATION-RESET: the escalated value applies in the deal the Comet is dealt, or not.
    comet_reset: Literal["next_deal", "same_deal"] = "next_deal"
    # RUL-INSOLVENCY: may balances go negative, does a player pay only what they have, or does a player who
    # cannot pay pay what they have and drop out of the game?
    insolvency: Literal["debt", "pay_what_you_have", "drop_out"] = "debt"
    # RUL-CREDITOR-ORDER: a player who owes several players at once at the settlement pays them in seat order
    # (seat 0 first), or in turn from their left neighbour (matters only when insolvency is not debt).
    creditor_order: Literal["seat_order", "from_left"] = "seat_order"
    # RUL-STARTING-CHIPS: chips each player starts a game with (000: about 50; 002: e.g. 100).
    starting_chips: int = 50
    # RUL-GAME-LENGTH: must the number of deals be a multiple of the number of players?
    deal_count: Literal["multiple_of_players", "any"] = "multiple_of_players"
    # RUL-GAME-TIE: tied leaders share the win, or play further rounds (at most 3).
    game_tie: Literal["share", "extra_round"] = "share"
    # RUL-FIRST-DEALER: a tie for the lowest drawn card is redrawn, or goes to the lowest seat.
    first_dealer_tie: Literal["redraw", "lowest_seat"] = "redraw"
    # RUL-FIRST-DEALER-WILD: a wild card drawn for the first deal (Comet, manille, red nine) counts as its
    # printed rank, or as the lowest card of all.
    first_dealer_wild: Literal["printed", "lowest"] = "printed"
    # RUL-ESCALATION-TRIGGER: the Comet's value rises when it ended in the dead hand, or whenever it was not played.
    escalate_on: Literal["dead_hand", "not_played"] = "dead_hand"
    # RUL-COMET-QUARTET: may the Comet go down together with the three natural 9s, as four 9s?
    comet_in_quartet: bool = False
    # RUL-COMET-AFTER: is the Comet a stop, or may the player go on with the old run instead?
    comet_after: Literal["stop", "optional_restart"] = "stop"
    # RUL-STUCK-RESTART: must the player a stuck run comes back to start the new run, or may they pass it left?
    stuck_restart: Literal["must", "may"] = "must"
    # RUL-OPERA-*: the Opera option (variants; spec/rulings-variants.md).
    opera: bool = False
    # RUL-OPERA-DRAW: is an Opera deal drawn when the dealer could also have gone out at once (000:83)?
    opera_draw: Literal["dealer_could", "never"] = "dealer_could"
    # RUL-OPERA-STACK: the Opera doubling multiplies the Comet's going-out multiplier, or only the higher counts.
    opera_stack: Literal["multiply", "highest"] = "multiply"
    # RUL-OPERA-COMET-BONUS: when the Opera's first player goes out on the Comet, is its bonus doubled as well?
    opera_comet_bonus: Literal["plain", "doubled"] = "plain"
    # RUL-OPERA-CAUGHT: in an Opera, does a caught loser pay x2 x2, or does only the higher doubling count?
    opera_caught: Literal["multiply", "highest"] = "multiply"
    # RUL-2P-END: two players: the game ends as soon as one reaches 121, or only once both have dealt equally.
    two_player_end: Literal["first_to_target", "equal_deals"] = "first_to_target"
    # RUL-2P-SETS: two players: several cards of the needed rank go down together only as all four (or the
    # three natural 9s), or any two or more of them (other published two-player rules).
    two_player_sets: Literal["four", "any_number"] = "four"
    # RUL-OLD-DEAL-SIZES: Old Comet: the standard table's hand sizes from 52 cards, or all cards evenly.
    old_deal_sizes: Literal["table", "even"] = "table"
    # RUL-OLD-CAUGHT: Old Comet: does the winner get the 10 chips as well as the 9 from a caught manille?
    old_caught: Literal["ten_and_nine", "nine_only"] = "ten_and_nine"
    # RUL-OLD-MANILLE-LAST: Old Comet: is the settlement doubled (x4 as a 9) when the manille is the last card?
    old_manille_last: Literal["plain", "multiplied"] = "plain"
    # RUL-OLD-OPERA-CAUGHT: Old Comet with Opera: does the Opera double the 10s a caught manille pays, too?
    old_opera_caught: Literal["plain", "doubled"] = "plain"
    # RUL-OLD-MANILLE-KING: Old Comet: does the manille standing for a King also earn the King's 1 chip?
    old_manille_king: Literal["manille_only", "manille_and_king"] = "manille_only"
    # RUL-COMMIT-H-FIVE: 000's Commit with five players: 9 each as 000 says, or 10 as the deck goes round.
    commit_five: Literal["nine", "ten"] = "nine"
    # RUL-COMMIT-H-REST: 000's undealt rest: hidden (runs just get stuck), or the cards below them are stops.
    commit_rest: Literal["hidden", "stop_cards"] = "hidden"
    # RUL-COMMIT-H-NINE-RUN: after 000's 9D both continuations stay open, or only for the next player.
    commit_nine_branch: Literal["both_open", "next_player"] = "both_open"
    # RUL-COMMIT-H-KINGS-HELD: a King left in hand: its holder pays each other player, or they pay the holder.
    commit_king_payer: Literal["holder", "others"] = "holder"
    # RUL-COMMIT-H-STAKE: chips each player puts into 000's pool for a deal.
    commit_stake: int = 1
    # RUL-COMMIT-C-REMOVED: the sevens/eights 002 removes: fixed cards, or any (every choice is a deck).
    commit_removed: Literal["fixed", "any"] = "fixed"
    # RUL-COMMIT-C-LOWEST: 002's "lowest card": any card of the lowest rank, or the lowest rank then suit.
    commit_lowest: Literal["rank", "rank_then_suit"] = "rank"
    # RUL-COMMIT-C-COMET: 002's Comet lets the run go on, or ends it (a stop, as in the standard game).
    commit_comet: Literal["continues", "stop"] = "continues"
    # RUL-COMMIT-C-TARGET: several at the top when 100 is reached: they share, or deals go on.
    commit_tie: Literal["share", "play_on"] = "share"
    # RUL-COMMIT-C-RACE: 002's game to 100 is judged after the deal that reaches it, or won the moment a
    # total reaches 100, even inside a deal (the rest of the deal is not played).
    commit_race: Literal["after_deal", "race"] = "after_deal"
    # RUL-COMMIT-C-COMET-KING: 002's Comet standing for a King: its 2 points, or the King's 1 as well?
    commit_comet_king: Literal["comet_only", "comet_and_king"] = "comet_only"
    # RUL-COMMIT-C-COMET-LEAD: may 002's Comet start a run (standing for the King), or only from a hand of
    # nothing else (as a 9)?
    commit_comet_lead: Literal["king", "last_resort"] = "king"
    # RUL-COMMIT-C-REPLACED: after 002's Comet the replaced card stays open to whoever plays next on the run,
    # or only to the Comet's player in the same turn?
    commit_comet_branch: Literal["open", "player_only"] = "open"
    # RUL-COMMIT-C-COMET-OUT: going out on 002's Comet: plain points, or doubled (x4 as a 9) as in the standard game?
    commit_comet_out: Literal["plain", "doubled"] = "plain"
    # RUL-OLD-OPERA-BONUS: Old Comet with Opera: is the manille's own 10 doubled when it is the Opera's last card?
    old_opera_bonus: Literal["plain", "doubled"] = "plain"
    # RUL-COMMIT-H-NINE-LEAD-TURN: does a led 9D end its player's turn as the 9D "instead of without" does?
    commit_nine_lead_turn: Literal["ends", "goes_on"] = "ends"
    # RUL-COMMIT-C-COMET-CARD: during a run 002's Comet replaces the next card of the run's suit, or any higher one?
    commit_comet_card: Literal["next_card", "any_higher"] = "next_card"
    # RUL-COMMIT-C-STOPS: in 002's Commit only a King ends a run, or also a card whose successor is not in the deck?
    commit_stops: Literal["kings", "missing_successor"] = "kings"
    # RUL-RED9-MANY: red nines held: x2 for each, or x2 for one and x4 for two or more.
    red_nines_many: Literal["double_each", "cap_four"] = "double_each"
    # RUL-RED9-LEAD: may a red nine lead (as any rank), or only when the hand holds nothing else?
    red_nines_lead: Literal["any_rank", "last_resort"] = "any_rank"
    # RUL-RED9-FIRST-PLAY: the first play of the hand: any number of cards of one rank, or all of them.
    red_nines_first: Literal["any_number", "all"] = "any_number"
    # RUL-RED9-OUT: going out on a red nine doubles the others' scores, or x4 when it stood for a 9.
    red_nines_out: Literal["double", "like_comet"] = "double"
    # RUL-CATS-NEW-RUN: 002's Commit and Red Nines: after a King (or a stuck run) must the player start
    # the new run, or may they pass it to the left?
    cats_new_run: Literal["must", "may"] = "must"
    # RUL-COMMIT-C-CONTINUE: 002's Commit: must a player go on with the run as far as able, or may they say
    # "Without" after playing a card although they hold the next one?
    cats_continue: Literal["must", "may"] = "must"
    # RUL-RED9-HOLDING: Red Nines: may a red nine stand for a rank the player holds a natural card of?
    red_nines_requires_missing: bool = False
    # RUL-RED9-CONTINUE: Red Nines: must a player holding the next rank play it, or may they pass?
    red_nines_continue: Literal["must", "may"] = "must"
    # RUL-RED9-NINE-STOP: Red Nines: does the run go on after a red nine, or is the red nine a stop?
    red_nines_wild_stop: Literal["continues", "stop"] = "continues"
    # RUL-RED9-KING: Red Nines: any King ends the run at once, or only the King of the run's (first) suit.
    red_nines_king: Literal["any_king", "suit_king"] = "any_king"
    # RUL-COMMIT-H-NINE-PASS: 000's 9D goes down instead of "without" or "pass", or instead of "without" only.
    commit_nine_when: Literal["without_or_pass", "without_only"] = "without_or_pass"
    # RUL-COMMIT-H-NINE-LEAD: may 000's 9D start a run, or only from a hand of nothing else?
    commit_nine_lead: Literal["any", "last_resort"] = "any"
    # RUL-OLD-COURT-POINTS: Old Comet: a Jack, Queen or King left in hand counts 10, or 11, 12, 13.
    old_court_points: Literal["ten", "rank"] = "ten"
    # RUL-OLD-CAUGHT-DOUBLE: Old Comet: does a player left with the manille also pay double for their cards?
    old_caught_double: Literal["plain", "doubled"] = "plain"
    # RUL-OLD-CAUGHT-NINE: Old Comet: the caught manille's "plus 9" is its own 9 points, or 9 chips more.
    old_caught_nine: Literal["card_value", "extra"] = "card_value"
    # RUL-OLD-BONUS-LAST: Old Comet: is the manille's 10 itself doubled (x4 as a 9) when it is the last card?
    old_bonus_last: Literal["plain", "multiplied"] = "plain"
    # RUL-OLD-KING-QUARTET: Old Comet: four Kings played at once earn 1 chip from each per King, or 1 in all.
    old_king_quartet: Literal["per_king", "per_play"] = "per_king"
    # RUL-OLD-LAST-CARD: Old Comet: the last card of a stuck run earns 1 from each, or the last card of every run.
    old_last_card: Literal["stuck_run", "every_run_end"] = "stuck_run"
    # RUL-RED9-SUITS: Red Nines past four players: which suits are added (hearts first, or diamonds first).
    red_nines_suits: Literal["hearts_first", "diamonds_first"] = "hearts_first"
    # RUL-OLD-ESCALATION: Old Comet: the manille is worth 10 every deal, or 2 more after each deal in the dead hand.
    old_escalation: Literal["fixed", "plus_two"] = "fixed"

    def with_overrides(self, overrides: Mapping[str, object]) -> Ruleset:
        """A copy with ``overrides`` applied; values may be typed or strings.

        Raises ``ValueError`` naming the field and the allowed readings.
        """
        if not overrides:  # every record without rulings: nothing to copy or check
            return self
        changes: dict[str, object] = {}
        for name, raw in overrides.items():
            changes[name] = coerce_field(name, raw)
        out: Ruleset = dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        check_applies(out, changes)
        return out

    def inapplicable(self) -> tuple[str, ...]:
        """Fields set away from their default although their ruling does not apply to this variant."""
        return tuple(name for name in RULING_FIELDS if not _fits(self, name))

    def differences(self, other: Ruleset) -> dict[str, object]:
        """Fields whose value differs from ``other``, with this ruleset's value."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }


RULING_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "variant")
#: Rulings that only matter between deals: a deal is played identically under each of their readings (a deal
#: record cannot express them; whole games and game records do).
GAME_LEVEL_FIELDS: frozenset[str] = frozenset(
    {
        "escalation",
        "comet_reset",
        "escalate_on",
        "insolvency",
        "creditor_order",
        "starting_chips",
        "deal_count",
        "game_tie",
        "first_dealer_tie",
        "first_dealer_wild",
        "two_player_end",
        "commit_tie",
        "commit_race",
    }
)
_DEFAULTS = Ruleset()


# --------------------------------------------------------------------- which rulings apply where

# Field -> the ruling whose readings it selects.  Which game families read a field is declared by each
# family (``Variant.rulings``, its options' ``Option.rulings``; ``comet/games/<name>/``), so this module
# keeps no table of families: ``families_reading`` derives it from the registry.  The families reading a
# field are those of the presets named by its ruling's ``**Applies to.**`` line in spec/rulings*.md
# (tests/test_variant_rulings_apply.py checks the two agree, and that a field really changes nothing
# outside its families).  ``Ruleset.with_overrides`` rejects a reading of a field that does not apply.
RULING_OF: dict[str, str] = {
    "deal_sizes": "RUL-DEAL-SIZES",
    "deal_order": "RUL-DEAL-ORDER",
    "packs": "RUL-PACKS",
    "may_stop_early": "RUL-MUST-CONTINUE",
    "new_run": "RUL-NEW-RUN",
    "quartet_on_lead": "RUL-QUARTET-LEAD",
    "comet_lead": "RUL-COMET-LEAD",
    "comet_as": "RUL-COMET-RANK",
    "comet_requires_missing": "RUL-COMET-HOLDING",
    "comet_bonus_last": "RUL-COMET-BONUS-LAST",
    "escalation": "RUL-ESCALATION-PACKS",
    "comet_reset": "RUL-ESCALATION-RESET",
    "insolvency": "RUL-INSOLVENCY",
    "creditor_order": "RUL-CREDITOR-ORDER",
    "starting_chips": "RUL-STARTING-CHIPS",
    "deal_count": "RUL-GAME-LENGTH",
    "game_tie": "RUL-GAME-TIE",
    "first_dealer_tie": "RUL-FIRST-DEALER",
    "first_dealer_wild": "RUL-FIRST-DEALER-WILD",
    "escalate_on": "RUL-ESCALATION-TRIGGER",
    "comet_in_quartet": "RUL-COMET-QUARTET",
    "comet_after": "RUL-COMET-AFTER",
    "stuck_restart": "RUL-STUCK-RESTART",
    "opera": "RUL-OPERA",
    "opera_draw": "RUL-OPERA-DRAW",
    "opera_stack": "RUL-OPERA-STACK",
    "opera_comet_bonus": "RUL-OPERA-COMET-BONUS",
    "opera_caught": "RUL-OPERA-CAUGHT",
    "two_player_end": "RUL-2P-END",
    "two_player_sets": "RUL-2P-SETS",
    "old_deal_sizes": "RUL-OLD-DEAL-SIZES",
    "old_caught": "RUL-OLD-CAUGHT",
    "old_manille_last": "RUL-OLD-MANILLE-LAST",
    "old_opera_caught": "RUL-OLD-OPERA-CAUGHT",
    "old_manille_king": "RUL-OLD-MANILLE-KING",
    "commit_five": "RUL-COMMIT-H-FIVE",
    "commit_rest": "RUL-COMMIT-H-REST",
    "commit_nine_branch": "RUL-COMMIT-H-NINE-RUN",
    "commit_king_payer": "RUL-COMMIT-H-KINGS-HELD",
    "commit_stake": "RUL-COMMIT-H-STAKE",
    "commit_removed": "RUL-COMMIT-C-REMOVED",
    "commit_lowest": "RUL-COMMIT-C-LOWEST",
    "commit_comet": "RUL-COMMIT-C-COMET",
    "commit_tie": "RUL-COMMIT-C-TARGET",
    "commit_race": "RUL-COMMIT-C-RACE",
    "commit_comet_king": "RUL-COMMIT-C-COMET-KING",
    "commit_comet_lead": "RUL-COMMIT-C-COMET-LEAD",
    "commit_comet_branch": "RUL-COMMIT-C-REPLACED",
    "commit_comet_out": "RUL-COMMIT-C-COMET-OUT",
    "old_opera_bonus": "RUL-OLD-OPERA-BONUS",
    "commit_nine_lead_turn": "RUL-COMMIT-H-NINE-LEAD-TURN",
    "commit_comet_card": "RUL-COMMIT-C-COMET-CARD",
    "commit_stops": "RUL-COMMIT-C-STOPS",
    "red_nines_many": "RUL-RED9-MANY",
    "red_nines_lead": "RUL-RED9-LEAD",
    "red_nines_first": "RUL-RED9-FIRST-PLAY",
    "red_nines_out": "RUL-RED9-OUT",
    "cats_new_run": "RUL-CATS-NEW-RUN",
    "red_nines_continue": "RUL-RED9-CONTINUE",
    "red_nines_requires_missing": "RUL-RED9-HOLDING",
    "cats_continue": "RUL-COMMIT-C-CONTINUE",
    "red_nines_wild_stop": "RUL-RED9-NINE-STOP",
    "red_nines_king": "RUL-RED9-KING",
    "commit_nine_when": "RUL-COMMIT-H-NINE-PASS",
    "commit_nine_lead": "RUL-COMMIT-H-NINE-LEAD",
    "old_court_points": "RUL-OLD-COURT-POINTS",
    "old_caught_double": "RUL-OLD-CAUGHT-DOUBLE",
    "old_caught_nine": "RUL-OLD-CAUGHT-NINE",
    "old_bonus_last": "RUL-OLD-BONUS-LAST",
    "old_king_quartet": "RUL-OLD-KING-QUARTET",
    "old_last_card": "RUL-OLD-LAST-CARD",
    "red_nines_suits": "RUL-RED9-SUITS",
    "old_escalation": "RUL-OLD-ESCALATION",
}

# Groups of fields read by shared engine code, for the families' declarations (``Variant.rulings``).
#: Every game: the deal's order and the first dealer.
EVERY_GAME_RULINGS: tuple[str, ...] = ("deal_order", "first_dealer_tie", "first_dealer_wild")
#: The standard play (``engine.legal_actions``/``engine.play``), in families that leave those hooks alone.
STANDARD_PLAY_RULINGS: tuple[str, ...] = (
    "may_stop_early",
    "new_run",
    "quartet_on_lead",
    "comet_lead",
    "comet_as",
    "comet_requires_missing",
    "comet_in_quartet",
    "comet_after",
    "stuck_restart",
)
#: Chips scoring (``game.py``): balances and what a player who cannot pay does.
CHIP_RULINGS: tuple[str, ...] = ("insolvency", "starting_chips")
#: A game of a fixed number of deals (``game_end == "deals"``): its length and a tie at its end.
FIXED_LENGTH_RULINGS: tuple[str, ...] = ("deal_count", "game_tie")


def ruling_of(name: str) -> str:
    """The ruling id behind field ``name`` (``RULING_OF``)."""
    return RULING_OF[name]


class FamilyIndex(Protocol):
    """What this module asks of the game-family registry: the fields a family reads and the presets whose
    family reads a field.  ``comet.variant`` (above this module: it names ``Ruleset`` in its records)
    installs itself with ``install_family_index`` when it loads, so this module never imports it."""

    def reads(self, variant: str) -> tuple[str, ...]: ...

    def presets_reading(self, name: str) -> tuple[str, ...]: ...

    def fixed_by_source(self, variant: str, name: str) -> tuple[object, str] | None: ...


_INDEX: list[FamilyIndex] = []


def install_family_index(index: FamilyIndex) -> None:
    """Called once by the registry as it loads (``comet.variant``); the last one installed is asked."""
    _INDEX.append(index)


def family_index() -> FamilyIndex:
    """The installed registry.  ``import comet`` (or any ``comet.*`` module, which loads the package first)
    installs it before any ruleset can be built from a record or a command line."""
    if not _INDEX:
        raise RuntimeError("the game-family registry (comet.variant) has not been loaded")
    return _INDEX[-1]


def _fits(rules: Ruleset, name: str) -> bool:
    return getattr(rules, name) == getattr(_DEFAULTS, name) or name in family_index().reads(rules.variant)


def check_applies(rules: Ruleset, names: Iterable[str]) -> None:
    """ValueError naming the ruling and the presets it applies to, for the first field of ``names``
    set away from its default in a variant its ruling does not apply to."""
    for name in names:
        pinned = family_index().fixed_by_source(rules.variant, name)
        if pinned is not None and getattr(rules, name) != pinned[0]:
            raise ValueError(
                f"ruling {name!r} ({RULING_OF[name]}) is fixed in the {rules.variant} game by its source, "
                f"{pinned[1]}: it is {pinned[0]!r} there, not {getattr(rules, name)!r}"
            )
        if _fits(rules, name):
            continue
        presets = ", ".join(family_index().presets_reading(name))
        raise ValueError(
            f"ruling {name!r} ({RULING_OF[name]}) does not apply to the {rules.variant} game; "
            f"it applies to the presets {presets}"
        )


@functools.cache
def field_readings(name: str) -> tuple[object, ...] | None:
    """The finite set of readings of a field, or None for an integer field."""
    hints = typing.get_type_hints(Ruleset)
    if name not in hints:
        raise ValueError(f"unknown ruling {name!r}; known: {', '.join(RULING_FIELDS)}")
    tp = hints[name]
    if tp is bool:
        return (False, True)
    if typing.get_origin(tp) is Literal:
        return typing.get_args(tp)
    return None


def coerce_field(name: str, raw: object) -> object:
    """Parse ``raw`` as a reading of field ``name``; ValueError with a plain message."""
    if name == "variant":
        raise ValueError("'variant' is chosen by the preset, not overridden as a ruling")
    readings = field_readings(name)
    if readings is None:
        if isinstance(raw, bool):
            raise ValueError(f"ruling {name!r} takes a whole number, not {raw!r}")
        if isinstance(raw, int):
            value = raw
        else:
            try:
                value = int(str(raw))
            except ValueError:
                raise ValueError(f"ruling {name!r} takes a whole number, not {raw!r}") from None
        if value < 0:
            raise ValueError(f"ruling {name!r} must not be negative")
        return value
    if isinstance(raw, str) and (False in readings):
        low = raw.strip().lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
    for r in readings:
        if raw == r and type(raw) is type(r):
            return r
    shown = ", ".join(str(r).lower() if isinstance(r, bool) else str(r) for r in readings)
    raise ValueError(f"ruling {name!r} has no reading {raw!r}; choose one of: {shown}")
