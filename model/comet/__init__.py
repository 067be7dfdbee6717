"""comet: the executable specification of the card game Comet and its relatives.

The core API is five plain functions over immutable values::

    from comet import Ruleset, shuffled_deal, legal_actions, apply, returns
    s = shuffled_deal(Ruleset(), players=3, dealer=2, seed=7)
    while not s.terminal:
        s = apply(s, legal_actions(s)[-1])
    print(returns(s))
"""

from comet.cards import Card, Pack, black_pack, card_text, parse_card, red_pack
from comet.engine import (
    apply,
    explicit_deal,
    legal_actions,
    replay,
    returns,
    settlement,
    shuffled_deal,
)
from comet.errors import IllegalAction, RecordError
from comet.game import finish_deal, new_game, next_deal, play_deal, play_game, winners
from comet.notation import narrate, parse_action
from comet.presets import PRESETS, preset
from comet.ruleset import Ruleset
from comet.state import PASS, Action, DealState, GameState, Payment

__all__ = [
    "PASS",
    "PRESETS",
    "Action",
    "Card",
    "DealState",
    "GameState",
    "IllegalAction",
    "Pack",
    "Payment",
    "RecordError",
    "Ruleset",
    "apply",
    "black_pack",
    "card_text",
    "explicit_deal",
    "finish_deal",
    "legal_actions",
    "narrate",
    "new_game",
    "next_deal",
    "parse_action",
    "parse_card",
    "play_deal",
    "play_game",
    "preset",
    "red_pack",
    "replay",
    "returns",
    "settlement",
    "shuffled_deal",
    "winners",
]
