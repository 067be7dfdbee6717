"""The extremes of every game (spec/extremes.md, comet_proofs.bounds.extremes and .page): every shipped extremal
deal replays through the model to the value its index states, every row the page calls exact is proved and
reached now, and a planted wrong bound, witness or stated value fails with a readable line
(R-SETTLE-POINTS, R-SETTLE-COMET-LAST, R-END-OUT)."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("z3")

from comet import engine
from comet.presets import preset as preset_named
from comet_proofs.bounds import ACTIONS, GAIN, LOSS, bounds
from comet_proofs.bounds.extremes import INDEX, ROWS, entries, shipped, witnesses_root, write
from comet_proofs.bounds.page import markdown, page_problems, row
from comet_proofs.bounds.search import Aim, Played, beam_play, climb, value_of

PAGE = Path(__file__).resolve().parent.parent / "spec" / "extremes.md"


def test_every_shipped_extremal_deal_replays_to_its_stated_value() -> None:
    """R-END-OUT, R-SETTLE-POINTS: each deal of witnesses/extremes.json replays legally to its end through the
    model, and the quantity read off that end is the value the index states."""
    found = shipped()
    assert found, "no extremal deal is shipped"
    for s in found:
        assert s.value == s.claimed, f"{s.file}: the index says {s.claimed}, the model's deal reaches {s.value}"


def test_a_wrong_stated_value_is_caught(tmp_path: Path) -> None:
    """Planted: an index entry claiming one chip more than its deal reaches is caught by the replay."""
    root = tmp_path / "witnesses"
    shutil.copytree(witnesses_root(), root)
    listed = entries(root)
    listed[0]["value"] = int(str(listed[0]["value"])) + 1
    (root / INDEX).write_text(json.dumps({"deals": listed}), encoding="utf-8")
    wrong = [s for s in shipped(root=root) if s.value != s.claimed]
    assert len(wrong) == 1 and wrong[0].claimed == wrong[0].value + 1


@pytest.mark.parametrize(("preset", "players"), ROWS, ids=[f"{p}-{n}p" for p, n in ROWS])
def test_the_page_agrees_with_the_proofs_and_the_replayed_deals(preset: str, players: int) -> None:
    """R-SETTLE-COMET-LAST, R-END-OUT: every row of spec/extremes.md, preset by preset and player count by player
    count (proved bound, the most a shipped deal reaches, exact or gap), is what the proofs and the replayed
    deals give now; each preset and count has its rows on the page, and its exact rows are exact."""
    text = PAGE.read_text(encoding="utf-8")
    now = bounds(preset, players=(players,), deals=2)
    assert now and page_problems(text, now) == []
    for b in now:
        assert f"| {preset} | {players} | {b.quantity} |" in text, f"{preset} {players}p {b.quantity}: not on the page"
    for b in (b for b in now if b.exact):
        assert row(b) in text and b.witness == b.upper


def test_a_planted_wrong_bound_or_witness_fails_the_page_check_readably() -> None:
    """Planted: the proof giving one chip more (the row is no longer exact), a witness one chip short, and a
    page claiming a number the proof does not give each yield one plain line naming the row."""
    now = bounds("standard", players=(3,), deals=4)
    text = markdown(now, "# test")
    assert page_problems(text, now) == []
    loss = next(b for b in now if b.quantity == LOSS)
    assert loss.exact
    raised = [replace(b, upper=b.upper + 1) if b is loss and b.upper is not None else b for b in now]
    problems = page_problems(text, raised)
    assert any("standard 3p chips one seat pays at settlement: the page says exact" in p for p in problems), problems
    short = [replace(b, witness=b.witness - 1) if b is loss and b.witness is not None else b for b in now]
    assert any("the replayed deals 479" in p for p in page_problems(text, short))
    lied = text.replace(row(loss), row(replace(loss, upper=999)))
    assert any("the page says proved ≤ 999, the proof gives 480" in p for p in page_problems(lied, now))


def test_the_search_finds_real_deals_and_ships_only_improvements(tmp_path: Path) -> None:
    """R-END-OUT: the play search's best deal is a real deal of the model (replayed, same value), and the
    climb starting from a shipped deal never returns less than it."""
    rules = preset_named("standard").rules
    start = engine.shuffled_deal(rules, 3, 0, 7)
    played = beam_play(start, ACTIONS, 6, random.Random(0), Aim("long"))
    assert played is not None
    final = engine.replay(start, played.actions)
    assert final.terminal and value_of(final, len(played.actions), ACTIONS) == played.value == len(played.actions)
    first = Played(played.value, start, played.actions)
    better = climb("standard", 3, ACTIONS, 0.3, first=first, width=4)
    assert better is not None and better.value >= played.value
    gain = beam_play(start, GAIN, 4, random.Random(1), Aim("gain", 1, 3))
    assert gain is not None
    root = tmp_path / "w"
    root.mkdir()
    (root / "index.json").write_text(json.dumps({"traces": []}), encoding="utf-8")
    rel = write(root, "standard", 3, GAIN, gain, "test")
    again = shipped(root=root)
    assert [s.file for s in again] == [rel] and again[0].value == gain.value == again[0].claimed


def test_verify_says_how_many_rows_are_exact() -> None:
    """R-SETTLE-POINTS: comet verify's bounds table ends with the count of exact rows (proved and reached),
    and a row whose witness falls one short of its bound is counted as a gap, not exact."""
    from comet.verify.tables import print_bounds
    from rich.console import Console

    now = bounds("standard", players=(3,), deals=4)
    exact = sum(b.exact for b in now)
    console = Console(record=True, width=400)
    print_bounds(console, now)
    assert f"bounds: {exact} of {len(now)} rows exact" in console.export_text()
    short = [replace(b, witness=b.witness - 1) if b.exact and b.witness is not None else b for b in now]
    console = Console(record=True, width=400)
    print_bounds(console, short)
    assert f"bounds: 0 of {len(now)} rows exact" in console.export_text()


def test_the_run_lemma_is_proved_and_a_wrong_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-PLAY-CONTINUE, R-COMET-WILD, R-SETTLE-COMET-LAST: "a run needs rank r only after an r-1 was played, and
    a deal won on the Comet as a 9 has an 8 on the pile" is proved (true initially, kept by every step) for
    the standard game; a planted stronger claim (two 8s under the Comet as a 9) is refused, so the lemma that
    lowers the winner's proved settlement from 904 to 900 at 3 players is not vacuous."""
    import z3
    from comet_proofs.bounds import lemmas
    from comet_proofs.games.standard.encoding import StandardEncoding

    enc = StandardEncoding()
    rd = enc.readings_of(preset_named("standard").rules)
    size = lemmas.dealt_size(enc, 3, rd)
    assert lemmas.run_played_lemma_holds(enc, 3, rd, size)
    real = lemmas.run_played

    def greedy(e: object, s: object) -> z3.BoolRef:
        from comet_proofs.symbolic import SymState

        assert isinstance(s, SymState)
        return z3.And(real(enc, s), z3.Implies(s.out_wild_as == 9, s.played[s.ranks.index(8)] >= 2))

    monkeypatch.setattr(lemmas, "run_played", greedy)
    assert not lemmas.run_played_lemma_holds(enc, 3, rd, size)


