"""Issue 9: witness search, narration, paired impact and the `comet diverge` command.

Rule ids exercised by the witnesses checked here: R-COMET-WILD (a Comet lead), R-NEW-RUN.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from comet.cli import main
from comet.diverge.effect import verdict
from comet.diverge.measure import SAME, reference_paired
from comet.diverge.narrate import MARK, narrate_witness
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.records import Bound
from comet.diverge.study import Job, measure_pair, run_job
from comet.diverge.witness import search
from comet.presets import preset
from comet.records.deal_record import JsonObject
from comet.ruleset import RULING_FIELDS
from comet.variant import families_reading

# The searches here are bounded by counts (seeds, depth, nodes, games), which end them in a few seconds of CPU;
# the time cap is only a safety net, far above that, so a loaded machine searches exactly the same deals.
SAFETY_SECONDS = 600.0
QUICK = Bound(seeds=2, depth=3, nodes=300, random_playouts=0, game_seeds=1, max_game_deals=1, seconds=SAFETY_SECONDS)


def test_pairs_cover_every_field_that_applies() -> None:
    fields = {p.field for p in all_pairs()}
    assert fields == {f for f in RULING_FIELDS if families_reading(f)}
    assert all(p.a != p.b for p in all_pairs())


def test_comet_lead_witness_is_one_action_and_narrated() -> None:
    """R-COMET-WILD: the readings of RUL-COMET-LEAD part at the first lead of the Comet."""
    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    res = search(pair, QUICK)
    w = res.witness
    assert w is not None and w.kind == "legal" and len(w.actions) == 1
    text = "\n".join(narrate_witness(pair, w))
    assert MARK in text and "illegal" in text


def test_identical_rule_sets_have_no_witness() -> None:
    """A planted 'ruling' that changes nothing: the search must report no witness, with its bound."""
    base = preset("standard").rules
    res = search(Pair("standard", "", base, base), QUICK)
    assert res.witness is None and res.deals_tried > 0 and "depth 3" in res.bound
    assert not any("time cap" in note for note in res.notes), res.notes  # the whole bound was searched


def test_a_ruling_between_deals_is_searched_over_whole_games_alone() -> None:
    """RUL-INSOLVENCY acts between deals only (``comet.ruleset.GAME_LEVEL_FIELDS``): every deal is played
    alike under its readings, so the search tries no deal (a deal search could only run out its time) and
    finds the game where they part.  The test above is the other side: a ruling of the deal is searched
    deal by deal."""
    pair = next(p for p in pairs_for("insolvency", ["standard"]) if p.value_b == "drop_out")
    res = search(pair, Bound(seeds=2, game_seeds=2, max_game_deals=2, seconds=60))
    assert res.deals_tried == 0 and res.games_tried > 0
    assert res.witness is not None and res.witness.level == "game"
    assert any(n.startswith("no deal searched") for n in res.notes)


def test_impact_is_the_same_for_any_chunking() -> None:
    pair = pairs_for("comet_bonus_last", ["standard"])[0]
    whole = measure_pair(pair, 3, 12, 0, ("hoarder",), "reference", chunk=12)
    assert measure_pair(pair, 3, 12, 0, ("hoarder",), "reference", chunk=5) == whole
    parts = [reference_paired(pair, 3, r, "hoarder") for r in (range(0, 5), range(5, 10), range(10, 12))]
    assert parts[0].merge(parts[1]).merge(parts[2]) == whole.deals["hoarder"]


def test_impact_of_identical_rules_is_zero() -> None:
    base = preset("standard").rules
    t = reference_paired(Pair("standard", "", base, base), 3, range(6), "random")
    assert t.classes[SAME] == 6 and t.changed == 0 and t.transfer_max == 0
    assert verdict(t).text.startswith("no effect: 0 of 6 deals change")


def test_diverge_command_writes_report_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    code = main(
        [
            "diverge",
            "comet_lead",
            "--preset",
            "standard",
            "--deals",
            "60",
            "--games",
            "0",
            "--policies",
            "random",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert "[RUL-COMET-LEAD](RUL-COMET-LEAD.md)" in (out / "README.md").read_text()  # the index links its page
    text = (out / "RUL-COMET-LEAD.md").read_text()
    assert (
        "RUL-COMET-LEAD" in text
        and "**Witness**" in text
        and "| deals whose result or winner change |" in text
        and "**Answer (random" in text
    )
    assert list(out.glob("*.png"))


@pytest.mark.parametrize(
    "argv",
    [
        ["diverge", "no_such_ruling"],
        ["diverge", "comet_lead", "--search", "--prove-rlimit", "0"],
        ["diverge", "comet_lead", "--preset", "nonesuch"],
        ["diverge", "--rules", "standard"],
        ["diverge", "--rules", "standard", "--against", "old_comet"],
        ["diverge", "--rules", "nonesuch", "--against", "standard"],
        ["diverge", "--rules", "standard", "--against", "standard", "--against-ruling", "comet_lead=sometimes"],
        ["diverge", "comet_lead", "--pimc-deals", "5", "--pimc-preset", "nonesuch"],
    ],
)
def test_diverge_bad_input_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_opera_draw_matters_only_with_the_opera() -> None:
    """RUL-OPERA-DRAW changes nothing in the standard preset (no Opera) but does once the Opera is played:
    the interaction check finds a witness there (R-OPERA-DRAW / R-OPERA)."""
    from comet.diverge.interactions import check

    pair = pairs_for("opera_draw", ["standard"])[0]
    entry: JsonObject = {
        "key": pair.key,
        "preset": "standard",
        "field": "opera_draw",
        "b": str(pair.value_b),
        "found": False,
    }
    opera = pairs_for("opera", ["standard"])[0]
    bound = Bound(
        seeds=2, depth=2, nodes=100, random_playouts=0, game_seeds=0, max_game_deals=0, seconds=SAFETY_SECONDS
    )
    found = check(entry, opera, bound)
    assert found is not None and found.how == "witness-appears" and found.witness is not None
    # a planted non-interaction: the same ruling against a pair that changes nothing in play
    chips = pairs_for("starting_chips", ["standard"])[0]
    assert check(entry, chips, bound) is None


def test_impact_same_numbers_on_two_processes() -> None:
    """The reduction is order-independent: jobs run on two worker processes give the one-process sums."""
    from concurrent.futures import ProcessPoolExecutor

    pairs = pairs_for("comet_lead", ["standard"])
    jobs = [
        Job(tuple(enumerate(pairs)), n, (30,) * len(pairs), (0,) * len(pairs), ("random",), "auto", ((),) * len(pairs))
        for n in (3, 4)
    ]
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(run_job, jobs)) == [run_job(j) for j in jobs]


def test_a_planted_wrong_fast_engine_is_caught(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fast engine's paired sums are checked against the reference engine's before a study: a planted
    one that loses the dealer's chips is refused in one line, no traceback."""
    import dataclasses

    import comet.fast.diverge as fd
    from comet.diverge.measure import Paired

    real = fd.paired_measure

    def broken(pair: Pair, players: int, seeds: range, policy: str) -> Paired:
        t = real(pair, players, seeds, policy)
        return dataclasses.replace(t, chips_d=(*t.chips_d[:-1], 0))

    monkeypatch.setattr(fd, "paired_measure", broken)
    assert main(["diverge", "comet_lead", "--preset", "standard", "--deals", "20", "--games", "0", "--measure"]) == 2
    err = capsys.readouterr().err
    assert "disagrees with the reference engine" in err and "Traceback" not in err


def test_free_nine_contradiction_found_when_the_comet_leads_as_any_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    """RUL-COMET-RANK rejects going out on the Comet called a free 9 (x4).  With the Comet led as any rank
    (comet_lead=any_rank, the old default) the check finds such a deal under the defaults; with the Comet
    forbidden to lead it never shows (R-COMET-WILD, R-SETTLE-COMET-LAST)."""
    import dataclasses

    from comet.diverge import contradictions as con
    from comet.presets import PRESETS

    rejected = con.REJECTED[0]
    bound = Bound(seeds=3)
    base = PRESETS["standard"]
    loose = dataclasses.replace(base, rules=base.rules.with_overrides({"comet_lead": "any_rank"}))
    monkeypatch.setitem(PRESETS, "standard", loose)
    found = con.find("standard", rejected, bound)
    assert found is not None and found.witness is not None
    assert found.witness.actions[-1].as_rank == 9
    assert "Reached under the defaults" in "\n".join(con.describe(found))
    strict = dataclasses.replace(base, rules=base.rules.with_overrides({"comet_lead": "forbidden"}))
    monkeypatch.setitem(PRESETS, "standard", strict)
    none = con.find("standard", rejected, bound)
    assert none is not None and none.witness is None and none.searched > 0
