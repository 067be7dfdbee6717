"""Z3 proofs of the variant presets (comet_proofs.games): each preset's obligations hold, they
speak about real transitions, each encoding agrees successor-exactly with the model on sampled and
hand-made states, and a planted bug (in the encoding or in the model) is caught with a readable
counterexample.

Rules exercised: R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-OPERA-DOUBLE, R-2P-DEAL, R-2P-COMET-UNPAID,
R-2P-POINTS, R-2P-DOUBLING, R-OLD-DECK, R-OLD-DEAL, R-OLD-ACE-LOW, R-OLD-KING, R-OLD-LAST-CARD,
R-OLD-MANILLE-PLAY, R-OLD-POINTS, R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT, R-RED9-DECK, R-RED9-DEAL,
R-RED9-RUN, R-RED9-WILD, R-RED9-FIRST-PLAY, R-RED9-SCORE, R-RED9-DOUBLE, R-COMMIT-H-DECK, R-COMMIT-H-DEAL,
R-COMMIT-H-SUIT, R-COMMIT-H-NINE, R-COMMIT-H-STOPS, R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID,
R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD, R-COMMIT-C-DECK, R-COMMIT-C-DEAL, R-COMMIT-C-LEAD,
R-COMMIT-C-SUIT, R-COMMIT-C-KING, R-COMMIT-C-COMET, R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest
import z3
from builders import position
from comet import engine
from comet.cli import main
from comet.games.commit_cats import rules as cats
from comet.games.commit_hoyle import rules as hoyle
from comet.games.old_comet import rules as old
from comet.games.opera import rules as opera_mod
from comet.games.red_nines import rules as rn
from comet.games.two_player import rules as tp
from comet.notation import parse_action
from comet.presets import PRESETS
from comet.state import Action, DealState, Payment
from comet.variant import REGISTRY
from comet_proofs import ENCODINGS, ProofResult, encoding_for, plan, prove, run_all, sample_states
from comet_proofs.crosscheck import check_state, crosscheck
from comet_proofs.games.commit_cats.encoding import CommitCatsEncoding
from comet_proofs.games.commit_common import BRANCH, SUIT
from comet_proofs.games.commit_hoyle.encoding import KINGS, CommitHoyleEncoding
from comet_proofs.games.old_comet.encoding import OldCometEncoding
from comet_proofs.games.opera.encoding import OperaEncoding
from comet_proofs.games.opera.option import DRAWN
from comet_proofs.games.red_nines.encoding import WILD_PLAYED, RedNinesEncoding
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.games.two_player.encoding import TwoPlayerEncoding
from comet_proofs.proofs import covered_invariants
from comet_proofs.symbolic import CARD, COMET, GROUP_BASE, NATURAL, PASS, QUARTET, Readings, SymAction, SymState

VARIANTS = ("opera", "two_player", "old_comet", "red_nines", "commit_hoyle", "commit_cats")


def failures(results: list[ProofResult]) -> list[ProofResult]:
    return [r for r in results if not r.proved]


def explain(bad: list[ProofResult]) -> str:
    return "\n\n".join(f"{r.preset}, {r.players} players, {r.name}:\n{r.counterexample}" for r in bad)


# ----------------------------------------------------------------- which invariants, for which preset


@pytest.mark.parametrize("name", VARIANTS)
def test_obligations_cover_the_presets_invariants(name: str) -> None:
    """Issue 4: card conservation and termination always, no deadlock, chip zero-sum where chips move,
    non-negative scores and game total = sum of deal scores in points games (Preset.invariants)."""
    p = PRESETS[name]
    enc = encoding_for(name)
    assert enc.scoring == p.scoring
    names = [o.name for o in plan(name)]
    assert set(covered_invariants(names)) == set(p.invariants)
    assert {o.players for o in plan(name)} == set(enc.player_counts) == set(p.variant.player_counts)


# ----------------------------------------------------------------- the proofs hold (one count each; all via the CLI)


@pytest.mark.parametrize(
    ("name", "players"),
    [("opera", 3), ("two_player", 2), ("old_comet", 2), ("red_nines", 5), ("commit_hoyle", 3), ("commit_cats", 3)],
)
def test_variant_proofs_hold(name: str, players: int) -> None:
    """Every obligation of the preset is unsat, every reading of its rulings at once (R-OPERA-DRAW,
    R-2P-POINTS, R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT)."""
    results = run_all(name, [players])
    assert not failures(results), explain(failures(results))
    assert all(r.preset == name and r.players == players for r in results)
    assert {f for f, _ in results[0].readings} == {f for f, _ in encoding_for(name).rulings}


def satisfiable(
    enc: StandardEncoding, players: int, extra: Callable[[SymState, SymAction, SymState], z3.BoolRef]
) -> bool:
    rd = enc.fresh_readings()
    s, s2, a = enc.fresh_state("s", players), enc.fresh_state("t", players), SymAction.fresh()
    solver = z3.Solver()
    solver.add(enc.invariant(s), enc.transition(s, a, s2, rd), extra(s, a, s2))
    return bool(solver.check() == z3.sat)


def test_variant_steps_are_not_vacuous() -> None:
    """The variant-specific transitions exist under Inv: an Opera draw (R-OPERA-DRAW), a pass paying the
    last card of a stuck run (R-OLD-LAST-CARD), four Kings paying 4 each (R-OLD-KING), a two-player
    Comet play that moves no chips (R-2P-COMET-UNPAID)."""
    assert satisfiable(OperaEncoding(), 3, lambda s, a, t: t.x(DRAWN) == 1)
    assert satisfiable(OldCometEncoding(), 3, lambda s, a, t: z3.And(a.kind == PASS, t.chips[0] == s.chips[0] + 2))
    assert satisfiable(
        OldCometEncoding(), 2, lambda s, a, t: z3.And(a.kind == QUARTET, a.rank == 13, t.chips[1] == s.chips[1] + 4)
    )
    assert satisfiable(OldCometEncoding(), 2, lambda s, a, t: z3.And(a.kind == NATURAL, a.rank == 1))
    assert satisfiable(TwoPlayerEncoding(), 2, lambda s, a, t: z3.And(a.kind == COMET, s.comet_value > 0))
    assert satisfiable(RedNinesEncoding(), 4, lambda s, a, t: a.kind == GROUP_BASE + 4)
    assert satisfiable(RedNinesEncoding(), 6, lambda s, a, t: z3.And(a.kind == COMET, t.x(WILD_PLAYED) == 3))
    # R-COMMIT-C-COMET: the card the Comet replaced is played as the branch, keeping the run where it is
    assert satisfiable(
        CommitCatsEncoding(), 3, lambda s, a, t: z3.And(a.kind == CARD, a.rank == s.x(BRANCH), t.need == s.need)
    )


# ----------------------------------------------------------------- encodings vs model


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_encoding_successors_equal_model_successors(name: str) -> None:
    """Sampled states of the preset (random readings, packs, values, play): T's successors are exactly
    the model's; finished deals: returns and deal points agree with the engine."""
    enc = encoding_for(name)
    players = list(enc.player_counts)[:2] if name != "two_player" else [2, 2]
    states = sample_states(players, 1, seed=11, per_deal=4, preset=name)
    report = crosscheck(enc, states)
    assert report.ok, report.mismatches[0]
    assert report.states == len(states) and any(s.terminal for s in states)


