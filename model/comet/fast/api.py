"""The fast engine's typed Python API: play many whole deals, or record one.

``play_deals(rules, players, seeds, policy)`` plays one complete deal per seed in the
compiled kernel (``comet.fast.kernel``) and returns ``Outcomes`` (NumPy arrays: winner,
net chips and points per seat, actions, flags).  ``record_of(...)`` plays one deal and
returns it as a reference ``DealRecord`` with its actions, which ``comet.records.deal_record`` can
replay.  A seed deals exactly the cards ``comet.engine.shuffled_deal(rules, players,
dealer, seed, pack)`` deals, and the policies are the reference ones (``POLICIES``), so
the fast engine plays the very deal the reference would play for that seed.

Supported: the standard game, the Opera option, two players and Old Comet (``comet.fast.kernel``),
and the games whose play replaces the standard transition system, Commit (both) and Red Nines
(one module each in ``comet.fast.games``), under every reading of every ruling that changes the
play or the payments of a deal (``SUPPORTED_FIELDS``); the game-level rulings
(``GAME_LEVEL_FIELDS``: escalation, insolvency, game length...) do not change a deal and are
ignored here.  Any other field set away from its default (a ruling added after this engine) is
refused, never ignored (``unsupported_reason``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, cast

import numpy as np
from numpy.typing import NDArray

from comet.cards import Card, Pack, rank_of
from comet.engine import deal_sizes, packs_in_rotation
from comet.fast import cardsets as cs
from comet.fast import config as kc
from comet.fast import games
from comet.fast import kernel as k
from comet.fast import rng as fast_rng
from comet.presets import PRESETS
from comet.records.deal_record import DealRecord
from comet.ruleset import GAME_LEVEL_FIELDS as RULESET_GAME_LEVEL
from comet.ruleset import RULING_FIELDS, Ruleset
from comet.state import PASS, Action
from comet.variant import variant_of

PolicyName = Literal["random", "greedy", "hoarder", "simple"]
#: The reference policies, reproduced exactly: ``random``/``greedy``/``hoarder`` are
#: ``comet.diverge.policies.make_policy(name, seed)``, ``simple`` is ``comet.policy.simple_policy``.
POLICIES: tuple[PolicyName, ...] = ("random", "greedy", "hoarder", "simple")
_POLICY_CODES = {
    "random": kc.POLICY_RANDOM,
    "greedy": kc.POLICY_GREEDY,
    "hoarder": kc.POLICY_HOARDER,
    "simple": kc.POLICY_SIMPLE,
}
_GAMES = {"standard": kc.GAME_STANDARD, "two_player": kc.GAME_TWO_PLAYER, "old_comet": kc.GAME_OLD_COMET}

#: Ruleset fields whose every reading ``comet.fast.kernel`` plays (standard, Opera, two players, Old Comet).
KERNEL_FIELDS: tuple[str, ...] = (
    "deal_sizes",
    "deal_order",
    "packs",
    "may_stop_early",
    "new_run",
    "quartet_on_lead",
    "comet_lead",
    "comet_as",
    "comet_requires_missing",
    "comet_bonus_last",
    "comet_in_quartet",
    "comet_after",
    "stuck_restart",
    "opera",
    "opera_draw",
    "opera_stack",
    "old_deal_sizes",
    "old_caught",
    "old_manille_last",
    "old_opera_caught",
    "old_manille_king",
    "opera_caught",
    "opera_comet_bonus",
    "old_court_points",
    "old_caught_double",
    "old_caught_nine",
    "old_bonus_last",
    "old_king_quartet",
    "old_opera_bonus",
    "old_last_card",
    "two_player_sets",
)

#: Rulings of the kernel's games that change no single deal although ``comet.ruleset.GAME_LEVEL_FIELDS`` leaves
#: them out (its deal vectors keep their readings): RUL-OLD-ESCALATION moves the manille's value between deals
#: only (its witness is a game of two deals), and a deal here starts from the value it is given (``comet_value``).
KERNEL_GAME_LEVEL: tuple[str, ...] = ("old_escalation",)


@dataclass(frozen=True)
class FastGame:
    """A game family whose play replaces the standard transition system, as one module of
    ``comet.fast.games`` (named as the variant) plays it."""

    name: str
    fields: tuple[str, ...]  # the ruling fields whose every reading it plays
    game_level: tuple[str, ...]  # its fields that change no single deal
    configure: Callable[[Ruleset, NDArray[np.int64]], None]
    play_batch: Callable[..., None]
    pimc_batch: Callable[..., None] | None = None  # the PIMC player on this kernel (``comet.fast.pimc``), if any


@cache
def fast_game(variant: str) -> FastGame | None:
    """The fast module of ``variant`` in ``comet.fast.games`` (None: there is none)."""
    try:
        module = importlib.import_module(f"comet.fast.games.{variant}")
    except ModuleNotFoundError as e:
        if e.name != f"comet.fast.games.{variant}":
            raise
        return None
    return FastGame(
        variant,
        cast(tuple[str, ...], module.FIELDS),
        cast(tuple[str, ...], module.GAME_LEVEL),
        cast(Callable[[Ruleset, NDArray[np.int64]], None], module.configure),
        cast(Callable[..., None], module.play_batch),
        cast(Callable[..., None] | None, getattr(module, "pimc_batch", None)),
    )


def _fast_games() -> tuple[FastGame, ...]:
    found = (fast_game(m.name) for m in pkgutil.iter_modules(games.__path__))
    return tuple(g for g in found if g is not None)


#: Ruleset fields whose every reading the fast engine plays (the others do not change a single deal).
SUPPORTED_FIELDS: tuple[str, ...] = tuple(
    dict.fromkeys((*KERNEL_FIELDS, *(f for g in _fast_games() for f in g.fields)))
)
#: The rulings that change no single deal (game length, chips between deals, the Comet's value carried from
#: deal to deal, who deals first): the ruleset's (``comet.ruleset.GAME_LEVEL_FIELDS``), the kernel's
#: (``KERNEL_GAME_LEVEL``) and any a fast game adds.  The fast engine ignores them; the impact study measures
#: them over whole games (``comet.diverge.study.game_level``).
GAME_LEVEL_FIELDS: frozenset[str] = (
    RULESET_GAME_LEVEL | frozenset(KERNEL_GAME_LEVEL) | frozenset(f for g in _fast_games() for f in g.game_level)
)
_LEADS = {"forbidden": kc.LEAD_FORBIDDEN, "any_rank": kc.LEAD_ANY_RANK, "king": kc.LEAD_KING}

FLAG_OPERA = kc.FLAG_OPERA
FLAG_DRAWN = kc.FLAG_DRAWN
FLAG_OUT_ON_WILD = kc.FLAG_OUT_ON_WILD
FLAG_CAPPED = kc.FLAG_CAPPED

I64Array = NDArray[np.int64]


def unsupported_reason(rules: Ruleset) -> str | None:
    """Why the fast engine cannot play ``rules`` (None: it can)."""
    game = fast_game(rules.variant)
    if rules.variant in _GAMES:
        played = KERNEL_FIELDS
    elif game is not None:
        played = game.fields
    else:
        return f"the fast engine has no kernel for the {rules.variant} game"
    defaults = Ruleset()
    for name in RULING_FIELDS:
        if name in played or name in GAME_LEVEL_FIELDS:
            continue
        value = getattr(rules, name)
        if value != getattr(defaults, name):
            return f"the fast engine does not play ruling {name}={value} in the {rules.variant} game (only its default)"
    return None


def supported_presets() -> tuple[str, ...]:
    """The presets the fast engine plays."""
    return tuple(name for name, p in PRESETS.items() if unsupported_reason(p.rules) is None)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One deal's result: ``winner`` -1 if drawn; ``chips`` net chips per seat (payments during
    play plus the settlement, as ``comet.engine.returns``); ``points`` per seat (points games,
    as ``comet.engine.deal_points``); ``actions`` taken; ``flags`` (``FLAG_*`` bits)."""

    seed: int
    dealer: int
    winner: int
    chips: tuple[int, ...]
    points: tuple[int, ...]
    actions: int
    flags: int


