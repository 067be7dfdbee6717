"""The divergence report's headline player (issue 17): the PIMC player is measured at every player count a
ruling is measured at (``--pimc-deals`` at the game's usual count, ``--pimc-deals-other`` at the others), its
strength against greedy is measured at each of those counts, and it heads a count's verdict only where it is
measurably stronger than greedy there; elsewhere ``random`` heads and the report says why.  Cites R-DEAL (the
deals the verdicts are measured over)."""

from __future__ import annotations

from pathlib import Path

from comet.commands.diverge_page import summary_table
from comet.commands.diverge_plan import pimc_deals_at, strength_counts, with_strength
from comet.diverge.impact_report import competent, headline, impact_lines
from comet.diverge.measure import Paired
from comet.diverge.pairs import pairs_for
from comet.diverge.records import Search
from comet.diverge.report import PairReport
from comet.diverge.strength import Strength
from comet.diverge.study import Job, Measured


def test_pimc_deals_at_the_usual_count_and_at_the_others() -> None:
    """``--pimc-deals`` at the usual count, ``--pimc-deals-other`` elsewhere (a quarter of it by default, 0:
    nowhere else), nothing at all without ``--pimc-deals``."""
    assert pimc_deals_at(2000, 500, True) == 2000
    assert pimc_deals_at(2000, 500, False) == 500
    assert pimc_deals_at(2000, None, False) == 500
    assert pimc_deals_at(2000, None, True) == 2000
    assert pimc_deals_at(2000, 0, False) == 0
    assert pimc_deals_at(0, 500, False) == 0
    assert pimc_deals_at(0, 500, True) == 0


def strength_of(players: int, wins: int, baseline: int, deals: int, opponent: str = "greedy") -> Strength:
    """A strength where the PIMC seat won the first ``wins`` deals and the baseline seat the first
    ``baseline`` (so a deal-by-deal difference of +1 on deals ``baseline..wins-1``, 0 elsewhere)."""
    d = [int(i < wins) - int(i < baseline) for i in range(deals)]
    return Strength(opponent, players, deals, wins, baseline, sum(d), sum(x * x for x in d), 0, 0, "standard")


def paired(deals: int, changed: int = 0) -> Paired:
    """Paired sums of ``deals`` three-player deals, ``changed`` of them with one chip moved from seat 0 to 1."""
    return Paired(
        deals=deals,
        classes=(deals - changed, changed, 0, 0, 0),
        chips_a=(0, 0, 0),
        chips_d=(-changed, changed, 0),
        chips_d2=(changed, changed, 0),
        wins_a=(deals, 0, 0),
        wins_d=(0, 0, 0),
        wins_d2=(0, 0, 0),
        transfer=changed,
        transfer2=changed,
        transfer_max=min(1, changed),
        changed=changed,
        length_a=10 * deals,
    )


STRONG = strength_of(3, 60, 30, 100)  # +30 points, interval well above zero
WEAK = strength_of(3, 32, 30, 100)  # +2 points, interval across zero


def test_pimc_heads_only_where_measurably_stronger_than_greedy() -> None:
    """Stronger: pimc heads with no excuse; not measurably stronger: random heads and the reason quotes the
    gain with its interval and deals; not measured: pimc heads and the note says its strength is unknown."""
    deals = {"pimc": paired(500), "random": paired(100_000, 40), "greedy": paired(20_000)}
    assert competent(Measured(3, deals, strength=STRONG)) is True
    assert competent(Measured(3, deals, strength=WEAK)) is False
    assert competent(Measured(3, deals)) is None
    assert headline(Measured(3, deals, strength=STRONG)) == ("pimc", "")
    head, why = headline(Measured(3, deals, strength=WEAK))
    assert head == "random", why
    assert "not measurably stronger than greedy" in why and "+2.00 (" in why and "over 100 deals at 3 players" in why
    head, why = headline(Measured(3, deals))
    assert head == "pimc" and "not measured" in why
    # without pimc, the old order: random first
    assert headline(Measured(3, {"greedy": paired(10), "random": paired(10)}, strength=WEAK)) == ("random", "")


