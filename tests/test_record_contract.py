"""The record contract of spec/rules.md section 7, each rule checked against an expectation written
independently of the code (R-REC-FAULTS, R-REC-NUMBERS, R-REC-ACTION-ORDER, R-REC-ILLEGAL-PRECEDENCE,
R-REC-PAYMENTS, R-REC-STATE), plus the planted-bug classes of issue 11: a record field typed ``true``
read as an integer, the cards of a multi-card play left unsorted, "does not hold" judged on a set, the
extra round of RUL-GAME-TIE played without a tie, zero-sum checked on ``returns()``."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import comet.engine as engine
import comet.records.deal_record as record
import pytest
from comet.cards import KING, card_text, parse_card, rank_of
from comet.engine import apply, legal_actions, player_counts, returns, settlement, shuffled_deal
from comet.errors import IllegalAction, RecordError
from comet.game import finish_deal, game_over, new_game, play_deal, winners
from comet.notation import parse_action
from comet.policy import random_policy
from comet.presets import PRESETS, preset
from comet.records.deal_record import CHECK_ORDER, loads_record, record_from_state, replay_record
from comet.ruleset import Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of
from comet.vectors.negative import candidate_actions
from test_record import ACTIONS, HAND_RECORD
from test_replay_cli import validator

ROOT = Path(__file__).resolve().parent.parent
RECORD_MD = (ROOT / "spec" / "record.md").read_text(encoding="utf-8")

# --------------------------------------------------------------------- R-REC-FAULTS: the table


def fault_rows() -> list[tuple[str, str]]:
    """(kind, example) of every row of the fault table in spec/record.md, in order."""
    body = RECORD_MD.split("<!-- faults:begin -->", 1)[1].split("<!-- faults:end -->", 1)[0]
    rows = []
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("kind", "---"):
            continue
        kind = cells[0].strip("`")
        example = cells[1]
        example = "text " + example[len("text `") : -1] if example.startswith("text `") else example.strip("`")
        rows.append((kind, example))
    return rows


ROWS = fault_rows()
PATH = re.compile(r"^([a-z_]+)((?:\[\d+\])*)$")


def _locate(rec: dict[str, Any], path: str) -> tuple[Any, str | int]:
    m = PATH.match(path)
    assert m, path
    idx = [int(i) for i in re.findall(r"\d+", m.group(2))]
    if not idx:
        return rec, m.group(1)
    target = rec[m.group(1)]
    for i in idx[:-1]:
        target = target[i]
    return target, idx[-1]


def touched(example: str) -> set[str]:
    """The top-level fields an example changes (text examples: everything)."""
    if example.startswith("text "):
        return {"*"}
    if example.startswith("without "):
        return {example.split()[1]}
    if example.startswith("move "):
        return {"hands"}
    return {example.split("=", 1)[0].strip().split("[")[0]}


def apply_example(rec: dict[str, Any], example: str) -> str:
    """The record text after one fault from the table's example column."""
    if example.startswith("text "):
        return example[len("text ") :]
    out = copy.deepcopy(rec)
    if example.startswith("without "):
        del out[example.split()[1]]
    elif example.startswith("move "):
        src, dst = (x.strip() for x in example[len("move ") :].split("->"))
        holder, key = _locate(out, src)
        c = holder.pop(key)
        dholder, dkey = _locate(out, dst)
        dholder[dkey].append(c)
    else:
        path, value = (x.strip() for x in example.split("=", 1))
        holder, key = _locate(out, path)
        holder[key] = json.loads(value)
    return json.dumps(out)


def kind_of(text: str) -> str | None:
    try:
        replay_record(loads_record(text))
    except RecordError as e:
        return e.kind
    return None


def test_fault_table_is_parsed_and_covers_every_kind() -> None:
    """R-REC-FAULTS: the table lists every kind of CHECK_ORDER, in that order."""
    order = [k for k, _ in itertools.groupby(kind for kind, _ in ROWS)]
    assert len(ROWS) >= 30
    assert order == list(CHECK_ORDER[:7]) + ["hand-size", "pack", "hand-size", "dealer"]
    assert [k for k in dict.fromkeys(order)] == list(CHECK_ORDER)