@dataclass(frozen=True)
class Outcomes:
    """The results of ``play_deals``, one row per seed (arrays; ``outcome(i)`` for one row)."""

    rules: Ruleset
    players: int
    policy: PolicyName
    pack: str
    seeds: I64Array
    dealers: I64Array
    winner: I64Array
    chips: I64Array  # (deals, players)
    points: I64Array  # (deals, players)
    actions: I64Array
    flags: I64Array

    def __len__(self) -> int:
        return int(self.seeds.shape[0])

    def outcome(self, i: int) -> Outcome:
        return Outcome(
            int(self.seeds[i]),
            int(self.dealers[i]),
            int(self.winner[i]),
            tuple(int(x) for x in self.chips[i]),
            tuple(int(x) for x in self.points[i]),
            int(self.actions[i]),
            int(self.flags[i]),
        )


@dataclass(frozen=True, slots=True)
class FastRecord:
    """One deal as the fast engine played it: the reference record, the number of legal actions
    the fast engine saw before each action, and the outcome."""

    record: DealRecord
    legal_counts: tuple[int, ...]
    outcome: Outcome
    pack_index: int = 0  # the pack in rotation it was dealt from
    shuffled: bool = True  # dealt by shuffling with the seed (False: explicit hands)
    policy: PolicyName = "random"


