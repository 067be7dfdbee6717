"""Game records: a whole game as one JSON object, read, checked deal by deal, and written.

The contract is ``spec/record.md`` ("Game records"), the schema ``spec/schemas/game-record.json``::

    {"format": 2, "variant": "standard", "rulings": {}, "players": 4, "length": 4,
     "draw": [["5H", "9C", "2S", "KD"]], "first_dealer": 2,
     "deals": [{"record": DEAL_RECORD, "after": {"standings": [...], "comet_values": [2], "length": 4}}, ...],
     "end": {"standings": [...], "winners": [1]}}

A JSON object with a ``deals`` field is a game record (a deal record has none).  Every rule comes from
``comet.game`` and the engine: ``replay_game`` starts the game with ``new_game``, judges the draw with
``draw_round``, deals each deal's record (or shuffles its ``seed`` with ``next_deal``), replays it with
``replay_record`` and carries the result with ``finish_deal``; what the record states (the dealer, the
pack, the Comet's value, the standings, the Comet values carried, the agreed length, the end and the
winners) is compared with what those give, and the first item that differs is a fault with a rule id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from comet.cards import card_text
from comet.checks.coverage import variant_classifiers
from comet.engine import apply, packs_in_rotation
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
    play_game,
    seats_in_play,
    winners,
)
from comet.policy import Policy, simple_policy
from comet.presets import preset
from comet.records.contract import FORMAT, check_format
from comet.records.deal_record import (
    MAX_TEXT,
    DealRecord,
    JsonObject,
    JsonValue,
    Verdict,
    parse_card_code,
    parse_record,
    record_from_state,
    record_head,
    replay_from,
    whole_number,
)
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState
from comet.variant import variant_of

REQUIRED_FIELDS = ("variant", "players", "length", "first_dealer", "deals")
OPTIONAL_FIELDS = ("format", "rulings", "draw", "end")
DEAL_FIELDS = ("record", "seed", "after")
AFTER_FIELDS = ("standings", "comet_values", "length")
END_FIELDS = ("standings", "winners")
#: Guards against hostile input; far above any real game.
MAX_DEALS = 1_000
MAX_DRAW_ROUNDS = 100


def is_game_record(obj: object) -> bool:
    """A JSON object with a ``deals`` field is a game record."""
    return isinstance(obj, dict) and "deals" in obj


# --------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One deal of a game record: its record (None: dealt from ``seed``) and the values stated after it."""

    record: DealRecord | None
    seed: int | None
    standings: tuple[int, ...] | None
    comet_values: tuple[int, ...] | None
    length: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    variant: str
    rulings: tuple[tuple[str, str | int | bool], ...]
    players: int
    length: int
    draw: Draw | None
    first_dealer: int
    deals: tuple[DealEntry, ...]
    end_standings: tuple[int, ...] | None
    end_winners: tuple[int, ...] | None
    has_end: bool

    def ruleset(self) -> Ruleset:
        """The preset's rules with the record's rulings (RecordError kind ``ruling``)."""
        return DealRecord(self.variant, self.rulings, self.players, 0, None, (), (), (), ()).ruleset()

    def to_json(self) -> JsonObject:
        out = record_head(self.variant, self.rulings, self.players)
        out["length"] = self.length
        if self.draw is not None:
            out["draw"] = [[None if c is None else card_text(c) for c in row] for row in self.draw]
        out["first_dealer"] = self.first_dealer
        deals: list[JsonValue] = []
        for d in self.deals:
            entry: JsonObject = {}
            if d.record is not None:
                entry["record"] = d.record.to_json()
            if d.seed is not None:
                entry["seed"] = d.seed
            if d.standings is not None and d.comet_values is not None and d.length is not None:
                entry["after"] = {
                    "standings": list(d.standings),
                    "comet_values": list(d.comet_values),
                    "length": d.length,
                }
            deals.append(entry)
        out["deals"] = deals
        if self.has_end:
            assert self.end_standings is not None and self.end_winners is not None
            out["end"] = {"standings": list(self.end_standings), "winners": list(self.end_winners)}
        return out


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object, where: str) -> int:
    n = whole_number(value)
    if n is None:
        raise RecordError("field", f"{where} must be a whole number, not {_show(value)}")
    return n


def _ints(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordError("field", f"{where} must be a list of whole numbers, not {_show(value)}")
    return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(value))


