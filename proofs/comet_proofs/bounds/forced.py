"""What R-PLAY-MUST leaves behind a finished deal, for the winner's most: lemmas over the encoding of the
standard family, each proved inductive per preset and player count before it is used.

- ``lemmas.dead_kept`` (shared with the longest deal's): the dead hand keeps the size it was dealt, so the
  cards the winner has played are the hand it was dealt, not fewer (``Inv`` alone lets the dead hand hold
  more low cards);
- ``passed_hold_none``: a seat that has passed on the run now open holds no natural card of the rank the run
  needs (R-PLAY-MUST; ``stops.passed_without``, shared with the longest deal's), and a new run starts on an
  open one only right after the Comet, by its player (RUL-COMET-AFTER);
- ``answered_runs``: while a hand holds a natural r+1, every r played was followed by an r+1 (R-PLAY-MUST,
  R-PLAY-CONTINUE): so the plays of rank r are at most the r+1s on the pile, the run open on r now, and the
  Comet where it stood for r+1;
- ``first_turn_runs`` and ``first_turn_leads`` (the Opera: an encoding with the field ``first_turn``): in a
  first turn no pass has been made, so every run but the one open now ended on a stop: each r played was
  followed by an r+1, whoever holds the r+1s, and the runs led are at most the stops played and the open run.

Together they close the Opera's winner's most at four and five players (the winner goes out in its first
turn: its runs end on Kings or the Comet, so its hand cannot be the lowest cards of the pack) and narrow the
standard game's at five (a loser holding the next rank must play it).  Where a lemma is not proved (another
preset's readings, or Z3 gives no answer in time), the bounds stand without it.  ``winner_most`` is the
optimum they give; ``proved.proved_bounds_in_value`` asks for it at the counts of ``proved.WINNER_MOST``."""

from __future__ import annotations

from collections.abc import Callable

import z3

from comet_proofs.bounds import lemmas
from comet_proofs.bounds.lemmas import dead_kept, dead_size, hands_within_deal, long_deal, run_played
from comet_proofs.bounds.optimum import WHOLE_MS, Problem, maxima, step_cases
from comet_proofs.bounds.stops import passed_without
from comet_proofs.encoding import Encoding
from comet_proofs.games.opera.option import FIRST
from comet_proofs.symbolic import (
    COMET_PLAYED,
    KIND_NAMES,
    KING,
    NATURAL,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)

Lemma = Callable[[SymState], z3.BoolRef]


def _rank_index(s: SymState) -> dict[int, int]:
    return {r: i for i, r in enumerate(s.ranks)}


def passed_hold_none(enc: Encoding, s: SymState, rd: Readings) -> z3.BoolRef:
    """The seats that have passed on the run hold none of the rank it needs (``stops.passed_without``, shared
    with the longest deal's lemmas), and a new run starts on an open one only right after the Comet, by its
    player, where RUL-COMET-AFTER lets it (``enc.reading``: as the encoding reads the ruling)."""
    fresh = z3.And(s.turn_played, s.to_move == s.last_player, s.comet == COMET_PLAYED, enc.reading(rd, "comet_after"))
    return z3.And(z3.Implies(s.free_lead, fresh), *passed_without(enc, s))


def answered_runs(enc: Encoding, s: SymState, rd: Readings) -> z3.BoolRef:
    """While a hand holds a natural r+1, each time a card of rank r went on a run an r+1 followed it: the plays
    of rank r are at most what can have followed them (``answers``).  The longest deal's ``stops.forced_runs``
    states the same of the whole pile at once, with the wild cards shared out, where this one counts the Comet
    for the rank it stood for at the end (``out_wild_as``), which the winner's most turns on."""
    index = _rank_index(s)
    parts = []
    for r in s.ranks:
        if r + 1 not in index:
            continue
        held = z3.Or(*[s.hands[p][index[r + 1]] > 0 for p in range(s.players)])
        plays, answered = answers(enc, s, r)
        parts.append(z3.Implies(held, plays <= answered))
    return z3.And(passed_hold_none(enc, s, rd), *parts)