@pytest.mark.parametrize(("kind", "example"), ROWS, ids=[f"{k}:{e[:30]}" for k, e in ROWS])
def test_each_fault_gives_the_kind_in_the_table(kind: str, example: str) -> None:
    """R-REC-FAULTS: one fault at a time, the code names the table's kind (one line, no traceback)."""
    assert kind_of(json.dumps(HAND_RECORD)) is None
    text = apply_example(HAND_RECORD, example)
    assert kind_of(text) == kind, (example, text[:120])


def test_pairs_of_faults_report_the_earlier_row() -> None:
    """R-REC-FAULTS: two faults on different fields: the kind of the row checked first wins."""
    position = {kind: i for i, kind in enumerate(k for k, _ in itertools.groupby(kind for kind, _ in ROWS))}
    # a kind's position is the first group it belongs to, except hand-size of sizes (after pack)
    checked = 0
    for (i, (k1, e1)), (j, (k2, e2)) in itertools.combinations(enumerate(ROWS), 2):
        if "*" in touched(e1) | touched(e2) or touched(e1) & touched(e2) or k1 == k2:
            continue
        text = apply_example(json.loads(apply_example(HAND_RECORD, e1)), e2)
        got = kind_of(text)
        first_group = _group_of(i)
        second_group = _group_of(j)
        want = ROWS[i][0] if first_group <= second_group else ROWS[j][0]
        assert got == want, (e1, e2, got, position)
        checked += 1
    assert checked > 100


def _group_of(row: int) -> int:
    groups = [k for k, _ in itertools.groupby(kind for kind, _ in ROWS)]
    kinds = [kind for kind, _ in ROWS]
    g = 0
    for n in range(1, row + 1):
        if kinds[n] != kinds[n - 1]:
            g += 1
    assert kinds[row] == groups[g]
    return g


def test_schema_rejects_exactly_the_structural_faults() -> None:
    """R-REC-FAULTS: spec/schemas/record.json refuses a record iff its fault is json/field/card/action-syntax."""
    schema = validator("record.json")
    assert schema.is_valid(HAND_RECORD)
    for kind, example in ROWS:
        text = apply_example(HAND_RECORD, example)
        try:
            value = json.loads(text)
        except ValueError:
            assert kind == "json"
            continue
        structural = kind in ("json", "field", "card", "action-syntax")
        assert schema.is_valid(value) is not structural, (kind, example)


def test_planted_bug_true_read_as_an_integer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: ``whole_number`` that forgets bool is a subclass of int; the table's example fails."""

    def lax(value: object) -> int | None:
        return int(value) if isinstance(value, int | float) else None

    monkeypatch.setattr(record, "whole_number", lax)
    assert kind_of(apply_example(HAND_RECORD, "players = true")) != "field"
    for name in ("players", "dealer", "comet_value"):
        monkeypatch.undo()
        assert kind_of(json.dumps({**HAND_RECORD, name: True})) == "field"


# --------------------------------------------------------------------- R-REC-NUMBERS


@pytest.mark.parametrize("spelling", ["5.0", "5e0", "5E0", "50e-1"])
def test_whole_numbers_with_a_fraction_or_exponent_are_the_same_record(spelling: str) -> None:
    """R-REC-NUMBERS: "players": 5.0 is 5 (a JavaScript client cannot tell them apart)."""
    text = json.dumps(HAND_RECORD).replace('"players": 5', f'"players": {spelling}')
    assert spelling in text
    assert loads_record(text) == loads_record(json.dumps(HAND_RECORD))
    rulings = json.dumps({**HAND_RECORD, "rulings": {"starting_chips": 50.0}})
    assert dict(loads_record(rulings).rulings) == {"starting_chips": 50}


@pytest.mark.parametrize("value", [5.5, "5", True, False, None, [5]])
def test_other_numbers_are_field_faults(value: object) -> None:
    """R-REC-NUMBERS: 5.5, "5", true, null and a list are kind field (an infinity is not JSON at all:
    kind json, R-REC-LIMITS, tests/test_record_limits.py)."""
    text = json.dumps({**HAND_RECORD, "players": value})
    assert kind_of(text) == "field"


