"""Issue 17, item 4: a game witness built deal by deal at the floor ``game_floor`` proves (RUL-INSOLVENCY in
Commit (000): R-GAME-CHIPS, R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD; RUL-COMMIT-C-RACE in
002's Commit: R-COMMIT-C-GAME, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT), replayed from its game record under each
rule set (``game_search.recorded_game``).  A planted lower floor is refused; the points bound behind the
race's floor is checked on played deals and fails on a planted bug."""

from __future__ import annotations

import itertools
import random

import pytest
from comet.diverge import game_build, game_search
from comet.diverge.game_search import (
    game_difference,
    game_floor,
    game_points,
    game_proof,
    most_points_in_a_deal,
    recorded_game,
)
from comet.diverge.labels import claimed_difference
from comet.diverge.narrate import narrate_witness
from comet.diverge.pairs import Pair, pairs_for
from comet.diverge.policies import make_policy
from comet.diverge.records import Bound
from comet.diverge.store import entry, load, proof_of, witness_of
from comet.diverge.witness import search
from comet.engine import deal_points
from comet.game import new_game, next_deal, play_deal
from comet.games.commit_cats import rules as cats
from comet.games.commit_hoyle.rules import most_paid_in_a_deal
from comet.ruleset import Ruleset

ENTRIES = load()
READINGS = ("pay_what_you_have", "drop_out")


def _pair(value: str) -> Pair:
    return next(p for p in pairs_for("insolvency", ["commit_hoyle"]) if p.value_b == value)


@pytest.mark.parametrize("value", READINGS)
def test_the_built_game_is_at_the_floor_and_differs(value: str) -> None:
    pair = _pair(value)
    w = game_build.built_game(pair)
    floor = game_floor(pair)
    assert w is not None and floor is not None
    assert (w.game_deals, w.players) == floor[0] == (4, 4)
    assert claimed_difference(pair, w) == (-1, "game", w.detail)
    assert w.detail.startswith("deal 3 net chips")  # the third deal: 3 x 19 = 57 > 50
    proof = game_proof(pair, w)
    assert proof.proved and proof.method == "construction" and proof.over == ("deals", "players")


def test_the_loser_pays_the_most_in_every_deal() -> None:
    """The floor's bound is attained: seat 0 pays ``most_paid_in_a_deal`` in each of the first three deals
    under debt (the stake, the 9♦ caught, four Kings held), and receives nothing."""
    pair = _pair("pay_what_you_have")
    w = game_build.built_game(pair)
    assert w is not None
    game, starts, stopped = recorded_game(pair.a, w.game_record)
    assert stopped == "" and len(starts) == 4
    assert [h[game_build.LOSER] for h in game.history[:3]] == [-most_paid_in_a_deal(pair.a, 4)] * 3


def test_a_recorded_game_stops_where_its_deals_no_longer_fit() -> None:
    """Under drop_out seat 0 is out after the third deal, so the record's four-seat fourth deal does not
    fit: the points say so instead of raising."""
    pair = _pair("drop_out")
    w = game_build.built_game(pair)
    assert w is not None
    points = game_points(pair.b, 4, 4, 0, "", w.game_record)
    assert points[-1][0] == "deal 4" and "not playable" in str(points[-1][1])
    told = "\n".join(narrate_witness(pair, w))
    assert "built deal by deal" in told and "deal 4: not playable" in told and told.count("end: winners") == 1


def test_planted_lower_floor_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: a floor of 2 deals and 2 players (as if a seat could pay 51 chips in two deals); the game
    built there does not differ, so none is offered, and the witness at the true floor is not claimed
    smallest under the planted one."""
    pair = _pair("pay_what_you_have")
    real = game_build.built_game(pair)
    assert real is not None
    planted = ((2, 2), "planted")
    monkeypatch.setattr(game_build, "game_floor", lambda p: planted)
    monkeypatch.setattr(game_search, "game_floor", lambda p: planted)
    assert game_build.built_game(pair) is None
    assert not game_proof(pair, real).proved


def test_the_search_keeps_the_built_game_over_a_larger_stored_one() -> None:
    """``search`` offers the built game and the stored one to the game search, the smaller first: the
    built game at the floor is kept without a game played."""
    pair = _pair("pay_what_you_have")
    res = search(pair, Bound(seconds=5), prove_size=True)
    assert res.witness is not None and res.witness.game_record and res.games_tried == 1
    assert res.proof is not None and res.proof.proved
    stored = entry(res)
    assert witness_of(stored) == res.witness  # stored and read back whole
    assert proof_of(stored) == res.proof


@pytest.mark.parametrize("value", READINGS)
def test_stored_insolvency_witness_is_the_built_game(value: str) -> None:
    pair = _pair(value)
    e = ENTRIES[pair.key]
    w, proof = witness_of(e), proof_of(e)
    assert w is not None and w.game_record and (w.game_deals, w.players) == (4, 4)
    assert proof is not None and proof.proved and proof.method == "construction"


# --------------------------------------------------------------------- RUL-COMMIT-C-RACE in 002's Commit


def _race() -> Pair:
    return next(iter(pairs_for("commit_race", ["commit_cats"])))


def overscored(rules: Ruleset, players: int, seeds: range, bound: int) -> list[tuple[int, int, str]]:
    """(points, seed, policy) of seeded deals of 002's Commit in which a seat, or two seats together, score
    more than ``bound``."""
    out = []
    for seed, policy in itertools.product(seeds, ("hoarder", "random", "simple")):
        rng = random.Random(seed)
        game = new_game(rules, players, 1, seed % players)
        final, _ = play_deal(next_deal(game, rng.getrandbits(64)), make_policy(policy, seed), game)
        pts = deal_points(final)
        best = max(pts[i] + pts[j] for i, j in itertools.combinations(range(players), 2))
        if best > bound:
            out.append((best, seed, policy))
    return out


@pytest.mark.parametrize("players", [2, 3, 8])
def test_no_seat_scores_more_than_the_bound_in_a_cats_deal(players: int) -> None:
    """R-COMMIT-C-OUT, R-COMMIT-C-KING, R-COMMIT-C-COMET, R-COMMIT-C-CAUGHT: the premise of the race's floor."""
    rules = _race().a
    bound = most_points_in_a_deal(rules, players)
    assert bound == {2: 32, 3: 41, 8: 49}[players]
    assert overscored(rules, players, range(40), bound) == []


