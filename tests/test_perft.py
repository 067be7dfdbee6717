"""Perft counts (spec/perft.md): the table matches the model, memoised counting equals brute force,
and a planted bug in the legal actions is caught (R-PLAY-MUST, R-LEAD-ANY, R-COMET-WILD)."""

from __future__ import annotations

from pathlib import Path

import comet.oracle.perft as perft_mod
import pytest
from comet.cli import main
from comet.engine import apply, legal_actions
from comet.oracle.perft import perft, perft_counts, reference_table, seeded_start, spec_table, table_markdown
from comet.ruleset import Ruleset
from comet.state import PASS, DealState

SPEC = Path(__file__).resolve().parent.parent / "spec" / "perft.md"


def brute(state: DealState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(brute(apply(state, a), depth - 1) for a in legal_actions(state))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 1)])
def test_memoised_perft_equals_brute_force(players: int, seed: int) -> None:
    start = seeded_start(Ruleset(), players, seed)
    assert [perft(start, d) for d in range(5)] == [brute(start, d) for d in range(5)]


def test_spec_table_matches_model() -> None:
    text = SPEC.read_text(encoding="utf-8")
    assert spec_table(text) == table_markdown(reference_table()), (
        "regenerate: comet perft --table --update spec/perft.md"
    )


def test_planted_bug_changes_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal-actions function that forgets 'pass' is caught by the reference counts."""
    want = perft_counts(Ruleset(), 3, 1, 5)

    def no_pass(state: DealState) -> tuple[object, ...]:
        acts = legal_actions(state)
        return tuple(a for a in acts if a != PASS) or acts

    monkeypatch.setattr(perft_mod, "legal_actions", no_pass)
    got = perft_counts(Ruleset(), 3, 1, 5)
    assert got != want
    first = next(d for d, (a, b) in enumerate(zip(want, got, strict=True), 1) if a != b)
    assert first >= 1  # the readable counterexample: the first depth where counts differ


def test_cli_prints_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--players", "3", "--seed", "1", "--depth", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"perft({d}) = {c}" for d, c in enumerate(perft_counts(Ruleset(), 3, 1, 3), 1)]
    assert main(["perft", "--depth", "-1"]) == 2
    assert main(["perft", "--update", "x.md"]) == 2
