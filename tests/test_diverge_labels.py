"""Issue 17: every stored witness's label is checked, and every size claim is a proof.

A stored witness says where the readings first differ (``step``, -1 for the deal or game itself), of what
kind (``legal``, ``payments``, ``outcome``, ``refused``, ``dealt``, ``game``) and what differs (``detail``:
the action only one reading allows, the chips, the winner, the first dealer ...).  Replaying it under both
readings (``labels.claimed_difference``) must give exactly that label.  Rule ids exercised through the
replays include R-NEW-RUN, R-STOP-STUCK, R-COMET-WILD and R-DEAL-DEALER (the first dealer's draw).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from comet.diverge.deal_search import deal_witness
from comet.diverge.labels import claimed_difference
from comet.diverge.pairs import pairs_for
from comet.diverge.records import cards_played
from comet.diverge.store import load, pair_for, proof_of, witness_of
from comet.records.deal_record import JsonObject

ENTRIES = load()


def _witness_entries() -> list[JsonObject]:
    return [e for _, e in sorted(ENTRIES.items()) if e.get("found")]


@pytest.mark.parametrize("e", _witness_entries(), ids=lambda e: str(e["key"]))
def test_stored_label_is_the_difference_replayed(e: JsonObject) -> None:
    """The claimed first difference (step, kind, what differs) is what replaying under A and B shows."""
    pair = pair_for(e)
    w = witness_of(e)
    assert w is not None
    step = e.get("step", -1)
    assert claimed_difference(pair, w) == (step, e["kind"], e["detail"]), e["key"]


def test_a_wrong_label_is_caught() -> None:
    """Planted: a label naming another difference, and a record cut before its difference, both fail."""
    e = ENTRIES["standard/new_run=may"]
    pair = pair_for(e)
    w = witness_of(e)
    assert w is not None
    wrong = dataclasses.replace(w, detail="'pass': A allows it, B does not")
    assert claimed_difference(pair, wrong)[2] != wrong.detail
    cut = deal_witness(w.start(pair.a), w.kind, w.detail, w.origin, w.actions[:-1])
    with pytest.raises(ValueError, match="agree on every step"):
        claimed_difference(pair, cut)


def test_a_dealt_label_whose_difference_does_not_occur_fails() -> None:
    """Planted (issue 17's audit): RUL-COMMIT-C-REMOVED's old witness, a 2-player deal labelled "B deals from
    other packs", although a single deal of 2 players is dealt from the 7C-less deck under both readings
    (R-COMMIT-C-DECK: B's other decks come only in later deals of a game).  Replaying it must fail, and a
    4-player deal, whose first deck differs, must carry the pack B really deals from."""
    e = ENTRIES["commit_cats/commit_removed=any"]
    pair = pair_for(e)
    w = witness_of(e)
    assert w is not None and w.players == 4 and w.kind == "dealt"
    assert claimed_difference(pair, w) == (-1, "dealt", e["detail"])
    assert "deck51-7C-7D-8C" in str(e["detail"])
    from comet.engine import shuffled_deal

    two = shuffled_deal(pair.a, 2, 0, 0)
    old = deal_witness(two, "dealt", "B deals from other packs: deck51-7C, deck51-7D, deck51-7H, deck51-7S", "old")
    with pytest.raises(ValueError, match="deal every shuffle of the deck51-7C pack alike at 2 players"):
        claimed_difference(pair, old)
    wrong = dataclasses.replace(w, detail="the same shuffled pack is dealt into different hands under B")
    assert claimed_difference(pair, wrong)[2] != wrong.detail


def test_first_dealer_tie_witness_shows_different_first_dealers() -> None:
    """RUL-FIRST-DEALER (R-DEAL-DEALER): the stored game witness is one where the tie is broken
    differently, so the two games have different first dealers, not merely different later draws."""
    for p in pairs_for("first_dealer_tie"):
        e = ENTRIES[p.key]
        assert e.get("found") and str(e["detail"]).startswith("first dealer: A seat "), (p.key, e.get("detail"))


MEASURES = {"deal": ("actions", "players", "cards"), "game": ("deals", "players", "actions")}


def proof_problems(key: str, e: JsonObject) -> list[str]:
    """What is wrong with an entry's size claim (empty: nothing).  A claim of "proved" must carry its
    data: the measures it is over (a prefix of the witness's order, named at the start of the text), for
    Z3 the size proved (the witness's) and the budget, for a construction what re-deriving it gives."""
    proof = proof_of(e)
    if proof is None or not proof.text:
        return [f"{key}: no proof stated"]
    out = []
    if "smallest found" in proof.text:
        out.append(f"{key}: 'smallest found' is not a proof")
    if proof.method == "inert" and not (proof.needs and not e.get("found") and proof.text.startswith("inert: needs ")):
        out.append(f"{key}: an inert pair must have no witness and say what it needs")
    w = witness_of(e)
    if not proof.proved:
        if proof.over:
            out.append(f"{key}: not proved, yet proved smallest in {proof.over}")
        return out
    if proof.method not in ("z3", "construction", "inert"):
        out.append(f"{key}: proved by {proof.method!r}, which is no proof")
    if w is None:
        return out
    order = MEASURES[w.level]
    if not proof.over or proof.over != order[: len(proof.over)]:
        out.append(f"{key}: proved smallest in {proof.over}, not a prefix of {order}")
    elif not proof.text.startswith(f"smallest in {', then '.join(proof.over)}: "):
        out.append(f"{key}: the text does not open with the measures proved")
    if proof.within and (w.players not in proof.within or "players only (deals of " not in proof.text):
        out.append(f"{key}: a proof over deals of {list(proof.within)} players must say so and hold the witness")
    if proof.method == "z3":
        size = [len(w.actions), w.players, cards_played(w)]
        if list(proof.size) != size:
            out.append(f"{key}: proved size {list(proof.size)} but the witness has {size}")
        if "budget" not in proof.text:
            out.append(f"{key}: a Z3 proof must state its budget")
    if proof.method == "construction":
        out.extend(_construction_problems(key, e, proof.over))
    return out


def _construction_problems(key: str, e: JsonObject, over: tuple[str, ...]) -> list[str]:
    """A construction proof, re-derived from the witness: a game of the fewest deals and players, a deal
    differing before play with the fewest players that can, 1 action where no deal differs before play, or
    a deal at the floor ``going_out`` proves."""
    from comet.diverge.deal_search import differs_before_play
    from comet.diverge.game_search import game_proof
    from comet.diverge.going_out import going_out_proof
    from comet.diverge.size_proof import first_action_proof

    pair, w = pair_for(e), witness_of(e)
    assert w is not None
    if w.level == "game":
        again = game_proof(pair, w)
        return [] if again.proved and again.over == over else [f"{key}: the game is not the smallest by construction"]
    if not w.actions:
        fewer = [n for n in range(2, w.players) if n in pair_counts(e) and differs_before_play(pair, n)]
        ok = differs_before_play(pair, w.players) and not fewer and over == MEASURES["deal"]
        return [] if ok else [f"{key}: a 0-action witness is smallest only with the fewest players that differ"]
    # 1 action where no deal differs before play, or a witness at the floor of a ruling read only where a
    # hand is emptied (``going_out``)
    again1 = first_action_proof(pair, w, "") if len(w.actions) == 1 else going_out_proof(pair, w)
    if again1 is None or again1.over != over:
        return [
            f"{key}: smallest by construction only for 1 action where no deal differs before play, or at the "
            "floor of a ruling read only where a hand is emptied"
        ]
    return []


def pair_counts(e: JsonObject) -> list[int]:
    from comet.engine import player_counts

    pair = pair_for(e)
    return [n for n in player_counts(pair.a) if n in player_counts(pair.b)]


def test_every_entry_states_its_proof() -> None:
    """Every pair says what is proved: smallest (Z3 or by construction) with the bound, inert with what
    would make it matter, or not proved with the reason; a proved claim carries the data that backs it."""
    problems = [x for key, e in sorted(ENTRIES.items()) for x in proof_problems(key, e)]
    assert problems == []


def test_a_wrong_size_claim_is_caught() -> None:
    """Planted: a proof claiming one action fewer than the stored witness has."""
    e = dict(ENTRIES["standard/new_run=may"])
    proof = e["proof"]
    assert isinstance(proof, dict)
    e["proof"] = {**proof, "size": [1, 2, 1]}
    assert proof_problems("planted", e)


def test_a_proof_claim_without_its_data_is_caught() -> None:
    """Planted: "proved" with no measures, "proved" by no method, a Z3 proof without its budget, a
    construction claimed for a 2-action witness, and a game claimed smallest though it is larger than the
    fewest (RUL-GAME-LENGTH: 4 deals where 2 players allow 2)."""
    base = dict(ENTRIES["standard/new_run=may"])
    proof = base["proof"]
    assert isinstance(proof, dict) and not proof_problems("ok", base)
    text = str(proof["text"])
    for planted in (
        {**proof, "over": []},
        {**proof, "method": "none"},
        {**proof, "text": text.split(" (")[0]},
        {**proof, "method": "construction"},
    ):
        assert proof_problems("planted", {**base, "proof": planted}), planted
    game = dict(ENTRIES["standard/insolvency=pay_what_you_have"])
    assert not proof_problems("ok", game)
    g = game["game"]
    assert isinstance(g, dict)
    assert proof_problems("planted", {**game, "game": {**g, "deals": 4}})


def test_z3_reproves_a_stored_smallest_witness() -> None:
    """The proof is reproduced from scratch for a cheap pair (RUL-NEW-RUN: 2 actions, 2 players)."""
    from comet_proofs.smallest import smallest

    e = ENTRIES["standard/new_run=may"]
    pair = pair_for(e)
    res = smallest(pair.preset, pair.field, pair.a, pair.b)
    assert res is not None and res.proved and res.size == (2, 2, 1)
    w = witness_of(e)
    assert w is not None and (len(w.actions), w.players, cards_played(w)) == res.size


def test_inert_opera_rulings_say_they_need_the_opera() -> None:
    """R-OPERA-DOUBLE (RUL-OPERA-STACK): where the Opera is off, its sub-rulings are inert; what would make
    them matter is found by searching under each other reading (the Opera encoding quantifies them), not
    by name."""
    proof = proof_of(ENTRIES["standard/opera_stack=highest"])
    assert proof is not None and proof.method == "inert" and proof.needs == "opera = true"
    # every pair called inert needs a reading that brings its field under an encoding that reads it, or is
    # inert by an argument whose premise is tested (``argued_inert``, tests/test_diverge_game_floor.py)
    from comet.diverge.pairs import all_pairs
    from comet.diverge.witness import _quantified_under, argued_inert

    for key, e in ENTRIES.items():
        pr = proof_of(e)
        if pr is not None and pr.method == "inert":
            pair = pair_for(e)
            field, value = pr.needs.split(" = ", 1)
            g = next(p for p in all_pairs([pair.preset]) if p.field == field and str(p.value_b).lower() == value)
            argued = argued_inert(pair)
            assert _quantified_under(pair, g) or (argued is not None and argued[:2] == (field, value)), key


def test_switching_the_opera_on_is_what_brings_its_draw_under_the_encoding() -> None:
    """The first candidates of ``needs`` come from the encodings' data; planted: a reading that changes
    nothing about which encoding covers the deal (starting chips) is not one."""
    from comet.diverge.witness import _quantified_under

    pair = pairs_for("opera_draw", ["standard"])[0]
    assert _quantified_under(pair, pairs_for("opera", ["standard"])[0])
    assert not _quantified_under(pair, pairs_for("starting_chips", ["standard"])[0])


def test_interaction_needs_a_fresh_search_not_a_stale_witness() -> None:
    """RUL-COMET-LEAD x RUL-NEW-RUN: with new_run = may, forbidding the Comet's lead still parts the
    readings at the first action, so no interaction is reported; the Opera's stacking under the Opera is one."""
    from comet.diverge.interactions import check
    from comet.diverge.records import Bound

    # counts bound the search (a few seconds of CPU); the time cap is far above, so load cannot cut it short
    bound = Bound(seeds=2, depth=2, nodes=100, random_playouts=0, game_seeds=0, max_game_deals=0, seconds=600)
    lead = ENTRIES["standard/comet_lead=forbidden"]
    may = next(p for p in pairs_for("new_run", ["standard"]))
    assert check(lead, may, bound) is None
    stack = ENTRIES["standard/opera_stack=highest"]
    found = check(stack, pairs_for("opera", ["standard"])[0], bound)
    assert found is not None and found.how == "witness-appears"


def test_interaction_narration_is_nested_under_its_item() -> None:
    """The interactions list: one item per interaction, its narration indented under it (no '- ' before
    every line of the nested block)."""
    from comet.diverge.records import Search
    from comet.diverge.report import PairReport, pair_section

    pair = pairs_for("opera_draw", ["standard"])[0]
    items = ("`opera_draw = never` matters with `opera = true`", "", "  ```", "  Anna deals", "  ```", "")
    lines = pair_section(PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [], items), None, 0, 0)
    start = lines.index("- `opera_draw = never` matters with `opera = true`")
    assert lines[start + 2 : start + 5] == ["  ```", "  Anna deals", "  ```"]


def test_house_rules_report_has_its_own_wording_and_a_field_breakdown(tmp_path: Path) -> None:
    """A house-rules comparison of two fields: no preset boilerplate, a heading naming the two rule sets,
    and a row per field saying what that field alone changes (R-NEW-RUN, R-COMET-WILD)."""
    from comet.cli import main

    out = tmp_path / "house"
    argv = ["diverge", "--rules", "standard", "--against", "standard", "--against-ruling", "new_run=may"]
    argv += ["--against-ruling", "comet_lead=forbidden", "--deals", "1", "--games", "0", "--policies", "random"]
    assert main([*argv, "--out", str(out)]) == 0
    text = (out / "README.md").read_text()
    assert "preset's default reading" not in text and "(A) against" not in text
    assert "### `standard` against `standard` with `new_run=may`, `comet_lead=forbidden`" in text
    assert "| `new_run` | must → may | legal, 2 action(s), 2 players | yes |" in text
    assert "| `comet_lead` | king → forbidden | legal, 1 action(s), 2 players | yes |" in text
    # the witness says which fields differ, not "A: `A`, B: `B`"; each field's impact alone has its column
    assert "A: `A`, B: `B`" not in text
    assert "A has `new_run = must, comet_lead = king`, B has `new_run = may, comet_lead = forbidden`" in text
    rows = [x for x in text.splitlines() if x.startswith("| `new_run` |") or x.startswith("| `comet_lead` |")]
    assert len(rows) == 2 and all(" | 3 players: " in x for x in rows), rows


def test_game_search_looks_wider_at_the_smallest_game() -> None:
    """R-DEAL-DEALER (RUL-FIRST-DEALER-TIE): at the smallest game a pair allows (1 deal, 2 players in Commit
    Cats) a tie in the first dealer's draw is rare, so the search tries more seeds there before moving on
    to larger games; the witness it finds is the smallest by construction."""
    from comet.diverge.game_search import game_proof, game_witness
    from comet.diverge.records import Bound

    pair = pairs_for("first_dealer_tie", ["commit_cats"])[0]
    w, _ = game_witness(pair, Bound(game_seeds=6, max_game_deals=1))
    assert w is not None and (w.game_deals, w.players) == (1, 2), w
    proof = game_proof(pair, w)
    assert proof.proved and proof.over == ("deals", "players", "actions")


def test_a_stored_witness_is_reused_only_for_the_same_two_rule_sets() -> None:
    """R-OPERA-DOUBLE (RUL-OPERA-CAUGHT): the standard preset with opera = true is the opera preset, so the
    opera preset's stored witness shows what would make the standard pair matter; planted: the standard
    pair itself (the Opera off) has the same field but other rule sets, and gets none."""
    from comet.diverge.pairs import Pair
    from comet.diverge.witness import stored_witness

    pair = pairs_for("opera_caught", ["standard"])[0]
    on = Pair(pair.preset, pair.field, pair.a.with_overrides({"opera": True}), pair.b.with_overrides({"opera": True}))
    w = stored_witness(on)
    assert w is not None and "opera/opera_caught=highest" in w.origin
    assert claimed_difference(on, w)[1:] == (w.kind, w.detail)
    assert stored_witness(pair) is None


def test_z3_budget_is_counted_work_and_stated() -> None:
    """The Z3 budget is in resource units (rlimit), so a budget too small for RUL-NEW-RUN's proof gives
    the same "not proved" in every fresh process, naming the budget (a process that asked Z3 other
    questions first holds other terms, and may get further); the default proves it (see above)."""
    import subprocess
    import sys

    code = (
        "from comet.diverge.store import load, pair_for\n"
        "from comet_proofs.smallest import smallest\n"
        "p = pair_for(load()['standard/new_run=may'])\n"
        "r = smallest(p.preset, p.field, p.a, p.b, rlimit=200_000)\n"
        "print(r.proved, r.over, r.text)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.startswith("False () ") and "200000 rlimit units per pair" in runs[0].stdout


def test_a_proof_over_fewer_player_counts_says_so() -> None:
    """RUL-NEW-RUN over deals of 2 players only: the same witness size, the bound naming the player counts
    left out; planted: the claim stored without that note, or for a witness of another player count."""
    from comet_proofs.smallest import smallest

    e = ENTRIES["standard/new_run=may"]
    pair = pair_for(e)
    res = smallest(pair.preset, pair.field, pair.a, pair.b, only=[2])
    assert res is not None and res.proved and res.size == (2, 2, 1) and res.within == (2,)
    assert res.text.endswith("over deals of 2 players only (deals of 3, 4, 5 players not searched)")
    proof = e["proof"]
    assert isinstance(proof, dict)
    assert proof_problems("planted", {**e, "proof": {**proof, "within": [2]}})
    assert proof_problems("planted", {**e, "proof": {**proof, "within": [3], "text": res.text}})
