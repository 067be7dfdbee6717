"""Issue 9 item 3 on the fast path: the batch backend of the paired impact study.

The fast engine plays a whole chunk of seeds per rule set in one kernel call and reduces it with integer
sums (``comet.fast.diverge.paired_tally``).  These tests check it against the reference backend on the same
seeds, for readings of R-COMET-WILD (RUL-COMET-LEAD, RUL-COMET-RANK), R-QUARTET (RUL-QUARTET-LEAD), the
bonus of R-COMET-BONUS (RUL-COMET-BONUS-LAST) and a game-level ruling (RUL-ESCALATION-PACKS, which must
change no deal); that chunking and worker count do not change the result; and that a planted batch
backend which drops one seed is caught by the check and refused by ``comet diverge``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from comet.cli import main
from comet.diverge.impact import BATCH_BACKENDS, Tally, check_batch, impact, paired_deals
from comet.diverge.pairs import Pair, pairs_for
from comet.fast.diverge import paired_tally, register

register()

CASES = (
    ("comet_lead", "forbidden", "random"),
    ("comet_as", "any_rank", "random"),
    ("quartet_on_lead", True, "greedy"),
    ("comet_bonus_last", "plain", "hoarder"),
    ("escalation", "per_pack", "random"),
)


def pair_of(field: str, value: object, preset: str = "standard") -> Pair:
    return next(p for p in pairs_for(field, [preset]) if p.value_b == value)


@pytest.mark.parametrize(("field", "value", "policy"), CASES)
def test_batch_tally_equals_reference(field: str, value: object, policy: str) -> None:
    """The batch tally over 300 seeds is the reference backend's, field for field."""
    pair = pair_of(field, value)
    ref = paired_deals(pair, 4, range(300), policy, "reference")
    fast = paired_deals(pair, 4, range(300), policy, "fast")
    assert fast == ref
    assert ref.deals == 300
    if field == "escalation":  # a game-level ruling: the very same deals under A and B
        assert ref.chips_changed == 0 and ref.a == ref.b
    else:
        assert ref.chips_changed > 0  # the comparison is not vacuous


def test_batch_tally_two_player_equals_reference() -> None:
    """Another game (two players, its own pack): RUL-COMET-LEAD's reading 'any_rank'."""
    pair = pair_of("comet_lead", "any_rank", "two_player")
    assert paired_deals(pair, 2, range(200), "random", "fast") == paired_deals(pair, 2, range(200), "random")


def test_chunking_and_workers_do_not_change_the_tally() -> None:
    """Integer sums merged: one chunk, many uneven chunks, one seed per chunk and two workers agree."""
    pair = pair_of("comet_as", "any_rank")
    whole = impact(pair, 400, 0, ["random"], players=4, backend="fast", chunk=400)["random"]
    assert whole.deals == 400 and whole.chips_changed > 0
    for chunk in (1, 37, 250):
        assert impact(pair, 400, 0, ["random"], players=4, backend="fast", chunk=chunk)["random"] == whole
    assert impact(pair, 400, 0, ["random"], players=4, workers=2, backend="fast", chunk=100)["random"] == whole


def dropper(pair: Pair, players: int, seeds: Sequence[int], policy: str) -> Tally:
    """A planted broken batch backend: it silently loses the first seed of every chunk."""
    return paired_tally(pair, players, list(seeds)[1:], policy)


def test_planted_dropped_seed_is_caught(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """check_batch names what differs; `comet diverge --backend` refuses to run the study on it."""
    pair = pair_of("comet_lead", "forbidden")
    assert check_batch("fast", pair, 4, range(20), "random") is None
    monkeypatch.setitem(BATCH_BACKENDS, "dropper", dropper)
    why = check_batch("dropper", pair, 4, range(20), "random")
    assert why is not None and "deals" in why and "dropper" in why
    print(why)
    code = main(
        [
            "diverge",
            "comet_lead",
            "--preset",
            "standard",
            "--backend",
            "dropper",
            "--deals",
            "50",
            "--games",
            "0",
            "--policies",
            "random",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "disagrees with the reference engine" in err and "Traceback" not in err