# --------------------------------------------------------------------- sample states


def standard_play(rules: Ruleset) -> bool:
    v = variant_of(rules)
    return v.why_illegal is None and v.legal_actions is None


def sample_states(presets: list[str], deals: int, seed: int) -> list[DealState]:
    """States along random deals of every player count of the presets (their default rules)."""
    rng = random.Random(seed)
    out: list[DealState] = []
    for name in presets:
        rules = preset(name).rules
        for n in player_counts(rules):
            for _ in range(deals):
                s = shuffled_deal(rules, n, rng.randrange(n), rng.getrandbits(32))
                choose = random_policy(rng)
                while not s.terminal:
                    out.append(s)
                    s = apply(s, choose(s, legal_actions(s)))
                out.append(s)
    return out


SAMPLES = sample_states(sorted(PRESETS), 2, 11)


# --------------------------------------------------------------------- R-REC-ACTION-ORDER


def text_key(text: str) -> tuple[list[tuple[int, int]], int]:
    """The canonical order written from the spec's words, reading the action text only."""
    words = text.split()
    as_rank = 0
    if "as" in words:
        rank_word = words[-1]
        as_rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_word) or int(rank_word)
        words = words[:-2]
    cards = [(rank_of(parse_card(w)), "CDHS".index(w[-1])) for w in words[1:]]
    return cards, as_rank


def test_legal_actions_are_in_the_canonical_order_everywhere() -> None:
    """R-REC-ACTION-ORDER: pass first, then by cards (rank, suit) card by card, then the Comet's rank;
    the cards inside an action in the same order; no duplicates.  Every preset, every player count."""
    multi = 0
    for s in SAMPLES:
        texts = record.state_summary(s)["legal_actions"]
        assert isinstance(texts, list)
        keys = [text_key(str(t)) for t in texts]
        assert keys == sorted(keys) and len(set(map(str, texts))) == len(texts), texts
        if texts and any(t == "pass" for t in texts):
            assert texts[0] == "pass"
        for t, (cards, _) in zip(texts, keys, strict=True):
            assert cards == sorted(cards), t
            multi += len(cards) > 1
        assert (texts == []) is s.terminal
    assert multi > 0, "the samples should hold a multi-card play"


def quartet_state() -> tuple[DealState, Action]:
    """A 3-player standard deal where seat 0 leads the 4 and holds all four 5s."""
    hands = [
        ["4C", "5C", "5C", "5S", "5S", "7C", "7S", "8C", "10C", "JC", "QC", "KC"],
        ["2C", "2S", "3C", "3S", "6C", "6S", "8S", "10S", "JS", "QS", "KS", "KC"],
        ["2C", "2S", "3C", "3S", "4C", "4S", "6C", "6S", "7C", "7S", "8C", "8S"],
    ]
    dead = ["4S", "9C", "9S", "9S", "9D", "10C", "10S", "JC", "JS", "QC", "QS", "KS"]
    rec = {"variant": "standard", "players": 3, "dealer": 2, "hands": hands, "dead": dead, "actions": ["play 4C"]}
    v = replay_record(loads_record(json.dumps(rec)))
    assert v.legal, v.to_json()
    quad = next(a for a in legal_actions(v.final) if len(a.cards) == 4)
    return v.final, quad


def test_a_multi_card_play_in_any_order_is_the_same_play() -> None:
    """R-REC-ACTION-ORDER, R-FOUR-OF-A-KIND: 'play 5S 5C 5S 5C' is 'play 5C 5C 5S 5S'."""
    s, quad = quartet_state()
    assert str(quad) == "play 5C 5C 5S 5S"
    for perm in set(itertools.permutations(str(quad).split()[1:])):
        assert apply(s, parse_action("play " + " ".join(perm))) == apply(s, quad)


