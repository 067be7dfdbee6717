"""The proved upper bounds of a preset at a player count: the optima over the encoding (``Inv`` plus the
lemmas), the whole deal through ``comet_only`` or the in-play potential."""

from __future__ import annotations

from collections.abc import Callable

import z3
from comet.presets import preset as preset_named
from comet.ruleset import Ruleset
from comet.variant import variant_of

from comet_proofs.bounds.forced import winner_most
from comet_proofs.bounds.in_play import in_comet_values, in_play_bound, in_play_bounds, lost_in_play, won_in_play
from comet_proofs.bounds.lemmas import (
    comet_only,
    comet_only_lemma_holds,
    dealt_size,
    hands_within_deal,
    lemma_holds,
    long_deal,
    long_deal_lemma_holds,
    loss_in_play,
    loss_in_play_lemma_holds,
    run_played,
    run_played_lemma_holds,
)
from comet_proofs.bounds.optimum import Problem, maxima
from comet_proofs.bounds.paid import paid_points, paid_whole_deal
from comet_proofs.bounds.play_chips import DEAREST, whole_deal
from comet_proofs.bounds.quantities import ACTIONS, DEAL_GAIN, DEAL_LOSS, GAIN, LOSS, POINTS
from comet_proofs.bounds.stops import (
    forced_runs_refutation,
    longest_at_last_step,
    longest_counting_stops,
    suit_runs_refutation,
)
from comet_proofs.certificates import Certificates
from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for
from comet_proofs.symbolic import Readings, SymState

# The most one play of another seat takes from a seat, where each other play takes at most one chip
# (``lemmas.loss_in_play``): Old Comet's manille, ten from each (R-OLD-MANILLE-PLAY; a King or a stuck run, one)
TAKES_IN_PLAY = {"old_comet": 10}
# Where the longest deal is read at its last step with ``bounds.stops.forced_runs`` (proved each time, split by the
# step's cases: 1.1-1.3 s of CPU at four and five players, Red Nines at five 4.0 s; the optimum 1.3-1.9 s,
# 2026-12-06).  Tried at every player count of the standard, Opera, Old Comet and Two-player presets and Red Nines
# at four and five: it lowers the bound only here (standard and Opera at five players, 237 -> 232; Red Nines
# 238 -> 233 and 357 -> 351); elsewhere the bound is already the ladder's, so it is not searched.
FORCED_RUNS: dict[str, tuple[int, ...]] = {"standard": (5,), "opera": (5,), "red_nines": (4, 5)}
# Where the card-level encoding's stops are counted at the end of the deal (``lemmas.long_stops``, its ``stop_cards``,
# with ``bounds.stops.suit_runs``; ``forced_runs`` reads ranks, not suits): 000's Commit at three players, 191 -> 182
# (185 with the stops alone: the whole pack dealt, the five stops do not fit in the two kept cards and the last); 1.2 s
# of CPU for the lemma, 2.8 s for the descent (2026-12-06).  At four players the bound stays 218 (Z3's finished deal:
# the dead hand holds three Kings, a loser keeps the 7D, its 6D's run the one left for the 10D; lemma 4.9 s).
STOPS_COUNTED: dict[str, tuple[int, ...]] = {"commit_hoyle": (3,)}
# Where the winner's most is taken with ``bounds.forced``'s lemmas: the rows that had a gap without them (the
# standard game at five players; the Opera at four and five, where they close it).  Every other count of the two
# presets is exact without them (a shipped deal reaches the bound, so no lemma can lower it; with them the same
# optima were found, 2026-12-06), and proving them there cost 1-6 s of CPU a count (the Opera's first turn).
WINNER_MOST: dict[str, tuple[int, ...]] = {"standard": (5,), "opera": (4, 5)}
# The presets whose ``long_deal`` check Z3 does not finish within the bounds step's budget: 002's Commit (split by
# the step's cases it ran about 17 CPU minutes without an answer, 2026-12-05).  Not tried: each try cost 10 s of
# CPU to answer "not proved" (half of ``comet verify``'s bounds); tests/test_bounds_stops.py checks that it
# still gives no answer in the budget, so a change that lets it be proved shows there.
LONG_DEAL_OUT_OF_BUDGET = frozenset({"commit_cats"})


def start_of(enc: Encoding, rules: Ruleset) -> Callable[[SymState], list[z3.BoolRef]]:
    """The facts ``rules`` fix for a whole deal of ``enc``: the Comet at its starting value, and the fields that
    copy an integer ruling (``fixed_by_rules``, e.g. a pool at the preset's stake)."""
    start = variant_of(rules).comet_value

    def at_start(x: SymState) -> list[z3.BoolRef]:
        return [x.comet_value == start, *enc.fixed_by_rules(x, rules)]

    return at_start


