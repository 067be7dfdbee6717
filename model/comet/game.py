"""A whole game: many deals, the deal passing left, packs in turn, the Comet's value
carried between deals, chip balances, and the winner."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from comet.cards import rank_of
from comet.engine import (
    apply,
    check_players,
    deal_points,
    deal_sizes,
    distribute,
    legal_actions,
    packs_in_rotation,
    settlement,
    start_deal,
)
from comet.errors import RecordError
from comet.policy import Policy, simple_policy
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState, Payment
from comet.trace import rule
from comet.variant import variant_of

COMET_STEP = 2
MAX_EXTRA_ROUNDS = 3


def seats_in_play(game: GameState) -> tuple[int, ...]:
    """The game's seats still dealt in, in seat order (everyone, unless RUL-INSOLVENCY = drop_out took some
    out).  A deal is dealt to them alone: its seat ``j`` is the game's seat ``seats_in_play(game)[j]``."""
    return tuple(s for s in range(game.players) if s not in game.out) if game.out else tuple(range(game.players))


def default_deals(rules: Ruleset, players: int) -> int:
    """The number of deals when none is asked for: one round, the variant's own count, or
    (in a game to a target score) the variant's safety bound on deals."""
    v = variant_of(rules)
    if v.game_end == "target":
        return v.max_deals
    return players if v.default_deals is None else v.default_deals(players)


@rule("R-GAME-DEALS", "R-GAME-CHIPS")
def new_game(rules: Ruleset, players: int, deals: int | None = None, first_dealer: int = 0) -> GameState:
    """A game of ``deals`` deals; everyone starts with the same chips (RUL-STARTING-CHIPS).

    Points games start everyone at 0; in a game to a target score ``deals`` only bounds its length."""
    check_players(players, rules)
    v = variant_of(rules)
    if deals is None:
        deals = default_deals(rules, players)
    if deals < 1:
        raise RecordError("field", f"a game needs at least one deal, not {deals}")
    if v.game_end == "deals" and rules.deal_count == "multiple_of_players" and deals % players:
        raise RecordError("field", f"the number of deals must be a multiple of the players ({players}); {deals} is not")
    if not 0 <= first_dealer < players:
        raise RecordError("dealer", f"dealer must be a seat from 0 to {players - 1}")
    n_values = 1 if rules.escalation == "shared" else len(packs_in_rotation(rules, players))
    start = rules.starting_chips if v.scoring == "chips" else 0
    return GameState(
        rules=rules,
        players=players,
        deals=deals,
        dealer=first_dealer,
        deal_index=0,
        balances=(start,) * players,
        comet_values=(v.comet_value,) * n_values,
    )


#: The first-dealer draw: one round per line, the card each seat drew (None: the seat did not draw).
Draw = tuple[tuple[int | None, ...], ...]


@rule("R-DEAL-DEALER")
def draw_first_dealer(rules: Ruleset, players: int, rng: random.Random) -> int:
    """Everyone draws a card; the lowest deals (ties: RUL-FIRST-DEALER)."""
    return first_dealer_draw(rules, players, rng)[1]


def first_dealer_draw(rules: Ruleset, players: int, rng: random.Random) -> tuple[Draw, int]:
    """The draw for the first deal, round by round, and the seat it makes the dealer."""
    candidates = list(range(players))
    pack = list(packs_in_rotation(rules, players)[0].cards)
    rounds: list[tuple[int | None, ...]] = []
    while True:
        drawn = rng.sample(pack, len(candidates))
        row: list[int | None] = [None] * players
        for seat, c in zip(candidates, drawn, strict=True):
            row[seat] = c
        rounds.append(tuple(row))
        dealer, tied = draw_round(rules, rounds[-1])
        if dealer is not None:
            return tuple(rounds), dealer
        candidates = list(tied)


@rule("R-DEAL-DEALER")
def draw_round(rules: Ruleset, row: tuple[int | None, ...]) -> tuple[int | None, tuple[int, ...]]:
    """One round of the draw: (the dealer, if it decides; the seats that drew the lowest rank).

    Unless RUL-FIRST-DEALER says the lowest seat among the tied deals, the tied seats draw again.  The
    draw is from the pack of the first deal (``packs_in_rotation(...)[0]``), whose wild card counts as
    RUL-FIRST-DEALER-WILD says (``draw_rank``)."""
    wild = frozenset(packs_in_rotation(rules, len(row))[0].wild)
    drawn = [(seat, draw_rank(rules, wild, c)) for seat, c in enumerate(row) if c is not None]
    low = min(r for _, r in drawn)
    tied = tuple(seat for seat, r in drawn if r == low)
    if len(tied) == 1 or rules.first_dealer_tie == "lowest_seat":
        return tied[0], tied
    return None, tied