def _object(value: object, where: str, required: Sequence[str], optional: Sequence[str]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RecordError("field", f"{where} must be a JSON object, not {_show(value)}")
    for name in required:
        if name not in value:
            raise RecordError("field", f"{where} has no {name!r} field")
    unknown = sorted(str(k) for k in value if k not in (*required, *optional))
    if unknown:
        raise RecordError("field", f"{where}: unknown field(s) {', '.join(map(repr, unknown))}")
    return value


def parse_game_record(obj: object) -> GameRecord:
    """Read a decoded JSON value as a game record; RecordError (kind as for deal records, the message
    naming the item, ``deals[2].record: ...``) for anything malformed."""
    rec = _object(obj, "a game record", REQUIRED_FIELDS, OPTIONAL_FIELDS)
    if "format" in rec:
        why = check_format(_whole(rec["format"], "'format'"))
        if why is not None:
            raise RecordError("field", why)
    variant = rec["variant"]
    if not isinstance(variant, str):
        raise RecordError("field", f"'variant' must be a preset name (a string), not {_show(variant)}")
    rulings_raw = rec.get("rulings", {})
    if not isinstance(rulings_raw, dict):
        raise RecordError("field", f"'rulings' must be an object of name: reading, not {_show(rulings_raw)}")
    players = _whole(rec["players"], "'players'")
    length = _whole(rec["length"], "'length'")
    first_dealer = _whole(rec["first_dealer"], "'first_dealer'")
    draw: Draw | None = None
    if "draw" in rec:
        draw_raw = rec["draw"]
        if not isinstance(draw_raw, list) or not 1 <= len(draw_raw) <= MAX_DRAW_ROUNDS:
            raise RecordError("field", f"'draw' must be a list of 1 to {MAX_DRAW_ROUNDS} rounds, not {_show(draw_raw)}")
        rows = []
        for r, row in enumerate(draw_raw):
            if not isinstance(row, list):
                raise RecordError("field", f"draw[{r}] must be a list (a card code or null per seat)")
            rows.append(tuple(None if c is None else parse_card_code(c, f"draw[{r}][{s}]") for s, c in enumerate(row)))
        draw = tuple(rows)
    deals_raw = rec["deals"]
    if not isinstance(deals_raw, list) or len(deals_raw) > MAX_DEALS:
        raise RecordError("field", f"'deals' must be a list of at most {MAX_DEALS} deals, not {_show(deals_raw)}")
    deals = tuple(_parse_deal(d, i) for i, d in enumerate(deals_raw))
    end_standings = end_winners = None
    if "end" in rec:
        end = _object(rec["end"], "'end'", END_FIELDS, ())
        end_standings = _ints(end["standings"], "end.standings")
        end_winners = _ints(end["winners"], "end.winners")
    # the deal-record checks that need no rules (preset name, rulings readable) come with the game's
    probe = {"variant": variant, "rulings": rulings_raw, "players": players, "dealer": 0, "hands": [], "dead": []}
    head = parse_record({**probe, "actions": []})
    return GameRecord(
        variant,
        head.rulings,
        players,
        length,
        draw,
        first_dealer,
        deals,
        end_standings,
        end_winners,
        "end" in rec,
    )


def _parse_deal(value: object, i: int) -> DealEntry:
    where = f"deals[{i}]"
    d = _object(value, where, (), DEAL_FIELDS)
    if ("record" in d) == ("seed" in d):
        raise RecordError("field", f"{where} must have exactly one of 'record' and 'seed'")
    record = None
    seed = None
    if "record" in d:
        try:
            record = parse_record(d["record"])
        except RecordError as e:
            raise RecordError(e.kind, f"{where}.record: {e.message}") from None
    else:
        seed = _whole(d["seed"], f"{where}.seed")
    standings = comet_values = length = None
    if "after" in d:
        after = _object(d["after"], f"{where}.after", AFTER_FIELDS, ())
        standings = _ints(after["standings"], f"{where}.after.standings")
        comet_values = _ints(after["comet_values"], f"{where}.after.comet_values")
        length = _whole(after["length"], f"{where}.after.length")
    return DealEntry(record, seed, standings, comet_values, length)


def loads_game_record(text: str) -> GameRecord:
    if len(text) > MAX_TEXT * 10:
        raise RecordError("json", f"the record is {len(text)} characters long; at most {MAX_TEXT * 10} are read")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError("json", f"not JSON: {e}") from None
    return parse_game_record(obj)


# --------------------------------------------------------------------- checking


@dataclass(frozen=True, slots=True)
class Fault:
    """The first illegal or inconsistent item: where (``deals[1].after.standings``), the rule it breaks,
    what the model gives and what the record says."""

    item: str
    rule: str
    message: str
    deal: int | None = None
    expected: JsonValue = None
    found: JsonValue = None


@dataclass(frozen=True, slots=True)
class DealOutcome:
    start: DealState
    verdict: Verdict
    after: GameState | None  # None: the deal is not finished (or illegal)


@dataclass(frozen=True, slots=True)
class GameVerdict:
    record: GameRecord
    first_dealer: int
    game: GameState | None  # None: the game could not start
    deals: tuple[DealOutcome, ...]
    fault: Fault | None

    @property
    def legal(self) -> bool:
        return self.fault is None

    @property
    def finished(self) -> bool:
        return self.game is not None and game_over(self.game) and (not self.deals or self.deals[-1].after is not None)

    def to_json(self) -> JsonObject:
        """The replay output of a game record (``spec/schemas/game-output.json``)."""
        deals: list[JsonValue] = []
        for i, d in enumerate(self.deals):
            entry: JsonObject = {
                "index": i,
                "dealer": d.start.dealer,
                "pack": d.start.pack,
                "comet_value": d.start.comet_value,
                "verdict": d.verdict.to_json(),
            }
            if d.after is not None:
                entry["standings"] = list(d.after.balances)
                entry["comet_values"] = list(d.after.comet_values)
                entry["length"] = d.after.deals
            deals.append(entry)
        out: JsonObject = {
            "format": FORMAT,
            "game": True,
            "legal": self.legal,
            "first_dealer": self.first_dealer,
            "deals": deals,
        }
        g = self.game
        out["standings"] = None if g is None else list(g.balances)
        out["finished"] = self.finished
        out["winners"] = list(winners(g)) if g is not None and self.finished else None
        if self.fault is not None:
            f = self.fault
            out["error"] = {
                "item": f.item,
                "deal": f.deal,
                "rule": f.rule,
                "message": f.message,
                "expected": f.expected,
                "found": f.found,
            }
        return out


def game_rule_ids(rules: Ruleset) -> tuple[str, str]:
    """(the rule id of the standings, the rule id of the game's end) for this game: the standard ids for
    a chip game of a fixed number of deals, the variant's own game rule otherwise."""
    v = variant_of(rules)
    entry = variant_classifiers().get(rules.variant)
    own = sorted(entry.game) if entry is not None else []
    standings = "R-GAME-CHIPS" if v.scoring == "chips" or not own else own[0]
    end = "R-GAME-DEALS" if (v.game_end == "deals" and v.game_over is None) or not own else own[0]
    return standings, end


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
                    return None, Fault(where, "R-DEAL-DEALER", f"{card_text(c)} is not in the pack drawn from")
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
            mismatch = _deal_mismatch(deal_rec, rec, rules, len(seats_in_play(game)))
            if mismatch is not None:
                raise RecordError("field", f"{where}.record: {mismatch}")
            start = deal_rec.start()
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
    if deal.players != players:
        if players != rec.players:
            return f"'players' is {deal.players}, the players still in the game are {players}"
        return f"'players' is {deal.players}, the game's is {rec.players}"
    if deal.ruleset() != rules:
        return "its 'rulings' differ from the game's (a deal record of a game states the game's rulings)"
    return None


# --------------------------------------------------------------------- writing


def record_game(
    rules: Ruleset,
    variant: str,
    players: int,
    deals: int | None,
    seed: int,
    policy: Policy = simple_policy,
) -> GameRecord:
    """Play a seeded game with ``comet.game.play_game`` and write down everything a game record holds."""
    draws: list[Draw] = []
    entries: list[DealEntry] = []
    dealers: list[int] = []

    def on_deal(start: DealState, actions: tuple[Action, ...], game: GameState) -> None:
        dealers.append(start.dealer)  # the first deal is dealt to every seat, so its seats are the game's
        entries.append(
            DealEntry(record_from_state(start, variant, actions), None, game.balances, game.comet_values, game.deals)
        )

    game = play_game(rules, players, deals, seed, policy, on_deal, draws.append)
    first_dealer = dealers[0] if dealers else game.dealer
    diff = rules.differences(preset(variant).rules)
    rulings = tuple(sorted((k, v) for k, v in diff.items() if isinstance(v, bool | int | str)))
    length = new_game(rules, players, deals, 0).deals
    return GameRecord(
        variant,
        rulings,
        players,
        length,
        draws[0] if draws else None,
        first_dealer,
        tuple(entries),
        game.balances,
        winners(game),
        True,
    )


def with_rulings(rec: GameRecord, rulings: Mapping[str, str | int | bool]) -> GameRecord:
    """The same game record stating other rulings (game and deals alike): what an implementation that
    ignores a ruling would read (the game vectors' check that a default-only reader fails)."""
    pairs = tuple(sorted(rulings.items()))
    deals = tuple(d if d.record is None else replace(d, record=replace(d.record, rulings=pairs)) for d in rec.deals)
    return replace(rec, rulings=pairs, deals=deals)


def loads_any(text: str) -> DealRecord | GameRecord:
    """A deal record or a game record (an object with ``deals``), read from JSON text."""
    from comet.records.deal_record import loads_record

    if len(text) <= MAX_TEXT:
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            return loads_record(text)  # the same error a deal record gets
        return parse_game_record(obj) if is_game_record(obj) else parse_record(obj)
    return loads_game_record(text)


def explain_game(verdict: GameVerdict) -> list[str]:
    """The game narrated for a person (``comet replay --explain`` of a game record)."""
    from comet.notation import seat_name
    from comet.records.deal_record import explain_lines

    lines = [f"{seat_name(verdict.first_dealer)} deals first."]
    for i, d in enumerate(verdict.deals):
        lines.append(f"Deal {i}:")
        lines.extend("  " + line for line in explain_lines(d.verdict))
        if d.after is not None:
            lines.append("  Standings: " + ", ".join(f"{seat_name(s)} {b}" for s, b in enumerate(d.after.balances)))
    f = verdict.fault
    if f is not None:
        lines.append(
            f"{f.item}: {f.rule}: {f.message} (expected {json.dumps(f.expected)}, found {json.dumps(f.found)})"
        )
    elif verdict.finished and verdict.game is not None:
        won = winners(verdict.game)
        lines.append("Winner" + ("s: " if len(won) > 1 else ": ") + " and ".join(seat_name(s) for s in won) + ".")
    else:
        lines.append("The game goes on.")
    return lines


#: The variables of a game's ITF trace: one state before the first deal, then one after each deal.
GAME_ITF_VARS = (
    "mbt::actionTaken",
    "deal_index",
    "dealer",
    "pack",
    "standings",
    "comet_values",
    "length",
    "finished",
    "winners",
    "net",
)


def game_trace(rec: GameRecord, source: str) -> JsonObject:
    """The ITF trace of a legal game record (written by itf-py): the game before its first deal, then the
    standings and carried values after each deal; ``#meta.record`` holds the game record."""
    from itf_py import State, Trace, trace_to_json

    verdict = replay_game(rec)
    if verdict.fault is not None:
        raise ValueError(f"the game record is not legal: {verdict.fault.item}: {verdict.fault.rule}")
    rules = rec.ruleset()
    game = new_game(rules, rec.players, rec.length, rec.first_dealer)

    def values(g: GameState, taken: str, net: tuple[int, ...]) -> dict[str, object]:
        over = game_over(g)
        packs = packs_in_rotation(rules, len(seats_in_play(g)))
        return {
            "mbt::actionTaken": taken,
            "deal_index": g.deal_index,
            "dealer": g.dealer,
            "pack": packs[pack_index(g)].name,
            "standings": list(g.balances),
            "comet_values": list(g.comet_values),
            "length": g.deals,
            "finished": over,
            "winners": list(winners(g)) if over else [],
            "net": list(net),
        }

    states = [State({"index": 0}, values(game, "init", (0,) * rec.players))]
    for i, d in enumerate(verdict.deals, 1):
        if d.after is None:
            break
        states.append(State({"index": i}, values(d.after, "deal", d.after.history[-1])))
    meta = {
        "format": "ITF",
        "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
        "source": source,
        "description": f"a {rec.variant} game of {len(rec.deals)} deals",
        "record": rec.to_json(),
    }
    out: JsonObject = trace_to_json(Trace(meta=meta, params=[], vars=list(GAME_ITF_VARS), states=states, loop=None))
    return out


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` ('-': stdout); RecordError kind ``io`` if it cannot be written."""
    import sys

    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise RecordError("io", f"cannot write {path}: {e}") from None