def ranking_problem(enc: Encoding, players: int, rd: Readings, start: int) -> Problem:
    """The termination proof's bound on the actions of a deal: its ranking (which every action lowers by one at
    least) at its largest over the initial states, the Comet at its starting value ``start``."""
    init = enc.fresh_state("i", players)
    return Problem((enc.initial(init, rd), init.comet_value == start), enc.ranking(init), (("the deal dealt", init),))


def long_deal_problem(enc: Encoding, players: int, size: int) -> Problem:
    """The most actions of a finished deal under ``lemmas.long_deal``: the lemma and the hand sizes alone,
    without ``Inv`` (fewer constraints, still a bound on every finished deal): the same optima for the standard
    family, and an answer for 000's Commit, whose card-level ``Inv`` left Optimize without one in 5 s."""
    end = enc.fresh_state("e", players)
    finished = [*[enc.hand_size(end, q) >= 0 for q in range(players)], hands_within_deal(enc, end, size)]
    finished += [enc.terminal(end), long_deal(enc, end, size)]
    return Problem(tuple(finished), end.steps, (("the finished deal", end),))


def proved_bounds(preset: str, players: int) -> dict[str, int | None]:
    """The Optimize upper bounds of ``preset`` for ``players`` seats (its own readings, Comet at its starting
    value); quantities as in ``bounds``."""
    return {name: upper for name, (upper, _) in proved_bounds_in_value(preset, players).items()}