def test_the_built_deals_reach_the_proved_bounds_they_claim() -> None:
    """R-SETTLE-COMET-LAST, R-OPERA-DOUBLE, R-PLAY-MUST: the built shapes dealt and played by the model reach
    the proved bounds exactly where spec/extremes.md says so: two players 712 (720 in the deal), the winner's
    900 at three players and 1052 at four, the Opera's 960 and 1800 at three, and Old Comet's settlement with the
    manille caught (R-OLD-SETTLE, RUL-OLD-CAUGHT): 139 and 238 at three players, 129 and 310 at five; 000's
    Commit's 13 and 8 at three, 19 and 9 at four, 25 and 10 at five (R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT,
    R-COMMIT-H-KINGS-HELD); Old Comet's 188 at two and 129 and 278 at four; the Opera's loser at four and five
    (800 and 720 at settlement, 808 and 728 in the deal); Red Nines' 1560 penalty points at five (R-RED9-SCORE,
    R-RED9-DOUBLE: two red nines held, the winner out on the third)."""
    from comet_proofs.bounds import DEAL_GAIN, DEAL_LOSS, POINTS
    from comet_proofs.bounds.build import built_deals

    def values(preset: str, players: int) -> dict[str, int]:
        best: dict[str, int] = {}
        for _, played in built_deals(preset, players):
            for q, p in played.items():
                best[q] = max(best.get(q, p.value), p.value)
        return best

    assert values("standard", 2)[LOSS] == values("standard", 2)[GAIN] == 712
    assert values("standard", 2)[DEAL_LOSS] == 720
    assert values("standard", 3)[GAIN] == 900 and values("standard", 3)[DEAL_GAIN] == 916
    assert values("standard", 4)[GAIN] == 1052
    opera = values("opera", 3)
    assert (opera[LOSS], opera[GAIN], opera[DEAL_LOSS], opera[DEAL_GAIN]) == (960, 1800, 968, 1816)
    old = values("old_comet", 3), values("old_comet", 5)
    assert (old[0][LOSS], old[0][GAIN], old[1][LOSS], old[1][GAIN]) == (139, 238, 129, 310)
    hoyle = [values("commit_hoyle", n) for n in (3, 4, 5)]
    assert [(h[LOSS], h[GAIN]) for h in hoyle] == [(13, 8), (19, 9), (25, 10)]
    old2, old4 = values("old_comet", 2), values("old_comet", 4)
    assert (old2[LOSS], old2[GAIN], old4[LOSS], old4[GAIN]) == (188, 188, 129, 278)
    whole = [(o[DEAL_LOSS], o[DEAL_GAIN]) for o in (old2, old[0], old4, old[1])]
    assert whole == [(205, 205), (161, 268), (155, 322), (159, 367)]
    assert [(values("opera", n)[LOSS], values("opera", n)[DEAL_LOSS]) for n in (4, 5)] == [(800, 808), (720, 728)]
    assert values("red_nines", 5)[POINTS] == 1560 and values("red_nines", 4)[POINTS] == 756


