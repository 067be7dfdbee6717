"""Each gap row of the extremes carries the proof that its gap is real in the encoding (comet_proofs.bounds.admitted,
spec/extremes.md "What the proofs admit at each gap"): a stored model of the row's formulas at exactly the proved
bound, checked by evaluating the formulas on it; one more than the bound is admitted by no state; a tampered model
is refused in words (R-END-OUT, R-PLAY-MUST, R-SETTLE-COMET-LAST)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("z3")

from comet_proofs.bounds import admitted
from comet_proofs.bounds.quantities import ACTIONS, Bound

PAGE = Path(__file__).resolve().parent.parent / "spec" / "extremes.md"
GAP_ROW = re.compile(r"^\| (\w+) \| (\d+) \| ([^|]+?) \| (\d+) \| (?:none|\d+) \| gap \|", re.M)


def gap_rows() -> list[tuple[str, int, str, int]]:
    return [(p, int(n), q, int(u)) for p, n, q, u in GAP_ROW.findall(PAGE.read_text(encoding="utf-8"))]


def test_every_gap_row_on_the_page_has_a_model_at_its_bound() -> None:
    """R-END-OUT, R-SETTLE-COMET-LAST: for every row spec/extremes.md calls a gap (its numbers are checked against
    the proofs by test_bounds_extremes), the stored model satisfies the row's formulas, built now from the
    encoding, and gives the objective the page's proved bound; the page shows each one."""
    rows = gap_rows()
    assert rows, "spec/extremes.md lists no gap row (then this file has nothing to check: update it)"
    kept = admitted.stored()
    text = PAGE.read_text(encoding="utf-8")
    for preset, players, quantity, upper in rows:
        a = kept.get((preset, players, quantity))
        assert a is not None, f"{preset} {players}p {quantity}: no stored model (comet bounds --page)"
        assert a.bound == upper, f"{preset} {players}p {quantity}: model at {a.bound}, the page says {upper}"
        assert admitted.problem_with(a) is None, f"{preset} {players}p {quantity}: {admitted.problem_with(a)}"
        shown = "\n".join(f"  {line}" for line in admitted.words(a).splitlines())
        assert shown in text, f"{preset} {players}p {quantity}: the page does not show its model as it reads now"


def test_one_more_than_the_bound_is_admitted_by_no_state() -> None:
    """R-PLAY-MUST, R-END-OUT: the same formulas at the bound plus one have no model (Red Nines at four players,
    the last step under the forced runs: 233 admitted, 234 not), so the stored model shows the bound is the
    formulas' optimum, not a number below it."""
    row = Bound("red_nines", 4, ACTIONS, 233, 0, 0, 0)
    found = admitted.find(row)
    assert isinstance(found, admitted.Admitted) and admitted.problem_with(found) is None
    assert found.facts == (admitted.FORCED,)
    over = admitted.find(replace(row, upper=234))
    assert over == "red_nines 4p actions in a deal: the formulas admit no state at the bound 234"


def test_a_tampered_model_is_refused_in_words() -> None:
    """Planted: a stored model claiming one action more than it has, and one whose finished deal is given back a
    card, each get one plain line saying why it is not a model at the bound."""
    kept = admitted.stored()
    a = kept[("red_nines", 4, ACTIONS)]
    claimed = replace(a, bound=a.bound + 1)
    assert admitted.problem_with(claimed) == f"its model gives the objective {a.bound}, not {a.bound + 1}"
    steps = next(k for k in a.values if k.startswith("t.") and k.endswith("steps"))
    moved = replace(a, values={**a.values, steps: int(a.values[steps]) - 5})
    assert (
        admitted.problem_with(moved) == "its model no longer satisfies the formulas (the encoding or a lemma changed)"
    )
    row = Bound(a.preset, a.players, a.quantity, a.bound, 0, 0, 0, witness=a.bound - 11)
    lines = admitted.problems([row], path=Path("/nonexistent/admitted.json"))
    assert lines == [
        "red_nines 4p actions in a deal: a gap, and no model of its formulas is stored (comet bounds --page)"
    ]


def test_the_model_reads_as_the_game() -> None:
    """R-PLAY-MUST: the 4-player Red Nines model reads as a last step: three seats keeping a King each, the
    winner's Queen going on to a run that needs it, and the actions at the bound."""
    a = admitted.stored()[("red_nines", 4, ACTIONS)]
    text = admitted.words(a)
    assert text.startswith("before the last action:") and "then: play a natural Q" in text
    assert text.count(": K\n") == 3 + 3 and text.endswith("actions at the bound: 233")
