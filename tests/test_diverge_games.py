"""Whole-game impact (issue 17): the paired games measure the rule, not the dice, and every game figure
(``GamePaired`` and what the report prints of it) agrees with an independent computation on a small,
hand-checkable sample; planted bugs (sides swapped in the spread or the length, an off-by-one in the
winners compared, uncoupled deal seeds) must fail.  Cites R-DEAL-DEALER (RUL-FIRST-DEALER: the draw and its
ties), R-GAME-WINNER and R-GAME-CHIPS (RUL-INSOLVENCY = drop_out ends games early)."""

from __future__ import annotations

import math
import random
import re
import statistics
from collections.abc import Callable

import comet.diverge.measure as measure
import pytest
from comet.diverge.impact_report import game_table, game_verdict
from comet.diverge.measure import GAME_PAIRING, GamePaired, GameResult, deal_stream, game_result, reference_games
from comet.diverge.pairs import Pair, pairs_for
from comet.diverge.policies import make_policy
from comet.diverge.results import policy_key, split
from comet.diverge.study import Job, game_level
from comet.errors import RecordError
from comet.game import first_dealer_draw, play_game, winners
from comet.ruleset import Ruleset

Z = statistics.NormalDist().inv_cdf(0.975)

# --------------------------------------------------------------------- coupling


def draw_of(rules: Ruleset, players: int, seed: int) -> tuple[int, int]:
    """The first dealer of game ``seed`` and how many rounds the draw took (R-DEAL-DEALER)."""
    rounds, dealer = first_dealer_draw(rules, players, random.Random(seed))
    return dealer, len(rounds)


def uncoupled_games(pair: Pair, players: int, seeds: range, policy: str) -> tuple[list[int], list[str]]:
    """The seeds whose first dealer is the same under both readings although the draw took more rounds under
    one (so a one-stream seeding would shuffle every deal differently), and for each whose study game
    (``measure.game_result``) differs, a counterexample in words."""
    tested: list[int] = []
    bad: list[str] = []
    for seed in seeds:
        (da, ra), (db, rb) = draw_of(pair.a, players, seed), draw_of(pair.b, players, seed)
        if da != db or ra == rb:
            continue
        tested.append(seed)
        ga, gb = measure.game_result(pair.a, players, seed, policy), measure.game_result(pair.b, players, seed, policy)
        if ga != gb:
            bad.append(
                f"seed {seed}: first dealer seat {da} under both (the draw took {ra} round(s) under A, {rb} "
                f"under B), yet A: {ga}; B: {gb}"
            )
    return tested, bad


FIRST_DEALER = pairs_for("first_dealer_tie", ["standard"])[0]


def test_games_with_the_same_first_dealer_are_the_same_game() -> None:
    """RUL-FIRST-DEALER: ``lowest_seat`` settles a tie at once, ``redraw`` draws again; where both make the
    same seat the first dealer the paired games must be identical (every deal shuffled from the same seed),
    and the study's sums over those seeds show no change at all."""
    assert FIRST_DEALER.a.first_dealer_tie == "redraw" and FIRST_DEALER.b.first_dealer_tie == "lowest_seat"
    tested, bad = uncoupled_games(FIRST_DEALER, 3, range(160), "greedy")
    assert len(tested) >= 5, tested  # not vacuous: redraws that come back to the same seat
    assert bad == [], "\n".join(bad)
    g = reference_games(FIRST_DEALER, 3, tested, "random")
    assert (g.played, g.winners_changed, g.length_d2, g.spread_d2) == (len(tested), 0, 0, 0), g


def test_one_random_stream_for_draw_and_deals_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: the study's games seeded as ``play_game`` seeds every other game (the deals' seeds
    from the draw's stream after the draw) must fail the coupling check, naming the seed."""

    def one_stream(rules: Ruleset, players: int, seed: int, policy: str) -> GameResult | None:
        g = play_game(rules, players, None, seed, make_policy(policy, seed))
        return GameResult(winners(g), g.deal_index, max(g.balances) - min(g.balances))

    monkeypatch.setattr(measure, "game_result", one_stream)
    _, bad = uncoupled_games(FIRST_DEALER, 3, range(160), "greedy")
    assert bad and bad[0].startswith("seed ") and "under both" in bad[0]


def test_game_units_carry_how_a_game_is_paired() -> None:
    """The results store keys a game-level unit by ``GAME_PAIRING``, so units saved before the coupling are
    measured again, and a deal-level unit's key is untouched (its saved figures stay valid)."""
    assert game_level(FIRST_DEALER)
    game_key = policy_key(FIRST_DEALER, 3, "random", 0, 1000, "reference")
    assert game_key["game_pairing"] == GAME_PAIRING == 2
    lead = pairs_for("comet_lead", ["standard"])[0]
    assert "game_pairing" not in policy_key(lead, 3, "random", 1000, 0, "fast")
    job = Job(((0, FIRST_DEALER),), 3, (0,), (1000,), ("random",), "auto", ((),))
    old = {k: v for k, v in game_key.items() if k != "game_pairing"}  # as saved before the coupling
    _, rest = split(job, "reference", {"random": (old, None, GamePaired(games=1000))})
    assert rest is not None and rest.policies == ("random",)
    have, rest = split(job, "reference", {"random": (game_key, None, GamePaired(games=1000))})
    assert rest is None and "random" in have