def test_planted_bug_unsorted_multi_card_play_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: notation keeps the cards in the order written; the permuted play is then refused."""
    import comet.notation as notation

    s, _ = quartet_state()
    real = notation.parse_action

    def unsorted(text: str) -> Action:
        a = real(text)
        words = text.split()[1:]
        return Action(tuple(parse_card(w) for w in words), a.as_rank) if len(words) > 1 and "as" not in words else a

    monkeypatch.setattr(notation, "parse_action", unsorted)
    with pytest.raises(IllegalAction):
        apply(s, notation.parse_action("play 5S 5C 5S 5C"))


# --------------------------------------------------------------------- R-REC-ILLEGAL-PRECEDENCE


def expected_rule(s: DealState, a: Action) -> str:
    """The rule id of an illegal action, from spec/rules.md R-REC-ILLEGAL-PRECEDENCE alone."""
    if s.terminal:
        return "R-END-OUT"
    if a.is_pass:
        return "R-NEW-RUN" if s.need == 0 and s.turn_played and s.rules.new_run == "must" else "R-PLAY-MUST"
    if Counter(a.cards) - Counter(s.hands[s.to_move]):
        return "R-PLAY-HELD"
    if any(c in s.wild for c in a.cards) or a.as_rank:
        return "R-COMET-WILD"
    if len(a.cards) > 1:
        ranks = {rank_of(c) for c in a.cards}
        everywhere = [c for h in s.hands for c in h] + list(s.dead) + list(s.played)
        in_pack = sum(1 for c in everywhere if rank_of(c) in ranks and c not in s.wild)
        if len(ranks) > 1 or len(a.cards) != in_pack or s.need == 0:
            return "R-FOUR-OF-A-KIND"
    return "R-PLAY-CONTINUE"


def probes(s: DealState, rng: random.Random) -> list[Action]:
    """Candidate actions (comet.vectors) plus random multisets of cards, the Comet mixed in."""
    out = list(candidate_actions(s))
    hand = list(s.hands[s.to_move]) or [0]
    pool = sorted({c for h in s.hands for c in h})
    for _ in range(6):
        k = rng.randint(2, 4)
        cards = tuple(sorted(rng.choice(hand if rng.random() < 0.7 else pool) for _ in range(k)))
        out.append(Action(cards))
        out.append(Action(cards, rng.randint(1, KING)))
    for w in s.wild:
        out.append(Action(tuple(sorted((w, hand[0])))))
        out.append(Action(tuple(sorted((w, hand[0]))), 9))
    return out


def test_illegal_actions_get_the_independently_expected_rule_id() -> None:
    """R-REC-ILLEGAL-PRECEDENCE (and R-END-OUT, R-PLAY-MUST, R-NEW-RUN, R-PLAY-HELD, R-COMET-WILD,
    R-FOUR-OF-A-KIND, R-PLAY-CONTINUE): the engine's rule id equals the expectation written from the
    spec, not merely a known id, for every probe in every sampled state of the standard-play games."""
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for s in SAMPLES:
        if not standard_play(s.rules):
            continue
        legal = set(legal_actions(s))
        for a in probes(s, rng):
            if a in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                apply(s, a)
            want = expected_rule(s, a)
            assert info.value.rule == want, (str(a), s.hands[s.to_move], s.run, info.value.rule, want)
            seen[want] += 1
    assert set(seen) >= {"R-END-OUT", "R-PLAY-MUST", "R-PLAY-HELD", "R-COMET-WILD", "R-FOUR-OF-A-KIND"}, seen
    assert "R-PLAY-CONTINUE" in seen, seen


def test_the_comet_with_other_cards_is_r_comet_wild_and_a_missing_duplicate_is_r_play_held() -> None:
    """R-REC-ILLEGAL-PRECEDENCE: 'play 2S 9D' is R-COMET-WILD (not R-FOUR-OF-A-KIND); 'play 5C 5C 5S 5S'
    by a player holding one 5C is R-PLAY-HELD (a multiset, not a set)."""
    s, quad = quartet_state()
    comet_hand = replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": []}))).final
    for state, text, rule in (
        (comet_hand, "play 2S 9D", "R-COMET-WILD"),
        (comet_hand, "play 2S 9D as 2", "R-COMET-WILD"),
        (s, "play 5C 5S 5S 5S", "R-PLAY-HELD"),
        (replace(s, hands=((*s.hands[0][:1], *s.hands[0][2:]), *s.hands[1:])), str(quad), "R-PLAY-HELD"),
    ):
        with pytest.raises(IllegalAction) as info:
            apply(state, parse_action(text))
        assert info.value.rule == rule, text


def test_planted_bug_set_not_multiset_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: 'does not hold' judged on sets; the four 5s from a hand with one 5C get the wrong id."""
    s, quad = quartet_state()
    short = replace(s, hands=((*s.hands[0][:1], *s.hands[0][2:]), *s.hands[1:]))
    real = engine.why_illegal

    def by_set(state: DealState, action: Action) -> IllegalAction:
        if len(action.cards) > 1 and not set(action.cards) - set(state.hands[state.to_move]):
            return IllegalAction("R-FOUR-OF-A-KIND", "planted")
        return real(state, action)

    monkeypatch.setattr(engine, "why_illegal", by_set)
    with pytest.raises(IllegalAction) as info:
        apply(short, quad)
    assert info.value.rule != expected_rule(short, quad) == "R-PLAY-HELD"


