"""Records of play and of rules, as files (spec/record.md): what an implementation writes and reads.

``deal_record`` a deal record (deal + action history) read, replayed and written; ``game_record`` a whole
game's record read, ``game_replay`` it checked deal by deal, ``game_verdict`` the verdict and its output,
``game_write`` games played and written; ``itf`` ITF traces (the ``itf-py`` library, loaded only when used);
``rules_file`` TOML rule sets for house rules; ``contract`` the contract's format number and the vectors'
digest.  Standard library only, except ITF.
"""