def answers(enc: Encoding, s: SymState, r: int) -> tuple[z3.ArithRef, z3.ArithRef]:
    """The plays of rank ``r`` (at least the cards of rank r on the pile, or one where all of them are, which
    may have gone down at once: R-FOUR-OF-A-KIND, R-THREE-NINES) and what can have followed them with an r+1:
    the r+1s on the pile, the run open on r now (at the end of a deal won on a natural card: the run that card
    ended), and the Comet where it stood for r+1 (as the deal's last card, ``out_wild_as``, or at some rank
    earlier)."""
    index = _rank_index(s)
    i, j = index[r], index[r + 1]
    done = enc.terminal(s)
    plays = z3.If(s.played[i] == enc.pack_count(r), 1, s.played[i])
    open_on_r = z3.Or(z3.And(z3.Not(done), s.need == r + 1), z3.And(done, s.out_wild_as == 0))
    comet = z3.And(s.comet == COMET_PLAYED, z3.Or(s.out_wild_as == 0, s.out_wild_as == r + 1))
    return plays, s.played[j] + z3.If(open_on_r, 1, 0) + z3.If(comet, 1, 0)


def first_turn_runs(enc: Encoding, s: SymState, size: int) -> z3.BoolRef:
    """In a first turn (the Opera's field ``first_turn``) no pass has been made, so every run but the one open
    now ended on a stop: each play of a rank r below the King was followed by an r+1 (``answers``, whoever holds
    the r+1s); with the facts it stands on (the seats not to move hold the hands dealt them, and the seat to
    move has played or nobody has); true of any encoding without the field."""
    if FIRST not in {name for name, _ in s.extra}:
        return z3.BoolVal(True)
    followed = []
    for r in s.ranks:
        if r + 1 in s.ranks:
            plays, answered = answers(enc, s, r)
            followed.append(plays <= answered)
    untouched = z3.And(*[z3.Or(p == s.to_move, enc.hand_size(s, p) == size) for p in range(s.players)])
    started = z3.Or(z3.And(s.last_player == -1, s.need == 0), z3.And(s.turn_played, s.to_move == s.last_player))
    return z3.Implies(s.x(FIRST) == 1, z3.And(untouched, started, *followed))


def first_turn_leads(enc: Encoding, s: SymState, rd: Readings) -> z3.BoolRef:
    """In a first turn every run but the one open now (at the end of the deal: the last card's) ended on a stop,
    so the runs led are at most the Kings and the Comet played, plus that one.  A run is led wherever a play of
    rank r follows no play of rank r-1 but the one the open run ends on (a natural card: four of a kind only
    goes on with a run, R-FOUR-OF-A-KIND, unless RUL-QUARTET-LEAD lets it lead)."""
    if FIRST not in {name for name, _ in s.extra}:
        return z3.BoolVal(True)
    index = _rank_index(s)
    leads = []
    for r, i in index.items():
        # the plays of rank r-1 that a play of rank r can have followed (not the one the run open now ends on)
        awaited = z3.If(z3.And(z3.Not(enc.terminal(s)), s.need == r), 1, 0)
        before = s.played[index[r - 1]] - awaited if r - 1 in index else z3.IntVal(0)
        together = z3.And(s.played[i] == enc.pack_count(r), z3.Or(before >= 1, enc.reading(rd, "quartet_on_lead")))
        plays = z3.If(together, 1, s.played[i])
        leads.append(z3.If(plays > before, plays - before, 0))
    stops = s.played[index[KING]] + z3.If(s.comet == COMET_PLAYED, 1, 0)
    return z3.Implies(s.x(FIRST) == 1, z3.Sum(*leads) <= stops + z3.If(run_open(enc, s), 1, 0))


def run_open(enc: Encoding, s: SymState) -> z3.BoolRef:
    """A run is open now, one no stop has ended: on the pile while the deal goes on, and at its end where the
    last card was natural (not the Comet)."""
    return z3.If(enc.terminal(s), s.out_wild_as == 0, s.need > 0)