def test_comet_bounds_checks_the_page_and_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-SETTLE-POINTS: `comet bounds --check` agrees with the shipped page for the standard game at 3 players
    (exit 0), names the row of a page that states a wrong bound (exit 1), and an unknown preset is one plain
    line with exit 2."""
    from comet.cli import main

    assert main(["bounds", "--preset", "standard", "--players", "3", "--deals", "2", "--check", str(PAGE)]) == 0
    wrong = tmp_path / "extremes.md"
    wrong.write_text(
        PAGE.read_text(encoding="utf-8").replace(
            "| standard | 3 | chips one seat pays at settlement | 480 |",
            "| standard | 3 | chips one seat pays at settlement | 479 |",
        ),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["bounds", "--preset", "standard", "--players", "3", "--deals", "2", "--check", str(wrong)]) == 1
    assert (
        "standard 3p chips one seat pays at settlement: the page says proved ≤ 479, the proof gives 480"
        in capsys.readouterr().out
    )
    assert main(["bounds", "--preset", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no bounds row for preset 'nosuch'" in err


def test_the_long_deal_lemma_is_proved_and_a_wrong_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-TURN-END, R-STOP-STUCK, R-NEW-RUN, R-END-OUT: "the actions so far plus the passes still possible before
    the next play are at most n+1 per card played, less one per seat that joined after the first" is proved
    for the standard game at three players and lowers the proved longest deal from the ranking's 180 to 131; a
    planted claim of one pass more after each play than a stuck run has (n+1, not n) is refused (000's Commit:
    tests/test_bounds_paid.py)."""
    import z3
    from comet_proofs.bounds import lemmas
    from comet_proofs.bounds.proved import proved_bounds
    from comet_proofs.games.standard.encoding import StandardEncoding

    enc = StandardEncoding()
    rd = enc.readings_of(preset_named("standard").rules)
    size = lemmas.dealt_size(enc, 3, rd)
    assert lemmas.long_deal_lemma_holds(enc, 3, rd, size)
    assert proved_bounds("standard", 3)[ACTIONS] == 131
    real = lemmas.passes_left

    def one_short(e: object, s: object) -> z3.ArithRef:
        from comet_proofs.symbolic import SymState

        assert isinstance(s, SymState)
        return real(enc, s) + z3.If(z3.And(s.need > 0, s.to_move == s.last_player), 1, 0)

    monkeypatch.setattr(lemmas, "passes_left", one_short)
    assert not lemmas.long_deal_lemma_holds(enc, 3, rd, size)


def test_the_ladder_deals_reach_the_longest_deal_bounds() -> None:
    """R-STOP-STUCK, R-PLAY-MUST, R-TURN-END: the ladder deal (every card played alone, every run stuck after it,
    n-1 hand-overs to the right neighbour), dealt and played by the model, lasts (n+1)(cards dealt - (n-1)) -
    (2n-1) actions: 102, 131 and 178 at two to four players, and Old Comet's 237 at five (R-OLD-DECK: its dead
    hand takes the four Kings); the standard game at five players, with a King in play, 232."""
    from comet_proofs.bounds.build import ladder, ladder_play

    def length(preset: str, players: int) -> int:
        start = ladder(preset, players)
        actions = ladder_play(start)
        assert engine.replay(start, actions).terminal
        return len(actions)

    assert [length("standard", n) for n in (2, 3, 4, 5)] == [102, 131, 178, 232]
    assert [length("old_comet", n) for n in (2, 3, 4, 5)] == [102, 131, 178, 237]


