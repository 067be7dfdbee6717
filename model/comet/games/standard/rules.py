"""The standard two-pack game: every hook left to the engine's own functions; the Opera admitted."""

from __future__ import annotations

from comet.games.opera.rules import OPERA
from comet.ruleset import CHIP_RULINGS, EVERY_GAME_RULINGS, FIXED_LENGTH_RULINGS, STANDARD_PLAY_RULINGS, Ruleset
from comet.variant import Preset, Variant, register

STANDARD = register(
    Variant(
        name="standard",
        title="Comet",
        options=(OPERA,),
        rulings=(
            *EVERY_GAME_RULINGS,
            *STANDARD_PLAY_RULINGS,
            *CHIP_RULINGS,
            *FIXED_LENGTH_RULINGS,
            "deal_sizes",
            "packs",
            "comet_bonus_last",
            "escalation",
            "comet_reset",
            "escalate_on",
            "opera_comet_bonus",
            "opera_caught",
        ),
        presets=(
            Preset(
                "standard",
                Ruleset(),
                "The two-pack game for 2-5 players, chips, our default reading of every ruling",
                ("000:19", "002:1-30", "003:19"),
            ),
            Preset(
                "opera",
                Ruleset(opera=True),
                "The standard game with Opera: going out in the first turn doubles; drawn if the dealer could too",
                ("000:83", "002:31", "003:83"),
            ),
        ),
    )
)
