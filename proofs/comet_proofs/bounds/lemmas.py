"""The lemmas the bounds stand on, each proved before it is used: "no hand is larger than the hand dealt"
and, where only the Comet pays in play, ``comet_only``."""

from __future__ import annotations

from collections.abc import Callable

import z3

from comet_proofs.bounds.optimum import TIMEOUT_MS, WHOLE_MS, maxima, step_cases, unsat_at_once
from comet_proofs.certificates import Certificates
from comet_proofs.encoding import Encoding
from comet_proofs.games.commit_common import BRANCH, NINE_LAST
from comet_proofs.solving import solve_alone
from comet_proofs.symbolic import COMET_DEAD, COMET_PLAYED, KING, NINE, Readings, SymAction, SymState


def dealt_size(enc: Encoding, players: int, rd: Readings, certs: Certificates | None = None) -> int:
    """The largest hand an initial deal gives (Optimize over ``Init``; ``certs``: ``maxima``)."""
    init = enc.fresh_state("d", players)
    size = maxima(certs, f"{players}p largest hand dealt", [enc.initial(init, rd)], [enc.hand_size(init, 0)])[0]
    if size is None:
        raise AssertionError(f"{enc.name}: no largest initial hand")
    return size


def hands_within_deal(enc: Encoding, s: SymState, size: int) -> z3.BoolRef:
    return z3.And([enc.hand_size(s, p) <= size for p in range(s.players)])


def lemma_holds(enc: Encoding, players: int, rd: Readings, size: int) -> bool:
    """ "No hand is larger than the hand dealt": true initially, and no step makes any hand larger (whatever
    the state: no invariant needed; the step tried whole, then split by the encoding's ``action_cases``, as
    the proofs do: ``unsat_at_once``)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    base = z3.And(enc.initial(s, rd), z3.Not(hands_within_deal(enc, s, size)))
    grows = z3.Or([enc.hand_size(t, p) > enc.hand_size(s, p) for p in range(players)])
    step = z3.And(enc.transition(s, a, t, rd), grows)
    if solve_alone([base], 6 * TIMEOUT_MS).verdict != z3.unsat:
        return False
    if unsat_at_once([step], [z3.BoolVal(True)]):
        return True
    return all(solve_alone([step], 6 * TIMEOUT_MS, c).verdict == z3.unsat for c in step_cases(enc, a))


def comet_only(enc: Encoding, s: SymState) -> z3.BoolRef:
    """Chips move in play only for the Comet, once: none before it is played, and then no seat has paid
    more than 4 times its value or received more than that from each other player."""

    cv, n = s.comet_value, s.players
    bounded = [z3.And(c >= -4 * cv, c <= 4 * cv * (n - 1)) for c in s.chips]
    return z3.And(z3.Implies(s.comet != COMET_PLAYED, z3.And([c == 0 for c in s.chips])), *bounded)


def comet_only_lemma_holds(enc: Encoding, players: int, rd: Readings) -> bool:
    """``comet_only`` is true initially and kept by every step from an ``Inv`` state (so it bounds the chips
    a deal moves in play); false where other things pay in play (Kings paid for in play, in some games)."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    init = enc.fresh_state("i", players)
    for formula in (
        z3.And(enc.initial(init, rd), z3.Not(comet_only(enc, init))),
        z3.And(enc.invariant(s), comet_only(enc, s), enc.transition(s, a, t, rd), z3.Not(comet_only(enc, t))),
    ):
        if solve_alone([formula], 2 * TIMEOUT_MS).verdict != z3.unsat:
            return False
    return True


def run_played(enc: Encoding, s: SymState) -> z3.BoolRef:
    """A run needs rank r only after an r-1 was played, and a deal won on the Comet standing for a 9 has an 8
    on the pile: the Comet as a 9 answers a run that needs a 9 (so no finished deal has the winner out on the
    Comet as a 9 while the losers hold every 8, a state ``Inv`` alone admits)."""
    index = {r: i for i, r in enumerate(s.ranks)}
    parts = [z3.Implies(s.need == r, s.played[index[r - 1]] >= 1) for r in s.ranks if r - 1 in index]
    if NINE - 1 in index:
        parts.append(z3.Implies(s.out_wild_as == NINE, s.played[index[NINE - 1]] >= 1))
    return z3.And(*parts)