def test_planted_tripled_winner_breaks_the_points_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the winner's points tripled (the bound computed for once) are caught by the same check."""
    rules = _race().a
    bound = most_points_in_a_deal(rules, 2)
    assert bound is not None
    monkeypatch.setattr(cats, "out_on_comet_multiplier", lambda state: 3)
    assert overscored(rules, 2, range(40), bound) != []


def test_no_race_game_of_two_deals_differs() -> None:
    """Below the floor (3 deals) no total reaches 100, so the seeded games asked for two deals are alike."""
    pair = _race()
    assert [
        (n, seed, pol)
        for n in (3, 8)
        for seed in range(6)
        for pol in ("simple", "hoarder")
        if game_difference(pair, n, 2, seed, pol) is not None
    ] == []


def test_the_race_game_is_built_at_its_floor_and_differs() -> None:
    """3 deals and 3 players (41 points a deal at most, 2 players 32: 4 deals); seat 1 scores 40, 39, 39,
    passing 100 at its going out in the third deal, before the Comet caught gives it one more."""
    pair = _race()
    floor = game_floor(pair)
    w = game_build.built_game(pair)
    assert floor is not None and floor[0] == (3, 3) and w is not None
    assert (w.game_deals, w.players) == (3, 3)
    assert claimed_difference(pair, w) == (-1, "game", w.detail)
    assert w.detail == "deal 3 net chips: A [1, 39, 0], B [0, 38, 0]"
    game, _, stopped = recorded_game(pair.a, w.game_record)
    assert stopped == "" and [h[game_build.SCORER] for h in game.history] == [40, 39, 39]
    proof = game_proof(pair, w)
    assert proof.proved and proof.method == "construction" and proof.over == ("deals", "players")


def test_planted_lower_race_floor_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: a points bound 20 too high gives a floor of 2 deals; the game built there does not differ,
    so none is offered."""
    pair = _race()
    real = most_points_in_a_deal

    def planted(rules: Ruleset, players: int) -> int | None:
        b = real(rules, players)
        return None if b is None else b + 20

    monkeypatch.setattr(game_search, "most_points_in_a_deal", planted)
    floor = game_floor(pair)
    assert floor is not None and floor[0][0] == 2
    assert game_build.built_game(pair) is None


def test_stored_race_witness_is_the_built_game() -> None:
    e = ENTRIES[_race().key]
    w, proof = witness_of(e), proof_of(e)
    assert w is not None and w.game_record and (w.game_deals, w.players) == (3, 3)
    assert proof is not None and proof.proved and proof.method == "construction"


def test_the_tie_floor_needs_two_seats_at_100() -> None:
    """RUL-COMMIT-C-TARGET (commit_tie): two seats at 100 need 200 points, at most 41 together a deal at three
    players (32 at two): a tie after 5 deals at the earliest, so 6 deals asked; the stored witness (22
    deals, 2 players, a sampled game) is above it and not claimed smallest."""
    pair = next(p for p in pairs_for("commit_tie", ["commit_cats"]) if p.value_b == "play_on")
    floor = game_floor(pair)
    assert floor is not None and floor[0] == (6, 3)
    e = ENTRIES[pair.key]
    w, proof = witness_of(e), proof_of(e)
    assert w is not None and proof is not None and not proof.proved
    assert "a game of 6 deal(s) and 3 players may also differ" in proof.text
    assert proof == game_proof(pair, w)
