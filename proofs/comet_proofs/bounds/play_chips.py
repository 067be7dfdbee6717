"""What play moves towards or away from one seat in Old Comet (issue 37), as lemmas proved inductive for each
player count before they are used: ``win_in_play`` for the winner (its Kings, the manille, one chip per stuck
run it collects) and ``kept_loss`` for a seat that keeps its cards (each play of another seat takes at most
one chip from it, the manille ten, less the chips a hand-over or a last card leaves uncollected).  Each
comes with ``refutation``: the state and step that break a formula, in words, or None where Z3 proves that
none does (true of every initial deal, kept by every step from an ``Inv`` state whose hands are within the
deal)."""

from __future__ import annotations

from collections.abc import Callable

import z3

from comet_proofs.bounds import lemmas
from comet_proofs.bounds.lemmas import hands_within_deal, long_deal, run_played
from comet_proofs.bounds.optimum import maxima
from comet_proofs.bounds.quantities import DEAL_GAIN, DEAL_LOSS
from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import COMET_PLAYED, KIND_NAMES, KING, Readings, SymAction, SymState

Lemma = Callable[[SymState], z3.BoolRef]


def holds_king(s: SymState, seat: int) -> z3.BoolRef:
    """``seat`` holds a natural King."""
    return s.hands[seat][s.ranks.index(KING)] >= 1


def open_run_of(enc: Encoding, s: SymState, seat: int) -> z3.BoolRef:
    """A run ``seat`` played last is open: its stuck run's chip may still come (R-OLD-LAST-CARD)."""
    return z3.And(s.need > 0, s.last_player == seat, z3.Not(enc.terminal(s)))


def win_in_play(enc: Encoding, s: SymState, size: int, dearest: int, seat: int = 0) -> z3.BoolRef:
    """What ``seat`` can have won in play, each of its plays earning at most one chip from each other seat (a
    King, R-OLD-KING, or the stuck run it then collects, R-OLD-LAST-CARD), the manille ``dearest``
    (R-OLD-MANILLE-PLAY, a stop), and its last card nothing unless a King or the manille: with m = n-1,

        chips + m * (hand - 1 + [holds a King or the manille]  (0 once the hand is empty)
                     + [no King played and none in its hand] + [the manille unplayed and not in its hand]
                     + [its run open])
              + m * (dearest - 1) * [the manille unplayed]
        <= m * (size + 1) + m * (dearest - 1).

    At the end of a deal it won, that is chips <= m * (size - 1 + [a King played] + [the manille played])
    + m * (dearest - 1) * [the manille played]: what the others collect only lowers it."""
    m = s.players - 1
    hand = enc.hand_size(s, seat)
    mine = z3.Or(holds_king(s, seat), s.comet == seat)
    cards = z3.If(hand >= 1, hand - 1 + z3.If(mine, 1, 0), 0)
    no_king = z3.If(z3.And(s.played[s.ranks.index(KING)] == 0, z3.Not(holds_king(s, seat))), 1, 0)
    unplayed = s.comet != COMET_PLAYED
    no_manille = z3.If(z3.And(unplayed, s.comet != seat), 1, 0)
    run = z3.If(open_run_of(enc, s, seat), 1, 0)
    potential = s.chips[seat] + m * (cards + no_king + no_manille + run) + z3.If(unplayed, m * (dearest - 1), 0)
    return potential <= m * (size + 1) + m * (dearest - 1)


def kept_loss(enc: Encoding, s: SymState, size: int, dearest: int, seat: int = 0) -> z3.BoolRef:
    """``lemmas.loss_in_play`` (each play of another seat takes at most one chip from ``seat``: a King,
    R-OLD-KING, or the stuck run its player then collects, R-OLD-LAST-CARD; the manille, a stop,
    ``dearest``, R-OLD-MANILLE-PLAY) made sharper by two chips never collected: the deal's last card, played
    by another seat, collects nothing unless it is a stop (a King or the manille: the run then needs no
    rank), and, while ``seat`` has not played, each seat's first play but the first seat's goes on with
    another seat's run (a lead is the last player's), whose chip is then never collected:

        lost + cards the other seats hold + (dearest - 1) * [another seat holds the manille]
             + [another seat's run open] + [another seat went out on a card that is not a stop]
             + [seat has not played] * (other seats that have played - 1, at least 0)
        <= (n-1) * size + (dearest - 1) * [seat does not hold the manille]

    with the facts the hand-overs stand on (``leads``)."""
    n = s.players
    others = z3.Sum(*[enc.hand_size(s, p) for p in range(n) if p != seat])
    held = z3.If(z3.And(s.comet >= 0, s.comet < n, s.comet != seat), dearest - 1, 0)
    open_run = z3.And(s.need > 0, s.last_player >= 0, s.last_player != seat, z3.Not(enc.terminal(s)))
    plain_out = z3.And(s.winner >= 0, s.winner != seat, s.need > 0)
    joined = z3.Sum(*[z3.If(enc.hand_size(s, p) < size, 1, 0) for p in range(n) if p != seat])
    handed = z3.If(enc.hand_size(s, seat) == size, z3.If(joined >= 1, joined - 1, 0), 0)
    potential = -s.chips[seat] + others + held + z3.If(open_run, 1, 0) + z3.If(plain_out, 1, 0) + handed
    bound = (n - 1) * size + z3.If(s.comet == seat, 0, dearest - 1)
    return z3.And(potential <= bound, *leads(enc, s, size))


