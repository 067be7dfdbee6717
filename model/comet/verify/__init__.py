"""What ``comet verify`` (the main job, ``comet.commands.verify``) runs and prints, one concern a module.

- ``plan``: the run's units of work in the order they go out, and what is made of their results;
- ``pool``: running units in this process or in worker processes, a unit that raises reported as a row;
- ``results``: what the run found (``Verified``) and the verdict over it;
- ``shipped``: the shipped conformance vectors replayed by the model;
- ``fastcheck``: the fast engines against the reference on a few seeds;
- ``tables``: a table per check; ``summary``: the ``--json`` summary.

The package re-exports nothing: import each module by name.
"""
