"""A witness's label, checked: where and what differs when a stored witness is replayed under both rule
sets (``claimed_difference``), and the label of a deal witness found by Z3 (``label_of``)."""

from __future__ import annotations

from comet.diverge.deal_search import as_b, deal_witness, dealt_detail, short
from comet.diverge.game_search import game_difference
from comet.diverge.lockstep import describe, legal_split, step_both
from comet.diverge.pairs import Pair
from comet.diverge.records import Witness
from comet.errors import IllegalAction, RecordError
from comet.state import Action, DealState

# --------------------------------------------------------------------- checked labels


def claimed_difference(pair: Pair, w: Witness) -> tuple[int, str, str]:
    """Replay a witness under both rule sets and say where and how they first differ: (step, kind, detail)
    as ``search`` labels a witness (step -1: the deal itself).  A stored label must equal this
    (``tests/test_diverge_labels.py``); ValueError when the witness shows no difference at all."""
    if w.level == "game":
        deals = None if w.game_deals < 0 else w.game_deals
        diff = game_difference(pair, w.players, deals, w.game_seed, w.game_policy, w.game_record)
        if diff is None:
            raise ValueError("the two games are the same")
        return -1, "game", diff[1]
    try:
        sa = w.start(pair.a)
    except RecordError as e:
        raise ValueError(f"the deal is refused under A: {e}") from e
    try:
        w.start(pair.b)
    except RecordError as e:
        return -1, "refused", f"B refuses this deal [{e.kind}]: {short(str(e))}"
    if w.kind == "dealt" and not w.actions:
        # a shuffle dealt two ways: B's hands are not in the record, but B must deal this very deal (its pack,
        # at its place in the rotation) otherwise, and the label says how (``dealt_detail``)
        detail = dealt_detail(pair, w.players, w.pack)
        if detail is None:
            raise ValueError(f"the rule sets deal every shuffle of the {w.pack} pack alike at {w.players} players")
        return -1, "dealt", detail
    sb = as_b(pair, sa)
    for i, a in enumerate(w.actions):
        split = legal_split(sa, sb)
        if split is not None:
            if split != a:
                raise ValueError(f"step {i}: the rule sets part ways on '{split}', not on the record's '{a}'")
            return i, "legal", describe("legal", sa, sb, a)
        try:
            sa, sb, kind = step_both(sa, sb, a)
        except IllegalAction as e:
            raise ValueError(f"step {i}: '{a}' is legal under neither rule set ({e.rule})") from e
        if kind is not None:
            return i, kind, describe(kind, sa, sb, a)
    raise ValueError("the rule sets agree on every step of the record")


def label_of(pair: Pair, start: DealState, actions: tuple[Action, ...]) -> tuple[int, str, str]:
    w = deal_witness(start, "", "", "", actions)
    return claimed_difference(pair, w)