def run_played_lemma_holds(enc: Encoding, players: int, rd: Readings, size: int) -> bool:
    """``run_played`` is true initially and kept by every step from an ``Inv`` state whose hands are within
    the deal (``refutation``: tried whole, then split by the step's cases, as ``lemma_holds``); false where the
    preset's readings let the Comet stand for a 9 without an 8 before it."""

    def unworded(m: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
        return "refuted"

    return refutation(enc, players, rd, size, lambda x: run_played(enc, x), lambda x: [], unworded) is None


def passes_left(enc: Encoding, s: SymState) -> z3.ArithRef:
    """The passes that can still come before the next play under the default readings: on a run, one per
    seat until the turn is back with the last player to play (who then must lead: R-STOP-STUCK, R-NEW-RUN,
    and a hand of only the Comet leads it as a King, RUL-COMET-LEAD); none on a lead; at the end of the deal
    the n passes the last play would have been owed (so the last play is charged as every other)."""
    n = s.players
    dist = (s.last_player - s.to_move + n) % n
    return z3.If(enc.terminal(s), n, z3.If(s.need > 0, z3.If(dist == 0, n, dist), 0))


def cards_played(enc: Encoding, s: SymState, size: int) -> z3.ArithRef:
    """The cards played so far, every seat dealt ``size`` (``long_deal_lemma_holds`` checks that)."""
    return z3.Sum(*[size - enc.hand_size(s, p) for p in range(s.players)])


def seats_joined(enc: Encoding, s: SymState, size: int) -> z3.ArithRef:
    """The seats that have played a card, less the first to play (none before anyone has)."""
    joined = z3.Sum(*[z3.If(enc.hand_size(s, p) < size, 1, 0) for p in range(s.players)])
    return joined - z3.If(cards_played(enc, s, size) > 0, 1, 0)


def long_deal(enc: Encoding, s: SymState, size: int, dead: int | None = None) -> z3.BoolRef:
    """How long a deal can have lasted: ``steps + passes_left <= (n+1) * cards played - seats joined``.

    Each play may be followed by at most n passes (its player's "without" and the others' passes, then the
    turn is back with it and it must lead), so a play is worth at most n+1 actions; a seat's first play, but
    the first seat's, continues another seat's run, which reaches it after fewer than n passes (it is not
    back with the run's last player), so it costs one action at least.  With the facts the count stands on:
    each seat other than the one to move holds a card (the losers keep one at the end), a lead is by the last
    player to play (or the first lead of the deal), the last player has played a card, and someone has
    played once the last player is set.  Given ``dead``, the cards dealt to the dead hand (``long_stops``): less
    ``stop_charge`` besides, and the dead hand keeps its size (the stops it takes are never played)."""
    n = s.players
    played = cards_played(enc, s, size)
    charged = z3.IntVal(0) if dead is None else stop_charge(enc, s)
    count = s.steps + passes_left(enc, s) <= (n + 1) * played - seats_joined(enc, s, size) - charged
    if dead is not None:
        count = z3.And(count, dead_kept(s, dead))
    holding = [z3.Or(s.to_move == p, enc.hand_size(s, p) > 0) for p in range(n)]
    lead = z3.Implies(
        z3.And(z3.Not(enc.terminal(s)), s.need == 0), z3.Or(s.last_player == -1, s.to_move == s.last_player)
    )
    last = [z3.Implies(s.last_player == p, enc.hand_size(s, p) < size) for p in range(n)]
    return z3.And(count, *holding, lead, *last, (played > 0) == (s.last_player >= 0), *nine_left_open(enc, s))


def stops_played(enc: Encoding, s: SymState) -> z3.ArithRef | None:
    """The stops played so far, read from where the cards lie: the Kings on the pile (R-STOP-KING) and the
    Comet played (R-COMET-STOP; Red Nines' red nines, which a reading lets go on, are not counted: counting
    fewer stops only weakens the lemma); in a card-level encoding its ``stop_cards`` played (None where it names
    none)."""
    if enc.card_level:
        if not enc.stop_cards:
            return None
        return z3.Sum(*[s.played[s.ranks.index(c)] for c in enc.stop_cards])
    if KING not in s.ranks:
        return None
    return s.played[s.ranks.index(KING)] + z3.If(s.comet == COMET_PLAYED, 1, 0)


def stop_cost(players: int) -> int:
    """The actions a stop played before the deal's last card leaves unused: the n passes a play may be followed
    by (none follow a stop: its player leads at once, R-STOP-KING, R-COMET-STOP, R-NEW-RUN)."""
    return players


def stop_charge(enc: Encoding, s: SymState) -> z3.ArithRef:
    """``stop_cost`` for each stop played (``stops_played``), but the deal's last card: a finished deal whose run
    was ended by its last play (``need`` 0, a stop played) is charged one stop fewer, its last play counting the n passes
    it would have been owed as any other (``passes_left``)."""
    stops = stops_played(enc, s)
    if stops is None:
        return z3.IntVal(0)
    last = z3.If(z3.And(enc.terminal(s), s.need == 0, stops >= 1), 1, 0)
    return stop_cost(s.players) * (stops - last)


def long_stops(enc: Encoding, s: SymState, size: int, dead: int) -> z3.BoolRef:
    """``long_deal`` sharpened by the stops: ``steps + passes_left <= (n+1) * cards played - seats joined - n *
    (stops played, but the deal's last card)``.  A stop is followed by no pass (its player leads next), so it
    is worth one action, not n+1; the deal's last card is owed its n passes whatever it is (``passes_left`` of
    a finished deal), so a stop that ends the deal costs nothing; ``dead``: the cards dealt to the dead hand,
    which keeps them."""
    return long_deal(enc, s, size, dead)


def dead_kept(s: SymState, dead: z3.ArithRef | int) -> z3.BoolRef:
    """The dead hand holds the ``dead`` cards it was dealt (the Comet among them where it lies there): no play
    touches it, where ``Inv`` alone lets it hold more."""
    return z3.Sum(*s.dead) + z3.If(s.comet == COMET_DEAD, 1, 0) == dead


def dead_size(enc: Encoding, players: int, rd: Readings) -> int:
    """The cards the dead hand is dealt under the readings ``rd`` (fixed readings: a number)."""
    value = z3.simplify(enc.deal_size(players, rd)[1])
    if not z3.is_int_value(value):
        raise ValueError(f"{enc.name}: the dead hand's size depends on a free reading")
    return int(value.as_long())


def nine_left_open(enc: Encoding, s: SymState) -> list[z3.BoolRef]:
    """000's Commit (an encoding with the fields ``nine_last`` and ``branch``): a turn the 9D has just ended
    (R-COMMIT-H-NINE: only a pass is left to its player) leaves a run open, the old run or the led 9D's
    diamonds, so its player's pass is a pass on a run, not on a lead; ``Inv`` alone admits the turn ended
    with nothing open, where ``long_deal`` breaks.  No fact elsewhere."""
    names = {name for name, _ in s.extra}
    if NINE_LAST not in names or BRANCH not in names:
        return []
    ended = z3.And(s.x(NINE_LAST) == 1, s.turn_played, s.to_move == s.last_player, z3.Not(enc.terminal(s)))
    return [z3.Implies(ended, z3.Or(s.need > 0, s.x(BRANCH) != 0))]


def long_deal_lemma_holds(enc: Encoding, players: int, rd: Readings, size: int, stops: bool = False) -> bool:
    """``long_deal`` is true in every initial deal (each seat dealt ``size`` cards) and kept by every step from
    an ``Inv`` state whose hands are within the deal (tried whole, then split by the step's cases, as
    ``lemma_holds``); false where the readings let a player pass on a lead (a stuck run's restart or a new
    run after a stop declined, a Comet that may not lead) or the deal sizes differ.  With ``stops``, the same
    for ``long_stops`` (false where the encoding reads no stops, ``stops_played``, or a stop may be followed
    by passes: a King left standing in Red Nines, a red nine that goes on)."""
    if stops and stops_played(enc, enc.fresh_state("c", players)) is None:
        return False
    dead = dead_size(enc, players, rd) if stops else None

    def dealt(x: SymState) -> list[z3.BoolRef]:  # checked in the initial deals only: every seat dealt ``size``
        return [enc.hand_size(x, p) == size for p in range(players)]

    lemma = lambda x: long_deal(enc, x, size, dead)  # noqa: E731
    return refutation(enc, players, rd, size, lemma, lambda x: [], unexplained, dealt=dealt) is None


def loss_in_play(enc: Encoding, s: SymState, size: int, dearest: int, seat: int = 0) -> z3.BoolRef:
    """What ``seat`` can have lost in play where each play of another seat takes at most one chip from it (a
    King, R-OLD-KING, or the stuck run its player then collects, R-OLD-LAST-CARD) and one card, the wild card
    (the manille, R-OLD-MANILLE-PLAY), ``dearest`` chips: the chips lost, plus the cards the other seats hold,
    plus ``dearest - 1`` while another seat holds the wild card, plus one while a run another seat played last
    is still open (its stuck run's chip to come), is at most the cards dealt to the others (and ``dearest - 1``
    unless seat 0 holds the wild card, which then never was another's)."""
    n = s.players
    others = z3.Sum(*[enc.hand_size(s, p) for p in range(n) if p != seat])
    held = z3.If(z3.And(s.comet >= 0, s.comet < n, s.comet != seat), dearest - 1, 0)
    open_run = z3.And(s.need > 0, s.last_player >= 0, s.last_player != seat, z3.Not(enc.terminal(s)))
    potential = -s.chips[seat] + others + held + z3.If(open_run, 1, 0)
    return potential <= (n - 1) * size + z3.If(s.comet == seat, 0, dearest - 1)


def loss_in_play_lemma_holds(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    dearest: int,
    fixed: Callable[[SymState], list[z3.BoolRef]],
    seat: int = 0,
) -> bool:
    """``loss_in_play`` is true initially and kept by every step from an ``Inv`` state whose hands are within
    the deal and whose fields ``fixed`` holds (the Comet's value at the start: the manille's ten), tried whole,
    then split by the step's cases (``refutation``)."""
    lemma = lambda x: loss_in_play(enc, x, size, dearest, seat)  # noqa: E731
    return refutation(enc, players, rd, size, lemma, fixed, unexplained) is None


#: A counterexample in words: Z3's model, the state before, and the state after and the action of the step that
#: breaks the lemma (both None where an initial deal is what breaks it).
Words = Callable[[z3.ModelRef, SymState, SymState | None, SymAction | None], str]


def refutation(
    enc: Encoding,
    players: int,
    rd: Readings,
    size: int,
    lemma: Callable[[SymState], z3.BoolRef],
    fixed: Callable[[SymState], list[z3.BoolRef]],
    words: Words,
    whole_ms: int = WHOLE_MS,
    cases: Callable[[SymAction], list[z3.BoolRef]] | None = None,
    dealt: Callable[[SymState], list[z3.BoolRef]] | None = None,
) -> str | None:
    """Why ``lemma`` is not inductive, in ``words`` (a deal it is false in, or a step that breaks it), or None
    where Z3 proves it true in every initial deal whose fields ``fixed`` holds and kept by every step from an
    ``Inv`` state whose hands are within the deal and whose fields ``fixed`` holds (the Comet at its starting
    value, the preset's stake), the step tried whole (for ``whole_ms``; 0: not tried), then split by its cases,
    as ``lemma_holds`` (``cases``: finer ones, covering every action as ``step_cases`` does).  ``dealt``: facts
    the lemma's count takes from the deal, checked in the initial deals with it (every seat dealt the same
    hand) and not after a step."""
    s, t, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    init = enc.fresh_state("i", players)
    claim = lemma(init) if dealt is None else z3.And(*dealt(init), lemma(init))  # long_deal's check, as before
    start = solve_alone([z3.And(enc.initial(init, rd), *fixed(init), z3.Not(claim))], 2 * TIMEOUT_MS)
    if start.verdict != z3.unsat:
        return f"not proved in time ({start.reason})" if start.model is None else words(start.model, init, None, None)
    step = [enc.invariant(s), hands_within_deal(enc, s, size), lemma(s), *fixed(s), enc.transition(s, a, t, rd)]
    breaks = [z3.Not(lemma(t))]
    if whole_ms > 0 and unsat_at_once(step, breaks, whole_ms):
        return None
    for case in step_cases(enc, a) if cases is None else cases(a):
        solved = solve_alone([z3.And(*step, *breaks)], 2 * TIMEOUT_MS, case)
        if solved.verdict == z3.unsat:
            continue
        if solved.model is None:
            return f"not proved in time ({solved.reason})"
        return words(solved.model, s, t, a)
    return None


def unexplained(model: z3.ModelRef, s: SymState, t: SymState | None, a: SymAction | None) -> str:
    """``Words`` for the lemmas whose callers want only whether they hold."""
    return "not inductive" if t is not None else "false in a deal dealt"
