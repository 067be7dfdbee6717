"""Random-simulation fuzzing of whole deals and games: the reusable campaign API.

``run_campaign`` plays random legal actions (``comet.policy.random_policy``) under random
rulesets, for every preset asked for, and checks after every step the invariants of
``comet.checks`` (the same functions the Hypothesis state machines in ``tests/`` call).
It also offers arbitrary, mostly illegal actions to the engine and checks each is rejected
with a known rule id.  Coverage per rule id comes from ``comet.coverage``.

Nothing here is specific to one variant: the preset comes from ``PRESETS``, the ruleset
from every field of ``Ruleset`` that applies to the preset (``preset_fields``; ``field_readings``;
integer fields from ``INT_RANGE``), the
player counts from what ``check_players`` accepts for the preset's rules, the deal from
``shuffled_deal``/``explicit_deal``.  The builders used by the Hypothesis strategies
(``ruleset_from_choices``, ``shape_deal``, ``EXTREMES``) live here too, so both search the
same space.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from comet import engine
from comet import game as game_module
from comet.cards import KING, Card, Pack, rank_of
from comet.checks import (
    Counterexample,
    check_game_economy,
    check_game_economy_end,
    check_game_end,
    check_game_step,
    check_rejection,
    check_replay,
    check_state,
    check_terminal,
    check_transition,
)
from comet.coverage import CallCounter, all_rule_ids, classified_ids, deal_rules, game_rules, transition_rules
from comet.engine import player_counts
from comet.errors import IllegalAction, RecordError
from comet.game import GameState
from comet.policy import Policy, random_policy, simple_policy
from comet.presets import PRESETS, preset
from comet.ruleset import Ruleset, applies, field_readings
from comet.state import Action, DealState
from comet.variant import variant_of

INT_RANGE = (0, 120)
MAX_FAILURES_PER_PRESET = 5
MAX_STATES_TRACKED = 2_000_000

# --------------------------------------------------------------------- the search space


def ruling_fields() -> tuple[str, ...]:
    """Every ``Ruleset`` field a fuzzer draws (all but ``variant``, which the preset fixes)."""
    return tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "variant")


def field_choices(name: str) -> tuple[object, ...] | tuple[int, int]:
    """The readings of a field, or the (low, high) range an integer field is drawn from."""
    readings = field_readings(name)
    return INT_RANGE if readings is None else readings


def ruleset_from_choices(base: Ruleset, values: dict[str, object]) -> Ruleset:
    """``base`` with the drawn readings (typed values, as ``field_readings`` gives them)."""
    return dataclasses.replace(base, **values)  # type: ignore[arg-type]


def preset_fields(preset_name: str) -> tuple[str, ...]:
    """The ruling fields that apply to the preset's variant (``comet.ruleset.applies``: its family declares them); the others
    keep their defaults, as ``Ruleset.with_overrides`` requires."""
    variant = preset(preset_name).rules.variant
    return tuple(name for name in ruling_fields() if applies(name, variant))


def random_ruleset(preset_name: str, rng: random.Random) -> Ruleset:
    values: dict[str, object] = {}
    for name in preset_fields(preset_name):
        readings = field_readings(name)
        values[name] = rng.randint(*INT_RANGE) if readings is None else rng.choice(readings)
    return ruleset_from_choices(preset(preset_name).rules, values)


def pack_count(rules: Ruleset, players: int) -> int:
    return len(engine.packs_in_rotation(rules, players))


def pack_at(rules: Ruleset, players: int, index: int) -> Pack:
    return engine.packs_in_rotation(rules, players)[index % pack_count(rules, players)]


# Hand-shaped extremes (issue 3): see ``shape_deal``.
EXTREMES = ("shuffled", "quartets", "comet_dead", "comet_in_hand", "one_turn_out", "comet_last", "kings")


def shape_deal(start: DealState, kind: str, seat: int, count: int) -> DealState:
    """Rearrange a dealt ``start`` into an extreme hand shape, keeping the pack and sizes.

    ``quartets``: seat holds every natural card of ``count`` ranks (four of a kind, or the
    three natural 9s); ``comet_dead``: the wild card(s) lie in the dead hand;
    ``comet_in_hand``: seat holds the wild card(s); ``one_turn_out``: the first player holds
    a run through the King and on, so they can go out in their first turn; ``comet_last``:
    the same, with the wild card in place of the run's last card, to go out on the Comet; ``kings``: seat
    holds all the Kings, then Queens and Jacks.  Unplaceable shapes return ``start``.
    """
    n = start.players
    seat %= n
    pool = [c for h in start.hands for c in h] + list(start.dead)
    naturals = Counter(rank_of(c) for c in pool if c not in start.wild)
    by_rank: dict[int, list[Card]] = {}
    for c in pool:
        if c not in start.wild:
            by_rank.setdefault(rank_of(c), []).append(c)
    size = len(start.hands[0])
    target = seat
    wanted: list[Card] = []
    if kind == "quartets":
        full = sorted(r for r, k in naturals.items() if k >= 3)
        if full:
            first = count % len(full)
            for r in (full[(first + i * 5) % len(full)] for i in range(max(1, count))):
                if r not in {rank_of(c) for c in wanted} and len(wanted) + naturals[r] <= size:
                    wanted.extend(by_rank[r])
    elif kind == "comet_dead":
        target = -1
        wanted = list(start.wild)[: len(start.dead)]
    elif kind == "comet_in_hand":
        wanted = list(start.wild)
    elif kind in ("one_turn_out", "comet_last"):
        target = (start.dealer + 1) % n
        lo = min(naturals) if naturals else 2
        ranks = list(range(lo, KING + 1))
        seq = ranks[max(0, len(ranks) - size) :]
        while len(seq) < size:
            seq.extend(ranks[: size - len(seq)])
        if kind == "comet_last":
            seq = seq[:-1]
            if not start.wild:
                return start
            wanted.append(start.wild[0])
        used: Counter[int] = Counter()
        for r in seq:
            if used[r] < len(by_rank.get(r, [])):
                wanted.append(by_rank[r][used[r]])
                used[r] += 1
    elif kind == "kings":
        for r in (KING, KING - 1, KING - 2):
            wanted.extend(by_rank.get(r, []))
    if not wanted:
        return start
    cap = len(start.dead) if target == -1 else size
    wanted = wanted[:cap]
    rest = list((Counter(pool) - Counter(wanted)).elements())
    random.Random(sum(pool) + seat).shuffle(rest)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == target:
            take = cap - len(wanted)
            hands.append(wanted + rest[:take])
            rest = rest[take:]
        else:
            hands.append(rest[:size])
            rest = rest[size:]
    dead = wanted + rest if target == -1 else rest
    return engine.explicit_deal(start.rules, n, start.dealer, hands, dead, start.comet_value)


def make_deal(
    rules: Ruleset, players: int, dealer: int, seed: int, pack_index: int, comet_value: int, kind: str, seat: int
) -> DealState:
    """A deal for the fuzzers: shuffled with ``seed`` from the pack in rotation, then shaped."""
    pack = pack_at(rules, players, pack_index)
    start = engine.shuffled_deal(rules, players, dealer % players, seed, pack, comet_value)
    return shape_deal(start, kind, seat, seed % 4) if kind != "shuffled" else start


def arbitrary_action(state: DealState, rng: random.Random) -> Action:
    """An arbitrary action, legal or not: pass, held or unheld cards, groups, wild ranks."""
    pool = sorted({c for h in state.hands for c in h} | set(state.played) | set(state.dead))
    hand = state.hands[state.to_move] if 0 <= state.to_move < state.players else ()
    kind = rng.randrange(5)
    if kind == 0 or not pool:
        return Action()
    if kind == 1 and hand:
        c = rng.choice(hand)
        return Action((c,), rng.choice((0, 0, rng.randint(0, 14))))
    if kind == 2 and hand:
        r = rank_of(rng.choice(hand))
        return Action(tuple(sorted(c for c in hand if rank_of(c) == r)))
    if kind == 3 and hand:
        return Action(tuple(sorted(rng.sample(hand, min(len(hand), rng.randint(2, 4))))))
    return Action((rng.choice(pool),), rng.choice((0, rng.randint(0, 14))))


# --------------------------------------------------------------------- checking one deal


# Fields of a deal state that record the path, not the position: two states differing only
# in these are counted as one "distinct state" (the same position reached another way).
HISTORY_FIELDS = frozenset({"steps", "turn", "payments", "played"})


def position_key(state: DealState) -> int:
    """A hash of the state without its history fields (see ``HISTORY_FIELDS``)."""
    return hash(tuple(getattr(state, f.name) for f in dataclasses.fields(state) if f.name not in HISTORY_FIELDS))


@dataclass(frozen=True, slots=True)
class DealOutcome:
    final: DealState
    actions: tuple[Action, ...]
    failure: str  # empty when every check passed
    settlement_skipped: bool
    hits: tuple[str, ...]
    states: frozenset[int]


Chooser = Callable[[DealState, Sequence[Action]], Action]


def check_deal(
    start: DealState,
    choose: Chooser,
    known_rules: frozenset[str],
    rng: random.Random | None = None,
    probes: int = 1,
    stop: Callable[[DealState], bool] | None = None,
) -> DealOutcome:
    """Play ``start`` to the end with ``choose``, checking every invariant after every step.

    With ``rng``, ``probes`` arbitrary actions per step are offered to check rejections.  ``stop`` ends
    the deal early (a game won inside it, ``comet.game.deal_over``); a deal cut short has no settlement.
    """
    hits: Counter[str] = Counter(deal_rules(start))
    seen: set[int] = {position_key(start)}
    actions: list[Action] = []
    s = start

    def fail(problems: Sequence[str], extra: str = "") -> DealOutcome:
        text = "; ".join(problems) + extra + "\n" + Counterexample(start, tuple(actions)).text()
        return DealOutcome(s, tuple(actions), text, False, tuple(hits.elements()), frozenset(seen))

    try:
        problems = check_state(s, start)
        if problems:
            return fail(problems)
        while not s.terminal and not (stop is not None and stop(s)):
            legal = engine.legal_actions(s)
            if rng is not None:
                for _ in range(probes):
                    probe = arbitrary_action(s, rng)
                    bad = check_rejection(s, probe, set(known_rules))
                    if bad:
                        return fail(bad, f" (offered {probe} after the actions below)")
            a = choose(s, legal)
            before = s
            actions.append(a)
            s = engine.apply(s, a)
            hits.update(transition_rules(before, a, s))
            seen.add(position_key(s))
            problems = check_transition(before, a, s) + check_state(s, start)
            if problems:
                return fail(problems)
        problems, skipped = check_terminal(s) if s.terminal else ([], False)
        problems += check_replay(start, actions, s)
        if problems:
            return fail(problems)
    except (IllegalAction, RecordError, ValueError, IndexError, KeyError, TypeError) as e:
        return fail([f"the engine raised {type(e).__name__}: {e}"])
    return DealOutcome(s, tuple(actions), "", skipped, tuple(hits.elements()), frozenset(seen))


# --------------------------------------------------------------------- the campaign


@dataclass(frozen=True, slots=True)
class PresetReport:
    preset: str
    deals: int
    games: int
    steps: int
    distinct_states: int
    failures: tuple[str, ...]
    settlement_skipped: int


@dataclass(frozen=True, slots=True)
class CampaignReport:
    presets: tuple[PresetReport, ...]
    rule_hits: tuple[tuple[str, int], ...]  # (rule id, hits), sorted by id, every known id
    never_hit: tuple[str, ...]  # coverage gaps
    counted_by_call: tuple[str, ...]  # ids outside the classifier, counted in call-counting mode
    seconds: float

    @property
    def failures(self) -> tuple[str, ...]:
        return tuple(f for p in self.presets for f in p.failures)

    @property
    def ok(self) -> bool:
        return not self.failures


@dataclass
class _Tally:
    deals: int = 0
    games: int = 0
    steps: int = 0
    skipped: int = 0

    def __post_init__(self) -> None:
        self.states: set[int] = set()
        self.failures: list[str] = []


@contextmanager
def _progress(enabled: bool, total: float, label: str) -> Iterator[Callable[[float], None]]:
    if not enabled:
        yield lambda _done: None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), transient=False) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def run_campaign(
    presets: Sequence[str],
    *,
    seconds: float | None,
    deals: int | None,
    seed: int,
    progress: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
) -> CampaignReport:
    """Fuzz ``presets`` for ``seconds`` (wall clock, shared equally) or ``deals`` deals each.

    One deal in five is the start of a short whole game (checked deal by deal and at the end).
    With ``jobs`` > 1 or a Dask ``scheduler`` address the campaign is cut into work units
    (``fuzz_chunk``; see ``comet.campaign``), and so is every campaign with ``deals``: then the
    report is the same on one core as on many.
    """
    if seconds is None and deals is None:
        raise ValueError("give a time budget (seconds) or a number of deals")
    if seconds is not None and seconds <= 0:
        raise ValueError("the time budget must be positive")
    if deals is not None and deals <= 0:
        raise ValueError("the number of deals must be positive")
    names = list(presets) or sorted(PRESETS)
    for name in names:
        preset(name)
    if deals is not None or jobs > 1 or scheduler is not None:
        return _run_in_units(names, seconds, deals, seed, progress, jobs, scheduler)
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    tallies = {name: _Tally() for name in names}
    t0 = time.monotonic()
    total = seconds if seconds is not None else float(deals or 0) * len(names)
    label = "fuzzing " + ", ".join(names)
    with counter.active(), _progress(progress, total, label) as advance:
        for i, name in enumerate(names):
            tally = tallies[name]
            rng = random.Random(f"{seed}:{name}")
            stop_at = t0 + (seconds or 0) * (i + 1) / len(names)
            while True:
                if deals is not None and tally.deals >= deals:
                    break
                if seconds is not None and time.monotonic() >= stop_at:
                    break
                if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                    break
                if rng.randrange(5) == 0:
                    _one_game(name, rng, known, tally, hits)
                else:
                    _one_deal(name, rng, known, tally, hits)
                done = time.monotonic() - t0 if seconds is not None else float(i * (deals or 0) + tally.deals)
                advance(min(done, total))
        advance(total)
    by_call = tuple(sorted(r for r in known if r not in classified_ids()))
    for rid in by_call:
        hits[rid] = counter.calls[rid]
    rule_hits = tuple((rid, hits[rid]) for rid in sorted(known | set(hits)))
    reports = tuple(
        PresetReport(
            name,
            t.deals,
            t.games,
            t.steps,
            len(t.states),
            tuple(t.failures),
            t.skipped,
        )
        for name, t in tallies.items()
    )
    return CampaignReport(
        reports,
        rule_hits,
        tuple(rid for rid, k in rule_hits if k == 0 and rid in known),
        by_call,
        time.monotonic() - t0,
    )


# --------------------------------------------------------------------- the campaign in work units

#: Deal draws per work unit (each draw is one deal, or one short game in five).
CHUNK = 20


@dataclass(frozen=True, slots=True)
class ChunkReport:
    """What one work unit found: draws ``[start, stop)`` of a preset in campaign ``seed``."""

    preset: str
    start: int
    stop: int
    deals: int
    games: int
    steps: int
    states: frozenset[int]
    failures: tuple[str, ...]
    skipped: int
    hits: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class FuzzUnit:
    preset: str
    seed: int
    start: int
    stop: int


def fuzz_chunk(unit: FuzzUnit) -> ChunkReport:
    """A work unit: draws ``unit.start .. unit.stop - 1`` of the preset, each from its own generator
    seeded by (campaign seed, preset, draw index), so the unit's report depends on nothing else."""
    name = unit.preset
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    tally = _Tally()
    with counter.active():
        for i in range(unit.start, unit.stop):
            if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                break
            rng = random.Random(f"{unit.seed}:{name}:{i}")
            if rng.randrange(5) == 0:
                _one_game(name, rng, known, tally, hits)
            else:
                _one_deal(name, rng, known, tally, hits)
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return ChunkReport(
        name,
        unit.start,
        unit.stop,
        tally.deals,
        tally.games,
        tally.steps,
        frozenset(tally.states),
        tuple(tally.failures),
        tally.skipped,
        tuple(sorted(hits.items())),
    )