OPERA = PRESETS["opera"].rules
OLD = PRESETS["old_comet"].rules
TWO = PRESETS["two_player"].rules
DECK52 = old.old_deck(OLD, None)[0]
HOYLE = PRESETS["commit_hoyle"].rules
HOYLE_PACK = hoyle.hoyle_packs(HOYLE, 3)[0]


def hoyle_position(hands: list[str], suit: int, run: tuple[int, ...], **kw: int) -> DealState:
    state = position(hands, rules=HOYLE, pack=HOYLE_PACK, run=run, **kw)  # type: ignore[arg-type]
    return dataclasses.replace(state, run_suit=suit if run else -1)


CATS = PRESETS["commit_cats"].rules
CATS_PACK = cats.cats_packs(CATS, 3)[0]


def cats_position(hands: list[str], suit: int, run: tuple[int, ...], rules: object = CATS, **kw: int) -> DealState:
    state = position(hands, rules=rules, pack=CATS_PACK, run=run, **kw)  # type: ignore[arg-type]
    return dataclasses.replace(state, run_suit=suit if run else -1, scores=(0, 1, 0))


RED9 = PRESETS["red_nines"].rules
RED9_PACK = rn.red_nines_packs(RED9, 4)[0]


def terminal_after(state: DealState, action: str) -> DealState:
    return engine.apply(state, parse_action(action))