@rule("R-DEAL-DEALER")
def draw_rank(rules: Ruleset, wild: frozenset[int], c: int) -> int:
    """What card ``c`` counts in the first-dealer draw: its printed rank, or (RUL-FIRST-DEALER-WILD =
    lowest) 0, below every rank, when it is the pack's wild card (the Comet, the manille, a red nine)."""
    if c in wild and rules.first_dealer_wild == "lowest":
        return 0
    return rank_of(c)


def pack_index(game: GameState) -> int:
    return game.deal_index % len(packs_in_rotation(game.rules, len(seats_in_play(game))))


@rule("R-COMET-ESCALATE")
def comet_value_for(game: GameState, comet_dealt: bool) -> int:
    """The Comet's value in the next deal (RUL-ESCALATION-PACKS, RUL-ESCALATION-RESET)."""
    v = variant_of(game.rules)
    if not v.escalates_under(game.rules):
        return v.comet_value
    idx = 0 if game.rules.escalation == "shared" else pack_index(game)
    value = game.comet_values[idx]
    if comet_dealt and game.rules.comet_reset == "same_deal":
        return v.comet_value
    return value


def next_deal(game: GameState, seed: int) -> DealState:
    """Shuffle the pack whose turn it is with ``seed`` and deal it (to the seats still in play)."""
    seats = seats_in_play(game)
    pack = packs_in_rotation(game.rules, len(seats))[pack_index(game)]
    order = list(pack.cards)
    random.Random(seed).shuffle(order)
    size, _ = deal_sizes(game.rules, len(seats), len(pack.cards))
    dealer = seats.index(game.dealer)
    hands, dead = distribute(game.rules, order, len(seats), dealer, size)
    dealt = not any(c in pack.wild for c in dead)
    return start_deal(game.rules, pack, len(seats), dealer, hands, dead, comet_value_for(game, dealt))


def deal_payments(final: DealState) -> tuple[Payment, ...]:
    """The deal's payments in the order they are made: those of play as they happened, then the settlement
    in the order RUL-CREDITOR-ORDER says (``creditor_order``)."""
    return final.payments + creditor_order(final.rules, settlement(final), final.players)


@rule("R-GAME-CHIPS")
def creditor_order(rules: Ruleset, pays: tuple[Payment, ...], players: int) -> tuple[Payment, ...]:
    """RUL-CREDITOR-ORDER: the settlement as the variant lists it, seat 0 first (seat_order); or (from_left)
    each run of consecutive payments by one payer (what one player owes several others at once, such as a
    caught manille's 10 to each) made in turn from that payer's left neighbour clockwise, a payer's own
    payments to one creditor keeping their order.  Runs stay where they are, so the debtors settle in the
    same order, and 000's Commit's stakes, listed first, are still paid first.  The order matters only when
    a payer cannot pay in full (RUL-INSOLVENCY = pay_what_you_have, drop_out)."""
    if rules.creditor_order == "seat_order" or len(pays) < 2:
        return pays
    out: list[Payment] = []
    i = 0
    while i < len(pays):
        j = i
        while j < len(pays) and pays[j].payer == pays[i].payer:
            j += 1
        payer = pays[i].payer
        out.extend(sorted(pays[i:j], key=lambda p: (p.payee - payer) % players))
        i = j
    return tuple(out)


def race_standings(game: GameState, state: DealState) -> tuple[int, ...] | None:
    """The standings if the game ends at this moment of the deal ``state`` (a race won inside a deal: the
    variant's ``race_end`` hook), else None."""
    hook = variant_of(game.rules).race_end
    return None if hook is None else hook(game, state)


def deal_over(game: GameState, state: DealState) -> bool:
    """Is the deal ``state`` of ``game`` over: finished, or cut short because the game was won in it
    (``race_standings``)?  Every game loop asks this after each action instead of ``state.terminal``."""
    return state.terminal or race_standings(game, state) is not None