def proved_bounds_in_value(
    preset: str, players: int, certs: Certificates | None = None
) -> dict[str, tuple[int | None, tuple[int, int] | None]]:
    """``proved_bounds`` with, for the quantities that grow with the Comet's value (a whole deal's chips,
    where only the Comet pays in play), the bound as a function of it (``in_comet_value``); ``certs``: the
    optima from stored certificates where current (``maxima``)."""
    enc = encoding_for(preset)
    rules = preset_named(preset).rules
    rd = enc.readings_of(rules)
    start = variant_of(rules).comet_value
    out: dict[str, tuple[int | None, tuple[int, int] | None]] = {}
    p = f"{players}p"
    dealt = ranking_problem(enc, players, rd, start)
    actions = maxima(certs, f"{p} {ACTIONS}", list(dealt.constraints), [dealt.objective])
    out[ACTIONS] = (actions[0], None)
    size = dealt_size(enc, players, rd, certs)
    if not lemma_holds(enc, players, rd, size):  # not proved (in time): no bound from the invariant
        return out
    s = enc.fresh_state("s", players)
    free = [enc.invariant(s), hands_within_deal(enc, s, size), enc.terminal(s)]
    free += enc.fixed_by_rules(s, rules)  # e.g. a pool at the preset's stake
    played_before = run_played_lemma_holds(enc, players, rd, size)
    if played_before:  # what a finished deal can hold: the 8 under a Comet as 9
        free.append(run_played(enc, s))
    long_ok = preset not in LONG_DEAL_OUT_OF_BUDGET and long_deal_lemma_holds(enc, players, rd, size)
    if long_ok:  # at most n passes after a play: sharper than the ranking
        # searched each time, no stored certificate: 0.01-0.05 s (2 to 5 players, 2026-12-05)
        finished = long_deal_problem(enc, players, size)
        longest = maxima(None, f"{p} {ACTIONS} at the end", list(finished.constraints), [finished.objective])[0]
        if longest is not None and (actions[0] is None or longest < actions[0]):
            out[ACTIONS] = (longest, None)
        # where kept cards force plays (``bounds.stops``): the lemma proved first, then the optimum at the last step
        upper = out[ACTIONS][0]
        if players in FORCED_RUNS.get(preset, ()) and forced_runs_refutation(enc, players, rd, size) is None:
            shorter = longest_at_last_step(enc, players, rd, size)
            if shorter is not None and (upper is None or shorter < upper):
                out[ACTIONS] = (shorter, None)
        elif players in STOPS_COUNTED.get(preset, ()) and upper is not None:
            # the stops charged (``long_stops``), with the runs a suit forces (``suit_runs``) where proved
            suited = suit_runs_refutation(enc, players, rd, size) is None
            if suited or long_deal_lemma_holds(enc, players, rd, size, stops=True):
                out[ACTIONS] = (longest_counting_stops(enc, players, rd, size, upper, suited), None)
    over = [*free, s.comet_value == start]

    at_start = start_of(enc, rules)
    if enc.scoring == "chips":
        net = enc.deal_returns(s, rd)[0] - s.chips[0]  # seat 0's settlement (every seat is alike)
        loss, gain = maxima(certs, f"{p} {LOSS}, {GAIN}", over, [-net, net])
        out[LOSS], out[GAIN] = (loss, None), (gain, None)
        if comet_only_lemma_holds(enc, players, rd):  # the whole deal: settlement plus the one Comet bonus
            whole = [*free, comet_only(enc, s)]
            returned = enc.deal_returns(s, rd)[0]
            objectives = [-returned, returned]
            uppers = maxima(certs, f"{p} {DEAL_LOSS}, {DEAL_GAIN}", [*whole, s.comet_value == start], objectives)
            lines = in_comet_values(whole, objectives, s.comet_value, certs, f"{p} {DEAL_LOSS}, {DEAL_GAIN} in value")
            for name, upper, line in zip((DEAL_LOSS, DEAL_GAIN), uppers, lines, strict=True):
                out[name] = (upper, line)
            # the winner's most where R-PLAY-MUST's lemmas are proved (``forced``, at the counts of WINNER_MOST);
            # proved at the starting value only, so the per-value line (looser there) is dropped rather than
            # shown beside a bound it does not meet
            forced: tuple[int | None, int | None] = (None, None)
            if players in WINNER_MOST.get(preset, ()):
                forced = winner_most(enc, players, rd, size, at_start, played_before, long_ok)
            for name, tighter in zip((GAIN, DEAL_GAIN), forced, strict=True):
                bound = out[name][0]
                if tighter is not None and (bound is None or tighter < bound):
                    out[name] = (tighter, None)
        else:  # other things pay in play: the settlement's bound plus the most play can move (``in_play_bounds``)
            moves = in_play_bounds(enc, players, rd, at_start, [lost_in_play, won_in_play], certs, "chips in play")
            for name, settled, play in zip((DEAL_LOSS, DEAL_GAIN), (loss, gain), moves, strict=True):
                out[name] = (None if settled is None or play is None else settled + play.most, None)
            # where only some cards pay when played, each once (000's Commit): the whole deal at once, sharper
            also = (lambda x: [run_played(enc, x)]) if played_before else (lambda x: [])
            for name, paid in paid_whole_deal(enc, preset, players, rd, size, at_start, also).items():
                upper = out[name][0]
                out[name] = (paid if upper is None else min(paid, upper), None)
            dearest = TAKES_IN_PLAY.get(preset)
            # (where ``play_chips`` applies, its ``kept_loss`` implies ``loss_in_play``: not proved twice, 0.3 s)
            if dearest is not None and preset not in DEAREST:  # the loser's whole deal at once: sharper
                e = enc.fresh_state("l", players)
                if loss_in_play_lemma_holds(enc, players, rd, size, dearest, at_start):
                    finals = [enc.invariant(e), hands_within_deal(enc, e, size), enc.terminal(e), *at_start(e)]
                    finals.append(loss_in_play(enc, e, size, dearest))
                    finals += [run_played(enc, e)] if played_before else []
                    finals += [long_deal(enc, e, size)] if long_ok else []  # the losers keep a card each
                    # searched each time (no certificate): 0.04-0.1 s at 2 to 5 players (2026-12-05)
                    lost = maxima(None, f"{p} {DEAL_LOSS} at once", finals, [-enc.deal_returns(e, rd)[0]])[0]
                    upper = out[DEAL_LOSS][0]
                    if lost is not None and (upper is None or lost < upper):
                        out[DEAL_LOSS] = (lost, None)
                    # two players: what seat 0 wins, seat 1 loses (the lemma again, for seat 1)
                    if players == 2 and loss_in_play_lemma_holds(enc, 2, rd, size, dearest, at_start, 1):
                        finals.append(loss_in_play(enc, e, size, dearest, 1))
                        won = maxima(None, f"{p} {DEAL_GAIN} at once", finals, [enc.deal_returns(e, rd)[0]])[0]
                        upper = out[DEAL_GAIN][0]
                        if won is not None and (upper is None or won < upper):
                            out[DEAL_GAIN] = (won, None)
            sharper = DEAREST.get(preset)
            if sharper is not None:  # what play moves for the winner and a seat keeping its cards (``play_chips``)
                for name, best in whole_deal(enc, players, rd, size, sharper, at_start, played_before, long_ok).items():
                    upper = out[name][0]
                    if upper is None or best < upper:
                        out[name] = (best, None)
    else:
        points = enc.deal_points(s, rd)[0]
        most = maxima(certs, f"{p} {POINTS}", over, [points])[0]
        scored = enc.play_points(s, 0)
        if most is None and scored is not None:  # the points scored in play bounded first (``in_play_bound``)

            def in_play(x: SymState) -> z3.ArithRef:
                got = enc.play_points(x, 0)
                return z3.IntVal(0) if got is None else got

            moved = in_play_bound(enc, players, rd, at_start, in_play, certs, "points in play")
            # what the end of the deal adds, bounded on its own (the lemma on hand sizes left out: with it Z3
            # found no optimum in 30 s on a card-level encoding; without it, 57 in under 5 s, 2026-12-02)
            ended = maxima(
                certs, f"{p} points at the end", [enc.invariant(s), enc.terminal(s), *at_start(s)], [points - scored]
            )[0]
            most = None if moved is None or ended is None else moved.most + ended
        sharper = paid_points(enc, preset, players, rd, size, at_start)  # each scoring card scores once (002's Commit)
        if sharper is not None and (most is None or sharper < most):
            most = sharper
        out[POINTS] = (most, None)
    return out
