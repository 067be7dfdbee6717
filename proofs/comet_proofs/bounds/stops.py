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
from comet.cards import DIAMONDS

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
from comet_proofs.bounds.optimum import TIMEOUT_MS, Problem, maximise
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import BRANCH, DECK51, NINE_D, NINE_LAST, PLAYED, SUIT, SuitedEncoding
from comet_proofs.games.red_nines.encoding import WILD_PLAYED
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import CARD, COMET_PLAYED, KIND_NAMES, KING, Readings, SymAction, SymState
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

    def name(i: int) -> str:
        return s.labels[i] if s.labels else str(s.ranks[i])

    def state(x: SymState) -> str:
        counts = [(i, value(c)) for i, c in enumerate(x.played) if value(c) != "0"]
        played = " ".join(name(i) if s.labels else f"{name(i)}x{c}" for i, c in counts)
        return (
            f"step {value(x.steps)}, played [{played}], Comet {value(x.comet)}, need {value(x.need)}, "
            f"to move {value(x.to_move)}, last player {value(x.last_player)}, winner {value(x.winner)}"
        )

    if t is None or a is None:
        return f"a deal starts at {state(s)}"
    kind = model.eval(a.kind, model_completion=True).as_long()
    rank = model.eval(a.rank, model_completion=True).as_long()
    if kind == CARD and rank in s.ranks:
        action = f"the card {name(s.ranks.index(rank))}"
    else:
        action = f"the action {KIND_NAMES.get(kind, str(kind))} (rank {rank})"
    return f"from {state(s)}, {action} leads to {state(t)}"


def forced_runs_refutation(
    enc: Encoding, players: int, rd: Readings, size: int, words: Words = step_words
) -> str | None:
    """Why ``forced_runs`` is not inductive, in words, or None where Z3 proves it (``lemmas.refutation``), the step
    split by its cases at once: tried whole, Z3 gave no answer in 20 s at five players in the standard game
    (Red Nines: 17.7 s at five, 6.2 s at four; split, 1.5-4 s, 2026-12-06)."""
    dead = dead_size(enc, players, rd)
    return refutation(enc, players, rd, size, lambda x: forced_runs(enc, x, size, dead), lambda x: [], words, 0)


def longest_at_last_step(enc: Encoding, players: int, rd: Readings, size: int) -> int | None:
    """The most actions of a deal, read at its last step: the optimum of ``steps`` over the steps s -> t with t
    finished, s an ``Inv`` state whose hands are within the deal, ``forced_runs`` true in both (the state before
    still shows who held the cards the last play needed).  Call only where ``forced_runs_refutation`` is None."""
    problem = last_step_problem(enc, players, rd, size)
    return maximise(list(problem.constraints), problem.objective)


def last_step_problem(enc: Encoding, players: int, rd: Readings, size: int) -> Problem:
    """``longest_at_last_step``'s optimum: the steps s -> t, t finished, ``forced_runs`` in both."""
    dead = dead_size(enc, players, rd)
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    constraints = [enc.invariant(s), hands_within_deal(enc, s, size), forced_runs(enc, s, size, dead)]
    constraints += [enc.transition(s, a, t, rd), enc.terminal(t), forced_runs(enc, t, size, dead)]
    return Problem(tuple(constraints), t.steps, (("before the last action", s), ("the finished deal", t)), a)


