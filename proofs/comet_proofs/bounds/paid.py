"""What play can move where only some cards pay when played, each once (000's Commit: a King 1 chip from each
other player, R-COMMIT-H-KING-PAID; the 9D 2, R-COMMIT-H-NINE-PAID): the lemma ``paid_in_play``, proved
inductive per player count before it is used, and the whole deal's bounds it gives (settlement and play in
one optimum, instead of the settlement's bound plus the loose in-play potential of ``in_play``)."""

from __future__ import annotations

from collections.abc import Callable

import z3
from comet.cards import DIAMONDS, KING, card, card_text, rank_text

from comet_proofs.bounds.lemmas import hands_within_deal, refutation
from comet_proofs.bounds.optimum import maxima
from comet_proofs.bounds.quantities import DEAL_GAIN, DEAL_LOSS, POINTS
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import PLAYED, SuitedEncoding
from comet_proofs.symbolic import CARD, COMET, KIND_NAMES, PASS, Readings, SymAction, SymState

# The cards whose play pays, with what each pays its player from each other seat, per preset: 000's Commit's
# four Kings (1, R-COMMIT-H-KING-PAID) and the 9D (2, R-COMMIT-H-NINE-PAID).  A wrong table is refused: the
# lemma is then not proved (``paid_in_play_lemma_holds``) and the bound falls back to the potential.
PAID_IN_PLAY: dict[str, tuple[tuple[int, int], ...]] = {
    "commit_hoyle": (*((card(KING, suit), 1) for suit in range(4)), (card(9, DIAMONDS), 2)),
    # 002's Commit, a points game: a King scores its player 1 (R-COMMIT-C-KING), the Comet (the 9D) 2
    # (R-COMMIT-C-COMET), standing for a King or not (RUL-COMMIT-C-COMET-KING = comet_only)
    "commit_cats": (*((card(KING, suit), 1) for suit in range(4)), (card(9, DIAMONDS), 2)),
}


def unplayed(enc: Encoding, s: SymState, paid: tuple[tuple[int, int], ...]) -> z3.ArithRef:
    """What the paying cards not yet played would pay, one chip per other seat (in a hand or face down)."""
    assert isinstance(enc, SuitedEncoding), "the lemma reads each card's place (a card-level encoding)"
    return z3.Sum(*[z3.If(enc.loc(s, c) == PLAYED, 0, amount) for c, amount in paid])


def paid_in_play(enc: Encoding, s: SymState, paid: tuple[tuple[int, int], ...], won: bool, seat: int = 0) -> z3.BoolRef:
    """What ``seat`` can have lost (``won`` False) or won (True) in play where a card of ``paid`` pays its
    amount to its player from each other seat when played, and nothing else moves chips in play: each card
    is paid once, so

    - lost: the chips lost, plus what the paying cards still unplayed pay, is at most what they all pay (a
      card another seat plays takes its amount from ``seat``; one ``seat`` plays takes nothing from it);
    - won: the chips won, plus n-1 times what the unplayed cards pay, is at most n-1 times what they all pay
      (a card ``seat`` plays brings its amount from each of the n-1 others; one another plays costs it).

    At the end of a deal the cards unplayed are in hands (the settlement charges the holder, R-COMMIT-H-CAUGHT,
    R-COMMIT-H-KINGS-HELD) or face down, so one optimum over the settlement and this lemma sees that a card
    is paid for in play or at the settlement, never both."""
    total = sum(amount for _, amount in paid)
    left = unplayed(enc, s, paid)
    if enc.scoring == "points":  # the points scored in play: only its own plays score for ``seat``
        scored = enc.play_points(s, seat)
        assert scored is not None and won, "a points game's lemma is on the points scored"
        return scored + left <= total
    if won:
        return s.chips[seat] + (s.players - 1) * left <= (s.players - 1) * total
    return -s.chips[seat] + left <= total


def paid_in_play_lemma_holds(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    paid: tuple[tuple[int, int], ...],
    won: bool,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    seat: int = 0,
) -> bool:
    """``paid_in_play`` is proved: ``paid_in_play_refuted`` finds nothing."""
    return paid_in_play_refuted(enc, players, rd, size, paid, won, fixed, seat) is None


