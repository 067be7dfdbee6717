"""The reference oracle other implementations test against (spec/record.md, spec/implementing.md).

``protocol`` the JSON-lines session of ``comet oracle`` (stateless requests and the ones below);
``deal_session`` deals held by id, ``game_session`` games held by id (O(1) per step for a differential
harness); ``perft`` counts of distinct legal action sequences, the ground truth of spec/perft.md;
``bench`` the session's rate over a pipe, for ``comet bench``.  Standard library only.
"""
