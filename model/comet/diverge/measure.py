"""Paired measurement of one reading against another: per deal, what the rule changes, summed in integers.

Each seed is dealt and played under reading A and under reading B by the same policy with coupled play
(``comet.diverge.policies``: the same choice wherever the same options are faced), so a difference comes
from the rule.  Each deal falls in one class:

- ``SAME``: the same cards, options, actions and chips;
- ``PAY``: the same cards, options and actions, but the chips (or points) differ: a scoring ruling met;
- ``OPTIONS``: the same cards and actions, but at some step the two readings offer a different number of
  legal options: the situation arose and the option was not taken;
- ``PLAY``: the same cards, and the actions part ways: an option one reading offers was taken (or the
  same action led on to different positions);
- ``DEALT``: the cards dealt differ (rulings about the deal itself), so the deal-by-deal difference
  measures two different deals; only the means (signed per seat) speak for the rule.

``Paired`` holds integer sums (per position: chips under A, and the sum and sum of squares of the paired
difference B - A of chips and of winning; the chips that end up elsewhere; deal length), so chunks merge
by addition and every figure gets a paired interval (``comet.diverge.stats``).  Positions count from the
dealer's left, the dealer last.  ``reduce_deals`` turns per-deal arrays (from either engine) into a
``Paired``; ``reference_paired`` plays seeds with ``comet.engine``; the fast engine has its own batch
form (``comet.fast.diverge.paired_measure``), checked equal to this one.

Rulings that act only between deals are measured over paired whole games (``reference_games``, summed in a
``GamePaired``): both readings draw the first dealer from the same stream and shuffle deal k from the same
seed (``deal_stream``), so a reading that makes the draw take more cards does not reshuffle the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from numpy.typing import NDArray

from comet.diverge.choices import option_key
from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.engine import apply, deal_points, legal_actions, returns, shuffled_deal, step_bound
from comet.ruleset import Ruleset
from comet.variant import variant_of

SAME, PAY, OPTIONS, PLAY, DEALT = 0, 1, 2, 3, 4
CLASSES = ("same", "pay", "options", "play", "dealt")

I64 = NDArray[np.int64]


def _add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    if not x:
        return y
    if not y:
        return x
    return tuple(a + b for a, b in zip(x, y, strict=True))


@dataclass(frozen=True, slots=True)
class Paired:
    """Sums over paired deals (A against B); ``merge`` adds them, so chunking does not matter."""

    deals: int = 0
    classes: tuple[int, ...] = (0, 0, 0, 0, 0)  # deals per class (SAME, PAY, OPTIONS, PLAY, DEALT)
    chips_a: tuple[int, ...] = ()  # per position: sum of chips (points) under A
    chips_d: tuple[int, ...] = ()  # per position: sum of chips under B minus under A
    chips_d2: tuple[int, ...] = ()  # ... and of its square
    wins_a: tuple[int, ...] = ()  # per position: deals won under A
    wins_d: tuple[int, ...] = ()  # per position: sum of (won under B) - (won under A)
    wins_d2: tuple[int, ...] = ()  # ... and of its square (the deals whose win flag differs)
    transfer: int = 0  # chips that end up with another seat: half the sum of |B - A| over seats
    transfer2: int = 0
    transfer_max: int = 0
    winner_changed: int = 0
    changed: int = 0  # deals whose chips (points) or winner differ
    length_a: int = 0
    length_d: int = 0  # actions under B minus under A
    length_d2: int = 0
    drawn_a: int = 0
    drawn_b: int = 0
    stuck_a: int = 0
    stuck_b: int = 0

    @property
    def players(self) -> int:
        return len(self.chips_a)

    def merge(self, o: Paired) -> Paired:
        out: dict[str, object] = {}
        for f in fields(self):
            x, y = getattr(self, f.name), getattr(o, f.name)
            if f.name == "transfer_max":
                out[f.name] = max(x, y)
            elif isinstance(x, tuple):
                out[f.name] = _add(x, y)
            else:
                out[f.name] = x + y
        return Paired(**out)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class DealArrays:
    """Per-deal results under one reading (NumPy, one row per seed): the winner's position (-1: none),
    chips by position, actions, drawn and stuck flags."""

    winner: I64
    chips: I64  # (deals, players)
    length: I64
    drawn: I64
    stuck: I64


def reduce_deals(a: DealArrays, b: DealArrays, classes: I64) -> Paired:
    """The ``Paired`` sums of deals played under A (``a``) and B (``b``), with their classes."""
    n, p = a.chips.shape
    if n == 0:
        return Paired()
    d = b.chips - a.chips
    pos = np.arange(p)[None, :]
    win_a = (a.winner[:, None] == pos).astype(np.int64)
    win_b = (b.winner[:, None] == pos).astype(np.int64)
    dw = win_b - win_a
    t = np.abs(d).sum(axis=1) // 2
    dl = b.length - a.length

    def tup(x: I64) -> tuple[int, ...]:
        return tuple(int(v) for v in x)

    return Paired(
        deals=n,
        classes=tup(np.bincount(classes, minlength=len(CLASSES))),
        chips_a=tup(a.chips.sum(axis=0)),
        chips_d=tup(d.sum(axis=0)),
        chips_d2=tup((d * d).sum(axis=0)),
        wins_a=tup(win_a.sum(axis=0)),
        wins_d=tup(dw.sum(axis=0)),
        wins_d2=tup((dw * dw).sum(axis=0)),
        transfer=int(t.sum()),
        transfer2=int((t * t).sum()),
        transfer_max=int(t.max()),
        winner_changed=int((a.winner != b.winner).sum()),
        changed=int(((d != 0).any(axis=1) | (a.winner != b.winner)).sum()),
        length_a=int(a.length.sum()),
        length_d=int(dl.sum()),
        length_d2=int((dl * dl).sum()),
        drawn_a=int(a.drawn.sum()),
        drawn_b=int(b.drawn.sum()),
        stuck_a=int(a.stuck.sum()),
        stuck_b=int(b.stuck.sum()),
    )


@dataclass(frozen=True, slots=True)
class Trace:
    """One deal as the reference played it: the cards dealt, the options offered and the actions taken."""

    dealt: tuple[tuple[int, ...], ...]
    counts: tuple[int, ...]
    actions: tuple[int, ...]  # option keys
    winner: int  # position, -1: none
    chips: tuple[int, ...]  # by position
    drawn: bool
    stuck: bool


def reference_trace(rules: Ruleset, players: int, seed: int, policy: str) -> Trace:
    """Deal ``seed`` (dealer ``seed % players``) under ``rules``, played by ``policy`` with ``comet.engine``."""
    dealer = seed % players
    start = shuffled_deal(rules, players, dealer, seed)
    choose = make_policy(policy, seed)
    s = start
    counts: list[int] = []
    actions: list[int] = []
    while not s.terminal:
        legal = legal_actions(s)
        a = choose(s, legal)
        counts.append(len(legal))
        actions.append(option_key(a))
        s = apply(s, a, legal=legal)
    stuck = len(actions) >= step_bound(start) or (s.winner < 0 and not s.drawn)
    scores = returns(s) if variant_of(rules).scoring == "chips" else deal_points(s)
    order = [(dealer + 1 + i) % players for i in range(players)]
    pos = order.index(s.winner) if s.winner >= 0 else -1
    return Trace(
        (*start.hands, start.dead), tuple(counts), tuple(actions), pos, tuple(scores[x] for x in order), s.drawn, stuck
    )


def classify(a: Trace, b: Trace) -> int:
    """The class of a pair of deals (see the module note)."""
    if a.dealt != b.dealt:
        return DEALT
    if a.actions != b.actions:
        return PLAY
    if a.counts != b.counts:
        return OPTIONS
    if a.chips != b.chips or a.winner != b.winner:
        return PAY
    return SAME


def arrays_of(traces: Sequence[Trace], players: int) -> DealArrays:
    n = len(traces)
    return DealArrays(
        np.array([t.winner for t in traces], dtype=np.int64),
        np.array([t.chips for t in traces], dtype=np.int64).reshape(n, players),
        np.array([len(t.actions) for t in traces], dtype=np.int64),
        np.array([t.drawn for t in traces], dtype=np.int64),
        np.array([t.stuck for t in traces], dtype=np.int64),
    )


def reference_paired(pair: Pair, players: int, seeds: Sequence[int], policy: str) -> Paired:
    """The paired sums over ``seeds``, played by the reference engine."""
    ta = [reference_trace(pair.a, players, s, policy) for s in seeds]
    tb = [reference_trace(pair.b, players, s, policy) for s in seeds]
    classes = np.array([classify(x, y) for x, y in zip(ta, tb, strict=True)], dtype=np.int64)
    return reduce_deals(arrays_of(ta, players), arrays_of(tb, players), classes)


@dataclass(frozen=True, slots=True)
class GamePaired:
    """Sums over paired whole games: the winners change, the deals per game, the final spread (the best
    final balance or score minus the worst)."""

    games: int = 0
    refused_a: int = 0
    refused_b: int = 0
    winners_changed: int = 0
    length_a: int = 0
    length_d: int = 0
    length_d2: int = 0
    spread_a: int = 0
    spread_d: int = 0
    spread_d2: int = 0
    played: int = 0  # games played under both readings (the sums above are over these)

    def merge(self, o: GamePaired) -> GamePaired:
        out: dict[str, object] = {}
        for f in fields(self):
            x, y = getattr(self, f.name), getattr(o, f.name)
            out[f.name] = _add(x, y) if isinstance(x, tuple) else x + y
        return GamePaired(**out)  # type: ignore[arg-type]


#: How a paired whole game is played; the results store keys every game-level unit by it
#: (``comet.diverge.results.policy_key``), so a change here re-measures exactly those units.  1: each deal's
#: seed drawn from the first-dealer draw's stream (not coupled: a redraw after a tie moved every deal's seed);
#: 2: from ``deal_stream``, coupled.
GAME_PAIRING = 2


def deal_stream(seed: int) -> random.Random:
    """The stream the deals of paired game ``seed`` are shuffled from (``comet.game.play_game``'s
    ``deal_rng``): independent of the first-dealer draw's stream ``random.Random(seed)``, so deal k of the
    game is shuffled from the same seed under both readings however many cards the draw took under each
    (RUL-FIRST-DEALER: a tie is drawn again under ``redraw``, settled at once under ``lowest_seat``)."""
    return random.Random(f"comet: the deals of paired game {seed}")


@dataclass(frozen=True, slots=True)
class GameResult:
    """What the study reads of one whole game: its winners, the deals played, the final spread (the best
    final balance or score minus the worst)."""

    winners: tuple[int, ...]
    deals: int
    spread: int


def game_result(rules: Ruleset, players: int, seed: int, policy: str) -> GameResult | None:
    """Game ``seed`` under ``rules`` as the study plays it (first dealer drawn from ``random.Random(seed)``,
    the deals shuffled from ``deal_stream(seed)``, ``policy`` with the priorities of ``seed``); None if the
    rules refuse the game."""
    from comet.errors import RecordError
    from comet.game import play_game, winners

    try:
        g = play_game(rules, players, None, seed, make_policy(policy, seed), deal_rng=deal_stream(seed))
    except RecordError:
        return None
    return GameResult(winners(g), g.deal_index, max(g.balances) - min(g.balances))


def pair_games(ga: GameResult | None, gb: GameResult | None) -> GamePaired:
    """The sums of one paired game, played under A (``ga``) and B (``gb``); None: refused."""
    if ga is None or gb is None:
        return GamePaired(games=1, refused_a=int(ga is None), refused_b=int(gb is None))
    dl, ds = gb.deals - ga.deals, gb.spread - ga.spread
    return GamePaired(1, 0, 0, int(ga.winners != gb.winners), ga.deals, dl, dl * dl, ga.spread, ds, ds * ds, 1)


def reference_games(pair: Pair, players: int, seeds: Sequence[int], policy: str) -> GamePaired:
    """Whole games ``seeds`` under A and B, paired and coupled (``game_result``: the same first-dealer draw
    and the same deal seeds under both readings, so what differs comes from the rule)."""
    total = GamePaired()
    for seed in seeds:
        total = total.merge(
            pair_games(game_result(pair.a, players, seed, policy), game_result(pair.b, players, seed, policy))
        )
    return total