def suit_runs(enc: Encoding, s: SymState, size: int, dead: int) -> z3.BoolRef:
    """``long_stops`` with what R-COMMIT-H-SUIT makes of kept cards in 000's Commit (a card-level encoding, whose
    rows are cards; ``SuitedEncoding``), where a run goes on with the next card of its suit, which its holder
    must play, or with the 10D the 9D opens beside it (R-COMMIT-H-NINE):

    - a seat that has passed on a run holds not the card it needs (but on a run the 9D led, whose player must
      pass: RUL-COMMIT-H-NINE-LEAD-TURN = ends);
    - the cards played whose successor in the suit is still in a hand, their run not waiting for it now, are at
      most one, and none before the 9D and the 10D are played: a holder of the successor may take the 10D the
      9D opened instead, which abandons the old run (once: there is one 10D);
    - what the 9D leaves (``Inv`` admits more): a branch is open only after the 9D is played; a run with the
      9D last and no branch is the led 9D's (need 10, in diamonds); a turn the 9D ended on a run leaves its
      player without the card the run needs (it played the 9D instead of it)."""
    n = s.players
    if not isinstance(enc, SuitedEncoding):
        raise ValueError(f"{enc.name}: not a card-level encoding")
    parts = [long_stops(enc, s, size, dead)]
    going = z3.Not(enc.terminal(s))
    nine_played = enc.loc(s, NINE_D) == PLAYED
    led_nine = z3.And(s.x(NINE_LAST) == 1, s.x(BRANCH) == 0)
    parts.append(z3.Implies(s.x(BRANCH) != 0, nine_played))
    parts.append(z3.Implies(z3.And(led_nine, s.need > 0, going), z3.And(s.need == 10, s.x(SUIT) == DIAMONDS)))
    ended = z3.And(s.x(NINE_LAST) == 1, s.turn_played, going)
    on_run = z3.And(s.x(BRANCH) != 0, z3.Not(enc.holds(s, s.to_move, enc.run_next(s))))
    parts.append(z3.Implies(ended, z3.Or(on_run, z3.And(s.x(BRANCH) == 0, s.need == 10, s.x(SUIT) == DIAMONDS))))
    live = z3.And(s.need > 0, going, z3.Not(led_nine))

    def after(x: z3.ArithRef) -> z3.ArithRef:
        return (x - s.last_player + n) % n

    for p in range(n):
        passed = z3.And(live, after(z3.IntVal(p)) < after(s.to_move))
        parts.append(z3.Implies(passed, z3.Not(enc.holds(s, z3.IntVal(p), enc.run_next(s)))))
    left = []
    for c in DECK51:
        if c + 4 in DECK51 and c not in enc.stop_cards and c != NINE_D:
            waiting = z3.And(s.need == c // 4 + 1, s.x(SUIT) == c % 4)
            stranded = z3.And(enc.loc(s, c + 4) >= 0, enc.loc(s, c) == PLAYED, z3.Not(waiting))
            left.append(z3.If(stranded, 1, 0))
    parts.append(z3.Sum(*left) <= abandoned_runs(enc, s))
    return z3.And(parts)


def abandoned_runs(enc: SuitedEncoding, s: SymState) -> z3.ArithRef:
    """The runs a holder of their next card may have left for the 10D the 9D opened (R-COMMIT-H-NINE): one once
    the 9D and the 10D are played, none before."""
    return z3.If(z3.And(enc.loc(s, NINE_D) == PLAYED, enc.loc(s, NINE_D + 4) == PLAYED), 1, 0)


def suit_runs_refutation(enc: Encoding, players: int, rd: Readings, size: int, words: Words = step_words) -> str | None:
    """Why ``suit_runs`` is not inductive, in words, or None where Z3 proves it (``lemmas.refutation``; the step
    tried whole for 3 s: it takes 1.1 s of CPU at three players, and split by its cases 4.7 s, 2026-12-06)."""
    dead = dead_size(enc, players, rd)
    return refutation(enc, players, rd, size, lambda x: suit_runs(enc, x, size, dead), lambda x: [], words, 3_000)


def longest_counting_stops(
    enc: Encoding, players: int, rd: Readings, size: int, upper: int, suited: bool = False
) -> int:
    """The most actions of a finished deal under ``lemmas.long_stops`` (with ``suited``, ``suit_runs``) and
    ``Inv``, at most ``upper`` (a bound already proved): found downwards, each "a finished deal lasts at least
    ``upper``" proved unsat in turn, where ``Optimize`` finds no optimum in its time on a card-level encoding
    (000's Commit, 5 s); a check Z3 does not answer stops the descent at the last bound proved.  Call only where
    the lemma is proved (``long_deal_lemma_holds(..., stops=True)``, ``suit_runs_refutation``)."""
    problem = counting_stops_problem(enc, players, rd, size, suited)
    steps, bound = problem.objective, upper
    while bound > 0 and solve_alone([z3.And(*problem.constraints, steps >= bound)], TIMEOUT_MS).verdict == z3.unsat:
        bound -= 1
    return bound


def counting_stops_problem(enc: Encoding, players: int, rd: Readings, size: int, suited: bool) -> Problem:
    """``longest_counting_stops``'s finished deals: ``Inv``, hands within the deal, ``long_stops`` (with
    ``suited``, ``suit_runs``)."""
    dead = dead_size(enc, players, rd)
    end = enc.fresh_state("e", players)
    finished = [enc.invariant(end), hands_within_deal(enc, end, size), enc.terminal(end)]
    finished.append(suit_runs(enc, end, size, dead) if suited else long_stops(enc, end, size, dead))
    return Problem(tuple(finished), end.steps, (("the finished deal", end),))