HAND_MADE: list[tuple[str, DealState, str]] = [
    # R-OPERA-DRAW: the first player goes out at once, the dealer could have too: drawn
    ("opera", position(["4C", "5C 6C"], rules=OPERA), "play 4C"),
    # R-OPERA-DOUBLE: ... the dealer could not: a win, doubled
    ("opera", position(["4C", "5C 7C"], rules=OPERA), "play 4C"),
    # RUL-OPERA-STACK: Opera on top of going out with the Comet as a 9
    # (RUL-COMET-LEAD = any_rank: a led Comet may stand for a 9; under the default king it stands for the King)
    ("opera", position(["9D", "2C", "5C 7C"], rules=OPERA.with_overrides({"comet_lead": "any_rank"})), "play 9D as 9"),
    (
        "opera",
        position(
            ["9D", "2C", "5C 7C"], rules=OPERA.with_overrides({"opera_stack": "highest", "comet_lead": "any_rank"})
        ),
        "play 9D as 9",
    ),
    # R-2P-DOUBLING: going out with the Comet as a 9 against a hand holding Kings
    ("two_player", position(["9D", "KC KS 2C"], rules=TWO, run=(7, 8), last_player=1, to_move=0), "play 9D as 9"),
    # R-OLD-KING: all four Kings at once on a run (RUL-QUARTET: they are the natural cards of the rank)
    (
        "old_comet",
        position(["KC KD KH KS 2C", "AC 3C"], rules=OLD, pack=DECK52, run=(11, 12), last_player=1, to_move=0),
        "play KC KD KH KS",
    ),
    # R-OLD-SETTLE, R-OLD-MANILLE-CAUGHT: going out while the other hand holds the manille (and an Ace)
    (
        "old_comet",
        position(["5C", "AC 9D", "2C"], rules=OLD, pack=DECK52, run=(4,), last_player=2, to_move=0),
        "play 5C",
    ),
    (
        "old_comet",
        position(
            ["5C", "AC 9D", "2C"],
            rules=OLD.with_overrides({"old_caught": "nine_only"}),
            pack=DECK52,
            run=(4,),
            last_player=2,
            to_move=0,
        ),
        "play 5C",
    ),
    # R-OLD-LAST-CARD: the last passer hands the turn back to the player of a stuck run
    ("old_comet", position(["2C 3C", "AC 7C"], rules=OLD, pack=DECK52, run=(4,), last_player=0, to_move=1), "pass"),
    # R-OLD-ACE-LOW: the manille leads as an Ace, then goes out multiplied (RUL-OLD-MANILLE-LAST)
    (
        "old_comet",
        position(
            ["9D", "KC 2C"],
            rules=OLD.with_overrides({"old_manille_last": "multiplied", "comet_lead": "any_rank"}),
            pack=DECK52,
        ),
        "play 9D as A",
    ),
    # R-COMMIT-H-STOPS: the 7D ends a diamond run (the mover leads again)
    ("commit_hoyle", hoyle_position(["7D 2C", "3C KS"], 1, (6,), last_player=1, to_move=0), "play 7D"),
    # R-COMMIT-H-NINE: no continuation held, the 9D instead of 'without' opens the 10D branch
    ("commit_hoyle", hoyle_position(["9D 2C", "10D 3C", "4C"], 0, (5,), last_player=2, to_move=0), "play 9D"),
    # R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD: going out against a King and the 9D held
    ("commit_hoyle", hoyle_position(["6C", "KS 9D", "2H"], 0, (5,), last_player=2, to_move=0), "play 6C"),
    # R-COMMIT-C-COMET: the Comet for the 6S opens the 6S as a branch beside the 7S
    ("commit_cats", cats_position(["9D 6S 7S 2C", "3C", "4C"], 3, (4, 5), last_player=2, to_move=0), "play 9D as 6"),
    # R-COMMIT-C-KING, RUL-COMMIT-C-COMET-KING: the Comet as the King ends the run and scores 2 + 1
    (
        "commit_cats",
        cats_position(
            ["9D 2C", "3C", "4C"],
            3,
            (11, 12),
            CATS.with_overrides({"commit_comet_king": "comet_and_king"}),
            last_player=2,
            to_move=0,
        ),
        "play 9D as K",
    ),
    # R-COMMIT-C-LEAD, RUL-COMMIT-C-COMET-LEAD = last_resort: a hand of only the Comet goes out with it as a 9
    (
        "commit_cats",
        cats_position(
            ["9D", "2C 3C", "4C"], 0, (), CATS.with_overrides({"commit_comet_lead": "last_resort"}), to_move=0
        ),
        "play 9D as 9",
    ),
    # R-COMMIT-C-LEAD: the lowest card leads, the Ace low (either Ace under RUL-COMMIT-C-LOWEST = rank)
    ("commit_cats", cats_position(["AH AS 3C", "2C", "4C"], 0, (), to_move=0), "play AS"),
    # R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT: going out against a King and the Comet held
    ("commit_cats", cats_position(["6C", "KS 9D", "2H"], 0, (5,), last_player=2, to_move=0), "play 6C"),
    # R-RED9-WILD, R-RED9-DOUBLE: going out on a red nine as a 9 (RUL-RED9-OUT like_comet: x4), a hand
    # holding the other red nine (x2) and an Ace (20)
    (
        "red_nines",
        position(
            ["9D", "AC 9H", "2C", "3C"],
            rules=RED9.with_overrides({"red_nines_out": "like_comet"}),
            pack=RED9_PACK,
            run=(7, 8),
            last_player=3,
            to_move=0,
        ),
        "play 9D as 9",
    ),
    # R-RED9-WILD, RUL-RED9-LEAD last_resort: a hand of red nines only leads one as any rank
    (
        "red_nines",
        position(
            ["9D 9H", "AC", "2C", "3C"], rules=RED9.with_overrides({"red_nines_lead": "last_resort"}), pack=RED9_PACK
        ),
        "play 9D as K",
    ),
    # RUL-COMET-LEAD = king (the default): a led Comet stands for the King
    ("opera", position(["9D", "2C", "5C 7C"], rules=OPERA), "play 9D as K"),
]


