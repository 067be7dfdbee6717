"""The longest deal where stops and kept cards force plays: a lemma proved inductive per preset and player count
before it is used (``forced_runs``), and the longest deal it leaves, read at the step that ends the deal
(``longest_at_last_step``).

``lemmas.long_stops`` charges each stop played before the deal's last card the n passes it is not followed
by.  What it leaves open is a deal whose stops are all kept to the end (dead, in a loser's hand, or the last
card).  R-PLAY-MUST closes it: a seat holding a natural card of rank r+1 makes every r played go on to an
r+1 or the Comet (a stop), so a loser keeping a King bars the Queens, a Queen kept bars the Jacks, and the
one Queen the winner may play before a last King needs the Jacks it follows to have gone on to Queens that
are not there.  The facts, each about the state alone:

- the seats that have passed on the run hold no natural card of the rank it needs (they could not pass);
- ``kept_bars``: while a seat holds a natural r+1, the r played are at most the r+1 played, plus one if the
  run needs an r+1 now, plus the wild cards (the Comet, Red Nines' red nines) that went on from an r: summed
  over those ranks, the r played beyond are at most the wild cards played;
- ``run_made``: a run needing r+1 was made by an r from a hand holding it, so the r-1 played are at most the
  r played plus the wild cards played;

each "unless the count has n+1 actions to spare", which a set (three 9s, four of a kind, a first group)
leaves: it puts down k cards in one action.  The dead hand keeps its size, and no free lead comes after the
Comet (the preset's RUL-COMET-AFTER: stop).
"""

from __future__ import annotations

import z3

from comet_proofs.bounds.lemmas import (
    Words,
    cards_played,
    dead_size,
    hands_within_deal,
    long_stops,
    passes_left,
    refutation,
    seats_joined,
    stop_charge,
)
from comet_proofs.bounds.optimum import TIMEOUT_MS, maximise
from comet_proofs.encoding import Encoding
from comet_proofs.games.red_nines.encoding import WILD_PLAYED
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import COMET_PLAYED, KIND_NAMES, KING, Readings, SymAction, SymState
from comet_proofs.terms import rank_at


def slack(enc: Encoding, s: SymState, size: int) -> z3.ArithRef:
    """What ``long_stops`` has to spare: its right side less its left (never below 0 where it holds)."""
    n = s.players
    allowed = (n + 1) * cards_played(enc, s, size) - seats_joined(enc, s, size) - stop_charge(enc, s)
    return allowed - s.steps - passes_left(enc, s)


def wilds_played(s: SymState) -> z3.ArithRef:
    """The wild cards played: the Comet, or Red Nines' red nines (``WILD_PLAYED``)."""
    if WILD_PLAYED in {name for name, _ in s.extra}:
        return s.x(WILD_PLAYED)
    return z3.If(s.comet == COMET_PLAYED, 1, 0)


def passed_without(enc: Encoding, s: SymState) -> list[z3.BoolRef]:
    """R-PLAY-MUST, R-TURN-END: a seat that has passed on the run (the run's last player once the turn has
    left it, and the seats after it up to the one to move) holds no natural card of the rank it needs."""
    n = s.players
    live = z3.And(s.need > 0, s.need <= KING, z3.Not(enc.terminal(s)))

    def after(x: z3.ArithRef) -> z3.ArithRef:
        return (x - s.last_player + n) % n

    return [
        z3.Implies(z3.And(live, after(z3.IntVal(p)) < after(s.to_move)), rank_at(s.hands[p], s.need, s.ranks) == 0)
        for p in range(n)
    ]


def kept_bars(s: SymState, spare: z3.BoolRef) -> list[z3.BoolRef]:
    """R-PLAY-MUST: while a seat holds a natural r+1, each r played went on to an r+1 or a wild card, or the
    run needs an r+1 now, and each wild card played went on from one r only: summed over the ranks whose r+1
    is held, the r played beyond the r+1 played (and the one the run needs now) are at most the wild cards
    played (``spare``: unless a set was played)."""
    index = {r: i for i, r in enumerate(s.ranks)}
    beyond: list[z3.ArithRef] = []
    for r in s.ranks:
        if r + 1 in index:
            held = z3.Or([h[index[r + 1]] >= 1 for h in s.hands])
            excess = s.played[index[r]] - s.played[index[r + 1]] - z3.If(s.need == r + 1, 1, 0)
            beyond.append(z3.If(z3.And(held, excess > 0), excess, 0))
    return [z3.Or(z3.Sum(*beyond) <= wilds_played(s), spare)]