def describe(model: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
    """A readable counterexample: the hands, the pile and the run of ``s`` (and of ``t`` after ``a``)."""

    def value(term: z3.ExprRef) -> str:
        return str(model.eval(term, model_completion=True))

    def counts(row: tuple[z3.ArithRef, ...], ranks: tuple[int, ...]) -> str:
        return " ".join(f"{r}x{value(h)}" for r, h in zip(ranks, row, strict=True) if value(h) != "0") or "-"

    def state(x: SymState) -> str:
        hands = "; ".join(f"seat {p}: {counts(x.hands[p], x.ranks)}" for p in range(x.players))
        extra = ", ".join(f"{name} {value(v)}" for name, v in x.extra)
        return (
            f"hands [{hands}], pile {counts(x.played, x.ranks)}, dead {counts(x.dead, x.ranks)}, Comet {value(x.comet)}, "
            f"need {value(x.need)}, to move {value(x.to_move)}, last player {value(x.last_player)}, "
            f"turn played {value(x.turn_played)}, winner {value(x.winner)}, out as {value(x.out_wild_as)}"
            + (f", {extra}" if extra else "")
        )

    if t is None or a is None:
        return f"a deal starts in {state(s)}"
    kind = KIND_NAMES.get(model.eval(a.kind, model_completion=True).as_long(), value(a.kind))
    return f"from {state(s)}, the action {kind} (rank {value(a.rank)}) leads to {state(t)}"


def by_rank(enc: Encoding) -> Callable[[SymAction], list[z3.BoolRef]]:
    """The step's cases (``step_cases``), a natural play and four of a kind each split by the rank played: a
    first turn's count of runs led, so split, is about 4 s of Z3 at five players against 20 s by the step's
    cases alone (2026-12-06)."""

    def cases(a: SymAction) -> list[z3.BoolRef]:
        split: list[z3.BoolRef] = []
        for case in step_cases(enc, a):
            if z3.eq(case, a.kind == NATURAL) or z3.eq(case, a.kind == QUARTET):
                split += [z3.And(case, a.rank == r) for r in enc.ranks]
                split.append(z3.And(case, *[a.rank != r for r in enc.ranks]))
            else:
                split.append(case)
        return split

    return cases


def candidate_lemmas(
    enc: Encoding, players: int, rd: Readings, size: int
) -> dict[str, tuple[Lemma, Callable[[SymAction], list[z3.BoolRef]] | None]]:
    """The four lemmas by name, in the order they are proved, each with the split of the step it is proved by
    (None: the step's cases)."""
    dead = dead_size(enc, players, rd)
    return {
        "dead_kept": (lambda x: dead_kept(x, dead), None),
        "answered_runs": (lambda x: answered_runs(enc, x, rd), None),
        "first_turn_runs": (lambda x: first_turn_runs(enc, x, size), None),
        "first_turn_leads": (lambda x: first_turn_leads(enc, x, rd), by_rank(enc)),
    }


def proved_lemmas(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    known: list[Lemma],
) -> list[str]:
    """The names of those of ``candidate_lemmas`` that Z3 proves inductive here, each on top of ``known``
    (lemmas proved before: ``run_played``) and of the ones before it (``lemmas.refutation``, the state
    ``fixed`` at the preset's start)."""
    proved: list[str] = []
    candidates = candidate_lemmas(enc, players, rd, size)
    for name, (lemma, cases) in candidates.items():
        # the lemmas before are inductive on their own: assumed before the step, not checked again after it

        def before(x: SymState) -> list[z3.BoolRef]:
            return [*fixed(x), *[p(x) for p in known], *[candidates[q][0](x) for q in proved]]

        if lemmas.refutation(enc, players, rd, size, lemma, before, describe, 0 if cases else WHOLE_MS, cases) is None:
            proved.append(name)
    return proved


def winner_most(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    played_before: bool,
    long_ok: bool,
) -> tuple[int | None, int | None]:
    """The most seat 0 collects at the settlement and wins in the whole deal (settlement plus the Comet's
    bonus, ``lemmas.comet_only``), over finished ``Inv`` states with the lemmas proved here, ``run_played`` and
    ``long_deal`` where proved (``played_before``, ``long_ok``); (None, None) where none of these is proved."""
    known: list[Lemma] = [lambda x: run_played(enc, x)] if played_before else []
    found = proved_lemmas(enc, players, rd, size, fixed, known)
    if not found:
        return None, None
    candidates = candidate_lemmas(enc, players, rd, size)
    collect, won = winner_problems(enc, players, rd, size, fixed, known + [candidates[n][0] for n in found], long_ok)
    return (
        maxima(None, f"{players}p collected, forced runs", list(collect.constraints), [collect.objective])[0],
        maxima(None, f"{players}p won, forced runs", list(won.constraints), [won.objective])[0],
    )


def winner_problems(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    proved: list[Lemma],
    long_ok: bool,
) -> tuple[Problem, Problem]:
    """``winner_most``'s two optima over finished ``Inv`` states with the lemmas ``proved``: what seat 0
    collects at the settlement, and what it wins in the whole deal (where only the Comet pays in play)."""
    e = enc.fresh_state("f", players)
    finals = [enc.invariant(e), hands_within_deal(enc, e, size), enc.terminal(e), *fixed(e)]
    finals += [f(e) for f in proved]
    finals += [long_deal(enc, e, size)] if long_ok else []
    returned = enc.deal_returns(e, rd)[0]
    shown = (("the finished deal", e),)
    return (
        Problem(tuple(finals), returned - e.chips[0], shown),
        Problem((*finals, lemmas.comet_only(enc, e)), returned, shown),
    )