# --------------------------------------------------------------------- R-REC-PAYMENTS


def expected_settlement_rule(final: DealState, payer: int) -> str:
    if final.out_wild_as:
        return "R-SETTLE-COMET-LAST"
    if any(c in final.wild for c in final.hands[payer]):
        return "R-SETTLE-CAUGHT"
    first = (final.dealer + 1) % final.players
    if final.rules.opera and final.winner == first and final.turn == 0:
        return "R-OPERA-DOUBLE"
    return "R-SETTLE-POINTS"


def test_payment_list_order_rules_and_no_zero_amounts() -> None:
    """R-REC-PAYMENTS: no payment of 0; during play each play's payers in seat order; the settlement one
    payment per loser in seat order with the most specific rule id (R-SETTLE-COMET-LAST, R-SETTLE-CAUGHT,
    R-OPERA-DOUBLE, R-SETTLE-POINTS); chips are the list's sums; returns() is zero-sum in chip games."""
    labels: Counter[str] = Counter()
    for s in SAMPLES:
        out = record.state_summary(s)
        pays = out["payments"]
        assert isinstance(pays, list)
        assert all(isinstance(p, dict) and int(str(p["amount"])) > 0 for p in pays)
        net = [0] * s.players
        for pay in pays:
            assert isinstance(pay, dict)
            net[int(str(pay["payer"]))] -= int(str(pay["amount"]))
            net[int(str(pay["payee"]))] += int(str(pay["amount"]))
        assert out["chips"] == net == list(returns(s))
        if variant_of(s.rules).scoring == "chips":
            assert sum(returns(s)) == 0
        settle = settlement(s)
        if variant_of(s.rules).settlement is None:  # the standard settlement: one per loser, seat order
            assert [p.payer for p in settle] == sorted({p.payer for p in settle})
        if s.rules.variant == "standard" and s.winner >= 0:
            for p in settle:
                assert p.rule == expected_settlement_rule(s, p.payer), (p, s.out_wild_as)
                labels[p.rule] += 1
    assert labels["R-SETTLE-POINTS"] > 0


def test_settlement_labels_on_hand_made_deals() -> None:
    """R-REC-PAYMENTS, R-SETTLE-COMET-LAST, R-SETTLE-CAUGHT: the worked example ends on a King (points);
    from a position where Anna keeps the Comet, random endings label every payment as expected."""
    pays = replay_record(loads_record(json.dumps(HAND_RECORD))).to_json()["payments"]
    assert isinstance(pays, list)
    rules = [p["rule"] for p in pays if isinstance(p, dict)]
    assert rules == ["R-COMET-BONUS"] * 4 + ["R-SETTLE-POINTS"] * 4
    # Anna declines the Comet after 2 3 4 5 ('without 6'); random play from there
    acts = ["play 2S", "play 3S", "play 4C", "play 5C", "pass"]
    v = replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": acts})))
    assert v.legal
    s = v.final
    rng = random.Random(3)
    labels: set[str] = set()
    for _ in range(200):
        t = s
        while not t.terminal:
            t = apply(t, random_policy(rng)(t, legal_actions(t)))
        labels |= {p.rule for p in settlement(t)}
        for p in settlement(t):
            assert p.rule == expected_settlement_rule(t, p.payer)
    assert "R-SETTLE-POINTS" in labels and labels & {"R-SETTLE-CAUGHT", "R-SETTLE-COMET-LAST"}, labels