# --------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class _Setup:
    cfg: I64Array
    pack: Pack
    pack_cards: I64Array
    packnat: I64Array
    packcnt: I64Array
    players: int
    game: FastGame | None = None  # None: comet.fast.kernel plays it
    value: int = 0  # the Comet's value the deal starts with (a comet.fast.games kernel reads none)

    @property
    def max_steps(self) -> int:
        return int(self.cfg[kc.H_MAX_STEPS])

    def action(self, a: int) -> Action:
        return action_of(a, self.pack) if self.game is None else cs_action_of(a)

    def comet_value(self) -> int:
        return int(self.cfg[kc.C_COMET_VALUE]) if self.game is None else self.value


@cache
def _base_state() -> I64Array:
    base = np.zeros(624, np.int64)
    fast_rng._init_genrand(base, 19650218)
    return base


def _flag(value: bool) -> int:
    return 1 if value else 0


def _setup(rules: Ruleset, players: int, policy: str, pack_index: int, comet_value: int | None, mutant: int) -> _Setup:
    reason = unsupported_reason(rules)
    if reason is not None:
        raise ValueError(reason)
    if policy not in _POLICY_CODES:
        raise ValueError(f"unknown policy {policy!r}; choose one of: {', '.join(POLICIES)}")
    packs = packs_in_rotation(rules, players)  # also checks the player count
    pack = packs[pack_index % len(packs)]
    game = fast_game(rules.variant)
    if game is not None:
        value = variant_of(rules).comet_value if comet_value is None else comet_value
        if value < 0:
            raise ValueError(f"comet_value must not be negative, not {value}")
        return _game_setup(game, rules, players, policy, pack, mutant, value)
    if len(pack.wild) != 1:
        raise ValueError(f"the fast engine needs exactly one wild card in the pack, not {len(pack.wild)}")
    hand, _ = deal_sizes(rules, players, len(pack.cards))
    v = variant_of(rules)
    cfg = np.zeros(kc.CFG_SIZE, np.int64)
    cfg[kc.C_PACK] = len(pack.cards)
    cfg[kc.C_LOWEST] = v.lowest_rank
    cfg[kc.C_STOP_EARLY] = _flag(rules.may_stop_early)
    cfg[kc.C_NEW_RUN_MAY] = _flag(rules.new_run == "may")
    cfg[kc.C_QUARTET_LEAD] = _flag(rules.quartet_on_lead)
    cfg[kc.C_COMET_LEAD] = _LEADS[rules.comet_lead]
    cfg[kc.C_STUCK_MAY] = _flag(rules.stuck_restart == "may")
    cfg[kc.C_COMET_ANY] = _flag(rules.comet_as == "any_rank")
    cfg[kc.C_REQ_MISSING] = _flag(rules.comet_requires_missing)
    cfg[kc.C_BONUS_MULT] = _flag(rules.comet_bonus_last == "multiplied")
    cfg[kc.C_COMET_QUARTET] = _flag(rules.comet_in_quartet)
    cfg[kc.C_RESTART] = _flag(rules.comet_after == "optional_restart")
    cfg[kc.C_OPERA] = _flag(rules.opera)
    cfg[kc.C_OPERA_DRAW] = _flag(rules.opera_draw == "dealer_could")
    cfg[kc.C_OPERA_MULTIPLY] = _flag(rules.opera_stack == "multiply")
    cfg[kc.C_GAME] = _GAMES[rules.variant]
    cfg[kc.C_OLD_NINE_ONLY] = _flag(rules.old_caught == "nine_only")
    cfg[kc.C_OLD_LAST_MULT] = _flag(rules.old_manille_last == "multiplied")
    cfg[kc.C_OLD_OPERA_DOUBLED] = _flag(rules.old_opera_caught == "doubled")
    cfg[kc.C_OLD_KING] = _flag(rules.old_manille_king == "manille_and_king")
    cfg[kc.C_OPERA_CAUGHT_HIGHEST] = _flag(rules.opera_caught == "highest")
    cfg[kc.C_OPERA_BONUS_DOUBLED] = _flag(rules.opera_comet_bonus == "doubled")
    cfg[kc.C_OLD_COURT_RANK] = _flag(rules.old_court_points == "rank")
    cfg[kc.C_OLD_CAUGHT_DOUBLE] = _flag(rules.old_caught_double == "doubled")
    cfg[kc.C_OLD_CAUGHT_NINE] = _flag(rules.old_caught_nine == "extra")
    cfg[kc.C_OLD_BONUS_LAST] = _flag(rules.old_bonus_last == "multiplied")
    cfg[kc.C_OLD_KING_PER_PLAY] = _flag(rules.old_king_quartet == "per_play")
    cfg[kc.C_OLD_OPERA_BONUS] = _flag(rules.old_opera_bonus == "doubled")
    cfg[kc.C_OLD_EVERY_RUN_END] = _flag(rules.old_last_card == "every_run_end")
    # RUL-2P-SETS: sets short of the whole rank, where the family's hook allows them (as comet.engine.any_sets)
    cfg[kc.C_ANY_SETS] = _flag(v.partial_sets is not None and v.partial_sets(rules))
    value = v.comet_value if comet_value is None else comet_value
    if value < 0:
        raise ValueError(f"comet_value must not be negative, not {value}")
    cfg[kc.C_COMET_VALUE] = value
    _header(cfg, rules, players, hand, policy, mutant, pack)
    return _Setup(cfg, pack, *_deck(pack), players)


