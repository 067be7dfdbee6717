"""Games held open by the oracle: start a game, deal and play it deal by deal, ask the standings, undo.

Ops (each request a JSON object; ``game_id`` a string or an integer, chosen by the client or given):

- ``game_new``: a game from ``record`` (a game record; it is checked and its deals replayed, the last
  one may be unfinished) or from ``variant`` (default standard), ``players``, ``seed`` (the first-dealer
  draw and, for deals dealt without a seed, their shuffles, as ``comet game --seed`` plays), optional
  ``rulings`` and ``length`` (the agreed deals).
- ``game_deal``: the next deal, from ``record`` (a deal record: its actions are applied too), ``seed``
  (``comet.game.next_deal``) or neither (the game's own seeded stream, so that ``game_new`` with a
  seed followed by ``game_deal`` reproduces ``comet game --seed``).  Refused while a deal is going on or
  once the game is over; a deal record that is not the game's next deal is refused with the rule id of
  the carried value it gets wrong (as ``comet replay`` of a game record does).
- ``game_apply`` with ``action``: one action in the deal going on; when it ends the deal, the deal's
  payments (or points) are carried into the standings at once.
- ``game_legal_actions``, ``game_standings`` (the standings and carried values, plus the game so far as
  a game record), ``game_undo`` (the last action, or the last deal dealt), ``game_close``.

Every answer holds the summary: ``game_id``, ``deals_played``, ``in_deal``, ``applied``, ``to_move``,
``dealer`` (of the deal going on, or the next), ``standings``, ``comet_values``, ``length``,
``finished`` and ``winners`` (null until the game is over).  Errors as in the deal session:
``unknown-game``, ``illegal`` (with ``rule``), ``request`` and the record kinds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from comet.engine import apply, check_players, legal_actions
from comet.errors import IllegalAction, RecordError
from comet.game import (
    Draw,
    deal_over,
    finish_deal,
    first_dealer_draw,
    game_over,
    new_game,
    next_deal,
    seats_in_play,
    winners,
)
from comet.oracle.deal_session import SessionError, id_field, read_action, requested_rules, respond, whole_field
from comet.presets import preset
from comet.records.deal_record import JsonObject, JsonValue, parse_record, record_from_state
from comet.records.game_record import DealEntry, GameRecord, parse_game_record
from comet.records.game_replay import replay_game, start_fault
from comet.records.game_verdict import game_rule_ids
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState

GAME_OPS = (
    "game_new",
    "game_deal",
    "game_apply",
    "game_legal_actions",
    "game_standings",
    "game_undo",
    "game_close",
)
MAX_GAMES = 1_000


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The game at one moment: between deals (``deal`` None) or in a deal (its start and actions)."""

    game: GameState
    finished: tuple[tuple[DealState, tuple[Action, ...]], ...]
    start: DealState | None = None
    now: DealState | None = None
    actions: tuple[Action, ...] = ()


@dataclass
class OpenGame:
    variant: str
    rules: Ruleset
    seed: int | None
    length: int
    first_dealer: int
    draw: Draw | None
    history: list[Snapshot] = field(default_factory=list)

    @property
    def snap(self) -> Snapshot:
        return self.history[-1]

    def push(self, snap: Snapshot) -> None:
        self.history.append(snap)

    def record(self) -> GameRecord:
        """The game so far as a game record (replaying it gives this game)."""
        entries: list[DealEntry] = []
        game = new_game(self.rules, self.snap.game.players, self.length, self.first_dealer)
        for start, actions in self.snap.finished:
            s = start
            for a in actions:
                s = apply(s, a)
            game = finish_deal(game, s)
            rec = record_from_state(start, self.variant, actions)
            entries.append(DealEntry(rec, None, game.balances, game.comet_values, game.deals))
        if self.snap.start is not None:
            entries.append(
                DealEntry(record_from_state(self.snap.start, self.variant, self.snap.actions), None, None, None, None)
            )
        diff = self.rules.differences(preset(self.variant).rules)
        rulings = tuple(sorted((k, v) for k, v in diff.items() if isinstance(v, bool | int | str)))
        over = game_over(game) and self.snap.start is None
        return GameRecord(
            self.variant,
            rulings,
            game.players,
            self.length,
            self.draw,
            self.first_dealer,
            tuple(entries),
            game.balances if over else None,
            winners(game) if over else None,
            over,
        )