@rule("R-COMET-ESCALATE", "R-GAME-WINNER")
def finish_deal(game: GameState, final: DealState) -> GameState:
    """Pay the deal (RUL-INSOLVENCY), carry the Comet's value, pass the deal to the left.

    In a points game the deal's points (``deal_points``) are added to the totals instead.  A deal in
    which the game was won (``race_standings``) ends there: the standings are those of that moment,
    whether or not the deal was played out."""
    raced = race_standings(game, final)
    if not final.terminal and raced is None:
        raise ValueError("the deal is not over")
    v = variant_of(game.rules)
    seats = seats_in_play(game)
    balances = list(game.balances)
    if raced is not None:
        balances = list(raced)
    elif v.scoring == "points":
        for j, d in enumerate(deal_points(final)):
            balances[seats[j]] += d
    out = list(game.out)
    for p in deal_payments(final) if raced is None else ():
        payer, payee, amount = seats[p.payer], seats[p.payee], p.amount
        if game.rules.insolvency == "pay_what_you_have":
            amount = max(0, min(amount, balances[payer]))
        elif game.rules.insolvency == "drop_out":
            amount, gone = drop_out_payment(amount, balances[payer], payer in out or payee in out)
            if gone:
                out.append(payer)
        balances[payer] -= amount
        balances[payee] += amount
    net = tuple(b - a for a, b in zip(game.balances, balances, strict=True))
    idx = 0 if game.rules.escalation == "shared" else pack_index(game)
    in_dead = any(c in final.wild for c in final.dead)
    if game.rules.escalate_on == "not_played":  # RUL-ESCALATION-TRIGGER
        in_dead = not any(c in final.wild for c in final.played)
    values = list(game.comet_values)
    values[idx] = final.comet_value + COMET_STEP if in_dead and v.escalates_under(game.rules) else v.comet_value
    dealer = (game.dealer + 1) % game.players
    while dealer in out:  # the deal passes to the left, past the seats that dropped out
        dealer = (dealer + 1) % game.players
    g = replace(
        game,
        dealer=dealer,
        deal_index=game.deal_index + 1,
        balances=tuple(balances),
        comet_values=tuple(values),
        history=(*game.history, net),
        out=tuple(out),
    )
    if (
        v.game_end == "deals"
        and g.deal_index == g.deals
        and g.rules.game_tie == "extra_round"
        and len(winners(g)) > 1
        and g.extra_rounds < MAX_EXTRA_ROUNDS
    ):
        g = replace(g, deals=g.deals + len(seats_in_play(g)), extra_rounds=g.extra_rounds + 1)  # a round of those left
    return g


@rule("R-GAME-CHIPS")
def drop_out_payment(amount: int, balance: int, party_out: bool) -> tuple[int, bool]:
    """RUL-INSOLVENCY = drop_out: (what is paid, whether the payer drops out).  A payment to or from a
    player who has dropped out is not made; a payer who cannot pay it in full pays what they have (the
    rest is lost, as under pay_what_you_have) and drops out of the game at once."""
    if party_out:
        return 0, False
    if amount > balance:
        return max(0, balance), True
    return amount, False


def game_over(game: GameState) -> bool:
    """A fixed number of deals played, or (target games) the variant's end condition reached, or
    (RUL-INSOLVENCY = drop_out) too few players left to deal the game to (one, in most games)."""
    v = variant_of(game.rules)
    if game.deal_index >= game.deals:
        return True
    if game.out and len(seats_in_play(game)) not in v.player_counts:
        return True
    if v.game_over is not None:
        return v.game_over(game)
    return v.game_end == "target" and max(game.balances) >= v.target


@rule("R-GAME-WINNER")
def winners(game: GameState) -> tuple[int, ...]:
    """The seats with the most chips (several when tied, RUL-GAME-TIE); the fewest points where lowest wins.
    Only the seats still in play can win (RUL-INSOLVENCY = drop_out)."""
    seats = seats_in_play(game)
    held = [game.balances[s] for s in seats]
    best = min(held) if variant_of(game.rules).lower_wins else max(held)
    return tuple(s for s in seats if game.balances[s] == best)


def play_deal(
    start: DealState, policy: Policy = simple_policy, game: GameState | None = None
) -> tuple[DealState, tuple[Action, ...]]:
    """Play a deal to its end with ``policy`` (as a deal of ``game``: until ``deal_over``); returns the
    final state and the actions."""
    s = start
    actions: list[Action] = []
    while not (s.terminal if game is None else deal_over(game, s)):
        a = policy(s, legal_actions(s))
        actions.append(a)
        s = apply(s, a)
    return s, tuple(actions)


def play_game(
    rules: Ruleset,
    players: int,
    deals: int | None,
    seed: int,
    policy: Policy = simple_policy,
    on_deal: Callable[[DealState, tuple[Action, ...], GameState], None] | None = None,
    on_draw: Callable[[Draw], None] | None = None,
    deal_rng: random.Random | None = None,
) -> GameState:
    """Play a whole seeded game (first dealer drawn, then one seed per deal).

    Each deal's seed is the next 64 bits of ``deal_rng``; without it (every seeded game, game record and
    vector), of the draw's own stream after the draw, so how many cards the draw took (a redraw after a
    tie, RUL-FIRST-DEALER) moves every deal's seed.  A study that pairs one game under two readings passes
    a stream of its own (``comet.diverge.measure.deal_stream``), so deal k is shuffled alike under both."""
    rng = random.Random(seed)
    draw, dealer = first_dealer_draw(rules, players, rng)
    if on_draw is not None:
        on_draw(draw)
    seeds = rng if deal_rng is None else deal_rng
    game = new_game(rules, players, deals, dealer)
    while not game_over(game):
        start = next_deal(game, seeds.getrandbits(64))
        final, actions = play_deal(start, policy, game)
        game = finish_deal(game, final)
        if on_deal is not None:
            on_deal(start, actions, game)
    return game