def test_002s_commit_planned_deal_lasts_142_actions_and_is_shipped() -> None:
    """R-COMMIT-C-LEAD, R-COMMIT-C-SUIT, R-COMMIT-C-KING, R-COMMIT-C-COMET: 002's Commit's planned deal at three
    players (``build.cats_long``: each run led with its player's lowest card, each suit's runs from the top
    down), dealt and played by the model (every action legal), lasts 142 actions: seat 0 goes out on the KD,
    seat 1 keeps the 10D and seat 2 the Comet, each lead is the lowest card its player holds, every run ends on
    a King, on the 7D or on a card whose next card is already played, and it is the shipped longest deal."""
    from comet.cards import DIAMONDS, card, rank_of, suit_of
    from comet_proofs.bounds.build import cats_long, planned_play

    start, plan = cats_long("commit_cats", 3)
    assert [len(h) for h in start.hands] == [17, 17, 17] and not start.dead
    actions = planned_play(start, plan)
    state = start
    for action in actions:
        if not action.is_pass and not state.run and not state.branch:  # a lead: the lowest natural card held
            naturals = [c for c in state.hands[state.to_move] if c not in state.wild]
            assert rank_of(action.cards[0]) == min(rank_of(c) for c in naturals)
        after = engine.apply(state, action)
        if state.run and not after.run and not after.terminal and action.is_pass:  # a run stuck: its next card gone
            top = card(state.run[-1], state.run_suit)
            nxt = card(rank_of(top) + 1, suit_of(top))
            assert top == card(7, DIAMONDS) or nxt in state.played
        state = after
    assert state.terminal and state.winner == 0
    assert state.hands[1] == (card(10, DIAMONDS),) and state.hands[2] == tuple(state.wild)
    assert len(actions) == 142 == sum(1 for a in actions if a.is_pass) + 49
    own = [s for s in shipped() if (s.preset, s.players, s.quantity) == ("commit_cats", 3, ACTIONS)]
    assert len(own) == 1 and own[0].value == 142


def test_every_extremal_deal_is_a_conformance_vector() -> None:
    """R-END-OUT: each shipped extremal deal is in the shipped vectors (a replay case and an ITF trace of its
    preset's default reading), with the model's verdict on its record."""
    from comet.records.deal_record import parse_record, replay_record

    vectors = PAGE.parent.parent / "vectors"
    paths = {str(f["path"]) for f in json.loads((vectors / "index.json").read_text())["files"]}
    for e in entries():
        name = str(e["file"]).rsplit("/", 1)[-1].removesuffix(".itf.json")
        case_path = f"{e['preset']}/default/replay/extreme-{name}.json"
        assert case_path in paths, f"extremal deal {e['file']} has no replay vector {case_path}"
        assert f"{e['preset']}/default/trace/extreme-{name}.itf.json" in paths
        case = json.loads((vectors / case_path).read_text())
        trace = json.loads((witnesses_root() / str(e["file"])).read_text())
        assert {k: v for k, v in case["record"].items() if k != "format"} == {
            k: v for k, v in trace["#meta"]["record"].items() if k != "format"
        }
        assert case["expected"] == replay_record(parse_record(case["record"])).to_json()


def test_old_comets_loss_in_play_lemma_is_proved_and_a_cheaper_manille_is_refused() -> None:
    """R-OLD-KING, R-OLD-LAST-CARD, R-OLD-MANILLE-PLAY, R-OLD-SETTLE: "each play of another seat takes at most
    one chip from seat 0, the manille ten" is proved for Old Comet at three players; a planted manille worth
    nine is refused (a deal where it is played breaks it).  The whole deal's bound now comes from the sharper
    ``play_chips.kept_loss`` (tests/test_bounds_play_chips.py): 161, which the keeper deal reaches with its
    Kings kept for the last card (160 when they are played first, a chip short)."""
    from comet_proofs.bounds import DEAL_LOSS, lemmas
    from comet_proofs.bounds.build import keeper, ladder_play
    from comet_proofs.bounds.proved import proved_bounds, start_of
    from comet_proofs.bounds.quantities import quantities
    from comet_proofs.registry import encoding_for

    enc = encoding_for("old_comet")
    rules = preset_named("old_comet").rules
    rd = enc.readings_of(rules)
    size = lemmas.dealt_size(enc, 3, rd)
    fixed = start_of(enc, rules)
    assert lemmas.loss_in_play_lemma_holds(enc, 3, rd, size, 10, fixed)
    assert not lemmas.loss_in_play_lemma_holds(enc, 3, rd, size, 9, fixed)
    assert proved_bounds("old_comet", 3)[DEAL_LOSS] == 161
    start = keeper("old_comet", 3)
    lost = [quantities(engine.replay(start, a), len(a))[DEAL_LOSS] for a in (ladder_play(start, True), ladder_play(start))]
    assert lost == [161, 160]
