"""Issue 17, item 4: a game witness built deal by deal at the floor ``game_floor`` proves (RUL-INSOLVENCY in
Commit (000): R-GAME-CHIPS, R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD; RUL-COMMIT-C-RACE in
002's Commit: R-COMMIT-C-GAME, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT), replayed from its game record under each
rule set (``game_search.recorded_game``); RUL-COMMIT-C-TARGET (``commit_tie``) in 002's Commit: R-COMMIT-C-GAME,
RUL-CATS-NEW-RUN.  A planted lower floor is refused; the points bound behind the race's floor and the
partner's cost behind the tie's are checked on played deals and fail on planted bugs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import replace

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
from comet.engine import apply, deal_points
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


# --------------------------------------------------------------------- RUL-COMMIT-C-TARGET in 002's Commit


def _tie() -> Pair:
    return next(p for p in pairs_for("commit_tie", ["commit_cats"]) if p.value_b == "play_on")


def test_the_tie_floor_is_6_deals_at_5_players() -> None:
    """RUL-COMMIT-C-TARGET (commit_tie): two seats at 100 need 200 points, and the seat with fewer wins must
    take the rest from the other's deals, each point costing the two of them about two
    (``partner_cost``): a tie after 7 deals at 2 players, 6 at 3 and 4, 5 from 5 players on, so 6 deals
    asked at 5 players."""
    pair = _tie()
    assert {n: game_search.fewest_tie_deals(pair.a, n) for n in range(2, 9)} == {
        2: 7,
        3: 6,
        4: 6,
        5: 5,
        6: 5,
        7: 5,
        8: 5,
    }
    floor = game_floor(pair)
    assert floor is not None and floor[0] == (6, 5)
    assert "fewest_tie_deals" in floor[1] and "RUL-CATS-NEW-RUN = must" in floor[1]
    assert game_search.fewest_tie_deals(replace(pair.a, cats_new_run="may"), 5) is None  # not argued there


def test_the_tie_game_is_built_at_its_floor_and_differs() -> None:
    """Seats 0 and 4 stand at 100 after the fifth deal, no one at 100 before: shared under A, played on
    under B (a sixth deal)."""
    pair = _tie()
    w = game_build.built_game(pair)
    assert w is not None and (w.game_deals, w.players) == (6, 5)
    assert claimed_difference(pair, w) == (-1, "game", w.detail)
    assert w.detail == "A: winners [0, 4]; B: deal 6 net chips [0, 0, 0, 0, 46]"
    game, _, stopped = recorded_game(pair.a, w.game_record)
    assert stopped == "" and game.deal_index == 5
    totals = [list(itertools.accumulate(h[s] for h in game.history)) for s in range(5)]
    assert [t[-1] for t in totals] == [100, 1, 0, 0, 100]
    assert max(t[3] for t in totals) == 98  # no one at 100 before the fifth deal
    proof = game_proof(pair, w)
    assert proof.proved and proof.method == "construction" and proof.over == ("deals", "players")


def test_planted_lower_tie_floor_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the tie one deal sooner (5 deals asked at 5 players); the game built there ends after its
    fifth deal under both readings, so none is offered, and the real witness is not claimed smallest."""
    pair = _tie()
    real = game_build.built_game(pair)
    assert real is not None
    fewest = game_search.fewest_tie_deals

    def sooner(rules: Ruleset, players: int) -> int | None:
        k = fewest(rules, players)
        return None if k is None else k - 1

    monkeypatch.setattr(game_search, "fewest_tie_deals", sooner)
    floor = game_floor(pair)
    assert floor is not None and floor[0] == (5, 5)
    assert game_build.built_game(pair) is None
    proof = game_proof(pair, real)
    assert not proof.proved and "a game of 5 deal(s) and 5 players may also differ" in proof.text


def test_stored_tie_witness_is_the_built_game() -> None:
    e = ENTRIES[_tie().key]
    w, proof = witness_of(e), proof_of(e)
    assert w is not None and w.game_record and (w.game_deals, w.players) == (6, 5)
    assert proof is not None and proof.proved and proof.method == "construction"
    assert proof == game_proof(_tie(), w)


#: deals of 5 players where the partner of the winner (seat 4; seat 0 wins) scores as cheaply as
#: ``partner_cost`` allows: the Comet standing for the 7♣ that is not in the pack (2 points, 1 lost), and
#: then the K♣, after which seat 4 must lead (its 5♦, which seat 0 follows): 3 points, 3 lost
TIGHT = (
    "0:3C 0:4C 0:5C 0:6C 4:9D=7 0:8C 0:9C 0:10C 0:JC 0:QC 0:KC",
    "0:4C 0:5C 0:6C 4:9D=7 0:8C 0:9C 0:10C 0:JC 0:QC 4:KC 4:5D 0:6D 0:7D",
)


Scored = tuple[str, int, tuple[int, ...]]  # a deal's name, its winner (-1: none) and its points