# --------------------------------------------------------------------- R-REC-STATE


def test_state_fields_after_each_kind_of_action() -> None:
    """R-REC-STATE (R-STOP-KING, R-COMET-STOP, R-FOUR-OF-A-KIND, R-STOP-STUCK, R-END-OUT): what run,
    to_move, hands, winner, finished and legal_actions show after each kind of action."""
    kinds: Counter[str] = Counter()
    for s in SAMPLES:
        if s.terminal or not standard_play(s.rules) or s.rules.comet_after != "stop":
            continue
        for a in legal_actions(s):
            t = apply(s, a)
            out = record.state_summary(t)
            run = out["run"]
            assert isinstance(run, list)
            assert out["hands"] == [[card_text(c) for c in sorted(h)] for h in t.hands]
            assert out["applied"] == s.steps + 1
            if t.terminal:
                kinds["out"] += 1
                assert out["to_move"] is None and out["legal_actions"] == [] and out["finished"] is True
                assert out["winner"] == (None if t.drawn else s.to_move)
                if a.as_rank or a.rank == KING:
                    assert run == []
                else:
                    assert len(run) == (len(s.run) + 1 if s.need else 1)
                continue
            assert out["finished"] is False and out["winner"] is None and out["legal_actions"]
            if a.is_pass:
                kinds["pass"] += 1
                back = (s.to_move + 1) % s.players == s.last_player
                assert out["to_move"] == (s.to_move + 1) % s.players
                assert len(run) == (0 if back else len(s.run)), (run, s.run)
                kinds["stuck"] += back and bool(s.run)
            elif a.as_rank or a.rank == KING:
                kinds["stop"] += 1
                assert run == [] and out["to_move"] == s.to_move
            else:
                kinds["multi" if len(a.cards) > 1 else "card"] += 1
                assert len(run) == (len(s.run) + 1 if s.need else 1) and out["to_move"] == s.to_move
    assert all(kinds[k] for k in ("out", "pass", "stuck", "stop", "card")), kinds


def test_run_after_going_out_on_a_natural_card_keeps_its_rank() -> None:
    """R-REC-STATE: the worked example ends on a King (run empty); ending on the Queen would keep it."""
    out = replay_record(loads_record(json.dumps(HAND_RECORD))).to_json()
    assert out["run"] == [] and out["to_move"] is None and out["legal_actions"] == []
    mid = replay_record(loads_record(json.dumps(HAND_RECORD | {"actions": ACTIONS[:8]})))
    assert mid.to_json()["run"] == ["10", "J", "Q"]


# --------------------------------------------------------------------- game end: RUL-GAME-TIE


def test_no_extra_round_without_a_tie() -> None:
    """RUL-GAME-TIE (R-GAME-WINNER): under extra_round a game whose last deal leaves one leader ends
    on time; only a tie adds a round."""
    rules = Ruleset(game_tie="extra_round")
    for seed in range(4):
        start = shuffled_deal(rules, 2, 1, seed)
        final, _ = play_deal(start)
        game = replace(new_game(rules, 2, 2), deal_index=1)
        after = finish_deal(game, final)
        assert len(winners(after)) == 1
        assert after.deals == 2 and after.extra_rounds == 0 and game_over(after)
        net = returns(final)
        tied = finish_deal(replace(game, balances=(50 - net[0], 50 - net[1])), final)
        assert len(winners(tied)) == 2 and tied.deals == 4 and not game_over(tied)


def test_record_round_trip_keeps_rulings() -> None:
    """R-REC-FAULTS: a record written by record_from_state reads back equal, rulings included."""
    rules = preset("standard").rules.with_overrides({"comet_lead": "forbidden"})
    start = shuffled_deal(rules, 4, 3, 7)
    final, acts = play_deal(start)
    rec = record_from_state(start, "standard", acts)
    assert loads_record(json.dumps(rec.to_json())) == rec
    assert replay_record(rec).final == final
