"""Invariants of deals and games, shared by the Hypothesis machines and the fuzz campaign.

Every check returns a list of violation strings (empty: all good), so callers can
collect several at once and print them next to a counterexample.  Nothing here
calls the function it checks to compute the expected answer: the settlement is
recomputed from the seeds' payment table, card conservation is checked against
the deal's start, and so on.  Engine functions are looked up through the ``comet.engine``
module at call time, so a test that plants a bug by monkeypatching one of them is seen here.

Bounds (argued in the docstrings of ``step_bound`` in ``comet.engine`` and of
``payment_bound`` here) are what the "deal length and payments stay within the
bounds the preset declares" checks compare against.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from comet import engine
from comet import game as game_module
from comet.cards import DIAMONDS, HEARTS, KING, card, card_text, cards_text, rank_of
from comet.errors import IllegalAction
from comet.game import GameState
from comet.ruleset import Ruleset
from comet.state import Action, DealState, Payment
from comet.variants.base import variant_of

# --------------------------------------------------------------------- independent settlement

# 002:24-28 "| Card | Normal Score (Without Comet in Hand) | Score With Comet in Hand |": a card
# scores the value marked on it (2..9), ten for 10, Jack, Queen and King (000:61 "Jack, Queen and
# King 10 each"); the Comet only ever counts inside a hand that is doubled, as 18 (002:28 "| Comet |
# N/A | 18 |", 000:63 "the Comet counting 9 (so 18)").
_STANDARD_SCORE: dict[int, int] = {r: r for r in range(2, 10)} | {10: 10, 11: 10, 12: 10, 13: 10}
_COMET_IN_HAND = 18


def standard_settlement(state: DealState) -> dict[tuple[int, int], int]:
    """What each loser pays the winner, recomputed from the seeds' tables (standard game).

    - 000:61 "Every other player pays that player 1 chip for every point still in their hand"
    - 000:63 "A player caught with the Comet in hand pays double for all their cards"
    - 000:64 "If the winner's last card was the Comet, everyone pays double; if it stood for a 9,
      four times as much."

    With the Opera option (000:83 "if the first player goes out in their very first turn,
    everyone pays double"; 002:31 "doubled again ... doubled yet again") the Opera's x2 is
    multiplied with the Comet's x2/x4, or only the larger counts (``opera_stack``).  Whether a
    deal is drawn (000:83 "the deal is drawn") needs a search and is taken from the state.

    Returns ``{(payer, payee): amount}`` without zero amounts.
    """
    out: dict[tuple[int, int], int] = {}
    if state.winner < 0:
        return out
    if state.out_wild_as == 0:
        comet = 1
    elif state.out_wild_as == 9:
        comet = 4
    else:
        comet = 2
    first = (state.dealer + 1) % state.players
    opera = 2 if state.rules.opera and state.winner == first and state.turn == 0 else 1
    last = comet * opera if state.rules.opera_stack == "multiply" else max(comet, opera)
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        caught = any(c in state.wild for c in hand)
        total = 0
        for c in hand:
            if c in state.wild:
                total += _COMET_IN_HAND
            else:
                total += _STANDARD_SCORE[rank_of(c)] * (2 if caught else 1)
        pay = total * last
        if caught and opera == 2 and state.rules.opera_caught == "highest":
            # RUL-OPERA-CAUGHT: the caught hand's doubled table value (002:26) is not doubled again
            # by the Opera; only the higher of the two doublings counts (the hand's plain value x2).
            pay = total // 2 * max(2, last)
        if pay:
            out[(seat, state.winner)] = pay
    return out


# --------------------------------------------------------------------- the variants, recomputed
#
# Each function below recomputes a finished deal of one variant from the leftover hands, the
# seeds' text (000:83-86, 002:31-89) and the readings of spec/rulings-variants.md, with its own
# card tables; none of them calls the variant's settlement or points code.  Fields that record
# a choice made in play and cannot be seen in the hands are taken from the state: who won, what
# the wild card stood for when it went out (``out_wild_as``), whether an Opera deal was drawn,
# and the points 002's Commit scores during play (``scores``, checked step by step by
# ``check_variant_step``).


@dataclass(frozen=True, slots=True)
class Expected:
    """A finished deal recomputed: the settlement's payments ``{(payer, payee): amount}`` and, in a
    points game, each seat's points for the deal (``None`` in chip games)."""

    chips: Mapping[tuple[int, int], int]
    points: tuple[int, ...] | None = None


def _first_turn_opera(state: DealState, base: int) -> int:
    """``base`` with the Opera option applied (000:83 "if the first player goes out in their very first
    turn, everyone pays double"; 002:31 "doubled again ... doubled yet again"; RUL-OPERA-STACK)."""
    first = (state.dealer + 1) % state.players
    if not (state.rules.opera and state.winner == first and state.turn == 0):
        return base
    return base * 2 if state.rules.opera_stack == "multiply" else max(base, 2)


def two_player_recomputed(state: DealState) -> Expected:
    """Two players (000:84): no chips at all; the winner scores what the loser would have paid
    in the standard game ("score the points"), doubled when the loser holds the Comet ("all scores
    for that deal are doubled"), doubled or quadrupled when the winner went out on it ("quadrupled
    if it stood for a 9"); the loser scores nothing.  Opera may double it (RUL-OPERA)."""
    points = [0] * state.players
    for (_payer, payee), amount in standard_settlement(state).items():
        points[payee] += amount
    return Expected({}, tuple(points))


# 000:85 "the Ace counts as 1", "1 chip per point left in the other hands, Ace 1"; "as above" for the
# rest (000:61: 2 to 10 their number, Jack, Queen and King 10); the manille counts "9 to the winner".
_OLD_SCORE: dict[int, int] = {1: 1} | {r: r for r in range(2, 11)} | {11: 10, 12: 10, 13: 10}
_MANILLE = card(9, DIAMONDS)  # 000:85 "the 9♦ is the only wild card (then called the manille)"
_MANILLE_CAUGHT = 10  # 000:85 "a player left with the 9♦ pays 10 chips to each other player"


def old_comet_recomputed(state: DealState) -> Expected:
    """Old Comet (000:85): each loser pays the winner 1 chip per point in hand (Ace 1, the manille
    9); whoever is left with the 9♦ also pays 10 to each other player (RUL-OLD-CAUGHT: the winner
    too, or not); going out on the manille multiplies the points only under RUL-OLD-MANILLE-LAST;
    the Opera option doubles the points paid to the winner (002:31 "pay double for each card"), and
    the caught manille's 10s only under RUL-OLD-OPERA-CAUGHT = doubled (000:83 "everyone pays double")."""
    out: Counter[tuple[int, int]] = Counter()
    if state.winner < 0:
        return Expected({})
    mult = 1
    if state.out_wild_as and state.rules.old_manille_last == "multiplied":
        mult = 4 if state.out_wild_as == 9 else 2
    caught = _MANILLE_CAUGHT
    if state.rules.old_opera_caught == "doubled":
        caught = _first_turn_opera(state, 1) * _MANILLE_CAUGHT
    mult = _first_turn_opera(state, mult)
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        # RUL-OLD-COURT-POINTS = rank: Jack 11, Queen 12, King 13 (the Ace 1 and the manille 9 either way)
        score = _OLD_SCORE if state.rules.old_court_points == "ten" else {r: r for r in range(1, 14)}
        points = sum(9 if c == _MANILLE else score[rank_of(c)] for c in hand)
        # RUL-OLD-CAUGHT-DOUBLE = doubled: 000:63 "pays double for all their cards" carried over
        doubled = 2 if _MANILLE in hand and state.rules.old_caught_double == "doubled" else 1
        out[(seat, state.winner)] += points * mult * doubled
        if _MANILLE in hand and state.rules.old_caught_nine == "extra":  # RUL-OLD-CAUGHT-NINE: "plus 9" on top
            out[(seat, state.winner)] += 9
        for _ in range(hand.count(_MANILLE)):
            for other in range(state.players):
                if other == seat or (other == state.winner and state.rules.old_caught == "nine_only"):
                    continue
                out[(seat, other)] += caught
    return Expected({k: v for k, v in out.items() if v})


_NINE_D = card(9, DIAMONDS)
# 000:86 "the 9♦ 2 counters", "whoever is caught with the 9♦ pays 2 to each": 2, whatever the deal's
# ``comet_value`` (a record may carry another; it plays no part in 000's Commit).
_COMMIT_NINE = 2


def commit_hoyle_recomputed(state: DealState) -> Expected:
    """000's Commit (000:86): "The first player out wins the pool" (each other player's stake,
    RUL-COMMIT-H-STAKE); "whoever is caught with the 9♦ pays 2 to each" (2 whatever the deal's
    ``comet_value``); "each King left in a hand costs 1 counter
    to each other player" (RUL-COMMIT-H-KINGS-HELD: paid by its holder, or to it)."""
    out: Counter[tuple[int, int]] = Counter()
    if state.winner < 0:
        return Expected({})
    n = state.players
    for seat in range(n):
        if seat != state.winner:
            out[(seat, state.winner)] += state.rules.commit_stake
    for seat, hand in enumerate(state.hands):
        for c in hand:
            for other in range(n):
                if other == seat:
                    continue
                if c == _NINE_D:
                    out[(seat, other)] += _COMMIT_NINE
                if rank_of(c) == KING:
                    pair = (seat, other) if state.rules.commit_king_payer == "holder" else (other, seat)
                    out[pair] += 1
    return Expected({k: v for k, v in out.items() if v})


def commit_cats_recomputed(state: DealState) -> Expected:
    """002's Commit (002:43-45): the points scored in play (a King 1, the Comet 2; ``scores``), then
    the first player out "scores one point for that accomplishment", "two points for each King found
    remaining in each other players hand and one point for every other card"; for a Comet still in
    a hand "every player except the player whose hand it was found in scores one additional point"."""
    points = list(state.scores) if state.scores else [0] * state.players
    if state.winner < 0:
        return Expected({}, tuple(points))
    points[state.winner] += 1
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        for c in hand:
            points[state.winner] += 2 if rank_of(c) == KING and c != _NINE_D else 1
            if c == _NINE_D:
                for other in range(state.players):
                    if other != seat:
                        points[other] += 1
    return Expected({}, tuple(points))


# 002:75-81: "2 to 10 | Face value", "Jack | 11", "Queen | 12", "King | 13", "Ace | 20"; a red nine
# counts its nine (002:83 "including the nine points for the red nine itself").
_RED9_SCORE: dict[int, int] = {1: 20} | {r: r for r in range(2, 11)} | {11: 11, 12: 12, 13: 13}
_RED_NINES = (card(9, DIAMONDS), card(9, HEARTS))  # 002:65-67 "nine of Diamonds ♦ and nine of Hearts ♥"


def red_nines_recomputed(state: DealState) -> Expected:
    """Red Nines (002:72-85): the winner scores 0; the others their cards, "doubled" for one red nine
    held, "quadrupled" for two (RUL-RED9-MANY beyond), "also doubled" if the winner's last card was a
    red nine (RUL-RED9-OUT: x4 when it stood for a 9 under like_comet)."""
    if state.winner < 0:
        return Expected({}, (0,) * state.players)
    last_wild = bool(state.played) and state.played[-1] in _RED_NINES
    out_mult = 1
    if last_wild:
        out_mult = 4 if state.rules.red_nines_out == "like_comet" and state.out_wild_as == 9 else 2
    points = []
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            points.append(0)
            continue
        held = sum(1 for c in hand if c in _RED_NINES)
        mult = 2**held if state.rules.red_nines_many == "double_each" else (1, 2, 4)[min(held, 2)]
        points.append(sum(_RED9_SCORE[rank_of(c)] for c in hand) * mult * out_mult)
    return Expected({}, tuple(points))


def _chips_only(recompute: Callable[[DealState], dict[tuple[int, int], int]]) -> Recomputation:
    def run(state: DealState) -> Expected:
        return Expected(recompute(state))

    run.__name__ = recompute.__name__
    return run


Recomputation = Callable[[DealState], Expected | None]

# One independent recomputation per variant (``Ruleset.variant``; the Opera option is a reading
# inside each).  A preset whose variant is missing here is reported as "skipped" by
# ``check_settlement``, and ``tests/test_fuzz_deals.py`` fails for it.
SETTLEMENT_RECOMPUTATIONS: dict[str, Recomputation] = {
    "standard": _chips_only(standard_settlement),
    "two_player": two_player_recomputed,
    "old_comet": old_comet_recomputed,
    "commit_hoyle": commit_hoyle_recomputed,
    "commit_cats": commit_cats_recomputed,
    "red_nines": red_nines_recomputed,
}


def payments_table(payments: Sequence[Payment]) -> dict[tuple[int, int], int]:
    table: Counter[tuple[int, int]] = Counter()
    for p in payments:
        table[(p.payer, p.payee)] += p.amount
    return {k: v for k, v in table.items() if v}


def check_settlement(
    state: DealState, recomputations: dict[str, Recomputation] | None = None
) -> tuple[list[str], bool]:
    """Compare ``engine.settlement(state)`` (and, in points games, ``engine.deal_points(state)``)
    with the independent recomputation for the state's variant.

    Returns (violations, skipped); ``skipped`` is True when the variant has no recomputation
    or the recomputation does not cover the state's readings.
    """
    table = SETTLEMENT_RECOMPUTATIONS if recomputations is None else recomputations
    recompute = table.get(state.rules.variant)
    if recompute is None:
        return [], True
    expected = recompute(state)
    if expected is None:
        return [], True
    out: list[str] = []
    got = payments_table(engine.settlement(state))
    if got != dict(expected.chips):
        out.append(
            f"settlement {_fmt_table(got)} differs from the recomputation from the leftover hands "
            f"{_fmt_table(dict(expected.chips))}"
        )
    points = engine.deal_points(state)
    want = expected.points if expected.points is not None else (0,) * state.players
    if tuple(points) != want:
        out.append(f"deal points {tuple(points)} differ from the recomputation from the leftover hands {want}")
    return out, False


def _fmt_table(t: dict[tuple[int, int], int]) -> str:
    if not t:
        return "{nothing}"
    return "{" + ", ".join(f"seat {a} pays seat {b} {v}" for (a, b), v in sorted(t.items())) + "}"


# --------------------------------------------------------------------- bounds


def payment_bound(state: DealState) -> int:
    """An upper bound on the chips any one player pays (or any one payee receives from one payer)
    in a single deal, computed from the deal's cards.

    Argument.  A player pays in two ways.  (1) Comet bonuses: each wild card leaves a hand when
    played, so it earns its bonus at most once per deal; one bonus is the Comet's value times at
    most 8 (the quadruple when it is the last card and stands for a 9, doubled by Opera).  (2) The settlement: a
    loser pays for the cards left in their hand, each card scoring at most 18 (the Comet in
    hand), times at most 8 (the winner's last card the Comet standing for a 9: x4, doubled again
    by the Opera option, 002:31 "doubled again ... and doubled yet again"); a hand never
    grows, so it holds at most the cards it was dealt, which is at most the largest hand, bounded
    by all cards not yet played plus those played.  The bound is loose but finite and
    deal-specific; a failure means some payment rule multiplies more than the seeds allow.
    """
    cards = sum(len(h) for h in state.hands) + len(state.played)
    hand_cap = max([len(h) for h in state.hands] + [0]) + len(state.played)
    hand_cap = min(hand_cap, cards)
    return len(state.wild) * state.comet_value * 8 + hand_cap * 18 * 8


# --------------------------------------------------------------------- deal invariants


_CARDS_OF: dict[int, tuple[DealState, list[int]]] = {}


def _all_cards(start: DealState) -> list[int]:
    """Every card of a deal's start, sorted (cached per start object: checked after every step)."""
    hit = _CARDS_OF.get(id(start))
    if hit is None or hit[0] is not start:
        if len(_CARDS_OF) > 256:
            _CARDS_OF.clear()
        hit = (start, sorted(start.played + start.dead + tuple(c for h in start.hands for c in h)))
        _CARDS_OF[id(start)] = hit
    return hit[1]


def check_state(state: DealState, start: DealState | None = None) -> list[str]:
    """Invariants that hold in every reachable state of a deal."""
    out: list[str] = []
    n = state.players
    # each physical card in exactly one place
    if start is not None:
        now_sorted = sorted(state.played + state.dead + tuple(c for h in state.hands for c in h))
        if now_sorted != _all_cards(start):
            now = Counter(now_sorted)
            then = Counter(_all_cards(start))
            extra = sorted((now - then).elements())
            missing = sorted((then - now).elements())
            out.append(f"cards not conserved: extra [{cards_text(extra)}], missing [{cards_text(missing)}]")
        if state.dead != start.dead:
            out.append("the dead hand changed during the deal")
    for seat, h in enumerate(state.hands):
        if tuple(sorted(h)) != h:
            out.append(f"hand of seat {seat} is not sorted")
    # the pile is a valid run
    run = state.run
    for lo, hi in itertools.pairwise(run):
        if hi != lo + 1:
            out.append(f"run {list(run)} is not a sequence of consecutive ranks")
            break
    # a King ends a run, except a King of another suit in Red Nines under RUL-RED9-KING = suit_king
    highest = KING + 1 if state.rules.red_nines_king == "suit_king" else KING
    if run and not (run[0] >= 1 and run[-1] < highest):
        out.append(f"run {list(run)} holds a rank outside Ace..Queen (a King ends a run)")
    if run and (not state.played or (rank_of(state.played[-1]) != run[-1] and state.played[-1] not in state.wild)):
        top = card_text(state.played[-1]) if state.played else "nothing"
        out.append(f"run {list(run)} does not end with the card last played ({top})")
    # the player to move is entitled to move
    if not 0 <= state.to_move < n:
        out.append(f"to_move {state.to_move} is not a seat of {n} players")
        return out
    if state.turn_played and state.to_move != state.last_player:
        out.append(f"seat {state.to_move} is to move mid-turn but seat {state.last_player} played last")
    if state.last_player == -1 and state.to_move != (state.dealer + 1 + state.steps) % n:
        out.append("before the first card the turn must go round from the dealer's left")
    if state.winner >= 0 and state.hands[state.winner]:
        out.append(f"winner seat {state.winner} still holds cards")
    if not state.terminal and any(not h for h in state.hands):
        out.append("a player has no cards but the deal goes on")
    # legal actions: at least one, canonical order, no duplicates, only held cards
    acts = engine.legal_actions(state)
    if not state.terminal and not acts:
        out.append("a non-terminal state has no legal action")
    if state.terminal and acts:
        out.append("a terminal state offers legal actions")
    if list(acts) != sorted(set(acts)):
        out.append(f"legal actions not in canonical order without duplicates: {[str(a) for a in acts]}")
    if not state.terminal:
        held = Counter(state.hands[state.to_move])
        for act in acts:
            if Counter(act.cards) - held:
                out.append(f"legal action {act} uses cards seat {state.to_move} does not hold")
    # chips: well-formed transfers, zero-sum, within the bound
    bound = payment_bound(state)
    paid: Counter[int] = Counter()
    for p in state.payments:
        if p.amount <= 0 or p.payer == p.payee or not (0 <= p.payer < n and 0 <= p.payee < n) or not p.rule:
            out.append(f"malformed payment {p}")
        paid[p.payer] += p.amount
    if sum(state.chips()) != 0:
        out.append(f"chip transfers do not sum to zero: {state.chips()}")
    for seat, amount in paid.items():
        if amount > bound:
            out.append(f"seat {seat} paid {amount} during play, above the bound {bound}")
    # termination
    if state.steps > engine.step_bound(state):
        out.append(f"{state.steps} steps exceed the bound {engine.step_bound(state)}")
    # equal states hash equal (a field-by-field copy is equal and hashes the same)
    twin = DealState(*(getattr(state, f) for f in state.__dataclass_fields__))
    if twin != state or hash(twin) != hash(state):
        out.append("a field-by-field copy of the state is not equal or hashes differently")
    return out


def check_transition(before: DealState, action: Action, after: DealState) -> list[str]:
    """Invariants linking a state, the action taken and the next state."""
    out: list[str] = []
    if after.steps != before.steps + 1:
        out.append(f"step count went from {before.steps} to {after.steps}")
    if after.payments[: len(before.payments)] != before.payments:
        out.append("earlier payments were changed")
    if after.played != before.played + action.cards:
        out.append("the pile did not grow by exactly the cards played")
    if action.is_pass:
        if after.to_move != (before.to_move + 1) % before.players:
            out.append(f"after a pass the turn went to seat {after.to_move}, not to the left")
        if after.hands != before.hands:
            out.append("a pass changed the hands")
    elif after.to_move != before.to_move and not after.terminal:
        out.append("the turn left a player who had just played a card")
    return out + check_variant_step(before, action, after)


# --------------------------------------------------------------------- the variants, step by step


def _from_each_other(players: int, seat: int, amount: int) -> dict[tuple[int, int], int]:
    return {(p, seat): amount for p in range(players) if p != seat and amount}


def _added_payments(before: DealState, after: DealState) -> dict[tuple[int, int], int]:
    return payments_table(after.payments[len(before.payments) :])


def _no_chips_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """Points games move no chips in play (000:84 "The Comet is not paid for when played"; 002's
    Commit and Red Nines score points only)."""
    added = _added_payments(before, after)
    return [f"{action} moved chips {_fmt_table(added)} in a points game"] if added else []


def two_player_step(before: DealState, action: Action, after: DealState) -> list[str]:
    return _no_chips_step(before, action, after)


def old_comet_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """000:85 "Whoever plays a King, or the last card before everyone passes, collects 1 chip from
    each player; playing the 9♦ earns 10 chips from each" (the manille's value is the deal's
    ``comet_value``, 10 in every deal of a game: ``old_comet_economy``).  The manille standing for a
    King earns the King's 1 as well only under RUL-OLD-MANILLE-KING = manille_and_king."""
    n = before.players
    want: Counter[tuple[int, int]] = Counter()
    if action.is_pass:
        # everyone else has passed: the turn is back at the player who put the last card on a run
        if before.run and after.to_move == before.last_player:
            want.update(_from_each_other(n, before.last_player, 1))
    else:
        seat = before.to_move
        for c in action.cards:
            if c == _MANILLE:
                # RUL-OLD-BONUS-LAST = multiplied: as the winner's last card, x2, or x4 standing for a 9
                # (the player's last card even when an Opera deal is drawn: the bonus stands, RUL-OPERA-DRAW)
                last = not after.hands[seat] and before.rules.old_bonus_last == "multiplied"
                times = (4 if action.as_rank == 9 else 2) if last else 1
                want.update(_from_each_other(n, seat, before.comet_value * times))
                if action.as_rank == KING and before.rules.old_manille_king == "manille_and_king":
                    want.update(_from_each_other(n, seat, 1))
            elif rank_of(c) == KING and (before.rules.old_king_quartet == "per_king" or c == min(action.cards)):
                # RUL-OLD-KING-QUARTET = per_play: four Kings at once earn 1 from each, not 4
                want.update(_from_each_other(n, seat, 1))
        # RUL-OLD-LAST-CARD = every_run_end: a play after which the run is over (or the deal) earns 1 more
        if before.rules.old_last_card == "every_run_end" and (not after.run or not after.hands[seat]):
            want.update(_from_each_other(n, seat, 1))
    got = _added_payments(before, after)
    if got != dict(want):
        return [f"{action} paid {_fmt_table(got)}; the Old Comet payments are {_fmt_table(dict(want))}"]
    return []


def commit_hoyle_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """000:86 "A player who plays a King collects 1 counter from each other player, the 9♦ 2 counters"
    (2 whatever the deal's ``comet_value``)."""
    want: Counter[tuple[int, int]] = Counter()
    for c in action.cards:
        if c == _NINE_D:
            want.update(_from_each_other(before.players, before.to_move, _COMMIT_NINE))
        elif rank_of(c) == KING:
            want.update(_from_each_other(before.players, before.to_move, 1))
    got = _added_payments(before, after)
    if got != dict(want):
        return [f"{action} paid {_fmt_table(got)}; 000's Commit pays {_fmt_table(dict(want))}"]
    return []


def commit_cats_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """002:43-44: a King played "scores 1 point", the Comet "earns the player two points"
    (the Comet standing for a King scores its 2 only, or 2 + 1 under RUL-COMMIT-C-COMET-KING =
    comet_and_king); nothing else scores in play."""
    out = _no_chips_step(before, action, after)
    was = list(before.scores) if before.scores else [0] * before.players
    gained = sum(2 if c == _NINE_D else 1 if rank_of(c) == KING else 0 for c in action.cards)
    if _NINE_D in action.cards and action.as_rank == KING and before.rules.commit_comet_king == "comet_and_king":
        gained += 1
    was[before.to_move] += gained
    now = list(after.scores) if after.scores else [0] * after.players
    if now != was:
        out.append(f"{action} left the scores in play at {tuple(now)}, not {tuple(was)}")
    return out


def standard_step(before: DealState, action: Action, after: DealState) -> list[str]:
    """The Comet's bonus in the standard game, recomputed from the sources: 000:55 "Whoever plays the
    Comet collects 2 chips from every other player" (the deal's ``comet_value`` after escalation);
    002:29 "four chips" / "8 chips" when it is the last card, x2 / x4 of it (RUL-COMET-BONUS-LAST);
    in an Opera that is not drawn, x2 more (000:83 "everyone pays double") under
    RUL-OPERA-COMET-BONUS = doubled, multiplied or capped as RUL-OPERA-STACK says.  Nothing else is
    paid during play."""
    want: dict[tuple[int, int], int] = {}
    wild = [c for c in action.cards if c in before.wild]
    if wild:
        out_now = not after.hands[before.to_move]
        factor = 1
        if out_now and before.rules.comet_bonus_last == "multiplied":
            factor = 4 if action.as_rank == 9 else 2
        first = (before.dealer + 1) % before.players
        opera = before.rules.opera and before.turn == 0 and before.to_move == first and out_now
        if opera and not after.drawn and before.rules.opera_comet_bonus == "doubled":
            factor = factor * 2 if before.rules.opera_stack == "multiply" else max(factor, 2)
        want = _from_each_other(before.players, before.to_move, before.comet_value * factor)
    got = _added_payments(before, after)
    if got != want:
        return [f"{action} paid {_fmt_table(got)} during play; the Comet's bonus recomputed is {_fmt_table(want)}"]
    return []


def red_nines_step(before: DealState, action: Action, after: DealState) -> list[str]:
    out = _no_chips_step(before, action, after)
    if any(after.scores):
        out.append(f"Red Nines scores only at the end of a hand, but the scores in play are {after.scores}")
    return out


StepCheck = Callable[[DealState, Action, DealState], list[str]]

# Payments or points made during play, per variant.
VARIANT_STEP_CHECKS: dict[str, StepCheck] = {
    "standard": standard_step,
    "two_player": two_player_step,
    "old_comet": old_comet_step,
    "commit_hoyle": commit_hoyle_step,
    "commit_cats": commit_cats_step,
    "red_nines": red_nines_step,
}


def check_variant_step(before: DealState, action: Action, after: DealState) -> list[str]:
    step = VARIANT_STEP_CHECKS.get(before.rules.variant)
    return step(before, action, after) if step is not None else []


def check_terminal(final: DealState, recomputations: dict[str, Recomputation] | None = None) -> tuple[list[str], bool]:
    """End-of-deal checks: the settlement recomputed, payments bounded.  Returns (violations, skipped)."""
    out, skipped = check_settlement(final, recomputations)
    bound = payment_bound(final)
    total: Counter[int] = Counter()
    for p in final.payments + engine.settlement(final):
        total[p.payer] += p.amount
    for seat, amount in total.items():
        if amount > bound:
            out.append(f"seat {seat} pays {amount} in the deal, above the bound {bound}")
    for p in engine.settlement(final):
        if p.amount <= 0 or p.payer == p.payee:
            out.append(f"settlement line {p} is not a positive payment between two seats")
    return out, skipped


def check_replay(start: DealState, actions: Sequence[Action], state: DealState) -> list[str]:
    """A state rebuilt from its deal and action history equals the state and hashes the same."""
    try:
        again = engine.replay(start, actions)
    except IllegalAction as e:
        return [f"replaying the history raised {e}"]
    if again != state:
        return ["the state rebuilt from the deal and the actions differs from the state"]
    if hash(again) != hash(state):
        return ["the rebuilt state is equal but hashes differently"]
    return []


def check_rejection(state: DealState, action: Action, known_rules: set[str]) -> list[str]:
    """An action outside ``legal_actions`` is rejected with a known rule id; a legal one is accepted."""
    legal = action in engine.legal_actions(state)
    try:
        after = engine.apply(state, action)
    except IllegalAction as e:
        if legal:
            return [f"legal action {action} was rejected: {e}"]
        if e.rule not in known_rules:
            return [f"illegal action {action} rejected with unknown rule id {e.rule!r}"]
        return []
    if not legal:
        return [f"action {action} is not among the legal actions but was accepted"]
    return check_transition(state, action, after)


# --------------------------------------------------------------------- counterexamples


@dataclass(frozen=True, slots=True)
class DealRecord:
    """What is needed to reproduce a deal: who plays, the cards, the actions."""

    start: DealState
    actions: tuple[Action, ...]

    def text(self) -> str:
        s = self.start
        rules = s.rules
        diffs = rules.differences(Ruleset(variant=rules.variant))
        lines = [
            f"variant={rules.variant} players={s.players} dealer={s.dealer} pack={s.pack} comet_value={s.comet_value}",
            "rulings: " + (", ".join(f"{k}={v}" for k, v in diffs.items()) if diffs else "defaults"),
        ]
        for seat, h in enumerate(s.hands):
            lines.append(f"  seat {seat}: {cards_text(h)}")
        lines.append(f"  dead: {cards_text(s.dead)}")
        lines.append(f"actions ({len(self.actions)}): " + "; ".join(str(a) for a in self.actions))
        return "\n".join(lines)


# --------------------------------------------------------------------- game invariants

# 000:55 "it is worth 2 chips more in the next deal (4, then 6 …), until it is dealt to a player
# again; then it goes back to 2."
BASE_COMET = 2
COMET_STEP = 2


def check_game_step(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """One deal of a whole game: dealer rotation, pack alternation, balances and history.

    The variant-specific chip economy (Comet escalation, zero-sum) is ``check_game_economy``."""
    out: list[str] = []
    n = before.players
    rotation = engine.packs_in_rotation(before.rules, before.players)
    if start.dealer != before.dealer:
        out.append(f"deal {before.deal_index}: dealt by seat {start.dealer}, but seat {before.dealer} was due")
    if after.dealer != (before.dealer + 1) % n:
        out.append(f"deal {before.deal_index}: the deal passed to seat {after.dealer}, not to the left")
    due = rotation[before.deal_index % len(rotation)].name
    if start.pack != due:
        out.append(f"deal {before.deal_index}: played with the {start.pack} pack, but the {due} pack was due")
    net = after.history[-1] if after.history else ()
    if len(after.history) != len(before.history) + 1:
        out.append("the game history did not grow by one deal")
    if tuple(a + d for a, d in zip(before.balances, net, strict=False)) != after.balances:
        out.append(f"balances {after.balances} are not the previous {before.balances} plus the deal's net {net}")
    return out


def check_game_end(first: GameState, game: GameState) -> list[str]:
    """At the end of a game: the first balances plus every deal's net are the balances; the
    winners are the seats with the most (chips or points; the fewest where the variant declares
    ``lower_wins``); not more deals than agreed."""
    out: list[str] = []
    totals = tuple(first.balances[i] + sum(h[i] for h in game.history) for i in range(game.players))
    if totals != game.balances:
        out.append(f"balances {game.balances} differ from the first balances plus every deal's net {totals}")
    # Penalty-point games (Red Nines, 002:88 "the player with the lowest total score") rank the other way.
    lowest = variant_of(game.rules).lower_wins
    best = min(game.balances) if lowest else max(game.balances)
    richest = tuple(i for i, b in enumerate(game.balances) if b == best)
    if game_module.winners(game) != richest:
        most = "fewest" if lowest else "most"
        out.append(f"winners {game_module.winners(game)} are not the seats with the {most} {richest}")
    if len(game.history) > game.deals:
        out.append(f"{len(game.history)} deals played, only {game.deals} agreed")
    return out


def standard_game_end(first: GameState, game: GameState) -> list[str]:
    """The standard game ends after exactly the agreed deals (000:70 "Agree beforehand how many
    deals to play"), with extra rounds for a tie only under game_tie=extra_round (at most 3)."""
    out: list[str] = []
    if game.rules.starting_chips != first.balances[0]:
        out.append(f"the game started with {first.balances[0]} chips each, not {game.rules.starting_chips}")
    if len(game.history) != game.deals:
        out.append(f"{len(game.history)} deals played, {game.deals} agreed")
    best = max(game.balances)
    tied = sum(b == best for b in game.balances) > 1
    if tied and game.rules.game_tie == "extra_round" and game.extra_rounds < 3:
        out.append("the game ended tied although extra rounds remain (game_tie=extra_round)")
    if game.extra_rounds and game.rules.game_tie == "share":
        out.append("extra rounds were played although tied leaders share the win (game_tie=share)")
    return out


def standard_game_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """The chip economy of the standard game, recomputed from the seeds: the Comet's value
    escalates by 2 while it lies in the dead hand and goes back to 2 once dealt (000:55), each
    deal is zero-sum (000:61 "Every other player pays that player"), and under the ``debt``
    reading the balances move by exactly the deal's payments."""
    out: list[str] = []
    rotation = engine.packs_in_rotation(before.rules, before.players)
    net = after.history[-1] if after.history else ()
    key = 0 if before.rules.escalation == "shared" else before.deal_index % len(rotation)
    dealt = not any(c in start.wild for c in start.dead)
    expected = before.comet_values[key]
    if dealt and before.rules.comet_reset == "same_deal":
        expected = BASE_COMET
    if start.comet_value != expected:
        out.append(f"deal {before.deal_index}: the Comet is worth {start.comet_value}, expected {expected}")
    # RUL-ESCALATION-TRIGGER: 000:55 "ends up in the dead hand", or 002:22 "did not appear"
    not_played = not any(c in final.wild for c in final.played)
    rises = not dealt if before.rules.escalate_on == "dead_hand" else not_played
    carried = start.comet_value + COMET_STEP if rises else BASE_COMET
    if after.comet_values[key] != carried:
        out.append(
            f"deal {before.deal_index}: the Comet's value carried to the next deal is "
            f"{after.comet_values[key]}, expected {carried}"
        )
    return out + _chips_follow_payments(before, final, after, net)


def _chips_follow_payments(
    before: GameState, final: DealState, after: GameState, net: tuple[int, ...]
) -> list[str]:
    """The deal is zero-sum; under ``debt`` the balances move by exactly its payments, under
    ``pay_what_you_have`` no balance goes below zero (RUL-INSOLVENCY)."""
    out: list[str] = []
    if sum(net) != 0:
        out.append(f"the deal's net {net} is not zero-sum")
    owed = [0] * before.players
    for p in final.payments + engine.settlement(final):
        owed[p.payer] -= p.amount
        owed[p.payee] += p.amount
    if before.rules.insolvency == "debt" and tuple(owed) != net:
        out.append(f"the deal's net {net} differs from its payments {tuple(owed)}")
    if before.rules.insolvency == "pay_what_you_have" and any(
        b < 0 <= a for a, b in zip(before.balances, after.balances, strict=True)
    ):
        out.append(f"a balance went negative under insolvency=pay_what_you_have: {after.balances}")
    return out


# --------------------------------------------------------------------- the variants' games


def _chip_economy(before: GameState, final: DealState, after: GameState, value: int, name: str) -> list[str]:
    """A chip game whose wild card is worth ``value`` in every deal (it never rises): the deal is
    zero-sum, and under ``debt`` the balances move by exactly its payments."""
    out: list[str] = []
    net = after.history[-1] if after.history else ()
    if final.comet_value != value:
        out.append(f"deal {before.deal_index}: the {name} is worth {final.comet_value}, not {value}")
    if any(v != value for v in after.comet_values):
        out.append(f"deal {before.deal_index}: the {name}'s value carried on is {after.comet_values}, not {value}")
    return out + _chips_follow_payments(before, final, after, net)


def old_comet_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """000:85 "playing the 9♦ earns 10 chips from each": the manille is worth 10 in every deal; under
    RUL-OLD-ESCALATION = plus_two 000:55's "2 chips more in the next deal" while it lies in the dead hand,
    back to 10 once dealt."""
    if before.rules.old_escalation == "fixed":
        return _chip_economy(before, final, after, 10, "manille")
    out: list[str] = []
    if start.comet_value != before.comet_values[0]:
        out.append(f"deal {before.deal_index}: the manille is worth {start.comet_value}, not {before.comet_values[0]}")
    carried = start.comet_value + 2 if _MANILLE in start.dead else 10
    if after.comet_values != (carried,):
        out.append(f"deal {before.deal_index}: the manille's value carried on is {after.comet_values}, not {carried}")
    return out + _chips_follow_payments(before, final, after, after.history[-1] if after.history else ())


def commit_hoyle_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    """000:86 "the 9♦ 2 counters": the 9♦ is worth 2 in every deal."""
    return _chip_economy(before, final, after, 2, "9♦")


def _points_economy(before: GameState, final: DealState, after: GameState) -> list[str]:
    """A points game: no chips move, the deal's scores are the recomputed ones and never negative,
    and the totals grow by exactly them."""
    out: list[str] = []
    net = after.history[-1] if after.history else ()
    if final.payments or engine.settlement(final):
        out.append(
            f"chips moved in a points game: {_fmt_table(payments_table(final.payments + engine.settlement(final)))}"
        )
    expected = SETTLEMENT_RECOMPUTATIONS[final.rules.variant](final)
    if expected is not None and expected.points is not None and net != expected.points:
        out.append(f"the deal added {net} to the totals, the recomputation from the hands gives {expected.points}")
    if any(p < 0 for p in net):
        out.append(f"a deal score is negative: {net}")
    if any(b < 0 for b in after.balances):
        out.append(f"a game total is negative: {after.balances}")
    return out


def points_game_economy(before: GameState, start: DealState, final: DealState, after: GameState) -> list[str]:
    return _points_economy(before, final, after)


def _fixed_deals_end(first: GameState, game: GameState, start_total: int, lowest: bool) -> list[str]:
    """A game of an agreed number of deals (000:70; 002:86 "a number of hands equal to the number of
    players"), extra rounds for a tie only under game_tie=extra_round (at most 3); the best total is
    the highest, or the lowest in a penalty-point game (002:88)."""
    out: list[str] = []
    if any(b != start_total for b in first.balances):
        out.append(f"the game started with {first.balances}, not {start_total} each")
    if len(game.history) != game.deals:
        out.append(f"{len(game.history)} deals played, {game.deals} agreed")
    best = min(game.balances) if lowest else max(game.balances)
    tied = sum(b == best for b in game.balances) > 1
    if tied and game.rules.game_tie == "extra_round" and game.extra_rounds < 3:
        out.append("the game ended tied although extra rounds remain (game_tie=extra_round)")
    if game.extra_rounds and game.rules.game_tie == "share":
        out.append("extra rounds were played although tied leaders share the win (game_tie=share)")
    return out


def chip_game_end(first: GameState, game: GameState) -> list[str]:
    return _fixed_deals_end(first, game, game.rules.starting_chips, lowest=False)


def red_nines_game_end(first: GameState, game: GameState) -> list[str]:
    """002:86-88: one hand per player (or as many as agreed), the lowest total wins; totals start at 0."""
    return _fixed_deals_end(first, game, 0, lowest=True)


def _target_end(first: GameState, game: GameState, reached: Callable[[tuple[int, ...], int], bool]) -> list[str]:
    """A race: the game ends after the first deal at whose end ``reached(totals, deals played)``
    holds, or after the agreed cap on deals if it never does; totals start at 0."""
    out: list[str] = []
    if any(first.balances):
        out.append(f"a points game started at {first.balances}, not 0 each")
    totals = list(first.balances)
    expected_length = game.deals
    for i, net in enumerate(game.history):
        totals = [t + d for t, d in zip(totals, net, strict=True)]
        if reached(tuple(totals), i + 1):
            expected_length = i + 1
            break
    if len(game.history) != min(expected_length, game.deals):
        out.append(
            f"the game ended after {len(game.history)} deals; by its end condition it ends after "
            f"{min(expected_length, game.deals)} (totals per deal {game.history})"
        )
    return out


def two_player_game_end(first: GameState, game: GameState) -> list[str]:
    """000:84 "the first to 121 wins" (RUL-2P-END: at once, or at the first even number of deals)."""
    at_once = game.rules.two_player_end == "first_to_target"
    return _target_end(first, game, lambda t, k: max(t) >= 121 and (at_once or k % 2 == 0))


def commit_cats_game_end(first: GameState, game: GameState) -> list[str]:
    """002:45 "The first player to accumulate 100 total points" (RUL-COMMIT-C-TARGET: tied leaders
    share, or play on until one is ahead)."""
    share = game.rules.commit_tie == "share"
    return _target_end(first, game, lambda t, k: max(t) >= 100 and (share or t.count(max(t)) == 1))


GameEconomy = Callable[[GameState, DealState, DealState, GameState], list[str]]

# One economy recomputation and one end-of-game check per variant; a variant without an entry
# is reported as skipped by ``check_game_economy``/``check_game_economy_end`` (and fails
# ``tests/test_fuzz_deals.py``).
GAME_ECONOMIES: dict[str, GameEconomy] = {
    "standard": standard_game_economy,
    "two_player": points_game_economy,
    "old_comet": old_comet_economy,
    "commit_hoyle": commit_hoyle_economy,
    "commit_cats": points_game_economy,
    "red_nines": points_game_economy,
}
GAME_ENDS: dict[str, Callable[[GameState, GameState], list[str]]] = {
    "standard": standard_game_end,
    "two_player": two_player_game_end,
    "old_comet": chip_game_end,
    "commit_hoyle": chip_game_end,
    "commit_cats": commit_cats_game_end,
    "red_nines": red_nines_game_end,
}


def check_game_economy(
    before: GameState, start: DealState, final: DealState, after: GameState
) -> tuple[list[str], bool]:
    """Run the variant's economy recomputation; (violations, skipped)."""
    check = GAME_ECONOMIES.get(before.rules.variant)
    if check is None:
        return [], True
    return check(before, start, final, after), False


def check_game_economy_end(first: GameState, game: GameState) -> tuple[list[str], bool]:
    """Run the variant's end-of-game check; (violations, skipped)."""
    check = GAME_ENDS.get(game.rules.variant)
    if check is None:
        return [], True
    return check(first, game), False