def cost_broken(rules: Ruleset, deals: list[Scored], cost: Callable[[int], int]) -> list[str]:
    """Where a deal breaks the tie floor's premises: in a deal won by one seat, another seat's points y
    cost the two together at least ``cost(y)`` against ``most_points_in_a_deal``; in a deal neither wins,
    two seats score at most 4 + 2 together.  One line per break, naming the deal, the seats and points."""
    out = []
    for name, winner, pts in deals:
        most = most_points_in_a_deal(rules, len(pts))
        assert most is not None
        for i, j in itertools.combinations(range(len(pts)), 2):
            if winner in (i, j):
                other = j if winner == i else i
                lost = most - pts[i] - pts[j]
                if lost < cost(pts[other]):
                    out.append(
                        f"{name}: seat {winner} wins, seat {other} scores {pts[other]}, the two lose {lost} "
                        f"< {cost(pts[other])}"
                    )
            elif pts[i] + pts[j] > 6:
                out.append(f"{name}: seats {i} and {j}, neither winning, score {pts[i] + pts[j]} > 6")
    return out


def played_deals(rules: Ruleset, players: int, seeds: range) -> list[Scored]:
    """Seeded deals of 002's Commit played out by three policies."""
    out = []
    for seed, policy in itertools.product(seeds, ("hoarder", "random", "simple")):
        rng = random.Random(seed)
        game = new_game(rules, players, 1, seed % players)
        final, _ = play_deal(next_deal(game, rng.getrandbits(64)), make_policy(policy, seed), game)
        out.append((f"{players} players, seed {seed}, {policy}", final.winner, deal_points(final)))
    return out


def scripted(rules: Ruleset, scripts: tuple[str, ...], dealer: int = 4) -> list[Scored]:
    """The deals ``scripts`` describe (``game_build.scripted_deal``, 5 players), played out."""
    out = []
    for k, script in enumerate(scripts):
        dealt = game_build.scripted_deal(rules, 5, dealer, script)
        assert dealt is not None, f"does not play: {script}"
        s, actions = dealt
        for a in actions:
            s = apply(s, a)
        out.append((f"scripted deal {k + 1}", s.winner, deal_points(s)))
    return out


def _cost(rules: Ruleset) -> Callable[[int], int]:
    def cost(points: int) -> int:
        c = game_search.partner_cost(rules, points)
        assert c is not None
        return c

    return cost


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_the_partner_cost_holds_on_played_deals(players: int) -> None:
    """R-COMMIT-C-OUT, R-COMMIT-C-KING, R-COMMIT-C-COMET, R-COMMIT-C-CAUGHT, RUL-CATS-NEW-RUN: the premises
    of the tie's floor, on seeded deals."""
    rules = _tie().a
    assert cost_broken(rules, played_deals(rules, players, range(25)), _cost(rules)) == []


def test_the_partner_cost_is_attained() -> None:
    """The cost is the least possible: in the tight deals (and the built game's), the partner's points cost
    the two exactly ``partner_cost`` (the Comet: 2 points, 1 lost; the Comet and a King: 3, 3), and no
    premise breaks."""
    rules = _tie().a
    deals = scripted(rules, TIGHT)
    assert [(w, pts) for _, w, pts in deals] == [(0, (44, 0, 0, 0, 2)), (0, (41, 0, 0, 0, 3))]
    assert [47 - pts[0] - pts[4] for _, _, pts in deals] == [1, 3] == [_cost(rules)(2), _cost(rules)(3)]
    built = [scripted(rules, (s,), i % 5)[0] for i, s in enumerate(game_build.TIE_DEALS)]
    assert cost_broken(rules, deals + built, _cost(rules)) == []


def test_planted_pass_after_a_king_breaks_the_partner_cost() -> None:
    """Planted: RUL-CATS-NEW-RUN = may (the player who ends a run with a King may pass the new run on), the
    premise the cost rests on; seat 4 passes after its K♣ instead of leading its 5♦, and the check names
    the deal where the two lose 2 for its 3 points."""
    must = _tie().a
    may = replace(must, cats_new_run="may")
    deals = scripted(may, ("0:4C 0:5C 0:6C 4:9D=7 0:8C 0:9C 0:10C 0:JC 0:QC 4:KC 0:6D 0:7D",))
    assert cost_broken(must, deals, _cost(must)) == [
        "scripted deal 1: seat 0 wins, seat 4 scores 3, the two lose 2 < 3"
    ]


def test_planted_costlier_king_is_caught_by_the_tight_deal() -> None:
    """Planted: a broken accounting that charges the pair one more point per point scored (3y - 3); the
    tight deals break it."""
    rules = _tie().a
    broken = cost_broken(rules, scripted(rules, TIGHT), lambda y: max(0, 3 * y - 3))
    assert broken == [
        "scripted deal 1: seat 0 wins, seat 4 scores 2, the two lose 1 < 3",
        "scripted deal 2: seat 0 wins, seat 4 scores 3, the two lose 3 < 6",
    ]


def test_without_the_lead_after_a_king_four_players_would_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """The King's lead is what rules out 4 players: charged only y - 1 (each King costing its card alone),
    a tie after 5 deals at 4 players would pass the count (two wins of 43, 14 points from three deals
    costing 11 of the 15 to spare), and the floor would be 6 deals at 4 players, where nothing is built."""
    pair = _tie()
    monkeypatch.setattr(game_search, "partner_cost", lambda rules, y: max(0, y - 1))
    assert game_search.fewest_tie_deals(pair.a, 4) == 5
    floor = game_floor(pair)
    assert floor is not None and floor[0] == (6, 4)
    assert game_build.built_game(pair) is None