def deal_seed(seed: int, rules: Ruleset, players: int, index: int) -> int:
    """The seed ``comet.game.play_game`` shuffles deal ``index`` with (after the draw)."""
    rng = random.Random(seed)
    first_dealer_draw(rules, players, rng)
    out = 0
    for _ in range(index + 1):
        out = rng.getrandbits(64)
    return out


class Games:
    """The games a session holds, by id."""

    def __init__(self) -> None:
        self.games: dict[str | int, OpenGame] = {}
        self.numbered = 0

    def respond(self, rid: JsonValue, req: JsonObject) -> JsonObject:
        """The response to one game-session request (never raises for bad input)."""
        return respond(rid, req, self.run)

    def run(self, req: JsonObject) -> JsonObject:
        op = req.get("op")
        if op == "game_new":
            return self.new(req)
        gid = id_field(req, "game_id")
        g = self.games.get(gid)
        if g is None:
            raise SessionError("unknown-game", f"no open game has the id {gid!r}; open one with op 'game_new'")
        snap = g.snap
        if op == "game_deal":
            return self.deal(gid, g, req)
        if op == "game_apply":
            if "action" not in req:
                raise SessionError("request", "op 'game_apply' needs an 'action' field (e.g. \"play 5H\" or \"pass\")")
            if snap.now is None or snap.start is None:
                raise SessionError("request", "no deal is going on: deal one with op 'game_deal'")
            if not isinstance(req["action"], str):  # a bad request field, as the session's other fields
                raise SessionError("request", f"'action' must be a string such as \"play 5H\", not {req['action']!r}")
            action = read_action(req["action"], len(snap.actions))
            try:
                after = apply(snap.now, action)
            except IllegalAction as e:
                raise SessionError(
                    "illegal", f"action {len(snap.actions)} {req['action']!r}: {e.message}", e.rule
                ) from None
            g.push(self._step(snap, after, (*snap.actions, action)))
            return summary(gid, g)
        if op == "game_legal_actions":
            out = summary(gid, g)
            out["legal_actions"] = [] if snap.now is None else [str(a) for a in legal_actions(snap.now)]
            return out
        if op == "game_standings":
            out = summary(gid, g)
            out["record"] = g.record().to_json()
            return out
        if op == "game_undo":
            if len(g.history) == 1:
                raise SessionError("request", f"game {gid!r} is at its start: there is nothing to undo")
            g.history.pop()
            return summary(gid, g)
        if op == "game_close":
            del self.games[gid]
            return {"game_id": gid, "closed": True}
        raise SessionError("request", f"op {op!r} is not a game-session op")

    @staticmethod
    def _step(snap: Snapshot, after: DealState, actions: tuple[Action, ...]) -> Snapshot:
        assert snap.start is not None
        if not deal_over(snap.game, after):  # finished, or the game won inside it (RUL-COMMIT-C-RACE)
            return Snapshot(snap.game, snap.finished, snap.start, after, actions)
        return Snapshot(finish_deal(snap.game, after), (*snap.finished, (snap.start, actions)))

    def new(self, req: JsonObject) -> JsonObject:
        if len(self.games) >= MAX_GAMES:
            raise SessionError("request", f"{MAX_GAMES} games are open; close some with op 'game_close' first")
        if "game_id" in req:
            gid = id_field(req, "game_id")
            if gid in self.games:
                raise SessionError("request", f"a game with the id {gid!r} is open; close it first")
        else:
            self.numbered += 1
            while self.numbered in self.games:
                self.numbered += 1
            gid = self.numbered
        g = self._from_record(req["record"]) if "record" in req else self._seeded(req)
        self.games[gid] = g
        return summary(gid, g)

    @staticmethod
    def _seeded(req: JsonObject) -> OpenGame:
        variant, rules = requested_rules(req)
        for name in ("players", "seed"):
            if name not in req:
                raise SessionError("request", f"op 'game_new' needs a 'record', or '{name}' (and 'players', 'seed')")
        players = whole_field(req, "players")
        seed = whole_field(req, "seed")
        length = whole_field(req, "length") if "length" in req else None
        check_players(players, rules)
        draw, dealer = first_dealer_draw(rules, players, random.Random(seed))
        try:
            game = new_game(rules, players, length, dealer)
        except RecordError as e:
            raise SessionError("illegal", e.message, "R-GAME-DEALS") from None
        g = OpenGame(variant, rules, seed, game.deals, dealer, draw)
        g.push(Snapshot(game, ()))
        return g

    @staticmethod
    def _from_record(obj: JsonValue) -> OpenGame:
        rec = parse_game_record(obj)
        verdict = replay_game(rec)
        if verdict.fault is not None:
            f = verdict.fault
            raise SessionError("illegal", f"the record's {f.item}: {f.message}", f.rule)
        rules = rec.ruleset()
        game = new_game(rules, rec.players, rec.length, rec.first_dealer)
        g = OpenGame(rec.variant, rules, None, rec.length, rec.first_dealer, rec.draw)
        g.push(Snapshot(game, ()))
        for d in verdict.deals:
            snap = g.snap
            g.push(Snapshot(snap.game, snap.finished, d.start, d.start, ()))
            s = d.start
            actions: tuple[Action, ...] = ()
            for a in d.verdict.record.actions:
                s = apply(s, a)
                actions = (*actions, a)
                g.push(Games._step(g.snap, s, actions))
        return g

    def deal(self, gid: str | int, g: OpenGame, req: JsonObject) -> JsonObject:
        snap = g.snap
        if snap.start is not None:
            raise SessionError("request", "a deal is going on: finish it (or undo it) before the next")
        if game_over(snap.game):
            raise SessionError("illegal", "the game is over", "R-GAME-DEALS")
        index = len(snap.finished)
        if "record" in req:
            rec = parse_record(req["record"])
            in_play = len(seats_in_play(snap.game))
            if rec.variant != g.variant or rec.players != in_play or rec.ruleset() != g.rules:
                raise RecordError("field", "the deal record's variant, players or rulings are not the game's")
            start = rec.start()
            wrong = start_fault(snap.game, start, "record", index)
            if wrong is not None:
                raise SessionError(
                    "illegal", f"{wrong.item}: {wrong.message} ({wrong.expected}, not {wrong.found})", wrong.rule
                )
            actions = rec.actions
        else:
            if "seed" in req:
                seed = whole_field(req, "seed")
            elif g.seed is not None:
                seed = deal_seed(g.seed, g.rules, snap.game.players, index)
            else:
                raise SessionError("request", "op 'game_deal' needs a 'record' or a 'seed' (this game has no seed)")
            start = next_deal(snap.game, seed)
            actions = ()
        g.push(Snapshot(snap.game, snap.finished, start, start, ()))
        s = start
        done: tuple[Action, ...] = ()
        for i, a in enumerate(actions):
            if g.snap.start is None and not s.terminal:  # won inside this deal (RUL-COMMIT-C-RACE): nothing follows
                del g.history[len(g.history) - len(done) - 1 :]
                raise SessionError(
                    "illegal", f"the record's action {i}: the game was won at action {i - 1}", game_rule_ids(g.rules)[1]
                )
            try:
                s = apply(s, a)
            except IllegalAction as e:
                del g.history[len(g.history) - len(done) - 1 :]
                raise SessionError("illegal", f"the record's action {i}: {e.message}", e.rule) from None
            done = (*done, a)
            g.push(self._step(g.snap, s, done))
        return summary(gid, g)


def summary(gid: str | int, g: OpenGame) -> JsonObject:
    snap = g.snap
    game = snap.game
    over = game_over(game) and snap.start is None
    standings: list[JsonValue] = [b for b in game.balances]
    values: list[JsonValue] = [v for v in game.comet_values]
    seats = seats_in_play(game)  # a deal's seat j is the game's seat seats[j] (RUL-INSOLVENCY = drop_out)
    return {
        "game_id": gid,
        "deals_played": len(snap.finished),
        "in_deal": snap.start is not None,
        "applied": len(snap.actions),
        "to_move": None if snap.now is None or snap.now.terminal else seats[snap.now.to_move],
        "dealer": game.dealer if snap.start is None else seats[snap.start.dealer],
        "standings": standings,
        "comet_values": values,
        "length": game.deals,
        "finished": over,
        "winners": [w for w in winners(game)] if over else None,
    }


GAMES = Games()


def is_game_request(req: JsonObject) -> bool:
    return req.get("op") in GAME_OPS