def test_the_report_says_which_player_heads_and_over_how_many_deals() -> None:
    """The summary row names the headline player and its paired deals, and says when pimc was passed over;
    the section's verdict line is the fallback player's, with the reason on the next line."""
    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    deals = {"pimc": paired(500), "random": paired(100_000, 40)}
    weak = PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [Measured(3, deals, strength=WEAK)])
    strong = PairReport(pair, Search(pair, None, "", 0, 0, 0.0), [Measured(3, deals, strength=STRONG)])
    rows = [line for line in summary_table([weak, strong]) if line.startswith("| [RUL-")]
    assert "| random, 100,000 deals (pimc not measurably stronger than greedy here): changes who gains" in rows[0], (
        rows[0]
    )
    assert "| pimc, 500 deals: never arises" in rows[1], rows[1]
    text = "\n".join(impact_lines(weak.impact, False, None, "x", "x"))
    assert "**Answer (random, the headline player)" in text, text
    assert "- Headline: pimc is not measurably stronger than greedy here" in text, text
    text = "\n".join(impact_lines(strong.impact, False, None, "x", "x"))
    assert "**Answer (pimc, the headline player)" in text and "measurably stronger than greedy here" in text


def test_each_count_gets_the_strength_against_greedy_at_its_own_preset_and_count() -> None:
    """``with_strength`` matches by preset and player count and takes the greedy row (not random's or
    hoarder's); player counts without pimc are left alone."""
    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    deals = {"pimc": paired(500), "random": paired(1000, 40)}
    r = PairReport(
        pair,
        Search(pair, None, "", 0, 0, 0.0),
        [Measured(3, deals), Measured(4, deals), Measured(5, {"random": paired(9)})],
    )
    four_weak = strength_of(4, 32, 30, 100)
    strong_random = strength_of(4, 90, 10, 100, "random")
    other_preset = Strength("greedy", 3, 100, 90, 10, 80, 80, 0, 0, "opera")
    got = with_strength([r], [STRONG, strong_random, four_weak, other_preset])[0].impact
    assert [m.strength for m in got] == [STRONG, four_weak, None]
    assert [headline(m)[0] for m in got] == ["pimc", "random", "random"]


def test_strength_is_measured_at_every_count_pimc_measures() -> None:
    """The usual count, and each count where a job of the run has pimc deals (not those with none)."""
    pairs = list(pairs_for("comet_lead", ["standard"]))
    jobs = [
        Job(((0, pairs[0]),), 2, (10,), (0,), ("random",), "auto", ((("pimc", 5),),)),
        Job(((0, pairs[0]),), 4, (10,), (0,), ("random",), "auto", ((("pimc", 0),),)),
        Job(((0, pairs[0]),), 5, (10,), (0,), ("random",), "auto", ((),)),
    ]
    assert strength_counts("standard", jobs) == [2, 3]
    assert strength_counts("opera", jobs) == [3]


def test_the_cli_measures_pimc_at_the_other_counts_with_their_own_deals(tmp_path: Path) -> None:
    """``--pimc-deals 4 --pimc-deals-other 2``: the saved units hold 4 pimc deals at three players (the
    standard game's usual count) and 2 at the others; ``--strength`` is saved at every one of them."""
    from comet.cli import main
    from comet.diverge.results import load_entries, unit_path

    argv = ["diverge", "comet_lead", "--preset", "standard", "--deals", "3", "--games", "0", "--policies", "random"]
    assert main([*argv, "--pimc-deals", "4", "--pimc-deals-other", "2", "--strength", "3", "--out", str(tmp_path)]) == 0
    pair = next(p for p in pairs_for("comet_lead", ["standard"]) if p.value_b == "forbidden")
    got = {}
    for n in (2, 3, 4, 5):
        entry = load_entries(unit_path(tmp_path, pair, n))["pimc"][1]
        assert entry is not None
        got[n] = entry.deals
    assert got == {2: 2, 3: 4, 4: 2, 5: 2}
    strengths = sorted(p.name for p in (tmp_path / "results").glob("strength-standard-*-greedy.json"))
    assert strengths == [f"strength-standard-{n}p-greedy.json" for n in (2, 3, 4, 5)]