def _header(cfg: I64Array, rules: Ruleset, players: int, hand: int, policy: str, mutant: int, pack: Pack) -> None:
    """The ``cfg`` header every kernel shares (``comet.fast.config.H_*``)."""
    cfg[kc.H_PLAYERS] = players
    cfg[kc.H_HAND] = hand
    cfg[kc.H_BLOCKS] = _flag(rules.deal_order == "blocks")
    cfg[kc.H_POLICY] = _POLICY_CODES[policy]
    cfg[kc.H_MUTANT] = mutant
    dealt = hand * players
    cfg[kc.H_MAX_STEPS] = dealt + (dealt + 1) * 2 * players  # comet.engine.step_bound
    wild = (*pack.wild, -1, -1)
    cfg[kc.H_WILD1] = wild[0]
    cfg[kc.H_WILD2] = wild[1]


def _deck(pack: Pack) -> tuple[I64Array, I64Array, I64Array]:
    """The pack as a kernel reads it: the cards in pack order, natural cards per rank, copies per card."""
    packnat = np.zeros(14, np.int64)
    packcnt = np.zeros(56, np.int64)
    for c in pack.cards:
        packcnt[c] += 1
        if c not in pack.wild:
            packnat[rank_of(c)] += 1
    return np.array(pack.cards, np.int64), packnat, packcnt


def _game_setup(
    game: FastGame, rules: Ruleset, players: int, policy: str, pack: Pack, mutant: int, value: int
) -> _Setup:
    """The configuration of a ``comet.fast.games`` kernel (the shared header ``comet.fast.config.H_*``, then the game's own)."""
    if len(pack.wild) > 2:
        raise ValueError(f"the fast engine handles at most two wild cards, not {len(pack.wild)}")
    hand, _ = deal_sizes(rules, players, len(pack.cards))
    cfg = np.zeros(cs.CFG_SIZE, np.int64)
    _header(cfg, rules, players, hand, policy, mutant, pack)
    game.configure(rules, cfg)
    return _Setup(cfg, pack, *_deck(pack), players, game, value)


