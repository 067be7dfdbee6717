"""Issue 17, item 4: when Z3 proves no witness smaller than (m actions, n players) and finds one of that size
in the encoding that it cannot make a real deal of (``Smallest.least``), a witness found otherwise of exactly
that size is the smallest in actions, then players (``size_proof.prove``); a planted mismatch is refused.
The pair used is RUL-COMMIT-H-REST (R-COMMIT-H-SUIT)."""

from __future__ import annotations

from dataclasses import replace

from comet.diverge.records import cards_played
from comet.diverge.size_proof import prove
from comet.diverge.store import load, pair_for, witness_of
from comet_proofs.smallest import Smallest

KEY = "commit_hoyle/commit_rest=stop_cards"


def _z(least: tuple[int, int] | None) -> Smallest:
    text = "no witness of fewer than 2 actions in any deal of 2, 3 players (the Comet at its starting value); a 2-action witness exists in the encoding but was not made a real deal (Z3 budget 250M rlimit units per check, 1000M rlimit units per pair)"
    return Smallest(None, (), 2, (2, 2, 0), False, text, 3, 1.0, 10, least=least)


def test_a_witness_of_the_size_z3_proved_least_is_proved() -> None:
    e = load()[KEY]
    pair, w = pair_for(e), witness_of(e)
    assert w is not None and (len(w.actions), w.players) == (2, 2)
    kept, proof = prove(pair, w, _z((2, 2)))
    assert kept == w and proof.proved and proof.method == "z3"
    assert proof.over == ("actions", "players") and proof.size == (2, 2, cards_played(w))
    assert proof.text.startswith("smallest in actions, then players: ") and "budget" in proof.text


def test_planted_mismatches_are_refused() -> None:
    """Planted: Z3's least one action fewer than the witness, or no least at all; and a witness of one more
    action than the least: none is claimed smallest."""
    e = load()[KEY]
    pair, w = pair_for(e), witness_of(e)
    assert w is not None
    assert not prove(pair, w, _z((1, 2)))[1].proved
    assert not prove(pair, w, _z(None))[1].proved
    longer = replace(w, actions=(*w.actions, w.actions[-1]))
    assert not prove(pair, longer, _z((2, 2)))[1].proved
