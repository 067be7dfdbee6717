"""Issue 9: witness search, narration, paired impact and the `comet diverge` command.

Rule ids exercised by the witnesses checked here: R-COMET-WILD (a Comet lead), R-NEW-RUN.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from comet.cli import main
from comet.diverge.impact import chunks, figures, impact, paired_deals
from comet.diverge.narrate import MARK, narrate_witness
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.witness import Bound, search
from comet.presets import preset
from comet.record import JsonObject
from comet.ruleset import APPLIES_TO, RULING_FIELDS

QUICK = Bound(seeds=2, depth=3, nodes=300, random_playouts=0, game_seeds=1, max_game_deals=1, seconds=3)


def test_pairs_cover_every_field_that_applies() -> None:
    fields = {p.field for p in all_pairs()}
    assert fields == {f for f in RULING_FIELDS if f in APPLIES_TO}
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


def test_impact_is_the_same_for_any_chunking() -> None:
    pair = pairs_for("comet_bonus_last", ["standard"])[0]
    whole = paired_deals(pair, 3, range(0, 12), "hoarder")
    parts = [paired_deals(pair, 3, r, "hoarder") for r in chunks(12, 5)]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    assert merged == whole
    assert impact(pair, 12, 0, ["hoarder"], players=3, chunk=5)["hoarder"] == whole


def test_impact_of_identical_rules_is_zero() -> None:
    base = preset("standard").rules
    t = paired_deals(Pair("standard", "", base, base), 3, range(6), "random")
    f = figures(t)
    assert f["chips_changed"] == 0 and f["winner_changed"] == 0 and f["diff_max"] == 0


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
    text = (out / "README.md").read_text()
    assert (
        "RUL-COMET-LEAD" in text
        and "**Witness**" in text
        and "| deals whose chips or winner change |" in text
        and "**Verdict (random" in text
    )
    assert list(out.glob("*.png"))


@pytest.mark.parametrize(
    "argv",
    [
        ["diverge", "no_such_ruling"],
        ["diverge", "comet_lead", "--preset", "nonesuch"],
        ["diverge", "--rules", "standard"],
        ["diverge", "--rules", "standard", "--against", "old_comet"],
        ["diverge", "--rules", "nonesuch", "--against", "standard"],
        ["diverge", "--rules", "standard", "--against", "standard", "--against-ruling", "comet_lead=sometimes"],
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
    bound = Bound(seeds=2, depth=2, nodes=100, random_playouts=0, game_seeds=0, max_game_deals=0, seconds=8)
    found = check(entry, opera, bound)
    assert found is not None and found.how == "witness-appears" and found.witness is not None
    # a planted non-interaction: the same ruling against a pair that changes nothing in play
    chips = pairs_for("starting_chips", ["standard"])[0]
    assert check(entry, chips, bound) is None


def test_impact_same_numbers_on_two_processes() -> None:
    """The reduction is order-independent: two worker processes give the one-process tally."""
    pair = pairs_for("comet_bonus_last", ["standard"])[0]
    one = impact(pair, 8, 1, ["hoarder"], players=3, chunk=3)
    two = impact(pair, 8, 1, ["hoarder"], players=3, chunk=3, workers=2)
    assert one == two


def test_a_planted_wrong_backend_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fast backend is checked against the reference engine: a planted one that loses the dealer's chips
    is reported on the seeds where it differs, and the command refuses it in one line."""
    import dataclasses

    from comet.diverge import impact as impact_mod

    def broken(rules: object, players: int, seed: int, policy: str) -> impact_mod.DealResult:
        r = impact_mod.reference_deal(rules, players, seed, policy)  # type: ignore[arg-type]
        return dataclasses.replace(r, chips=(*r.chips[:-1], 0))

    monkeypatch.setitem(impact_mod.BACKENDS, "broken", broken)
    rules = preset("standard").rules
    assert impact_mod.check_backend("broken", rules, 3, range(5), "random")
    assert impact_mod.check_backend("reference", rules, 3, range(5), "random") == []
    assert main(["diverge", "comet_lead", "--preset", "standard", "--backend", "broken", "--deals", "1"]) == 2


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