def paid_in_play_refuted(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    paid: tuple[tuple[int, int], ...],
    won: bool,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    seat: int = 0,
) -> str | None:
    """None where ``paid_in_play`` is proved inductive (``lemmas.refutation``: true in every initial deal and
    kept by every step from an ``Inv`` state whose hands are within the deal, both with the fields ``fixed``
    holds, the preset's stake); else a line saying why not, with Z3's
    counterexample in words where it found one (an initial deal, or the step that breaks it: a wrong
    ``paid``, another play that moves chips)."""

    def lemma(x: SymState) -> z3.BoolRef:
        return paid_in_play(enc, x, paid, won, seat)

    def words(m: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
        if t is None or a is None:
            return f"an initial deal breaks it: {standing(enc, m, s, paid, won, seat)}"
        kind, code, mover = (m.eval(x, model_completion=True).as_long() for x in (a.kind, a.rank, s.to_move))
        what = (
            "passes" if kind == PASS else f"plays {card_text(code)}" if kind == CARD else f"plays {played(kind, code)}"
        )
        before = standing(enc, m, s, paid, won, seat)
        after = standing(enc, m, t, paid, won, seat)
        return f"seat {mover} {what}, and the step breaks it: before, {before}; after, {after}"

    return refutation(enc, players, rd, size, lemma, fixed, words)


def played(kind: int, rank: int) -> str:
    """A rank-level action in words (the Comet standing for ``rank``, a natural card of ``rank``)."""
    return f"the Comet as {rank_text(rank)}" if kind == COMET else f"{KIND_NAMES.get(kind, kind)} {rank_text(rank)}"


def standing(
    enc: Encoding, m: z3.ModelRef, x: SymState, paid: tuple[tuple[int, int], ...], won: bool, seat: int
) -> str:
    """``paid_in_play`` in the model ``m`` for the state ``x``, in words."""

    def value(e: z3.ArithRef) -> int:
        return int(m.eval(e, model_completion=True).as_long())

    total = sum(amount for _, amount in paid)
    chips, left = value(x.chips[seat]), value(unplayed(enc, x, paid))
    scored = enc.play_points(x, seat) if enc.scoring == "points" else None
    if scored is not None:
        got = value(scored)
        return (
            f"seat {seat} has scored {got} in play and the unplayed paying cards score {left}: "
            f"{got} + {left} against at most {total}"
        )
    if won:
        n = x.players
        return (
            f"seat {seat} has won {chips} in play and the unplayed paying cards pay {left} a seat: "
            f"{chips} + {n - 1} x {left} against at most {n - 1} x {total}"
        )
    return f"seat {seat} has lost {-chips} in play and the unplayed paying cards pay {left}: {-chips} + {left} against at most {total}"


def paid_whole_deal(
    enc: Encoding,
    preset: str,
    players: int,
    rd: Readings,
    size: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    also: Callable[[SymState], list[z3.BoolRef]],
) -> dict[str, int]:
    """The most seat 0 loses and wins in a whole deal of ``preset`` (every seat is alike), each over the
    finished deals of ``Inv`` with the hands within the deal, ``fixed``, ``also`` (the other lemmas proved)
    and ``paid_in_play`` (lost, or won), where that is proved; the quantities whose lemma is not proved (or
    whose optimum is not found) are left out."""
    paid = PAID_IN_PLAY.get(preset)
    out: dict[str, int] = {}
    if paid is None:
        return out
    for name, won in ((DEAL_LOSS, False), (DEAL_GAIN, True)):
        if not paid_in_play_lemma_holds(enc, players, rd, size, paid, won, fixed):
            continue
        e = enc.fresh_state("w" if won else "l", players)
        finals = [enc.invariant(e), hands_within_deal(enc, e, size), enc.terminal(e), *fixed(e), *also(e)]
        finals.append(paid_in_play(enc, e, paid, won))
        returned = enc.deal_returns(e, rd)[0]
        # searched each time (no certificate)
        most = maxima(None, f"{players}p {name} with what is paid in play", finals, [returned if won else -returned])[0]
        if most is not None:
            out[name] = most
    return out


def paid_points(
    enc: Encoding, preset: str, players: int, rd: Readings, size: int, fixed: Callable[[SymState], list[z3.BoolRef]]
) -> int | None:
    """The most points seat 0 scores in a deal of a points game where only ``PAID_IN_PLAY``'s cards score in
    play (002's Commit), once ``paid_in_play`` is proved: the most of the deal's points over the finished
    states with the lemma, the hands within the deal and the paying cards in their places, without ``Inv``
    (fewer constraints, so still a bound on every finished deal; with ``Inv`` Z3 found no optimum in 30 s on
    this card-level encoding, ``proved``); None where the lemma is not proved or no optimum is found."""
    paid = PAID_IN_PLAY.get(preset)
    if paid is None or not paid_in_play_lemma_holds(enc, players, rd, size, paid, True, fixed):
        return None
    assert isinstance(enc, SuitedEncoding), "the lemma reads each card's place (a card-level encoding)"
    e = enc.fresh_state("p", players)
    finals = [*[enc.hand_size(e, q) >= 0 for q in range(players)], hands_within_deal(enc, e, size), enc.terminal(e)]
    finals += [*fixed(e), paid_in_play(enc, e, paid, True)]
    finals += [enc.valid_place(enc.loc(e, c), players) for c, _ in paid]
    # searched each time (no certificate)
    return maxima(None, f"{players}p {POINTS} with what is scored in play", finals, [enc.deal_points(e, rd)[0]])[0]
