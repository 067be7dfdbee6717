"""``comet conform``: test another implementation against the model (issue 34, ``spec/implementing.md``,
"Testing an implementation: comet conform").

The other implementation is a command that speaks the oracle's JSON-lines protocol (``spec/record.md``,
"comet oracle"): at least ``hello`` and ``replay`` (and ``legal``); game records too when its ``hello``
lists ``game_new`` among its ``ops`` or says ``"games": true``.  ``client`` runs the command (one request
line, one response line, a timeout on each; a crash or a hang is reported and the command restarted),
``cases`` makes the requests (every vector, then random and fault-planted deals and games, then hostile
texts), ``compare`` puts the model's answer (``comet.oracle.protocol``, in process) beside the
implementation's, ``shrink`` cuts a disagreeing record down to the fewest actions and deals that still
disagree, ``report`` prints the findings, a coverage table by rule id and JUnit XML.  ``explore`` draws
the random cases from Hypothesis when it is installed (its shrinking first, then ``shrink``'s); without it
the standard library's seeded random makes them, so a bare install runs the whole suite.
"""