@pytest.mark.parametrize(("name", "state", "action"), HAND_MADE)
def test_hand_made_variant_positions_cross_check(name: str, state: DealState, action: str) -> None:
    """Rare positions: the encoding agrees with the model before and after the named action."""
    enc = encoding_for(name)
    after = terminal_after(state, action)
    for s in (state, after):
        _, problem = check_state(enc, s)
        assert problem is None, problem


@pytest.mark.parametrize("first", ["any_number", "all"])
@pytest.mark.parametrize("seed", [1, 2])
def test_red_nines_first_plays_cross_check(first: str, seed: int) -> None:
    """R-RED9-FIRST-PLAY: the opening position of a fresh deal, where several cards of one rank may go
    down (any number of them, or all): the successors agree (many card choices, one abstract successor)."""
    rules = RED9.with_overrides({"red_nines_first": first})
    start = engine.shuffled_deal(rules, 5, 0, seed)
    assert any(len(a.cards) > 1 for a in engine.legal_actions(start)), "no group in this deal"
    count, problem = check_state(RedNinesEncoding(), start)
    assert problem is None, problem
    assert count >= 2


def test_hand_made_opera_positions_really_draw_and_double() -> None:
    """The hand-made positions do reach what they are for (R-OPERA-DRAW, R-OPERA-DOUBLE), so the
    cross-check above compares the rare outcomes, not ordinary ones."""
    drawn = terminal_after(HAND_MADE[0][1], "play 4C")
    won = terminal_after(HAND_MADE[1][1], "play 4C")
    assert drawn.drawn and drawn.winner == -1
    assert won.winner == 0 and engine.returns(won) == (2 * 12, -2 * 12)


