"""The proofs' starting points (issue 23): ``comet verify`` shows that freshly dealt deals of the model are
initial states of every encoding under every reading of Init, that the model deals what the sources say,
and that games end where the sources say.  Planted faults make it fail readably, with ``--no-bounds`` too.

Rules exercised: R-DEAL-SIZES, R-2P-DEAL, R-2P-GAME, R-COMMIT-C-GAME, R-RED9-GAME, R-RED9-DEAL.
"""

from __future__ import annotations

import dataclasses

import pytest
import z3
from comet.cli import main
from comet.variant import REGISTRY
from comet_proofs.dealing import model_deal_sizes
from comet_proofs.dealt import assigns, check_dealt, satisfiable
from comet_proofs.games.standard.encoding import StandardEncoding
from comet_proofs.games.two_player.encoding import TwoPlayerEncoding
from comet_proofs.registry import ENCODINGS
from comet_proofs.symbolic import Readings, SymState


class SeatZeroOneMore(StandardEncoding):
    """Bug (R-DEAL-SIZES): under the table reading seat 0 is dealt one card too many, so no state is an
    initial deal and every base case would prove vacuously."""

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        size, _ = self.deal_size(s.players, rd)
        extra = z3.Implies(z3.Not(rd["deal_sizes"]), self.hand_size(s, 0) == size + 1)
        return z3.And(super().initial(s, rd), extra)


class TwoPlayerSeatZeroOneMore(TwoPlayerEncoding):
    """The same bug in the two-player encoding (every reading)."""

    def initial(self, s: SymState, rd: Readings) -> z3.BoolRef:
        size, _ = self.deal_size(s.players, rd)
        return z3.And(super().initial(s, rd), self.hand_size(s, 0) == size + 1)


@pytest.mark.parametrize("name", ["two_player", "red_nines", "commit_cats"])
def test_fresh_deals_are_initial_states_and_games_end_as_stated(name: str) -> None:
    """R-2P-DEAL, R-RED9-DEAL, R-COMMIT-C-GAME: no problem in the real encodings (``comet verify`` runs
    every preset)."""
    r = check_dealt(name)
    assert r.ok, "\n".join(r.problems)
    assert r.deals >= 1 and r.combinations >= r.deals and r.games > 0


def test_deal_sizes_come_from_the_model() -> None:
    """R-DEAL-SIZES: the encoding's initial sizes are engine.deal_sizes under each reading of RUL-DEAL-SIZES."""
    sizes = {combo[0][1]: size for combo, size in model_deal_sizes(StandardEncoding(), 3)}
    assert sizes == {False: (12, 12), True: (16, 0)}


def test_planted_extra_card_for_seat_zero_is_caught() -> None:
    """R-DEAL-SIZES: Init empty under deal_sizes=table is reported with the deal and the broken conjunct."""
    r = check_dealt("standard", SeatZeroOneMore())
    assert not r.ok
    text = r.problems[0]
    assert "deal_sizes=table" in text and "is not an initial state of the encoding" in text
    assert "vacuously" in text and "seat 0" in text


class NothingEnds(StandardEncoding):
    """Bug (R-END-OUT): no state is terminal, so no finished deal satisfies ``Inv ∧ terminal`` and every
    settlement obligation would hold vacuously."""

    def terminal(self, s: SymState) -> z3.BoolRef:
        return z3.BoolVal(False)


def test_planted_empty_terminal_is_caught() -> None:
    """A finished deal of the model is put into ``Inv ∧ terminal`` by evaluation: false here, reported."""
    r = check_dealt("standard", NothingEnds())
    assert not r.ok
    assert any("a finished deal of the model is not in Inv ∧ terminal" in p for p in r.problems), r.problems


def test_a_state_is_checked_by_evaluation_and_only_what_is_left_open_is_searched() -> None:
    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("b")
    one, two = z3.IntVal(1), z3.IntVal(2)
    assert satisfiable(z3.And(x == 1, y > x), [(x, one), (y, two)])
    assert not satisfiable(z3.And(x == 1, y > x), [(x, two)])
    assert satisfiable(z3.And(x == 1, y == 3), [(x, one)])  # y == 3 left open: an assignment
    assert assigns(z3.And(x == 1, y == 3)) and not assigns(z3.And(x == 1, x + y == 3))
    assert satisfiable(z3.And(x == 1, x + y == 3, b), [(x, one)])  # left to Z3: sat
    assert not satisfiable(z3.And(x == 1, y > 2, y < 3), [(x, one)])  # left to Z3: unsat


def run_verify(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["verify", "--preset", "two_player", "--jobs", "1", "--no-fuzz", "--no-refine", *extra])
    return code, capsys.readouterr().out


def test_verify_fails_on_a_vacuous_initial_state_without_bounds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-2P-DEAL: the two-player encoding dealing seat 0 a card too many: every proof holds (vacuously), and
    ``comet verify --no-bounds`` still fails, saying why."""
    monkeypatch.setitem(ENCODINGS, "two_player", TwoPlayerSeatZeroOneMore)
    code, out = run_verify(capsys, "--no-bounds")
    assert code == 1 and "verify: FAILED" in out
    assert "is not an initial state of the encoding" in " ".join(out.split())


def test_verify_fails_on_a_planted_two_player_deal_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-2P-DEAL (000:84 "18 cards each"): the model planted to deal 19 each and 10 dead."""
    monkeypatch.setitem(
        REGISTRY, "two_player", dataclasses.replace(REGISTRY["two_player"], deal_sizes=lambda r, n, size: (19, 10))
    )
    code, out = run_verify(capsys, "--no-bounds")
    flat = " ".join(out.split())
    assert code == 1 and "the model deals 19 cards each and 10 dead" in flat
    assert "the sources say 18 each and 12 dead" in flat


def test_verify_fails_on_a_planted_game_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-2P-GAME (000:84 "the first to 121 wins"): the model planted to stop at 120."""
    monkeypatch.setitem(
        REGISTRY,
        "two_player",
        dataclasses.replace(REGISTRY["two_player"], game_over=lambda g: max(g.balances) >= 120),
    )
    code, out = run_verify(capsys, "--no-bounds")
    flat = " ".join(out.split())
    assert code == 1 and "ends the game after deal 120" in flat and "the sources end it after deal 121" in flat
