"""Conformance vectors: files another implementation replays to test itself against this model
(``write.write_vectors``; the layout is in ``write``'s docstring and spec/vectors.md).

Modules of one concern each: ``readings`` (the readings covered and their seeded deals), ``negative`` (illegal
and malformed cases), ``format`` (deterministic JSON text), ``features`` (what a case exercises and the search for
deals with features), ``write`` (the files of one reading, the witnesses, ``write_vectors``), ``perft_json`` and
``table`` (spec/vectors.md's coverage table).  The package imports none of them, so a module that needs one
(``comet.diverge.conformance`` needs ``format``) imports no other.
"""