def leads(enc: Encoding, s: SymState, size: int) -> list[z3.BoolRef]:
    """The facts a count of hand-overs stands on (as ``lemmas.long_deal``): a lead is by the last player to
    play (or the deal's first lead), the last player has played a card, and someone has played once the last
    player is set."""
    n = s.players
    lead = z3.Implies(
        z3.And(z3.Not(enc.terminal(s)), s.need == 0), z3.Or(s.last_player == -1, s.to_move == s.last_player)
    )
    last = [z3.Implies(s.last_player == p, enc.hand_size(s, p) < size) for p in range(n)]
    played = z3.Sum(*[size - enc.hand_size(s, p) for p in range(n)])
    return [lead, *last, (played > 0) == (s.last_player >= 0)]


def describe(model: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
    """A readable counterexample: the fields of ``s`` (and of ``t`` after ``a``) that a chips lemma speaks of."""

    def value(term: z3.ExprRef) -> str:
        return str(model.eval(term, model_completion=True))

    def state(x: SymState) -> str:
        hands = "; ".join(
            f"seat {p}: "
            + " ".join(f"{r}x{value(h)}" for r, h in zip(x.ranks, x.hands[p], strict=True) if value(h) != "0")
            for p in range(x.players)
        )
        return (
            f"hands [{hands}], manille {value(x.comet)}, chips {[value(c) for c in x.chips]}, need {value(x.need)}, "
            f"to move {value(x.to_move)}, last player {value(x.last_player)}, winner {value(x.winner)}"
        )

    if t is None or a is None:
        return f"a deal starts in {state(s)}"
    kind = KIND_NAMES.get(model.eval(a.kind, model_completion=True).as_long(), value(a.kind))
    return f"from {state(s)}, the action {kind} (rank {value(a.rank)}) leads to {state(t)}"


def refutation(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    lemma: Lemma,
    fixed: Callable[[SymState], list[z3.BoolRef]],
) -> str | None:
    """``lemmas.refutation`` with the counterexample in this module's words (``describe``)."""
    return lemmas.refutation(enc, players, rd, size, lemma, fixed, describe)


# The presets whose whole deal is bounded by these lemmas, with the most one play takes from each other seat
# (``dearest``): Old Comet's manille, ten from each (R-OLD-MANILLE-PLAY; a King or a stuck run, one)
DEAREST = {"old_comet": 10}


def whole_deal(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    dearest: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    played_before: bool,
    long_ok: bool,
) -> dict[str, int]:
    """The most seat 0 loses and wins in a whole deal (play and settlement, at once), each where its lemma is
    proved (``refutation``: ``kept_loss`` for the loser, ``win_in_play`` for the winner, and at two players
    each for seat 1 too, whose loss is seat 0's win): the optimum of seat 0's returns over finished ``Inv``
    states with the hands within the deal, ``fixed``, the lemmas proved, and ``run_played`` and
    ``long_deal`` where ``played_before`` and ``long_ok`` say they are proved (the losers keep a card each).
    Searched each time, no certificate (Optimize answers in 0.1-0.2 s at 2 to 5 players, 2026-12-05)."""

    def proved(lemma: Callable[[Encoding, SymState, int, int, int], z3.BoolRef], seat: int) -> Lemma | None:
        def at(x: SymState) -> z3.BoolRef:
            return lemma(enc, x, size, dearest, seat)

        return at if refutation(enc, players, rd, size, at, fixed) is None else None

    e = enc.fresh_state("w", players)
    finals = [enc.invariant(e), hands_within_deal(enc, e, size), enc.terminal(e), *fixed(e)]
    finals += [run_played(enc, e)] if played_before else []
    finals += [long_deal(enc, e, size)] if long_ok else []
    returned = enc.deal_returns(e, rd)[0]
    out: dict[str, int] = {}
    for name, own, other, objective in (
        (DEAL_LOSS, kept_loss, win_in_play, -returned),
        (DEAL_GAIN, win_in_play, kept_loss, returned),
    ):
        first = proved(own, 0)
        if first is None:
            continue
        second = proved(other, 1) if players == 2 else None
        facts = [first(e)] + ([second(e)] if second is not None else [])
        best = maxima(None, f"{players}p {name} in play and settlement", [*finals, *facts], [objective])[0]
        if best is not None:
            out[name] = best
    return out


__all__ = [
    "DEAREST",
    "Lemma",
    "describe",
    "kept_loss",
    "leads",
    "open_run_of",
    "refutation",
    "whole_deal",
    "win_in_play",
]