# ----------------------------------------------------------------- planted bugs in the encodings


class DrawKeepsWinner(OperaEncoding):
    """Bug: a drawn Opera deal still names the first player as the winner (R-OPERA-DRAW)."""

    def winner_after(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
        return z3.If(out, s.to_move, -1)


class LoserScoresMinus(TwoPlayerEncoding):
    """Bug: the loser is charged the winner's score as negative points (R-2P-POINTS)."""

    def deal_points(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        won = super().deal_points(s, rd)
        return tuple(z3.If(s.winner == p, won[p], -won[1 - p]) for p in range(s.players))


class CaughtManillePaysOnce(OldCometEncoding):
    """Bug: the manille's holder pays 10 once, yet every other player receives 10 (R-OLD-MANILLE-CAUGHT)."""

    def deal_returns(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        right = super().deal_returns(s, rd)
        n = s.players
        payees = (n - 1) - z3.If(rd["old_caught"], 1, 0)
        refund = [z3.If(z3.And(s.winner >= 0, s.comet == p), 10 * payees - 10, 0) for p in range(n)]
        return tuple(r + f for r, f in zip(right, refund, strict=True))


def test_opera_draw_with_a_winner_breaks_the_proof() -> None:
    """R-OPERA-DRAW: the turn-structure step fails; the counterexample shows the draw."""
    bad = failures(prove(DrawKeepsWinner(), 2, only=("turn structure",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "one step breaks turn structure" in text and "drawn 1" in text and "WINNER" in text
    assert "opera_draw=dealer_could" in text


def test_negative_two_player_score_breaks_the_proof() -> None:
    """R-2P-POINTS: the non-negative-scores obligation fails with a finished deal."""
    bad = failures(prove(LoserScoresMinus(), 2, only=("deal scores non-negative",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "negative score" in text and "WINNER" in text and "seat 1" in text


def test_manille_paid_once_breaks_settlement_zero_sum() -> None:
    """R-OLD-MANILLE-CAUGHT: the settlement zero-sum obligation fails, the holder shown with the manille."""
    bad = failures(prove(CaughtManillePaysOnce(), 3, only=("settlement zero-sum",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "not zero-sum" in text and "+ Comet" in text and "WINNER" in text


class RedNineVanishes(RedNinesEncoding):
    """Bug: a red nine played is not put on the pile (R-RED9-WILD): it disappears from the deal."""

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        view = dataclasses.replace(
            s2,
            extra=tuple(
                (name, term + z3.If(a.kind == COMET, 1, 0) if name == WILD_PLAYED else term) for name, term in s2.extra
            ),
        )
        return super().play_effect(s, a, view, rd)


def test_red_nine_that_vanishes_breaks_card_conservation() -> None:
    """R-RED9-WILD: the card-conservation step fails on a red nine play, shown in card terms."""
    bad = failures(prove(RedNineVanishes(), 4, only=("card conservation",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "one step breaks card conservation" in text and "action: play the Comet as" in text
    assert "wild_played" in text


class KingsHeldPaidDouble(CommitHoyleEncoding):
    """Bug: for a King left in hand every other player receives 2, the holder pays only 1 each."""

    def deal_returns(self, s: SymState, rd: Readings) -> tuple[z3.ArithRef, ...]:
        right = super().deal_returns(s, rd)
        n = s.players
        kings = [z3.Sum(*[z3.If(self.loc(s, k) == h, 1, 0) for k in KINGS]) for h in range(n)]
        extra = [z3.If(s.winner >= 0, z3.Sum(*[kings[h] for h in range(n) if h != p]), 0) for p in range(n)]
        return tuple(r + e for r, e in zip(right, extra, strict=True))


def test_kings_held_paid_double_breaks_settlement_zero_sum() -> None:
    """R-COMMIT-H-KINGS-HELD: the settlement zero-sum obligation fails; the counterexample names cards."""
    bad = failures(prove(KingsHeldPaidDouble(), 3, only=("settlement zero-sum",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "not zero-sum" in text and "WINNER" in text and re.search(r"K[CDHS]", text)


class CometKingOpensBranch(CommitCatsEncoding):
    """Bug: the Comet standing for a King leaves the King as a branch, though the King ended the run."""

    def play_effect(self, s: SymState, a: SymAction, s2: SymState, rd: Readings) -> z3.BoolRef:
        king = z3.And(a.kind == COMET, a.rank == 13)
        planted = z3.If(king, 13 * 4 + s.x(SUIT), 0)
        view = dataclasses.replace(
            s2, extra=tuple((name, term - planted if name == BRANCH else term) for name, term in s2.extra)
        )
        return super().play_effect(s, a, view, rd)


def test_comet_king_branch_breaks_turn_structure() -> None:
    """R-COMMIT-C-KING, R-COMMIT-C-COMET: the turn-structure step fails (a branch with no run), shown
    with the Comet played as a King."""
    bad = failures(prove(CometKingOpensBranch(), 2, only=("turn structure",)))
    assert bad, "the planted bug was not caught"
    text = bad[0].counterexample or ""
    assert "one step breaks turn structure" in text and "action: play the Comet as K" in text
    # 13 * 4 + suit: 52-55 on a run of a suit, 51 when the Comet leads as the King (RUL-COMMIT-C-COMET-LEAD)
    assert "a new run is to be started" in text and re.search(r"branch 5[1-5]", text)


def test_hand_made_commit_cats_positions_score_as_002_says() -> None:
    """The hand-made positions reach what they are for: the Comet as a King scores 2 + 1 and ends the
    run (RUL-COMMIT-C-COMET-KING); going out against K + 9D scores 1 + 2 + 1 and the caught 9D gives the
    others 1 each (R-COMMIT-C-OUT, R-COMMIT-C-CAUGHT; seat 1 had 1 point from play)."""
    after_king = terminal_after(HAND_MADE[14][1], "play 9D as K")
    assert after_king.scores == (3, 1, 0) and not after_king.run and after_king.branch == 0
    out = terminal_after(HAND_MADE[17][1], "play 6C")
    assert out.winner == 0 and engine.deal_points(out) == (1 + 3 + 1 + 1, 1, 1)


# ----------------------------------------------------------------- planted bugs in the model


def test_model_opera_that_never_draws_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OPERA-DRAW broken in the model (the dealer's search always says no): the cross-check reports
    the won successor that T forbids."""
    monkeypatch.setattr(opera_mod, "dealer_could_go_out", lambda state: False)
    _, problem = check_state(OperaEncoding(), HAND_MADE[0][1])
    assert problem is None, "with the search broken on both sides the encoding agrees (oracle bit)"
    monkeypatch.undo()
    real = opera_mod.opera_outcome
    monkeypatch.setattr(
        opera_mod, "opera_outcome", lambda after: dataclasses.replace(real(after), drawn=False, winner=after.winner)
    )
    _, problem = check_state(OperaEncoding(), HAND_MADE[0][1])
    assert problem is not None
    assert "'play 4C' leads to a state T forbids" in problem and "WINNER" in problem


def test_model_comet_bonus_in_two_player_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-2P-COMET-UNPAID broken in the model (the standard Comet bonus restored): reported."""
    monkeypatch.setitem(REGISTRY, "two_player", dataclasses.replace(tp.TWO_PLAYER, play_payments=None))
    _, problem = check_state(TwoPlayerEncoding(), HAND_MADE[4][1])
    assert problem is not None
    assert "leads to a state T forbids" in problem and "chips" in problem


def test_model_without_last_card_chip_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OLD-LAST-CARD broken in the model (no chip for a stuck run's last card): reported on the pass."""

    def nothing(before: DealState, after: DealState) -> tuple[Payment, ...]:
        return ()

    monkeypatch.setitem(REGISTRY, "old_comet", dataclasses.replace(old.OLD_COMET, pass_payments=nothing))
    _, problem = check_state(OldCometEncoding(), HAND_MADE[8][1])
    assert problem is not None
    assert "'pass' leads to a state T forbids" in problem and "chips +0 +0" in problem


def test_model_red_nines_without_groups_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-RED9-FIRST-PLAY broken in the model (groups never offered): T allows a successor no legal
    action reaches."""
    real = rn.red_nines_legal_actions

    def singles_only(state: DealState) -> tuple[Action, ...]:
        return tuple(a for a in real(state) if len(a.cards) <= 1)

    monkeypatch.setitem(REGISTRY, "red_nines", dataclasses.replace(rn.RED_NINES_VARIANT, legal_actions=singles_only))
    _, problem = check_state(RedNinesEncoding(), engine.shuffled_deal(RED9, 5, 0, 1))
    assert problem is not None
    assert "T allows a successor no legal action reaches" in problem


def test_model_commit_seven_of_diamonds_not_a_stop_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-H-STOPS broken in the model (the 7D no longer ends a run): the cross-check reports the
    model's successor that T forbids."""
    monkeypatch.setattr(hoyle, "is_stop", lambda state, c: c // 4 == 13)
    _, problem = check_state(CommitHoyleEncoding(), HAND_MADE[10][1])
    assert problem is not None
    assert "'play 7D' leads to a state T forbids" in problem and "the run needs a 8" in problem


def test_model_commit_cats_lead_any_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMMIT-C-LEAD broken in the model (any natural card may start a run, not only the lowest): the
    cross-check reports the model's successor that T forbids."""
    monkeypatch.setattr(cats, "lowest_cards", lambda state, hand: tuple(c for c in hand if c not in state.wild))
    _, problem = check_state(CommitCatsEncoding(), HAND_MADE[16][1])
    assert problem is not None
    assert "'play 3C' leads to a state T forbids" in problem and "the run needs a 4" in problem


# ----------------------------------------------------------------- registry and command line


def test_every_preset_has_an_encoding_or_a_plain_error() -> None:
    """run_all works for every preset with an encoding; the others give one plain error line."""
    for name in PRESETS:
        if name in ENCODINGS:
            assert plan(name)
        else:
            with pytest.raises(ValueError, match="no proofs for preset"):
                plan(name)


def test_cli_prove_two_player_with_crosscheck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--preset", "two_player", "--crosscheck", "1"]) == 0
    out = capsys.readouterr().out
    assert "game total is the sum of deal scores" in out and "two_player cross-check:" in out
    assert "0 mismatching states" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["prove", "--preset", "two_player", "--players", "3"], "for 2 players, not 3"),
        (["prove", "--all", "--players", "2"], "leave out --players"),
        (["prove", "--preset", "old_comet", "--players", "6"], "2 to 5 players"),
    ],
)
def test_cli_prove_variant_bad_input_is_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