def cs_action_of(a: int) -> Action:
    """The reference ``Action`` for a ``comet.fast.cardsets`` action code."""
    kind = a >> 20
    if kind == cs.PASS:
        return PASS
    if kind == cs.ONE:
        return Action(((a >> 4) & 255,), a & 15)
    if kind == cs.GROUP:
        counts = (a >> 4) & 255
        rank = a & 15
        cards = tuple(rank * 4 + s for s in range(4) for _ in range((counts >> (2 * s)) & 3))
        return Action(cards)
    raise ValueError(f"not a fast-engine action code: {a}")


def _seed_array(seeds: Sequence[int] | I64Array) -> I64Array:
    arr = np.asarray(seeds, dtype=np.int64)
    if arr.ndim != 1:
        raise ValueError("seeds must be a flat sequence of whole numbers")
    if arr.size and int(arr.min()) < 0:
        raise ValueError("the fast engine takes seeds from 0 to 2**63 - 1")
    return arr


def _dealer_array(seeds: I64Array, players: int, dealers: Sequence[int] | I64Array | None) -> I64Array:
    if dealers is None:
        return seeds % players
    arr = np.asarray(dealers, dtype=np.int64)
    if arr.shape != seeds.shape:
        raise ValueError("give one dealer per seed")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) >= players):
        raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
    return arr


# --------------------------------------------------------------------- playing


def _run(
    setup: _Setup, seeds: I64Array, dealers: I64Array, record: bool, given: NDArray[np.int8] | None = None
) -> tuple[I64Array, I64Array, I64Array, I64Array, I64Array, I64Array, I64Array, NDArray[np.int8]]:
    n = seeds.shape[0]
    p = setup.players
    winner = np.zeros(n, np.int64)
    chips = np.zeros((n, p), np.int64)
    points = np.zeros((n, p), np.int64)
    steps = np.zeros(n, np.int64)
    flags = np.zeros(n, np.int64)
    width = setup.max_steps if record else 0
    rows = n if record else 0
    rec_actions = np.zeros((rows, width), np.int64)
    rec_legal = np.zeros((rows, width), np.int64)
    rec_cards = np.zeros((rows, p + 1, 56), np.int8)
    play_batch = k.play_batch if setup.game is None else setup.game.play_batch
    play_batch(
        setup.cfg,
        (setup.pack_cards, setup.packnat, setup.packcnt),
        _base_state(),
        seeds,
        dealers,
        np.zeros((0, p + 1, 56), np.int8) if given is None else given,
        (winner, chips, points, steps, flags),
        (rec_actions, rec_legal, rec_cards),
    )
    return winner, chips, points, steps, flags, rec_actions, rec_legal, rec_cards


def play_deals(
    rules: Ruleset,
    players: int,
    seeds: Sequence[int] | I64Array,
    policy: PolicyName = "random",
    *,
    dealers: Sequence[int] | I64Array | None = None,
    pack_index: int = 0,
    comet_value: int | None = None,
    _mutant: int = 0,
) -> Outcomes:
    """Play one complete deal per seed (dealer ``seed % players`` unless ``dealers`` is given; the
    pack ``packs_in_rotation(rules, players)[pack_index]``; the variant's starting Comet value
    unless ``comet_value`` is given).  ValueError for a game the fast engine does not play."""
    setup = _setup(rules, players, policy, pack_index, comet_value, _mutant)
    seed_arr = _seed_array(seeds)
    dealer_arr = _dealer_array(seed_arr, players, dealers)
    winner, chips, points, steps, flags, *_ = _run(setup, seed_arr, dealer_arr, record=False)
    return Outcomes(rules, players, policy, setup.pack.name, seed_arr, dealer_arr, winner, chips, points, steps, flags)


def action_of(a: int, pack: Pack) -> Action:
    """The reference ``Action`` for a kernel action code (a quartet is every natural card of its
    rank in the pack, which the player holds)."""
    kind = a >> 12
    card: Card = (a >> 4) & 255
    rank = a & 15
    if kind == kc.PASS:
        return PASS
    if kind == kc.SINGLE:
        return Action((card,))
    if kind == kc.WILD:
        return Action((card,), rank)
    if kind == kc.QUARTET and card:  # a set short of the whole rank (RUL-2P-SETS any_number): copies per suit
        return Action(tuple(rank * 4 + s for s in range(4) for _ in range(kc.set_copies(a, s))))
    naturals = tuple(c for c in pack.cards if rank_of(c) == rank and c not in pack.wild)
    if kind == kc.QUARTET:
        return Action(naturals)
    if kind == kc.QUARTET_WILD:
        return Action(tuple(sorted((*naturals, card))), rank)
    raise ValueError(f"not a fast-engine action code: {a}")