# --------------------------------------------------------------------- the figures by hand

#: RUL-INSOLVENCY = drop_out against the default (the game goes on, chips run below zero), 3 players, greedy.
DROP_OUT = next(p for p in pairs_for("insolvency", ["standard"]) if p.b.insolvency == "drop_out")
SEEDS = (0, 1, 4, 5, 8, 35, 39, 40)
#: by hand (each game played under A and under B, ``play_game``): (winners, deals played, best - worst), A then B
BY_HAND = {
    0: (((0,), 3, 56), ((0,), 3, 56)),  # the same game
    1: (((2,), 3, 138), ((2,), 3, 96)),
    4: (((0,), 3, 188), ((0,), 2, 150)),  # a seat drops out in deal 2, and the game ends there
    5: (((2,), 3, 182), ((2,), 1, 150)),
    8: (((0,), 3, 82), ((0,), 3, 110)),
    35: (((1,), 3, 267), ((0,), 1, 150)),  # another winner
    39: (((0,), 3, 132), ((2,), 3, 91)),
    40: (((1,), 3, 193), ((0,), 3, 129)),
}


def played(rules: Ruleset, seed: int) -> tuple[tuple[int, ...], int, int] | None:
    """Game ``seed`` under ``rules`` as the study means it, computed here from ``play_game`` directly."""
    try:
        g = play_game(rules, 3, None, seed, make_policy("greedy", seed), deal_rng=deal_stream(seed))
    except RecordError:
        return None
    return winners(g), g.deal_index, max(g.balances) - min(g.balances)


def mean_and_half(xs: list[int]) -> tuple[float, float]:
    return statistics.fmean(xs), Z * statistics.stdev(xs) / math.sqrt(len(xs))


def wilson(k: int, n: int) -> tuple[float, float]:
    p, z2 = k / n, Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


NUM = r"[+-]?\d[\d,]*(?:\.\d+)?"


def numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(NUM, text)]


def game_mismatches() -> list[str]:
    """Every ``GamePaired`` field and every game figure the report prints (``game_table``, ``game_verdict``)
    that disagrees with the independent computation over ``SEEDS``, in words."""
    got = reference_games(DROP_OUT, 3, SEEDS, "greedy")
    pairs = [(played(DROP_OUT.a, s), played(DROP_OUT.b, s)) for s in SEEDS]
    both = [(a, b) for a, b in pairs if a is not None and b is not None]
    lengths = [b[1] - a[1] for a, b in both]
    spreads = [b[2] - a[2] for a, b in both]
    changed = sum(a[0] != b[0] for a, b in both)
    want = GamePaired(
        games=len(SEEDS),
        refused_a=sum(a is None for a, _ in pairs),
        refused_b=sum(b is None for _, b in pairs),
        winners_changed=changed,
        length_a=sum(a[1] for a, _ in both),
        length_d=sum(lengths),
        length_d2=sum(x * x for x in lengths),
        spread_a=sum(a[2] for a, _ in both),
        spread_d=sum(spreads),
        spread_d2=sum(x * x for x in spreads),
        played=len(both),
    )
    bad = [
        f"{f}: the study {getattr(got, f)}, by hand {getattr(want, f)}"
        for f in GamePaired.__slots__
        if getattr(got, f) != getattr(want, f)
    ]
    n = len(both)
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in game_table({"g": got})]
    rows = {c[0]: c[1] for c in cells if len(c) == 2}
    lo, hi = wilson(changed, n)
    expect: dict[str, list[float]] = {
        "paired games (played under both)": [len(SEEDS), n],
        "games whose winners change": [changed, n, 100 * changed / n, 100 * lo, 100 * hi],
    }
    for label, xs, a_mean in (
        ("deals per game, A → change", lengths, statistics.fmean(a[1] for a, _ in both)),
        ("final spread (best − worst), A → change", spreads, statistics.fmean(a[2] for a, _ in both)),
    ):
        m, h = mean_and_half(xs)
        expect[label] = [a_mean, m, m - h, m + h]
    for label, values in expect.items():
        shown = numbers(rows.get(label, ""))
        if len(shown) != len(values) or any(abs(s - v) > 0.051 for s, v in zip(shown, values, strict=True)):
            bad.append(f"the table's {label!r}: shows {rows.get(label)!r}, by hand {[round(v, 2) for v in values]}")
    verdict = game_verdict(got)
    for label, key in (
        ("games whose winners change", "winners change in "),
        ("deals per game, A → change", "deals per game "),
        ("final spread (best − worst), A → change", "final spread "),
    ):
        part = verdict.split(key)[1].split(";")[0] if key in verdict else ""
        values = expect[label] if label.startswith("games") else expect[label][1:]
        shown = numbers(part)
        if len(shown) != len(values) or any(abs(s - v) > 0.051 for s, v in zip(shown, values, strict=True)):
            bad.append(f"the verdict's {key.strip()!r}: {part!r}, by hand {[round(v, 2) for v in values]}")
    return bad


