"""Witnesses of readings that can part only where a hand is emptied: the fewest actions any witness needs,
a witness built at that floor, and what that proves of its size (by construction, over every deal).

Some rulings are read only when a player goes out (``WHERE`` says which, and how):

- ``opera`` (RUL-OPERA) and the Opera's rulings: every reader is an Opera hook (``games/opera/rules.py``,
  the Old Comet settlement) that is the identity unless ``is_opera`` holds: the first player has just
  gone out and no pass has been made in the deal (R-OPERA-FIRST-TURN).
- Rulings read only in a settlement, which a deal has once a hand is emptied: the stake and who pays for a
  King held in Commit (000), the points a court card counts, and the chips for a wild card caught in Old
  Comet.
- Rulings read only when a hand is emptied by the wild card alone (``out_wild_as``, or the bonus of the
  wild card played as the last card): RUL-COMET-BONUS-LAST, RUL-OLD-BONUS-LAST, RUL-OLD-MANILLE-LAST,
  RUL-COMMIT-C-COMET-OUT, RUL-RED9-OUT, and the Opera's raise of that bonus and its stacking
  (RUL-OPERA-COMET-BONUS, RUL-OPERA-STACK, whose readings agree while the multiplier it stacks on is one).
- Rulings read only for wild cards caught in a losing hand: Old Comet's manille, RUL-RED9-MANY.

Until a hand is emptied both readings make the same states, so a witness ends with a play that empties
one.  The turn passes only on a pass (R-TURN-END), so if no pass was made the first player made every
play, the first of them leading a run, which takes at most ``lead`` cards (one where four of a kind may
not lead, RUL-QUARTET-LEAD); if a pass was made it is one more action.  A hand of ``h`` cards, at most
``k`` going down in one action, is emptied in at least ``1 + ceil((h - lead) / k)`` actions, and in at
least ``2 + ceil((h - lead - 1) / k)`` when the last of them is the wild card alone.

``k`` is the most cards one action puts down: the natural cards of one rank in the pack where the family
keeps the standard legal actions (R-FOUR-OF-A-KIND: several cards go down together only if they are all
of one rank), or what ``Where.one_card`` states for a family with legal actions of its own (Commit is
played one card at a time; so is Red Nines, but for its first play, which may be every natural card of a
rank: ``Where.group_lead``); nothing is claimed for another family.  The floor is the least over the player
counts, fewest actions first, then fewest players; a witness at it is the smallest in actions, then
players, and, since it puts down exactly the emptied hand, in cards.

``tests/test_diverge_going_out.py`` checks the premises on played deals (the readings part nowhere else;
the turn passes only on a pass; no action puts down more than ``k`` cards, nor a first one more than
``lead``), that each check fails on a planted bug, and that the floors of ``standard/opera=true`` and
``standard/comet_bonus_last=plain`` agree with what Z3 proved over every deal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from comet.cards import KING, Card, rank_of
from comet.diverge.deal_search import deal_witness
from comet.diverge.labels import label_of
from comet.diverge.lockstep import legal_split, step_both
from comet.diverge.pairs import Pair
from comet.diverge.records import Proof, Witness, cards_played
from comet.engine import deal_sizes, explicit_deal, legal_actions, packs_in_rotation, player_counts
from comet.errors import RecordError
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of


@dataclass(frozen=True, slots=True)
class Where:
    """Where a ruling's readings can part: ``why`` (in words, with the rule ids); ``wild_last``: only when
    the hand is emptied by the wild card alone; ``dealer_out``: only when the dealer could also have played
    out their hand in one turn (R-OPERA-DRAW), so the built deal gives the dealer such a hand too;
    ``one_card``: why one action puts down one card, in a family with legal actions of its own;
    ``group_lead``: why the deal's first play may yet be every natural card of one rank; ``caught``: only
    when a player other than the one going out holds the wild cards, so the built deal gives them all to
    one."""

    why: str
    wild_last: bool = False
    dealer_out: bool = False
    one_card: str = ""
    group_lead: str = ""
    caught: bool = False


_OPERA = "read only in an Opera, when the first player goes out before any pass (R-OPERA-FIRST-TURN)"
_COMMIT = "Commit (000) is played one card at a time (R-COMMIT-H-SUIT)"
_WILD = "read only when a hand is emptied by the wild card alone"
_RED9 = "Red Nines goes on one card at a time (R-RED9-RUN)"
_RED9_FIRST = "the deal's first play may be several natural cards of one rank (R-RED9-FIRST-PLAY)"

#: the rulings this module argues about, and where their readings can part
WHERE: dict[str, Where] = {
    "opera": Where(_OPERA),
    "opera_caught": Where(_OPERA + " with the Comet caught in a hand (R-OPERA-DOUBLE)", caught=True),
    "opera_draw": Where(_OPERA + " when the dealer could also go out (R-OPERA-DRAW)", dealer_out=True),
    "opera_comet_bonus": Where(_OPERA + " on the Comet (R-OPERA-DOUBLE)", wild_last=True),
    "opera_stack": Where(_OPERA + " on the Comet: the x2 it stacks on (R-OPERA-DOUBLE)", wild_last=True),
    "comet_bonus_last": Where(_WILD + ": the Comet's bonus as the last card (R-COMET-BONUS)", wild_last=True),
    "old_bonus_last": Where(_WILD + ": the manille's bonus as the last card (R-OLD-MANILLE-PLAY)", wild_last=True),
    "old_manille_last": Where(_WILD + ": the settlement after going out on the manille (R-OLD-SETTLE)", wild_last=True),
    "old_caught": Where(
        "read only in the settlement, for a manille caught in a hand (R-OLD-MANILLE-CAUGHT)", caught=True
    ),
    "old_caught_double": Where(
        "read only in the settlement, for a manille caught in a hand (R-OLD-SETTLE)", caught=True
    ),
    "old_caught_nine": Where(
        "read only in the settlement, for a manille caught in a hand (R-OLD-MANILLE-CAUGHT)", caught=True
    ),
    "old_court_points": Where("read only in the settlement, for the points left in hands (R-OLD-POINTS)"),
    "commit_stake": Where(
        "read only in the settlement: the stakes paid to the winner (R-COMMIT-H-POOL)", one_card=_COMMIT
    ),
    "commit_king_payer": Where(
        "read only in the settlement: the chips for a King left in a hand (R-COMMIT-H-KINGS-HELD)", one_card=_COMMIT
    ),
    "red_nines_out": Where(
        _WILD + " standing for a 9: the x4 (R-RED9-DOUBLE)",
        wild_last=True,
        one_card=_RED9,
        group_lead=_RED9_FIRST,
    ),
    "red_nines_many": Where(
        "read only in the settlement, for three red nines or more caught in a hand (R-RED9-DOUBLE)",
        one_card=_RED9,
        group_lead=_RED9_FIRST,
        caught=True,
    ),
    "commit_comet_out": Where(
        _WILD + ": the points of going out on the Comet (R-COMMIT-C-OUT)",
        wild_last=True,
        one_card="Commit (002) is played one card at a time (R-COMMIT-C-SUIT)",
    ),
}
#: the most plays the builder tries before it gives up (the floors are a few actions deep)
SEARCH_NODES = 20_000


def applies(pair: Pair) -> bool:
    """Is ``pair`` one whose readings can part only where a hand is emptied (this module's argument)?"""
    return pair.field in WHERE


def hand_size(rules: Ruleset, players: int) -> int:
    """The cards each player is dealt, the fewest over the packs in rotation (R-DEAL-SIZES)."""
    return min(deal_sizes(rules, players, len(p.cards))[0] for p in packs_in_rotation(rules, players))


def most_in_a_play(pair: Pair, players: int) -> int | None:
    """The most cards one action can put down in a deal of the pair: one where ``Where.one_card`` says so;
    in a family with the standard legal actions the most natural cards of one rank in a pack of the rotation
    (R-FOUR-OF-A-KIND); None (nothing claimed) in a family with legal actions of its own."""
    where = WHERE.get(pair.field)
    if where is not None and where.one_card:
        return 1
    if variant_of(pair.a).legal_actions is not None:
        return None
    return _natural_most(pair.a, players)


def first_play_most(pair: Pair, players: int) -> int | None:
    """The most cards the deal's first action (it starts a run) can put down: one unless four of a kind
    may lead (RUL-QUARTET-LEAD)."""
    most = most_in_a_play(pair, players)
    where = WHERE.get(pair.field)
    if most is not None and where is not None and where.group_lead:
        return max(_natural_most(pair.a, players), most)
    return most if most is None or getattr(pair.a, "quartet_on_lead", False) else 1


def _natural_most(rules: Ruleset, players: int) -> int:
    """The most natural cards of one rank in a pack of the rotation."""
    most = 1
    for p in packs_in_rotation(rules, players):
        counts = Counter(rank_of(c) for c in p.cards if c not in p.wild)
        most = max(most, *counts.values())
    return most


def fewest_actions(pair: Pair, players: int) -> int | None:
    """The fewest actions a witness of ``pair`` with ``players`` players can have (see the module note);
    None where the pair is not one of this module's or nothing is claimed of the cards one action puts down."""
    where = WHERE.get(pair.field)
    h = hand_size(pair.a, players)
    k, lead = most_in_a_play(pair, players), first_play_most(pair, players)
    if where is None or k is None or lead is None:
        return None
    if where.wild_last:
        return 1 if h <= 1 else 2 if h <= lead + 1 else 2 + -(-(h - lead - 1) // k)
    return 1 if h <= lead else 1 + -(-(h - lead) // k)


def floor(pair: Pair) -> tuple[int, int] | None:
    """The smallest (actions, players) a witness of ``pair`` can have: fewest actions, then players; None
    where the pair is not one of this module's or no floor is claimed at some player count."""
    if not applies(pair):
        return None
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    each = [(fewest_actions(pair, n), n) for n in counts]
    known = [(m, n) for m, n in each if m is not None]
    return min(known) if len(known) == len(each) and known else None


def _by_rank(rules: Ruleset, players: int) -> tuple[dict[int, list[Card]], tuple[Card, ...]]:
    pack = packs_in_rotation(rules, players)[0]
    by_rank: dict[int, list[Card]] = {}
    for c in pack.cards:
        if c not in pack.wild:
            by_rank.setdefault(rank_of(c), []).append(c)
    return by_rank, pack.wild


def _hand(rules: Ruleset, players: int, low: int, k: int, lead: int, wild_last: bool) -> tuple[list[Card], int] | None:
    """A hand of a player's size that can be played out in one turn: ``lead`` cards of rank ``low``, then of each
    rank above it as many natural cards as one play takes (the first in the pack's order, so one suit where
    plays are single cards), short of the King (which ends the run), and the wild card last where asked;
    with the first rank it leaves unused."""
    h = hand_size(rules, players)
    by_rank, wild = _by_rank(rules, players)
    if low not in by_rank or (wild_last and not wild):
        return None
    size = h - 1 if wild_last else h
    hand = by_rank[low][:lead]
    r = low + 1
    while len(hand) < size and r < KING:
        hand += by_rank.get(r, [])[: min(k, size - len(hand))]
        r += 1
    if len(hand) != size:
        return None
    return (hand + [wild[0]] if wild_last else hand), r + 1


def _deal_with(
    rules: Ruleset, players: int, hand: list[Card], dealer_hand: list[Card], caught: bool = False
) -> DealState | None:
    """A deal (dealer seat 0) whose first player (seat 1) holds ``hand`` and the dealer ``dealer_hand``
    (or the first cards left), and with ``caught`` every wild card to the next player, the rest of the pack
    dealt in order."""
    pack = packs_in_rotation(rules, players)[0]
    size, _ = deal_sizes(rules, players, len(pack.cards))
    rest = list((Counter(pack.cards) - Counter(hand) - Counter(dealer_hand)).elements())
    if caught and players > 2:  # the wild cards first, to the player after the first
        rest = sorted(rest, key=lambda c: c not in pack.wild)
        nxt, rest = rest[:size], rest[size:]
        if not dealer_hand:
            dealer_hand, rest = rest[:size], rest[size:]
        others = [nxt, *[rest[i * size : (i + 1) * size] for i in range(players - 3)]]
        dead = rest[(players - 3) * size :]
        return _dealt(rules, players, [dealer_hand, hand, *others], dead)
    if not dealer_hand:
        dealer_hand, rest = rest[:size], rest[size:]
    others = [rest[i * size : (i + 1) * size] for i in range(players - 2)]
    return _dealt(rules, players, [dealer_hand, hand, *others], rest[(players - 2) * size :])


def _dealt(rules: Ruleset, players: int, hands: list[list[Card]], dead: list[Card]) -> DealState | None:
    try:
        return explicit_deal(
            rules,
            players,
            0,
            tuple(tuple(sorted(h)) for h in hands),
            tuple(sorted(dead)),
            variant_of(rules).comet_value,
        )
    except RecordError:
        return None


def _out_in(pair: Pair, sa: DealState, sb: DealState, depth: int) -> tuple[Action, ...] | None:
    """Plays by the player to move (the most cards first, the wild card last) that part the rule sets at
    exactly the ``depth``-th action, the rule sets agreeing on every legal action before it; None if none is
    found within ``SEARCH_NODES`` states."""
    seen = [0]

    def go(a: DealState, b: DealState, left: int) -> tuple[Action, ...] | None:
        seen[0] += 1
        if left == 0 or seen[0] > SEARCH_NODES or legal_split(a, b) is not None:
            return None
        plays = sorted((x for x in legal_actions(a) if not x.is_pass), key=lambda x: (bool(x.as_rank), -len(x.cards)))
        for x in plays:
            na, nb, kind = step_both(a, b, x)
            if kind is not None:
                if left == 1:
                    return (x,)
                continue
            if not na.terminal:
                rest = go(na, nb, left - 1)
                if rest is not None:
                    return (x, *rest)
        return None

    return go(sa, sb, depth)


def going_out_witness(pair: Pair) -> Witness | None:
    """A witness of ``pair`` at its floor (``floor``), built: the first player holds a hand they can play
    out in that many actions (``_hand``; the dealer too where ``Where.dealer_out``); None where the pair is
    not one of this module's or no such deal parts the readings at the floor."""
    at = floor(pair)
    if at is None:
        return None
    m, n = at
    where = WHERE[pair.field]
    k, lead = most_in_a_play(pair, n), first_play_most(pair, n)
    assert k is not None and lead is not None  # ``floor`` is None where they are
    for low in range(variant_of(pair.a).lowest_rank, KING):
        made = _hand(pair.a, n, low, k, lead, where.wild_last)
        if made is None:
            continue
        hand, after = made
        dealer: list[Card] = []
        if where.dealer_out:
            theirs = _hand(pair.a, n, after, k, 1, False)
            if theirs is None:
                continue
            dealer = theirs[0]
        sa = _deal_with(pair.a, n, hand, dealer, where.caught)
        if sa is None:
            continue
        try:
            sb = explicit_deal(pair.b, n, sa.dealer, sa.hands, sa.dead, sa.comet_value)
        except RecordError:
            continue
        actions = _out_in(pair, sa, sb, m)
        if actions is None:
            continue
        step, kind, detail = label_of(pair, sa, actions)
        if step == m - 1:
            return deal_witness(sa, kind, detail, f"built: {n} players, the first player out in {m} actions", actions)
    return None


def going_out_proof(pair: Pair, w: Witness) -> Proof | None:
    """What the floor proves of ``w``'s size: smallest in actions, players and cards when ``w`` is a deal
    witness at the floor that puts down exactly the emptied hand (in actions and players when it puts
    down more); None when the pair is not one of this module's or ``w`` is above the floor."""
    at = floor(pair)
    if at is None or w.level != "deal" or (len(w.actions), w.players) != at:
        return None
    m, n = at
    where = WHERE[pair.field]
    counts = [c for c in player_counts(pair.a) if c in player_counts(pair.b)]
    bounds = ", ".join(f"{fewest_actions(pair, c)} with {c}" for c in counts)
    k, lead = most_in_a_play(pair, n), first_play_most(pair, n)
    how = f"at most {k} card(s) go down in one action" + (f" ({where.one_card})" if where.one_card else "")
    if k != lead:
        how += f", {lead} in the first (it leads a run)"
    last = ", the last of them the wild card alone" if where.wild_last else ""
    h = hand_size(pair.a, n)
    text = (
        f"the readings are {where.why}, so a witness ends with a play emptying a hand{last}; {how}, so a witness "
        f"needs at least {bounds} players; this one has {m} action(s) and {n} players"
    )
    if cards_played(w) == h:
        text += f" and puts down the {h} cards of the emptied hand, the fewest a witness of {n} players can"
        over: tuple[str, ...] = ("actions", "players", "cards")
    else:
        text += f"; cards not minimised ({cards_played(w)} put down, the emptied hand has {h})"
        over = ("actions", "players")
    return Proof("construction", True, f"smallest in {', then '.join(over)}: {text}", over=over)