def _cards_of(row: NDArray[np.int8]) -> tuple[Card, ...]:
    return tuple(c for c in range(56) for _ in range(int(row[c])))


def record_batch(
    rules: Ruleset,
    players: int,
    seeds: Sequence[int] | I64Array,
    policy: PolicyName = "random",
    *,
    dealers: Sequence[int] | I64Array | None = None,
    pack_index: int = 0,
    comet_value: int | None = None,
    _mutant: int = 0,
) -> tuple[FastRecord, ...]:
    """``record_of`` for many seeds in one kernel call."""
    setup = _setup(rules, players, policy, pack_index, comet_value, _mutant)
    seed_arr = _seed_array(seeds)
    dealer_arr = _dealer_array(seed_arr, players, dealers)
    return _records(rules, players, policy, setup, seed_arr, dealer_arr, None, pack_index)


def record_explicit(
    rules: Ruleset,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    policy: PolicyName = "random",
    *,
    seed: int = 0,
    comet_value: int | None = None,
    _mutant: int = 0,
) -> FastRecord:
    """One deal from explicit hands and dead hand (``seed`` drives only the random policy).  The
    cards must be one pack of the game (``comet.engine.explicit_deal`` checks that on replay)."""
    if len(hands) != players:
        raise ValueError(f"expected {players} hands, got {len(hands)}")
    held = {*dead, *(c for h in hands for c in h)}
    packs = packs_in_rotation(rules, players)
    pack_index = next((i for i, p in enumerate(packs) if held <= set(p.cards)), 0)
    setup = _setup(rules, players, policy, pack_index, comet_value, _mutant)
    given = np.zeros((1, players + 1, 56), np.int8)
    for seat, h in enumerate((*hands, dead)):
        for c in h:
            given[0, seat, c] += 1
    seed_arr = _seed_array([seed])
    dealer_arr = _dealer_array(seed_arr, players, [dealer])
    return _records(rules, players, policy, setup, seed_arr, dealer_arr, given, pack_index)[0]


def _records(
    rules: Ruleset,
    players: int,
    policy: PolicyName,
    setup: _Setup,
    seed_arr: I64Array,
    dealer_arr: I64Array,
    given: NDArray[np.int8] | None,
    pack_index: int,
) -> tuple[FastRecord, ...]:
    winner, chips, points, steps, flags, rec_actions, rec_legal, rec_cards = _run(
        setup, seed_arr, dealer_arr, record=True, given=given
    )
    out = Outcomes(rules, players, policy, setup.pack.name, seed_arr, dealer_arr, winner, chips, points, steps, flags)
    value = setup.comet_value()
    diff = rules.differences(PRESETS[rules.variant].rules)
    rulings = tuple(
        (name, val) for name, val in sorted(diff.items()) if isinstance(val, bool | int | str) and name != "variant"
    )
    records = []
    for i in range(len(out)):
        n = int(steps[i])
        actions = tuple(setup.action(int(a)) for a in rec_actions[i, :n])
        rec = DealRecord(
            rules.variant,
            rulings,
            players,
            int(dealer_arr[i]),
            value,
            tuple(_cards_of(rec_cards[i, p]) for p in range(players)),
            _cards_of(rec_cards[i, players]),
            actions,
            tuple(str(a) for a in actions),
        )
        legal_counts = tuple(int(x) for x in rec_legal[i, :n])
        records.append(FastRecord(rec, legal_counts, out.outcome(i), pack_index, given is None, policy))
    return tuple(records)


def record_of(
    rules: Ruleset,
    players: int,
    seed: int,
    policy: PolicyName = "random",
    *,
    dealer: int | None = None,
    pack_index: int = 0,
    comet_value: int | None = None,
) -> FastRecord:
    """One deal played by the fast engine, as a reference deal record with its actions."""
    dealers = None if dealer is None else [dealer]
    return record_batch(
        rules, players, [seed], policy, dealers=dealers, pack_index=pack_index, comet_value=comet_value
    )[0]