def _run_in_units(
    names: list[str],
    seconds: float | None,
    deals: int | None,
    seed: int,
    progress: bool,
    jobs: int,
    scheduler: str | None,
) -> CampaignReport:
    """``run_campaign`` as work units: ``deals`` draws per preset, or with a time budget, waves of
    ``CHUNK`` draws per worker until the preset's share of the time is spent (every wave started
    finishes, so the report is exactly the one-core report for as many draws)."""
    from comet.campaign import Runner, iter_waves

    known = all_rule_ids()
    hits: Counter[str] = Counter()
    reports: list[PresetReport] = []
    t0 = time.monotonic()
    total = seconds if seconds is not None else float(deals or 0) * len(names)
    with Runner(jobs, scheduler) as runner, _progress(progress, total, "fuzzing " + ", ".join(names)) as advance:
        width = max(1, runner.jobs if scheduler is None else 2 * runner.jobs)
        for p, name in enumerate(names):
            stop_at = t0 + (seconds or 0) * (p + 1) / len(names)
            tally = _Tally()
            count = -1 if deals is None else -(-deals // CHUNK)
            for wave in iter_waves(count, width):
                units = [
                    FuzzUnit(name, seed, i * CHUNK, min(deals, (i + 1) * CHUNK) if deals is not None else (i + 1) * CHUNK)
                    for i in wave
                ]
                for chunk in runner.map(fuzz_chunk, units):
                    if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                        break  # as one core would have stopped here: later units are not counted
                    tally.deals += chunk.deals
                    tally.games += chunk.games
                    tally.steps += chunk.steps
                    tally.skipped += chunk.skipped
                    if len(tally.states) < MAX_STATES_TRACKED:
                        tally.states.update(chunk.states)
                    tally.failures.extend(chunk.failures[: MAX_FAILURES_PER_PRESET - len(tally.failures)])
                    hits.update(dict(chunk.hits))
                done = time.monotonic() - t0 if seconds is not None else float(p * (deals or 0) + tally.deals)
                advance(min(done, total))
                if len(tally.failures) >= MAX_FAILURES_PER_PRESET:
                    break
                if seconds is not None and time.monotonic() >= stop_at:
                    break
            reports.append(
                PresetReport(name, tally.deals, tally.games, tally.steps, len(tally.states), tuple(tally.failures), tally.skipped)
            )
        advance(total)
    by_call = tuple(sorted(r for r in known if r not in classified_ids()))
    rule_hits = tuple((rid, hits[rid]) for rid in sorted(known | set(hits)))
    return CampaignReport(
        tuple(reports),
        rule_hits,
        tuple(rid for rid, k in rule_hits if k == 0 and rid in known),
        by_call,
        time.monotonic() - t0,
    )


def _random_start(name: str, rng: random.Random) -> DealState:
    rules = random_ruleset(name, rng)
    counts = player_counts(rules)
    n = rng.choice(counts)
    kind = rng.choice(EXTREMES) if rng.randrange(3) == 0 else "shuffled"
    return make_deal(
        rules,
        n,
        rng.randrange(n),
        rng.getrandbits(32),
        rng.randrange(pack_count(rules, n)),
        rng.choice((0, 2, 2, 2, 4, 6, rng.randint(0, 30))),
        kind,
        rng.randrange(n),
    )


def mixed_policy(rng: random.Random) -> Policy:
    """Random legal actions, but half the steps played the natural way (``simple_policy``).

    Uniform random play spends the Comet at once (it has a dozen ranks to stand for, so it is
    most of the legal actions); mixing in natural play keeps it in hand longer, so deals where
    a loser is caught with it or the winner goes out on it are reached too.
    """
    uniform = random_policy(rng)

    def choose(state: DealState, legal: Sequence[Action]) -> Action:
        return uniform(state, legal) if rng.randrange(2) else simple_policy(state, legal)

    return choose


def pick_policy(rng: random.Random) -> Policy:
    """Half the deals uniformly random, a quarter mixed, a quarter natural play."""
    k = rng.randrange(4)
    return random_policy(rng) if k < 2 else mixed_policy(rng) if k == 2 else simple_policy


def _record(tally: _Tally, out: DealOutcome, hits: Counter[str], name: str) -> None:
    tally.deals += 1
    tally.steps += len(out.actions)
    if len(tally.states) < MAX_STATES_TRACKED:
        tally.states.update(out.states)
    tally.skipped += int(out.settlement_skipped)
    hits.update(out.hits)
    if out.failure:
        tally.failures.append(f"[{name}] {out.failure}")


def _one_deal(name: str, rng: random.Random, known: frozenset[str], tally: _Tally, hits: Counter[str]) -> None:
    try:
        start = _random_start(name, rng)
    except (RecordError, ValueError) as e:
        tally.failures.append(f"[{name}] dealing failed: {e}")
        return
    choose = pick_policy(rng)
    out = check_deal(start, choose, known, rng)
    _record(tally, out, hits, name)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    game: GameState
    deals: tuple[DealOutcome, ...]
    failure: str  # empty when every check passed
    economy_skipped: bool = False  # the variant has no chip-economy recomputation


def check_game(
    rules: Ruleset,
    players: int,
    deals: int,
    first_dealer: int,
    rng: random.Random,
    choose: Chooser,
    known_rules: frozenset[str],
    hits: Counter[str] | None = None,
    first_seed: int | None = None,
) -> GameOutcome:
    """Play a whole game deal by deal (``next_deal``/``finish_deal``), checking every deal with
    ``check_deal`` and the game with ``check_game_step`` and ``check_game_end``.  ``first_seed``,
    if given, shuffles the first deal (the rest are drawn from ``rng``)."""
    game = first = game_module.new_game(rules, players, deals, first_dealer)
    played: list[DealOutcome] = []
    skipped = False
    previous: DealState | None = None
    while not game_module.game_over(game):
        seed = first_seed if (first_seed is not None and game.deal_index == 0) else rng.getrandbits(32)
        start = game_module.next_deal(game, seed)
        if hits is not None:
            hits.update(game_rules(previous is None, start, previous))
        out = check_deal(start, choose, known_rules, None, stop=partial(game_module.deal_over, game))
        played.append(out)
        if out.failure:
            return GameOutcome(game, tuple(played), f"game deal {game.deal_index}: {out.failure}")
        after = game_module.finish_deal(game, out.final)
        economy, skip = check_game_economy(game, start, out.final, after)
        skipped = skipped or skip
        problems = check_game_step(game, start, out.final, after) + economy
        if problems:
            return GameOutcome(
                game, tuple(played), f"game deal {game.deal_index}: " + "; ".join(problems) + "\n" + _game_text(game)
            )
        game, previous = after, start
    ending, skip = check_game_economy_end(first, game)
    problems = check_game_end(first, game) + ending
    if problems:
        return GameOutcome(
            game, tuple(played), "game end: " + "; ".join(problems) + "\n" + _game_text(game), skipped or skip
        )
    return GameOutcome(game, tuple(played), "", skipped or skip)


def game_length(rules: Ruleset, players: int, rng: random.Random) -> int:
    """A short game: the variant's own default length half the time (if it declares one),
    else one or two rounds, or any small count when the ruling allows it."""
    default = variant_of(rules).default_deals
    if default is not None and rng.randrange(2):
        return default(players)
    if rules.deal_count == "multiple_of_players":
        return players * rng.randint(1, 2)
    return rng.randint(1, 2 * players)


def _one_game(name: str, rng: random.Random, known: frozenset[str], tally: _Tally, hits: Counter[str]) -> None:
    rules = random_ruleset(name, rng)
    n = rng.choice(player_counts(rules))
    try:
        out = check_game(rules, n, game_length(rules, n, rng), rng.randrange(n), rng, pick_policy(rng), known, hits)
    except (RecordError, ValueError) as e:
        tally.failures.append(f"[{name}] the game could not be played: {e}")
        return
    tally.games += 1
    for deal in out.deals:
        _record(tally, dataclasses.replace(deal, failure=""), hits, name)
    if out.failure:
        tally.failures.append(f"[{name}] {out.failure}")


def _game_text(game: GameState) -> str:
    diffs = game.rules.differences(Ruleset(variant=game.rules.variant))
    return (
        f"variant={game.rules.variant} players={game.players} deals={game.deals} dealer={game.dealer} "
        f"deal_index={game.deal_index} balances={game.balances} comet_values={game.comet_values}\n"
        "rulings: " + (", ".join(f"{k}={v}" for k, v in diffs.items()) if diffs else "defaults")
    )


def wild_in_dead_seed(rules: Ruleset, players: int, tries: int = 200) -> int | None:
    """The first shuffle seed whose first deal of a game leaves a wild card in the dead hand."""
    game = game_module.new_game(rules, players, game_module.default_deals(rules, players), 0)
    for seed in range(tries):
        start = game_module.next_deal(game, seed)
        if any(c in start.wild for c in start.dead):
            return seed
    return None


def coverage_sweep(presets: Sequence[str], seed: int = 0) -> tuple[Counter[str], tuple[str, ...]]:
    """A small deterministic sweep meant to hit every rule id: every hand shape of ``EXTREMES``
    for every allowed player count under the preset's own rules (and one drawn count under one
    random ruleset), played naturally or at random, plus a short whole game under each.

    Returns (hits per rule id, failures).  Quick enough for CI (a few seconds per preset).
    """
    known = all_rule_ids()
    counter = CallCounter(all_rule_ids() - classified_ids())
    hits: Counter[str] = Counter()
    failures: list[str] = []
    rng = random.Random(seed)
    with counter.active():
        for name in presets:
            for rules in (preset(name).rules, random_ruleset(name, rng)):
                counts = player_counts(rules)
                # every player count under the preset's own rules; one, drawn, under the random ones
                for n in counts if rules == preset(name).rules else (rng.choice(counts),):
                    for kind in EXTREMES:
                        start = make_deal(rules, n, n - 1, rng.getrandbits(32), 0, 2, kind, 0)
                        choose = simple_policy if rng.randrange(2) else random_policy(rng)
                        out = check_deal(start, choose, known, rng)
                        hits.update(out.hits)
                        if out.failure:
                            failures.append(f"[{name}] {out.failure}")
                game_hits: Counter[str] = Counter()
                n = player_counts(rules)[0]
                own_length = rules == preset(name).rules and variant_of(rules).game_end == "deals"
                length = game_module.default_deals(rules, n) if own_length else game_length(rules, n, rng)
                # One game opens with a wild card in the dead hand (when the deal has one), so that
                # the carry-over of its value between deals is met by design, not by luck.
                dead_wild = wild_in_dead_seed(rules, n)
                for first_seed in (None,) if dead_wild is None else (None, dead_wild):
                    out_game = check_game(rules, n, length, 0, rng, simple_policy, known, game_hits, first_seed)
                    for deal in out_game.deals:
                        hits.update(deal.hits)
                    if out_game.failure:
                        failures.append(f"[{name}] {out_game.failure}")
                hits.update(game_hits)
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return hits, tuple(failures)


def directed_hits(deals: Sequence[tuple[DealState, Sequence[Action]]]) -> tuple[Counter[str], tuple[str, ...]]:
    """Deals chosen to meet what random play misses (``comet verify`` gives the proofs' witness deals: a
    loser caught with Commit's 9♦, ...), each played action by action under every check of ``check_deal``:
    (hits per rule id, failures)."""
    known = all_rule_ids()
    counter = CallCounter(known - classified_ids())
    hits: Counter[str] = Counter()
    failures: list[str] = []
    with counter.active():
        for start, actions in deals:
            out = check_deal(start, following(actions), known)
            hits.update(out.hits)
            if out.failure:
                failures.append(f"[directed deal] {out.failure}")
    for rid in known - classified_ids():
        hits[rid] += counter.calls[rid]
    return hits, tuple(failures)


def following(actions: Sequence[Action]) -> Chooser:
    """A chooser that plays ``actions`` in order (a recorded deal)."""
    script = iter(actions)
    return lambda _state, _legal: next(script)
