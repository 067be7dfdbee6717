"""Replaying a game record: the check order of ``spec/record.md`` ("Faults of a game record") as code.

``replay_game`` starts the game with ``comet.game.new_game``, judges the draw with ``draw_round``, deals
each deal's record (or shuffles its ``seed`` with ``next_deal``), replays it with ``replay_from`` and
carries the result with ``finish_deal``; the first item that differs from what those give is the fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from comet.cards import card_text
from comet.engine import apply, check_players, packs_in_rotation
from comet.errors import RecordError
from comet.game import (
    Draw,
    deal_over,
    draw_round,
    finish_deal,
    game_over,
    new_game,
    next_deal,
    pack_index,
    seats_in_play,
    winners,
)
from comet.records.contract import FORMAT
from comet.records.deal_record import DealRecord, JsonValue, record_from_state, replay_from
from comet.records.game_record import GameRecord
from comet.records.game_verdict import DealOutcome, Fault, GameVerdict, game_rule_ids
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState
from comet.variant import variant_of


def _draw_fault(rules: Ruleset, draw: Draw, players: int) -> tuple[int | None, Fault | None]:
    """The dealer the draw makes (R-DEAL-DEALER), or the first round that breaks it."""
    pack = list(packs_in_rotation(rules, players)[0].cards)
    drawing: tuple[int, ...] = tuple(range(players))
    for r, row in enumerate(draw):
        where = f"draw[{r}]"
        seats = tuple(s for s, c in enumerate(row) if c is not None)
        if len(row) != players or seats != drawing:
            return None, Fault(
                where,
                "R-DEAL-DEALER",
                "the seats that draw are everyone, then only those tied for the lowest",
                expected=list(drawing),
                found=list(seats),
            )
        left = list(pack)
        for c in row:
            if c is not None:
                if c not in left:
                    return None, Fault(
                        where,
                        "R-DEAL-DEALER",
                        f"{card_text(c)} is not in the pack drawn from (a fresh pack each round)",
                        found=card_text(c),
                    )
                left.remove(c)
        dealer, tied = draw_round(rules, row)
        if dealer is not None:
            if r != len(draw) - 1:
                return None, Fault(f"draw[{r + 1}]", "R-DEAL-DEALER", f"the draw was decided in round {r}")
            return dealer, None
        drawing = tied
    return None, Fault(
        f"draw[{len(draw)}]",
        "R-DEAL-DEALER",
        "the draw is not decided: the tied seats draw again",
        expected=list(drawing),
    )


def replay_game(rec: GameRecord) -> GameVerdict:
    """Check a game record deal by deal; stop at the first fault.  RecordError for a malformed record."""
    rules = rec.ruleset()
    standings_rule, end_rule = game_rule_ids(rules)
    first = rec.first_dealer
    check_players(rec.players, rules)  # kind players: malformed (step 1 of the check order)
    if not 0 <= first < rec.players:  # kind dealer: malformed, before the length (a fault, step 2)
        raise RecordError("dealer", f"'first_dealer' must be a seat from 0 to {rec.players - 1}, not {first}")
    fault: Fault | None = None
    if rec.draw is not None:
        drawn, fault = _draw_fault(rules, rec.draw, rec.players)
        if fault is None and drawn != first:
            fault = Fault(
                "first_dealer", "R-DEAL-DEALER", "the draw makes another seat the first dealer", None, drawn, first
            )
    try:
        game = new_game(rules, rec.players, rec.length, first)
    except RecordError as e:
        if e.kind != "field":  # players, dealer: malformed
            raise
        return GameVerdict(rec, first, None, (), Fault("length", "R-GAME-DEALS", e.message, None, None, rec.length))
    if fault is not None:
        return GameVerdict(rec, first, game, (), fault)
    outcomes: list[DealOutcome] = []

    def stop(f: Fault) -> GameVerdict:
        return GameVerdict(rec, first, game, tuple(outcomes), f)

    for i, entry in enumerate(rec.deals):
        where = f"deals[{i}]"
        if outcomes and outcomes[-1].after is None:
            return stop(Fault(where, "R-GAME-DEALS", f"deal {i - 1} is not over, so no deal follows it", i))
        if game_over(game):
            return stop(Fault(where, end_rule, f"the game was over after {i} deals", i, i, len(rec.deals)))
        if entry.record is None:
            assert entry.seed is not None
            start = next_deal(game, entry.seed)
            deal_rec = record_from_state(start, rec.variant)
        else:
            deal_rec = entry.record
            if deal_rec.format is None:  # a deal record of a game is read under the game's format
                deal_rec = replace(deal_rec, format=rec.format)
            try:
                mismatch = _deal_mismatch(deal_rec, rec, rules, len(seats_in_play(game)))
                if mismatch is not None:
                    raise RecordError("field", mismatch)
                start = deal_rec.start()  # kinds players, hand-size, pack, dealer
            except RecordError as e:
                raise RecordError(e.kind, f"{where}.record: {e.message}") from None
            wrong = start_fault(game, start, f"{where}.record", i)
            if wrong is not None:
                return stop(wrong)
        verdict = replay_from(deal_rec, start)
        cut = race_cut(game, start, deal_rec.actions[: verdict.applied])
        if cut is not None and cut < len(deal_rec.actions):
            outcomes.append(DealOutcome(start, verdict, None))
            return stop(
                Fault(
                    f"{where}.record.actions[{cut}]",
                    end_rule,
                    f"the game was won at action {cut - 1} of this deal (RUL-COMMIT-C-RACE): no action follows",
                    i,
                    None,
                    deal_rec.action_texts[cut],
                )
            )
        if not verdict.legal:
            assert verdict.error is not None
            outcomes.append(DealOutcome(start, verdict, None))
            return stop(
                Fault(
                    f"{where}.record.actions[{verdict.applied}]",
                    verdict.error.rule,
                    verdict.error.message,
                    i,
                    None,
                    deal_rec.action_texts[verdict.applied],
                )
            )
        if not deal_over(game, verdict.final):
            outcomes.append(DealOutcome(start, verdict, None))
            if entry.standings is not None:
                return stop(Fault(f"{where}.after", "R-GAME-DEALS", "a deal that is not over has no 'after'", i))
            continue
        game = finish_deal(game, verdict.final)
        outcomes.append(DealOutcome(start, verdict, game))
        if entry.standings is not None:
            checks: tuple[tuple[str, str, str, JsonValue, JsonValue], ...] = (
                (
                    "standings",
                    standings_rule,
                    "the standings after the deal",
                    list(game.balances),
                    list(entry.standings),
                ),
                (
                    "comet_values",
                    "R-COMET-ESCALATE",
                    "the Comet's value carried to the next deal",
                    list(game.comet_values),
                    list(entry.comet_values or ()),
                ),
                (
                    "length",
                    "R-GAME-WINNER",
                    "the agreed number of deals (RUL-GAME-TIE may add a round)",
                    game.deals,
                    entry.length,
                ),
            )
            for name, rid, what, want, found in checks:
                if want != found:
                    return stop(Fault(f"{where}.after.{name}", rid, what, i, want, found))
    if rec.has_end:
        finished = game_over(game) and (not outcomes or outcomes[-1].after is not None)
        if not finished:
            return stop(Fault("end", end_rule, "the game is not over after these deals", None, False, True))
        assert rec.end_standings is not None and rec.end_winners is not None
        if list(rec.end_standings) != list(game.balances):
            return stop(
                Fault(
                    "end.standings",
                    standings_rule,
                    "the final standings",
                    None,
                    list(game.balances),
                    list(rec.end_standings),
                )
            )
        if list(rec.end_winners) != list(winners(game)):
            return stop(
                Fault("end.winners", "R-GAME-WINNER", "the winners", None, list(winners(game)), list(rec.end_winners))
            )
    return GameVerdict(rec, first, game, tuple(outcomes), None)


def race_cut(game: GameState, start: DealState, actions: Sequence[Action]) -> int | None:
    """How many of ``actions`` were played when the game was won inside this deal (``deal_over`` before the
    deal's end, RUL-COMMIT-C-RACE = race), or None if it was not (every other reading and game)."""
    if variant_of(game.rules).race_end is None:
        return None
    s = start
    for j, a in enumerate(actions):
        s = apply(s, a)
        if s.terminal:  # the deal ended as deals do; an action after it is R-END-OUT, as in any game
            return None
        if deal_over(game, s):
            return j + 1
    return None


def start_fault(game: GameState, start: DealState, where: str, i: int) -> Fault | None:
    """Why ``start`` cannot be the game's next deal: its dealer (R-DEAL-DEALER), its pack
    (R-PACK-ALTERNATE) or the Comet's value (R-COMET-ESCALATE) is not what the game carries."""
    seats = seats_in_play(game)
    dealer = seats.index(game.dealer)
    if start.dealer != dealer:
        return Fault(f"{where}.dealer", "R-DEAL-DEALER", "the deal passes to the left", i, dealer, start.dealer)
    want_pack = packs_in_rotation(game.rules, len(seats))[pack_index(game)].name
    if start.pack != want_pack:
        return Fault(where, "R-PACK-ALTERNATE", "the packs are used in turn", i, want_pack, start.pack)
    want_value = _comet_value(game, start)
    if start.comet_value != want_value:
        return Fault(
            f"{where}.comet_value",
            "R-COMET-ESCALATE",
            "the Comet's value carried from the last deal",
            i,
            want_value,
            start.comet_value,
        )
    return None


def _comet_value(game: GameState, start: DealState) -> int:
    """The Comet's value the game gives this deal (``comet.game.next_deal``'s, for the cards dealt)."""
    from comet.game import comet_value_for

    return comet_value_for(game, not any(c in start.wild for c in start.dead))


def _deal_mismatch(deal: DealRecord, rec: GameRecord, rules: Ruleset, players: int) -> str | None:
    """Why a deal record cannot be a deal of this game (its preset, rulings or players differ; ``players``
    the seats still in play, RUL-INSOLVENCY = drop_out)."""
    if deal.variant != rec.variant:
        return f"'variant' is {deal.variant!r}, the game's is {rec.variant!r}"
    if (deal.format or FORMAT) != (rec.format or FORMAT):
        return f"'format' is {deal.format or FORMAT}, the game's is {rec.format or FORMAT}"
    if deal.players != players:
        if players != rec.players:
            return f"'players' is {deal.players}, the players still in the game are {players}"
        return f"'players' is {deal.players}, the game's is {rec.players}"
    if deal.ruleset() != rules:
        return (
            "its 'rulings' give another rule set than the game's (a deal record of a game plays the game's "
            "rule set: the same reading of every ruling, a ruling left out reading its default)"
        )
    return None
