"""The rules running in the page: what ``play.html`` and ``check.html`` call inside Pyodide.

Standard library and the model's core only (Pyodide has nothing else): every move is checked by
``comet.engine`` (legal moves offered, an illegal one refused with the rule it breaks and the engine's
message), the other seats are played by the model's simple policy, and a pasted record gets the verdict
``comet replay`` prints (the same JSON, exit code and error line).  No rule is written here or in the
page's script.  Every function takes and returns JSON text, so the page's script only moves strings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from comet.cards import card_text, rank_text
from comet.engine import apply, legal_actions, packs_in_rotation, returns, shuffled_deal, why_illegal
from comet.errors import IllegalAction, RecordError
from comet.notation import narrate, parse_action, seat_name
from comet.policy import simple_policy
from comet.presets import PRESETS, preset
from comet.records.deal_record import dumps_json, parse_record, record_from_state, replay_record
from comet.state import Action, DealState
from comet.variant import variant_of


@dataclass
class Session:
    """One deal in the page: the human sits at ``human``; the other seats are the simple policy."""

    start: DealState
    state: DealState
    human: int
    preset: str
    actions: list[Action] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


_SESSION: list[Session] = []


def presets() -> str:
    """The presets the page offers: name, description, player counts and the usual count."""
    out = [
        {
            "name": n,
            "description": p.description,
            "players": list(p.variant.player_counts),
            "usual": p.variant.default_players,
        }
        for n, p in sorted(PRESETS.items(), key=lambda kv: (kv[0] != "standard", kv[0]))
    ]
    return json.dumps(out)


def new_deal(request: str) -> str:
    """Start a deal: ``{"preset", "players", "seed", "rulings": {field: value}}``, or a given deal with
    ``"record"`` (its hands, dealer and rulings; the actions are not played).  You are the first to move."""
    try:
        req = json.loads(request)
        pr = preset(str(req.get("preset", "standard")))
        if isinstance(req.get("record"), dict):
            # a given deal (a ruling's witness): its cards, under the readings asked for
            record = dict(req["record"])
            record["rulings"] = {**(record.get("rulings") or {}), **(req.get("rulings") or {})}
            start = parse_record(record).start()
        else:
            rules = pr.rules.with_overrides(req.get("rulings") or {})
            players = int(req.get("players") or pr.variant.default_players)
            seed = int(req.get("seed") or 1)
            start = shuffled_deal(rules, players, players - 1, seed, packs_in_rotation(rules, players)[0])
    except (ValueError, KeyError, RecordError, TypeError) as e:
        return json.dumps({"error": str(e)})
    _SESSION[:] = [Session(start, start, start.to_move, pr.name)]
    _bots(_SESSION[0])
    return view()


def _say(s: Session, before: DealState, a: Action) -> None:
    who = seat_name(before.to_move) + (" (you)" if before.to_move == s.human else "")
    wild_name = variant_of(before.rules).wild_name
    if a.is_pass:
        what = (f"without {rank_text(before.need)}" if before.need else "without") if before.turn_played else "pass"
    elif a.as_rank:
        what = f"plays the {wild_name} ({card_text(a.cards[0])}) as {rank_text(a.as_rank)}"
    else:
        what = "plays " + " ".join(card_text(c) for c in a.cards)
    s.log.append(f"{who}: {what}")


def _step(s: Session, a: Action) -> None:
    before = s.state
    s.state = apply(before, a)
    s.actions.append(a)
    _say(s, before, a)
    for p in s.state.payments[len(before.payments) :]:
        s.log.append(f"  {seat_name(p.payer)} pays {seat_name(p.payee)} {p.amount} ({p.rule})")


def _bots(s: Session) -> None:
    while not s.state.terminal and s.state.to_move != s.human:
        _step(s, simple_policy(s.state, legal_actions(s.state)))


def move(text: str) -> str:
    """The human's move as record text (``play 5H``, ``play 9D as K``, ``pass``): applied, or refused."""
    if not _SESSION:
        return json.dumps({"error": "no deal: start one first"})
    s = _SESSION[0]
    if s.state.terminal:
        return view(refused={"rule": "R-END-OUT", "message": "the deal is over; no further action is legal"})
    try:
        a = parse_action(text)
    except RecordError as e:
        return view(refused={"rule": f"[{e.kind}]", "message": str(e)})
    legal = legal_actions(s.state)
    if a not in legal:
        err = why_illegal(s.state, a)
        assert isinstance(err, IllegalAction)
        return view(refused={"rule": err.rule, "message": err.message, "action": text})
    _step(s, a)
    _bots(s)
    return view()


def view(refused: dict[str, str] | None = None) -> str:
    """What the page shows: your hand, the others' card counts, the run, the legal moves, the log."""
    s = _SESSION[0]
    st = s.state
    wild = [card_text(c) for c in st.wild]
    legal = legal_actions(st) if not st.terminal and st.to_move == s.human else ()
    totals = list(returns(st))
    out: dict[str, object] = {
        "preset": s.preset,
        "wild": wild,
        "wild_name": variant_of(st.rules).wild_name,
        "names": [seat_name(i) for i in range(st.players)],
        "you": s.human,
        "hand": [card_text(c) for c in st.hands[s.human]],
        "counts": [len(h) for h in st.hands],
        "dead": len(st.dead),
        "run": [rank_text(r) for r in st.run],
        "need": rank_text(st.need) if st.need else "",
        "to_move": st.to_move,
        "legal": [str(a) for a in legal],
        "log": s.log,
        "totals": totals,
        "over": st.terminal,
        "winner": st.winner,
        "refused": refused,
    }
    if st.terminal:
        out["story"] = narrate(s.start, s.actions)
        out["record"] = json.loads(dumps_json(record_from_state(s.start, st.rules.variant, s.actions).to_json()))
    return json.dumps(out)


def check(text: str) -> str:
    """``comet replay`` on a pasted record: ``{"exit", "stdout", "stderr"}`` as the command gives them."""
    from comet.records.game_record import GameRecord, loads_any
    from comet.records.game_replay import replay_game

    try:
        rec = loads_any(text)
        if isinstance(rec, GameRecord):
            game = replay_game(rec)
            return json.dumps({"exit": 0 if game.legal else 1, "stdout": dumps_json(game.to_json()), "stderr": ""})
        verdict = replay_record(rec)
        return json.dumps({"exit": 0 if verdict.legal else 1, "stdout": dumps_json(verdict.to_json()), "stderr": ""})
    except RecordError as err:
        return json.dumps({"exit": 2, "stdout": "", "stderr": f"comet replay: error: [{err.kind}] {err}"})
    except ValueError as err:
        return json.dumps({"exit": 2, "stdout": "", "stderr": f"comet replay: error: {err}"})
