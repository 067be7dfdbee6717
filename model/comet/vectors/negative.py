"""Negative cases: illegal actions (the candidates a record might hold, the search for each rejection
rule) and malformed records (the mutations of a legal one, with the error kind each must raise)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from comet.cards import KING, rank_of
from comet.engine import apply, legal_actions
from comet.errors import IllegalAction, RecordError
from comet.records.deal_record import (
    JsonObject,
    JsonValue,
    loads_record,
    replay_record,
)
from comet.state import PASS, Action, DealState


def candidate_actions(s: DealState) -> Iterator[Action]:
    """Actions worth trying in ``s``: every held card alone and with its rank-mates, the wild card as
    every rank, a card held by someone else, a natural card 'as' a rank, and pass."""
    hand = s.hands[s.to_move]
    yield PASS
    for c in sorted(set(hand)):
        yield Action((c,))
        if c in s.wild:
            for r in range(1, KING + 1):
                yield Action((c,), r)
        else:
            yield Action((c,), rank_of(c) % KING + 1)
            mates = tuple(x for x in hand if rank_of(x) == rank_of(c) and x not in s.wild)
            if len(mates) > 1:
                yield Action(mates)
    for seat, other in enumerate(s.hands):
        if seat != s.to_move:
            for c in sorted(set(other) - set(hand)):
                yield Action((c,))
                break
    naturals = sorted({c for c in hand if c not in s.wild})
    for w in sorted(set(hand) & set(s.wild)):
        if naturals:
            # the Comet together with another card (R-REC-ILLEGAL-PRECEDENCE: R-COMET-WILD)
            yield Action(tuple(sorted((w, naturals[0]))), rank_of(naturals[0]))
    single = [c for c in naturals if hand.count(c) == 1]
    if single:
        # a card named twice but held once (a multiset: R-PLAY-HELD)
        yield Action((single[0], single[0]))
    full = [c for c in naturals if sum(1 for x in hand if rank_of(x) == rank_of(c) and x not in s.wild) >= 3]
    if full and s.need and rank_of(full[0]) != s.need:
        # a complete set of the wrong rank (R-PLAY-CONTINUE)
        yield Action(tuple(x for x in hand if rank_of(x) == rank_of(full[0]) and x not in s.wild))


def illegal_search(
    deals: Sequence[tuple[DealState, tuple[Action, ...]]],
) -> dict[str, tuple[DealState, tuple[Action, ...], IllegalAction]]:
    """For each rule id some candidate action breaks in these deals, the first (start, prefix + action)."""
    found: dict[str, tuple[DealState, tuple[Action, ...], IllegalAction]] = {}
    for start, actions in deals:
        s = start
        for i, played in enumerate((*actions, None)):
            legal = set(legal_actions(s))
            for cand in candidate_actions(s) if not s.terminal else iter((PASS,)):
                if cand in legal:
                    continue
                try:
                    apply(s, cand)
                except IllegalAction as e:
                    if e.rule not in found:
                        found[e.rule] = (start, (*actions[:i], cand), e)
            if played is None:
                break
            s = apply(s, played)
    return found


def mutations(rec: JsonObject) -> list[tuple[str, str]]:
    """Named malformed variations of a valid record, as input text."""

    def with_(**changes: JsonValue) -> str:
        return json.dumps({**rec, **changes})

    def without(name: str) -> str:
        return json.dumps({k: v for k, v in rec.items() if k != name})

    hands = rec["hands"]
    assert isinstance(hands, list)
    first = hands[0]
    second = hands[1] if len(hands) > 1 else []
    assert isinstance(first, list) and isinstance(second, list)
    players = rec["players"]
    assert isinstance(players, int)
    moved = [first[1:], [*second, first[0]], *hands[2:]]
    dup = [[first[1], *first[1:]], *hands[1:]]
    text = json.dumps(rec)
    dead = rec["dead"]
    assert isinstance(dead, list)
    return [
        ("not-json", text[: len(text) // 2]),
        ("limit-number-past-2-53", with_(comet_value=2**53)),
        ("limit-duplicate-key", text[:-1] + ', "dealer": ' + json.dumps(rec["dealer"]) + "}"),
        ("limit-byte-order-mark", "\ufeff" + text),
        ("format-obsolete", with_(format=1)),
        ("format-later", with_(format=99)),
        ("not-an-object", json.dumps([rec])),
        ("missing-field", without("hands")),
        ("unknown-field", with_(extra=1)),
        ("variant-not-a-string", with_(variant=7)),
        ("rulings-not-an-object", with_(rulings=[])),
        ("reading-null", with_(rulings={"comet_lead": None})),
        ("players-not-a-number", with_(players=str(players))),
        ("players-true", with_(players=True)),
        ("players-fraction", with_(players=players + 0.5)),
        ("dealer-null", with_(dealer=None)),
        ("negative-comet-value", with_(comet_value=-2)),
        ("hands-not-a-list", with_(hands={})),
        ("card-not-a-string", with_(hands=[[5, *first[1:]], *hands[1:]])),
        ("dead-not-a-list", with_(dead=str(dead[0]) if dead else "3C")),
        ("actions-not-a-list", with_(actions="pass")),
        ("action-not-a-string", with_(actions=[5])),
        ("unknown-variant", with_(variant="nonesuch")),
        ("unknown-card", with_(hands=[["1Z", *first[1:]], *hands[1:]])),
        ("lower-case-card", with_(hands=[[str(first[0]).lower(), *first[1:]], *hands[1:]])),
        ("action-syntax", with_(actions=["jump 5H"])),
        ("action-double-space", with_(actions=["play  " + str(first[0])])),
        ("action-as-without-rank", with_(actions=[f"play {first[0]} as"])),
        ("unknown-ruling", with_(rulings={"no_such_ruling": True})),
        ("bad-ruling-reading", with_(rulings={"comet_lead": "sometimes"})),
        ("reading-string-for-a-boolean", with_(rulings={"may_stop_early": "yes"})),
        ("reading-string-true", with_(rulings={"may_stop_early": "true"})),
        ("reading-number-for-a-boolean", with_(rulings={"may_stop_early": 1})),
        ("reading-string-for-a-number", with_(rulings={"starting_chips": "50"})),
        ("reading-negative-number", with_(rulings={"starting_chips": -5})),
        ("players-out-of-range", with_(players=99)),
        ("missing-hand", with_(hands=hands[:-1])),
        ("not-one-pack", with_(hands=dup)),
        ("wrong-hand-size", with_(hands=moved)),
        ("dealer-out-of-range", with_(dealer=players)),
        ("dealer-negative", with_(dealer=-1)),
    ]


#: The rule ids a malformed case exercises besides R-REC-FAULTS, by its expected kind / name.
MALFORMED_RULES = {"players": ("R-PLAYERS",), "hand-size": ("R-DEAL-SIZES",), "dealer": ("R-LEAD-FIRST",)}


def malformed_cases(rec: JsonObject) -> list[tuple[str, str, str]]:
    """(case name, input text, expected kind) for every mutation that the model rejects."""
    out = []
    for name, text in mutations(rec):
        try:
            replay_record(loads_record(text))
        except RecordError as e:
            out.append((name, text, e.kind))
    return out
