"""The records of a witness search: how far it looks (``Bound``), where two rule sets part ways
(``Witness``), what is proved of its size (``Proof``) and one pair's result (``Search``).

Kept apart from the search (``comet.diverge.witness``) so that the store (``comet.diverge.store``), which
reads and writes these records, and the search, which consults the store, import each other's module at
the top and neither at function level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from comet.cards import Card
from comet.diverge.pairs import Pair
from comet.engine import explicit_deal
from comet.ruleset import Ruleset
from comet.state import Action, DealState

DEAL_MODES = ("shuffled", "wild", "sets", "straights")
PLAYOUT_POLICIES = ("simple", "hoarder", "greedy", "random")


@dataclass(frozen=True, slots=True)
class Bound:
    """How far a search looks: seeds per (players, mode), breadth-first depth and nodes, playouts, games."""

    seeds: int = 12
    depth: int = 5
    nodes: int = 500
    random_playouts: int = 2
    game_seeds: int = 6
    max_game_deals: int = 6
    seconds: float = 20.0

    def text(self) -> str:
        return (
            f"{self.seeds} seeds x player counts x packs x deal modes ({', '.join(DEAL_MODES)}); "
            f"every action sequence to depth {self.depth} (at most {self.nodes} states per deal); "
            f"playouts by {', '.join(PLAYOUT_POLICIES[:-1])} and {self.random_playouts} random; "
            f"games: {self.game_seeds} seeds x 1..{self.max_game_deals} deals (and the default length)"
        )


@dataclass(frozen=True, slots=True)
class Witness:
    """Where two rule sets part ways.  ``actions`` is the deal record's action list under rule set A;
    the last one (``step``) is the first point of difference (``step`` -1: the deal itself).  A game
    witness (``level`` "game") names the seeded game instead, or holds a game built deal by deal
    (``game_record``: its first dealer, length and every deal's record, replayed under each rule set)."""

    level: str  # "deal" | "game"
    kind: str
    detail: str
    players: int
    dealer: int = 0
    pack: str = ""
    comet_value: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    dead: tuple[Card, ...] = ()
    actions: tuple[Action, ...] = ()
    step: int = -1
    origin: str = ""
    game_seed: int = 0
    game_deals: int = 0
    game_policy: str = ""
    game_record: str = ""  # a game built deal by deal: its game record (spec/record.md), JSON text

    @property
    def size(self) -> tuple[int, int, int]:
        """The order witnesses are compared in: fewest actions, then players, then cards that matter."""
        return (len(self.actions), self.players, cards_played(self))

    def start(self, rules: Ruleset) -> DealState:
        """The deal under ``rules`` (RecordError if the deal is not a legal deal under them)."""
        return explicit_deal(rules, self.players, self.dealer, self.hands, self.dead, self.comet_value)


@dataclass(frozen=True, slots=True)
class Proof:
    """What is proved about a witness's size (or about there being none).

    ``method``: ``z3`` (the encodings of ``comet_proofs``, every deal of the player counts named;
    ``comet_proofs.smallest``), ``construction`` (a witness of 0 actions with the fewest players the game
    allows is the smallest there can be), ``inert`` (no reading of the pair can matter until another
    ruling is changed: ``needs`` says which), or ``none`` (nothing proved; ``text`` says what was tried).
    ``text`` states the bound in words.  ``over`` names the measures the witness is proved smallest in, in
    the order they are compared: for a deal a prefix of (actions, players, cards), for a game (deals,
    players) and, when it differs before any action, actions; a proof may be over fewer measures than
    there are (cards not minimised), and ``text`` says so."""

    method: str
    proved: bool
    text: str
    needs: str = ""
    size: tuple[int, int, int] = (0, 0, 0)  # (actions, players, cards) a Z3 proof is about
    over: tuple[str, ...] = ()
    within: tuple[int, ...] = ()  # the player counts a Z3 proof is over, when not every one (the text says so)


@dataclass(frozen=True, slots=True)
class Search:
    """The result for one pair: the witness found (or None) and the bound searched."""

    pair: Pair
    witness: Witness | None
    bound: str
    deals_tried: int
    games_tried: int
    seconds: float
    notes: tuple[str, ...] = field(default=())
    proof: Proof | None = None


def cards_played(w: Witness) -> int:
    """How many cards the witness's actions put on the table (a pack's duplicate cards count twice)."""
    return sum(len(a.cards) for a in w.actions)


def cards_that_matter(w: Witness) -> tuple[Card, ...]:
    """The distinct cards the witness's actions put on the table."""
    return tuple(sorted({c for a in w.actions for c in a.cards}))
