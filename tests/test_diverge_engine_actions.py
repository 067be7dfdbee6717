"""Issue 17, item 4: Z3's smallest witnesses compare engine actions, and a witness must be one a replay's
output tells apart.

- ``Encoding.engine_aliases``: the Red Nines encoding takes a King played on a run two ways (it ends
  the run, or under RUL-RED9-KING = suit_king leaves it standing, by a suit the encoding does not see); a
  witness compares the one engine action ``play K``, so with the two ways tied together the encoding has no
  2-action witness of ``red_nines_king`` (R-RED9-RUN), and without them (planted) it has one no deal realises.
- ``conformance.played_on``: RUL-COMMIT-C-COMET-KING's 1-action witness differs only in points scored during
  play (R-COMMIT-C-KING), which a replay's output shows once the deal is finished (spec/record.md): its
  vector is played on to where the outputs differ.  ``size_proof.prove`` refuses a Z3 witness the engine
  replays alike, or whose outputs cannot be told apart even played on (planted: no playing on).
"""

from __future__ import annotations

import pytest
import z3
from comet.diverge import conformance
from comet.diverge.conformance import divergence_cases, played_on, verdict, with_rulings
from comet.diverge.pairs import Pair, pairs_for
from comet.diverge.size_proof import prove, replay_tells_apart
from comet.diverge.store import load, pair_for, witness_of
from comet.engine import legal_actions
from comet.presets import preset
from comet.state import Action
from comet_proofs.budget import QUESTION_RLIMIT
from comet_proofs.games.red_nines.encoding import RedNinesEncoding
from comet_proofs.pair_cover import encoding_of
from comet_proofs.smallest import Smallest
from comet_proofs.unrolling import Unrolling

KING_KEY = "commit_cats/commit_comet_king=comet_and_king"


def _red_nines_king() -> Pair:
    return next(iter(pairs_for("red_nines_king", ["red_nines"])))


def _two_action_witness(pair: Pair) -> z3.CheckSatResult:
    """Z3's verdict on "a witness of 2 actions in a deal of 4 players" for the pair."""
    ea = encoding_of(pair.preset, pair.a, 4)
    eb = encoding_of(pair.preset, pair.b, 4)
    assert ea is not None and eb is not None
    u = Unrolling(ea, eb, pair.a, pair.b, pair.preset, 4, False)
    diff, _, _ = u.difference(2)
    u.solver.add(diff)
    u.solver.set("rlimit", QUESTION_RLIMIT)
    return u.solver.check()


def test_a_king_is_one_engine_action_so_red_nines_king_has_no_two_action_witness() -> None:
    assert _two_action_witness(_red_nines_king()) == z3.unsat


def test_planted_untied_king_ways_give_a_witness_no_deal_realises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the alias the encoding says a King left standing is legal under suit_king only: a 2-action
    witness that is no engine witness (the stored one, proved smallest, has 3)."""
    monkeypatch.setattr(RedNinesEncoding, "engine_aliases", ())
    assert _two_action_witness(_red_nines_king()) == z3.sat
    e = load()["red_nines/red_nines_king=suit_king"]
    w = witness_of(e)
    assert w is not None and len(w.actions) == 3 and w.players == 4


def test_the_points_only_witness_is_one_action_and_its_vector_is_played_on() -> None:
    e = load()[KING_KEY]
    w = witness_of(e)
    assert w is not None and len(w.actions) == 1 and w.kind == "payments"
    cases = [c for c in divergence_cases(["commit_cats"]) if c.witness_of == KING_KEY]
    assert len(cases) == 2 and all(c.played_on > 0 and not c.points_only for c in cases)
    a, b = (c.expected for c in cases)
    assert a["finished"] and b["finished"] and a["points"] != b["points"]
    # the witness alone: the same output under both readings (the deal goes on, its points are 0)
    pair = pair_for(e)
    rec = e["record"]
    assert isinstance(rec, dict)
    base = preset(pair.preset).rules
    assert verdict(with_rulings(rec, pair.a, base)) == verdict(with_rulings(rec, pair.b, base))


def test_a_witness_the_output_shows_is_not_played_on() -> None:
    e = load()["red_nines/red_nines_king=suit_king"]
    rec = e["record"]
    assert isinstance(rec, dict)
    assert played_on(pair_for(e), rec) == (rec, 0)


def _z_of(key: str, actions: tuple[Action, ...] | None = None) -> tuple[Pair, Smallest]:
    e = load()[key]
    pair, w = pair_for(e), witness_of(e)
    assert w is not None
    start = w.start(pair.a)
    acts = w.actions if actions is None else actions
    return pair, Smallest(start, acts, w.players, (len(acts), w.players, 1), True, "planted", 1, 0.0)


def test_prove_keeps_a_z3_witness_the_output_shows() -> None:
    pair, z = _z_of(KING_KEY)
    kept, proof = prove(pair, None, z)
    assert kept is not None and proof.proved and replay_tells_apart(pair, kept)


def test_planted_invisible_witnesses_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: no playing on (the 1-action witness's outputs agree), and a Z3 witness whose action the
    engine plays alike under both readings: neither is kept as proved."""
    pair, z = _z_of(KING_KEY)
    assert z.start is not None
    other = next(a for a in legal_actions(z.start) if not a.as_rank)
    _, z_same = _z_of(KING_KEY, (other,))
    kept, proof = prove(pair, None, z_same)
    assert kept is None and not proof.proved and "no difference in the engine" in proof.text
    monkeypatch.setattr(conformance, "PLAY_ON_LIMIT", 0)
    kept, proof = prove(pair, None, z)
    assert kept is None and not proof.proved and "not told apart by a replay's output" in proof.text
