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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from comet import engine
from comet import game as game_module
from comet.cards import KING, card_text, cards_text, rank_of
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


def standard_settlement(state: DealState) -> dict[tuple[int, int], int] | None:
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
        if total * last:
            out[(seat, state.winner)] = total * last
    return out


Recomputation = Callable[[DealState], dict[tuple[int, int], int] | None]

# One independent recomputation per variant; presets whose variant is missing here are
# reported as "skipped" by ``check_settlement`` (never silently passed).
SETTLEMENT_RECOMPUTATIONS: dict[str, Recomputation] = {"standard": standard_settlement}


def payments_table(payments: Sequence[Payment]) -> dict[tuple[int, int], int]:
    table: Counter[tuple[int, int]] = Counter()
    for p in payments:
        table[(p.payer, p.payee)] += p.amount
    return {k: v for k, v in table.items() if v}


def check_settlement(
    state: DealState, recomputations: dict[str, Recomputation] | None = None
) -> tuple[list[str], bool]:
    """Compare ``engine.settlement(state)`` with the independent recomputation for the state's variant.

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
    got = payments_table(engine.settlement(state))
    if got != expected:
        return [
            f"settlement {_fmt_table(got)} differs from the recomputation from the leftover hands "
            f"{_fmt_table(expected)}"
        ], False
    return [], False


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
    if run and not (run[0] >= 1 and run[-1] < KING):
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
    return out


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
    n = before.players
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
    if sum(net) != 0:
        out.append(f"the deal's net {net} is not zero-sum")
    owed = [0] * n
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


GameEconomy = Callable[[GameState, DealState, DealState, GameState], list[str]]

# One chip-economy recomputation per variant; variants without an entry (points games, other
# scoring) are reported as skipped by ``check_game_economy``.
GAME_ECONOMIES: dict[str, GameEconomy] = {"standard": standard_game_economy}
GAME_ENDS: dict[str, Callable[[GameState, GameState], list[str]]] = {"standard": standard_game_end}


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