def run_made(s: SymState, spare: z3.BoolRef) -> list[z3.BoolRef]:
    """A run needing r+1 was made by an r from a hand that held it, where ``kept_bars`` held for r-1 just
    before: the r-1 played are at most the r played and the wild cards (``spare``: unless a set was played).
    Where a wild card goes on (Red Nines' red nines, RUL-RED9-NINE-STOP = continues) the r may be a red nine
    from a hand holding no natural r: then only while some seat holds a natural r."""
    index = {r: i for i, r in enumerate(s.ranks)}
    goes_on = WILD_PLAYED in {name for name, _ in s.extra}
    out = []
    for r in s.ranks:
        if r - 1 in index and r + 1 <= KING:
            bound = s.played[index[r - 1]] <= s.played[index[r]] + wilds_played(s)
            none_held = z3.And([h[index[r]] == 0 for h in s.hands]) if goes_on else z3.BoolVal(False)
            out.append(z3.Implies(s.need == r + 1, z3.Or(bound, spare, none_held)))
    return out


def forced_runs(enc: Encoding, s: SymState, size: int, dead: int) -> z3.BoolRef:
    """``long_stops`` with the facts that make kept cards force plays (the module's doc); ``dead``: the cards
    the dead hand is dealt."""
    spare = slack(enc, s, size) >= s.players + 1
    parts = [long_stops(enc, s, size, dead), z3.Not(s.free_lead), *passed_without(enc, s)]
    return z3.And(*parts, *kept_bars(s, spare), *run_made(s, spare))


def step_words(model: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
    """A counterexample to a longest-deal lemma in words: the counts it speaks of before (and after) the step."""

    def value(term: z3.ExprRef) -> str:
        return str(model.eval(term, model_completion=True))

    def state(x: SymState) -> str:
        played = " ".join(f"{r}x{value(c)}" for r, c in zip(x.ranks, x.played, strict=True) if value(c) != "0")
        return (
            f"step {value(x.steps)}, played [{played}], Comet {value(x.comet)}, need {value(x.need)}, "
            f"to move {value(x.to_move)}, last player {value(x.last_player)}, winner {value(x.winner)}"
        )

    if t is None or a is None:
        return f"a deal starts at {state(s)}"
    kind = KIND_NAMES.get(model.eval(a.kind, model_completion=True).as_long(), value(a.kind))
    return f"from {state(s)}, the action {kind} (rank {value(a.rank)}) leads to {state(t)}"


def forced_runs_refutation(
    enc: Encoding, players: int, rd: Readings, size: int, words: Words = step_words
) -> str | None:
    """Why ``forced_runs`` is not inductive, in words, or None where Z3 proves it (``lemmas.refutation``)."""
    dead = dead_size(enc, players, rd)
    return refutation(enc, players, rd, size, lambda x: forced_runs(enc, x, size, dead), lambda x: [], words)


def longest_at_last_step(enc: Encoding, players: int, rd: Readings, size: int) -> int | None:
    """The most actions of a deal, read at its last step: the optimum of ``steps`` over the steps s -> t with t
    finished, s an ``Inv`` state whose hands are within the deal, ``forced_runs`` true in both (the state before
    still shows who held the cards the last play needed).  Call only where ``forced_runs_refutation`` is None."""
    dead = dead_size(enc, players, rd)
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    constraints = [enc.invariant(s), hands_within_deal(enc, s, size), forced_runs(enc, s, size, dead)]
    constraints += [enc.transition(s, a, t, rd), enc.terminal(t), forced_runs(enc, t, size, dead)]
    return maximise(constraints, t.steps)


def longest_counting_stops(enc: Encoding, players: int, rd: Readings, size: int, upper: int) -> int:
    """The most actions of a finished deal under ``lemmas.long_stops`` and ``Inv``, at most ``upper`` (a bound
    already proved): found downwards, each "a finished deal lasts at least ``upper``" proved unsat in turn, where
    ``Optimize`` finds no optimum in its time on a card-level encoding (000's Commit, 5 s); a check Z3 does not
    answer stops the descent at the last bound proved.  Call only where ``long_deal_lemma_holds(..., stops=True)``."""
    dead = dead_size(enc, players, rd)
    end = enc.fresh_state("e", players)
    finished = [enc.invariant(end), hands_within_deal(enc, end, size), enc.terminal(end)]
    finished.append(long_stops(enc, end, size, dead))
    bound = upper
    while bound > 0 and solve_alone([z3.And(*finished, end.steps >= bound)], TIMEOUT_MS).verdict == z3.unsat:
        bound -= 1
    return bound
