"""Sub-commands of the ``comet`` command line, one module each."""
