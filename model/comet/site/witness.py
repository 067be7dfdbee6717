"""A stored witness deal stepped through under both readings, computed at build time by the model.

Every state, legal-action list and payment the page shows comes from ``comet.engine`` here; the page's
script only shows step *k* of these lists, so no rule is written in JavaScript.  A side follows the record
to its end or to its first illegal action (shown with the rule it breaks), then the deal is played on to
its end by the simple players (``played_on``); ``actions`` lists what was played, so ``comet replay`` of
the record with those actions gives the final chips shown.  A side holds only the refusal when that
reading refuses the deal itself.
"""

from __future__ import annotations

from comet.cards import card_text, rank_text
from comet.engine import apply, deal_points, legal_actions, returns, settlement, step_bound
from comet.errors import IllegalAction, RecordError
from comet.notation import parse_action, seat_name
from comet.policy import simple_policy
from comet.presets import preset
from comet.records.deal_record import JsonObject, JsonValue, canonical_actions, parse_record
from comet.state import Action, DealState, Payment
from comet.variant import variant_of


def record_with(record: JsonObject, field: str, value: JsonValue) -> JsonObject:
    """The witness record with one ruling set (``value`` None: the preset's default, as stored)."""
    out = dict(record)
    rulings = dict(record.get("rulings") or {})  # type: ignore[arg-type]
    if value is not None:
        rulings[field] = value
    out["rulings"] = rulings
    return out


def _pays(pays: tuple[Payment, ...]) -> list[JsonValue]:
    return [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "rule": p.rule} for p in pays]


def points_unit(s: DealState) -> str | None:
    """What a points game scores, in the reader's words ("penalty points" where the lowest total wins); None in a
    chip game."""
    v = variant_of(s.rules)
    if v.scoring == "chips":
        return None
    return "penalty points" if v.lower_wins else "points"


def _snapshot(s: DealState) -> JsonObject:
    points: JsonObject = {} if points_unit(s) is None else {"points": list(deal_points(s))}
    return {
        "hands": [[card_text(c) for c in h] for h in s.hands],
        "run": [rank_text(r) for r in s.run],
        "chips": list(returns(s)),
        **points,
        "to_move": None if s.terminal else s.to_move,
        "finished": s.terminal,
        "winner": s.winner if s.winner >= 0 else None,
        "drawn": s.drawn,
        "legal": [str(a) for a in canonical_actions(legal_actions(s))] if not s.terminal else [],
    }


def _said(mover: int, a: Action) -> str:
    return f"{seat_name(mover)} passes" if a.is_pass else f"{seat_name(mover)} plays {str(a).removeprefix('play ')}"


def side(record: JsonObject) -> JsonObject:
    """Step 0 (the deal) and one step per action of ``record`` under its rulings, as the page shows them."""
    return _side(record)[0]


def _side(record: JsonObject) -> tuple[JsonObject, list[DealState]]:
    """``side`` and the state shown at each step."""
    try:
        rec = parse_record(record)
        start = rec.start()
    except (RecordError, ValueError) as e:
        kind = f"[{e.kind}] " if isinstance(e, RecordError) else ""
        return {"refused": f"{kind}{e}", "steps": [], "wild": [], "names": []}, []
    steps: list[JsonValue] = [{"said": "The deal", "pays": [], **_snapshot(start)}]
    played: list[JsonValue] = []
    states = [start]
    s = start
    for text, a in zip(rec.action_texts, rec.actions, strict=True):
        mover = s.to_move
        try:
            nxt = apply(s, a)
        except IllegalAction as e:
            steps.append(
                {
                    "said": f"{seat_name(mover)} may not play '{text}'",
                    "error": {"rule": e.rule, "message": e.message, "action": text},
                    "pays": [],
                    **_snapshot(s),
                }
            )
            states.append(s)
            break
        pays = nxt.payments[len(s.payments) :] + (settlement(nxt) if nxt.terminal else ())
        steps.append({"said": _said(mover, a), "action": text, "pays": _pays(pays), **_snapshot(nxt)})
        states.append(nxt)
        played.append(text)
        s = nxt
    # The record stops where the readings part; the deal is played on to its end by the simple players,
    # so a reader sees how it finishes under this reading (each such step is marked ``played_on``).
    bound = step_bound(s)
    while not s.terminal and bound > 0:
        bound -= 1
        mover = s.to_move
        a = simple_policy(s, legal_actions(s))
        nxt = apply(s, a)
        pays = nxt.payments[len(s.payments) :] + (settlement(nxt) if nxt.terminal else ())
        steps.append(
            {"said": _said(mover, a), "action": str(a), "pays": _pays(pays), "played_on": True, **_snapshot(nxt)}
        )
        states.append(nxt)
        played.append(str(a))
        s = nxt
    out: JsonObject = {
        "refused": None,
        "steps": steps,
        "wild": [card_text(c) for c in start.wild],
        "names": [seat_name(i) for i in range(start.players)],
        "points_unit": points_unit(start),
        "pack": start.pack,
        "dealer": start.dealer,
        "dead": [card_text(c) for c in start.dead],
        "actions": played,
    }
    return out, states


def why_not(mine: tuple[JsonObject, list[DealState]], theirs: tuple[JsonObject, list[DealState]]) -> None:
    """At each step, the actions the other reading allows and this one does not, with the rule this reading's
    engine names when it refuses them (``apply`` raising ``IllegalAction``): added to each step as ``why_not``."""
    (data, states), (other, _) = mine, theirs
    steps, other_steps = data["steps"], other["steps"]
    assert isinstance(steps, list) and isinstance(other_steps, list)
    for k, (step, state) in enumerate(zip(steps, states, strict=True)):
        assert isinstance(step, dict)
        if k >= len(other_steps) or "error" in step or state.terminal:
            continue
        theirs_step = other_steps[k]
        assert isinstance(theirs_step, dict)
        legal = step["legal"]
        assert isinstance(legal, list) and isinstance(theirs_step["legal"], list)
        refused: dict[str, JsonValue] = {}
        for text in theirs_step["legal"]:
            if text in legal:
                continue
            try:
                apply(state, parse_action(str(text)))
            except IllegalAction as e:
                refused[str(text)] = {"rule": e.rule, "message": e.message}
        if refused:
            step["why_not"] = refused


def stepper_data(entry: JsonObject) -> JsonObject | None:
    """Both sides of a stored deal witness (``comet.diverge.witnesses.json`` entry); None for a game witness."""
    record = entry.get("record")
    if not entry.get("found") or not isinstance(record, dict):
        return None
    field = str(entry["field"])
    step = entry.get("step")
    a, b = _side(record_with(record, field, None)), _side(record_with(record, field, entry["b"]))
    if a[1] and b[1]:
        why_not(a, b)
        why_not(b, a)
    return {
        "key": str(entry["key"]),
        "preset": str(entry["preset"]),
        "field": field,
        "a": entry["a"],
        "b": entry["b"],
        "kind": str(entry.get("kind", "")),
        "detail": str(entry.get("detail", "")),
        "origin": str(entry.get("origin", "")),
        "diff_step": (step + 1) if isinstance(step, int) and step >= 0 else 0,
        "wild_name": preset(str(entry["preset"])).variant.wild_name,
        "record": record,
        "sides": [a[0], b[0]],
    }