def test_the_sample_by_hand() -> None:
    """The hand-checked sample is what ``play_game`` plays (so the figures below are about real games):
    winners change in 3 of 8, three games end early under drop_out (-1, -2, -2 deals), spreads move."""
    for seed, (a, b) in BY_HAND.items():
        assert (played(DROP_OUT.a, seed), played(DROP_OUT.b, seed)) == (a, b), seed
    got = reference_games(DROP_OUT, 3, SEEDS, "greedy")
    # spreads B - A: 0 - 42 - 38 - 32 + 28 - 117 - 41 - 64 = -306; deals: -1 - 2 - 2 = -5
    assert got == GamePaired(8, 0, 0, 3, 24, -5, 9, 1238, -306, 24482, 8)


def test_every_game_figure_agrees_with_the_independent_computation() -> None:
    assert game_mismatches() == []
    # by hand: the verdict of the sample names all three figures
    assert game_verdict(reference_games(DROP_OUT, 3, SEEDS, "greedy")).startswith(
        "changes whole games: winners change in 3 of 8 (37.5 %"
    )


RIGHT = measure.pair_games


def _sides_swapped(what: str) -> Callable[[GameResult | None, GameResult | None], GamePaired]:
    """``pair_games`` with B - A taken as A - B in ``what`` (``spread`` or ``length``), A's side holding B's."""

    def broken(ga: GameResult | None, gb: GameResult | None) -> GamePaired:
        ok, wrong = RIGHT(ga, gb), RIGHT(gb, ga)
        fields = {f: getattr(ok, f) for f in GamePaired.__slots__}
        fields[f"{what}_a"], fields[f"{what}_d"] = getattr(wrong, f"{what}_a"), getattr(wrong, f"{what}_d")
        return GamePaired(**fields)

    return broken


def _winners_off_by_one(ga: GameResult | None, gb: GameResult | None) -> GamePaired:
    """``pair_games`` comparing the winners from the second of the list on (the first skipped)."""
    ok = RIGHT(ga, gb)
    if ga is None or gb is None:
        return ok
    fields = {f: getattr(ok, f) for f in GamePaired.__slots__}
    fields["winners_changed"] = int(ga.winners[1:] != gb.winners[1:])
    return GamePaired(**fields)


PLANTED = {
    "spread_d": _sides_swapped("spread"),
    "length_d": _sides_swapped("length"),
    "winners_changed": _winners_off_by_one,
}


@pytest.mark.parametrize("field", sorted(PLANTED))
def test_planted_bugs_in_the_game_figures_are_caught(monkeypatch: pytest.MonkeyPatch, field: str) -> None:
    """The planted bugs: B - A taken as A - B in the final spread or the deals per game, or the winners
    compared from the second seat of the list on; each must fail the field, the table and the verdict."""
    monkeypatch.setattr(measure, "pair_games", PLANTED[field])
    bad = game_mismatches()
    assert any(b.startswith(f"{field}: the study") for b in bad), bad
    assert any(b.startswith("the table's") for b in bad) and any(b.startswith("the verdict's") for b in bad), bad


def test_a_refused_game_is_counted_not_summed() -> None:
    r = GameResult((1,), 3, 40)
    assert measure.pair_games(None, r) == GamePaired(games=1, refused_a=1)
    assert measure.pair_games(r, None) == GamePaired(games=1, refused_b=1)
    assert measure.pair_games(r, GameResult((0, 1), 4, 30)) == GamePaired(1, 0, 0, 1, 3, 1, 1, 40, -10, 100, 1)
    assert game_result(DROP_OUT.a, 3, 0, "greedy") == GameResult(*BY_HAND[0][0])


def test_game_level_counts_without_games_are_named() -> None:
    """RUL-COMMIT-C-TARGET: a game-level ruling whose readings can differ at several counts, played as whole
    games at one, says which counts go unmeasured (a section must not list counts it then skips silently)."""
    from comet.diverge.impact_report import impact_lines
    from comet.diverge.measure import GamePaired
    from comet.diverge.study import Measured

    one = GamePaired(games=1, played=1)
    measured = [Measured(2), Measured(4, games={"random": one}), Measured(5)]
    text = "\n".join(impact_lines(measured, True, None, "x", "x"))
    assert "Whole games are played at 4 players only" in text, text
    assert "at 2, 5 players this ruling is not measured" in text, text
    everywhere = [Measured(n, games={"random": one}) for n in (2, 4, 5)]
    assert "not measured" not in "\n".join(impact_lines(everywhere, True, None, "x", "x"))
