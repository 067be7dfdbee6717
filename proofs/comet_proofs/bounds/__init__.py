"""Bounds users ask about, per preset and player count, under the preset's own readings (spec/proofs.md,
"Bounds").

Each bound has two numbers:

- ``upper``: the optimum Z3 ``Optimize`` finds over the encoding, an upper bound for every real deal
  (None when the encoding does not bound the quantity).  The states range over the inductive invariant
  ``Inv`` plus the lemma "no hand is larger than the hand dealt" (proved here: true initially, kept by
  every step), so the optimum may lie in a state no deal reaches: it over-approximates.
- ``reached``: the best value met in real deals the model plays (seeded random play that passes whenever
  it may, so deals run long and hands stay full), with the deal that reached it (seed and action count),
  so the gap between what is proved and what is reached is on the page.

Quantities: the most actions a deal can take (``upper`` = the largest ranking function of an initial
deal, which falls by at least 1 per action: the termination proof); for chips games the most one loser
pays at settlement and the most the winner collects there; for points games the most points one seat
scores in a deal.  Chips moved during play (Comet bonus, Kings, stuck runs) are not bounded by the
invariant (it says only that they sum to zero), so those bounds are for the settlement, except where
the lemma ``comet_only`` holds (only the Comet pays in play): there the whole deal is
bounded too, at the Comet's starting value and, as a line ``a + b*v`` proved for every value v, as a
function of it (``in_comet_value``).  The sampled deals report the whole deal's returns alongside.

The package by concern: ``quantities`` (what is measured, ``Bound``), ``optimum`` (Optimize, certificates,
unsat checks), ``lemmas`` (the hand-size and Comet-only lemmas, the longest deal's count), ``stops`` (the longest
deal where kept cards force plays), ``play_chips`` (Old Comet's lemmas on the chips play moves towards the winner
and away from a seat keeping its cards), ``in_play`` (the potential and the lines in
the Comet's value), ``proved`` (the proved bounds of a preset), ``reached`` (sampled and witness deals),
``table`` (``bounds``, the rows ``comet verify`` prints), ``admitted`` (where a row keeps a gap, a model of its
formulas at exactly the bound: the gap is real in the encoding).
"""

from comet_proofs.bounds.in_play import (
    LARGE_VALUE,
    InPlay,
    bounded_in_value,
    in_comet_value,
    in_comet_values,
    in_play_bound,
    in_play_bounds,
    lost_in_play,
    won_in_play,
)
from comet_proofs.bounds.lemmas import comet_only, comet_only_lemma_holds, dealt_size, hands_within_deal, lemma_holds
from comet_proofs.bounds.optimum import (
    TIMEOUT_MS,
    UNPROVED,
    WHOLE_MS,
    attained,
    maxima,
    maximise,
    maximise_all,
    none_holds,
    optimum_problem,
    step_cases,
    unsat_at_once,
)
from comet_proofs.bounds.proved import proved_bounds, proved_bounds_in_value
from comet_proofs.bounds.quantities import (
    ACTIONS,
    DEAL_GAIN,
    DEAL_LOSS,
    GAIN,
    LOSS,
    POINTS,
    Bound,
    Quantity,
    quantities,
)
from comet_proofs.bounds.reached import long_policy, random_policy, reached_values, witness_values
from comet_proofs.bounds.table import bounds, main, typical_players

__all__ = [
    "ACTIONS",
    "DEAL_GAIN",
    "DEAL_LOSS",
    "GAIN",
    "LARGE_VALUE",
    "LOSS",
    "POINTS",
    "TIMEOUT_MS",
    "UNPROVED",
    "WHOLE_MS",
    "Bound",
    "InPlay",
    "Quantity",
    "attained",
    "bounded_in_value",
    "bounds",
    "comet_only",
    "comet_only_lemma_holds",
    "dealt_size",
    "hands_within_deal",
    "in_comet_value",
    "in_comet_values",
    "in_play_bound",
    "in_play_bounds",
    "lemma_holds",
    "long_policy",
    "lost_in_play",
    "main",
    "maxima",
    "maximise",
    "maximise_all",
    "none_holds",
    "optimum_problem",
    "proved_bounds",
    "proved_bounds_in_value",
    "quantities",
    "random_policy",
    "reached_values",
    "step_cases",
    "typical_players",
    "unsat_at_once",
    "witness_values",
    "won_in_play",
]
