"""The Opera option (000:83, 002:31): a first player who goes out in the very first turn.

Opera is a ``Ruleset`` flag, not a game family: ``OPERA`` is an ``Option`` that a game family
admits by listing it in its ``Variant.options`` (standard, two_player, old_comet).  The engine runs
its hooks without naming it: ``opera_on_going_out`` when a play empties a hand, ``opera_multiplier``
and ``opera_caught_multiplier`` in the settlement, and ``R-OPERA-DOUBLE`` as the rule of a payment
only the Opera doubled.  Every hook is the identity while ``rules.opera`` is off.
"""

from __future__ import annotations

from dataclasses import replace

from comet.engine import apply, going_out_multiplier, legal_actions
from comet.state import DealState, Payment
from comet.trace import rule
from comet.variant import Option


def first_seat(state: DealState) -> int:
    """The player to the dealer's left, who has the first turn."""
    return (state.dealer + 1) % state.players


@rule("R-OPERA-FIRST-TURN")
def is_opera(state: DealState) -> bool:
    """The first player went out without a single pass having been made (their very first turn)."""
    return state.rules.opera and not state.drawn and state.winner == first_seat(state) and state.turn == 0


@rule("R-OPERA-DRAW")
def dealer_could_go_out(state: DealState) -> bool:
    """Could the dealer, leading with the hand dealt, have played it all in one turn?

    Searches every sequence of plays (no passes) the dealer could make from a new
    run, with the same legal-action rules (Opera switched off inside the search).
    """
    seat = state.dealer
    probe = replace(
        state,
        rules=replace(state.rules, opera=False),
        to_move=seat,
        run=(),
        turn_played=False,
        last_player=-1,
        turn=0,
        winner=-1,
        drawn=False,
        out_wild_as=0,
        payments=(),
    )
    seen: dict[tuple[tuple[int, ...], tuple[int, ...], bool], bool] = {}

    def search(s: DealState) -> bool:
        key = (s.hands[seat], s.run, s.turn_played)
        if key in seen:
            return seen[key]
        seen[key] = False
        found = False
        legal = legal_actions(s)
        for a in legal:
            if a.is_pass:
                continue
            nxt = apply(s, a, legal=legal)
            if nxt.winner == seat or (nxt.to_move == seat and not nxt.terminal and search(nxt)):
                found = True
                break
        seen[key] = found
        return found

    return bool(probe.hands[seat]) and search(probe)


@rule("R-OPERA-DRAW")
def opera_outcome(after: DealState) -> DealState:
    """The state after a play that emptied a hand: drawn if Opera applies and the dealer could also have gone out."""
    if not is_opera(after) or after.rules.opera_draw == "never":
        return after
    if dealer_could_go_out(after):
        return replace(after, winner=-1, drawn=True)
    return after


def stacked(state: DealState, base: int) -> int:
    """The Opera's x2 combined with a multiplier ``base`` (RUL-OPERA-STACK): multiplied, or the higher."""
    return base * 2 if state.rules.opera_stack == "multiply" else max(base, 2)


@rule("R-OPERA-DOUBLE")
def opera_multiplier(state: DealState, out_mult: int) -> int:
    """The settlement multiplier with Opera: x2 on top of the Comet's x2/x4 (RUL-OPERA-STACK)."""
    if not is_opera(state):
        return out_mult
    return stacked(state, out_mult)


@rule("R-OPERA-DOUBLE")
def opera_caught_multiplier(state: DealState, caught: int, out_mult: int) -> int:
    """A caught loser's multiplier (``caught`` x2 for the Comet in hand; ``out_mult`` from
    ``opera_multiplier``): multiplied, or in an Opera only the higher doubling (RUL-OPERA-CAUGHT)."""
    if state.rules.opera_caught == "highest" and is_opera(state):
        return max(caught, out_mult)
    return caught * out_mult


@rule("R-OPERA-DOUBLE")
def opera_comet_bonus(after: DealState, seat: int) -> DealState:
    """After the first player went out on the Comet in an Opera (not drawn), the bonus the Comet earned
    on that play is raised by the Opera's x2, stacked like the points (RUL-OPERA-COMET-BONUS,
    RUL-OPERA-STACK); the extra is paid as ``R-OPERA-DOUBLE`` payments."""
    if after.rules.opera_comet_bonus != "doubled" or not is_opera(after):
        return after
    factor = going_out_multiplier(after.out_wild_as) if after.rules.comet_bonus_last == "multiplied" else 1
    extra = after.comet_value * (stacked(after, factor) - factor)
    if extra <= 0:
        return after
    more = tuple(Payment(p, seat, extra, "R-OPERA-DOUBLE") for p in range(after.players) if p != seat)
    return replace(after, payments=after.payments + more)


def opera_on_going_out(after: DealState, wild_bonus: bool) -> DealState:
    """The engine's hook after a play that emptied a hand: the Opera's draw, then (when the play was the
    Comet and earned the standard bonus) the Opera's raise of that bonus."""
    if not after.rules.opera:
        return after
    after = opera_outcome(after)
    if wild_bonus:
        after = opera_comet_bonus(after, after.last_player)
    return after


OPERA = Option(
    name="opera",
    on_going_out=opera_on_going_out,
    out_multiplier=opera_multiplier,
    caught_multiplier=opera_caught_multiplier,
    payment_rule="R-OPERA-DOUBLE",
    rulings=("opera", "opera_draw", "opera_stack"),
)
