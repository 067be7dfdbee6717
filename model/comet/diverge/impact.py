"""Paired impact: the same seeded deals and games played under both rule sets, and what changes.

For each seed the deal is shuffled and dealt under A and under B and played by the same policy (seeded
alike), so any difference comes from the rules.  Everything is counted in integers and reduced by sums
and maxima, so the figures are the same whether the seeds run on one core or many, in any order.

Measures (per reading; "position" counts seats from the dealer's left, the dealer last):
winner changed / chips changed (share of deals), the chip difference per deal (half the sum over seats of
|chips under A - chips under B|: the chips that go elsewhere) with its mean, 95% interval and maximum;
seat advantage (share of deals won by the first player and by the dealer, and their mean chips); balance
(1 - the spread between the best and worst position's win share); decisiveness (share of deals someone
wins); deal length (actions); drawn and stuck deals (over without a winner, or at the step bound).
Whole games: winners changed, net chips changed, games refused, deals per game.

The deals are played by a *backend*: ``reference`` (``comet.engine``) now; a fast engine can register
itself in ``BACKENDS`` with the same signature and is checked on a sample against the reference
(``check_backend``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields

from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.engine import deal_points, returns, shuffled_deal, step_bound
from comet.errors import RecordError
from comet.game import play_deal, play_game, winners
from comet.ruleset import Ruleset
from comet.variant import variant_of


@dataclass(frozen=True, slots=True)
class DealResult:
    """One played deal as the impact study sees it."""

    winner_pos: int  # -1: nobody went out
    drawn: bool
    stuck: bool
    length: int
    chips: tuple[int, ...]  # by position (first player first, dealer last); points in a points game


def reference_deal(rules: Ruleset, players: int, seed: int, policy: str) -> DealResult:
    """Deal ``seed`` (dealer ``seed % players``) under ``rules`` and play it with ``policy``."""
    dealer = seed % players
    start = shuffled_deal(rules, players, dealer, seed)
    final, actions = play_deal(start, make_policy(policy, seed))
    stuck = len(actions) >= step_bound(start) or (final.winner < 0 and not final.drawn)
    scores = returns(final) if variant_of(rules).scoring == "chips" else deal_points(final)
    order = [(dealer + 1 + i) % players for i in range(players)]
    pos = order.index(final.winner) if final.winner >= 0 else -1
    return DealResult(pos, final.drawn, stuck, len(actions), tuple(scores[s] for s in order))


Backend = Callable[[Ruleset, int, int, str], DealResult]
BACKENDS: dict[str, Backend] = {"reference": reference_deal}
#: Backends that play a whole chunk of seeds for a pair at once and return its paired ``Tally``
#: (integer sums only, so chunking does not change the merged result).  Checked against the reference
#: with ``check_batch``.
BatchBackend = Callable[[Pair, int, Sequence[int], str], "Tally"]
BATCH_BACKENDS: dict[str, BatchBackend] = {}


def check_backend(name: str, rules: Ruleset, players: int, seeds: Sequence[int], policy: str) -> list[int]:
    """Seeds on which backend ``name`` disagrees with the reference engine (empty: it agrees)."""
    fast = BACKENDS[name]
    return [s for s in seeds if fast(rules, players, s, policy) != reference_deal(rules, players, s, policy)]


@dataclass(frozen=True, slots=True)
class Side:
    """Sums over the deals played under one reading."""

    wins: tuple[int, ...] = ()
    drawn: int = 0
    stuck: int = 0
    length: int = 0
    first_chips: int = 0
    first_chips2: int = 0
    dealer_chips: int = 0
    chips: tuple[int, ...] = ()  # chips (or points) summed per position

    def add(self, r: DealResult) -> Side:
        wins = list(self.wins or (0,) * len(r.chips))
        if r.winner_pos >= 0:
            wins[r.winner_pos] += 1
        chips = tuple(a + b for a, b in zip(self.chips or (0,) * len(r.chips), r.chips, strict=True))
        return Side(
            tuple(wins),
            self.drawn + r.drawn,
            self.stuck + r.stuck,
            self.length + r.length,
            self.first_chips + r.chips[0],
            self.first_chips2 + r.chips[0] ** 2,
            self.dealer_chips + r.chips[-1],
            chips,
        )

    def merge(self, o: Side) -> Side:
        if not self.wins:
            return o
        if not o.wins:
            return self
        return Side(
            tuple(a + b for a, b in zip(self.wins, o.wins, strict=True)),
            self.drawn + o.drawn,
            self.stuck + o.stuck,
            self.length + o.length,
            self.first_chips + o.first_chips,
            self.first_chips2 + o.first_chips2,
            self.dealer_chips + o.dealer_chips,
            tuple(a + b for a, b in zip(self.chips, o.chips, strict=True)),
        )


@dataclass(frozen=True, slots=True)
class Tally:
    """Paired sums over deals (and whole games); merged by addition, so order and chunking do not matter."""

    deals: int = 0
    winner_changed: int = 0
    chips_changed: int = 0
    diff: int = 0
    diff2: int = 0
    diff_max: int = 0
    a: Side = field(default_factory=Side)
    b: Side = field(default_factory=Side)
    games: int = 0
    game_winners_changed: int = 0
    game_chips_changed: int = 0
    game_refused_a: int = 0
    game_refused_b: int = 0
    game_deals_a: int = 0
    game_deals_b: int = 0
    game_decisive_a: int = 0
    game_decisive_b: int = 0
    # how many deals had each chip difference: ((difference, deals), ...) sorted
    hist: tuple[tuple[int, int], ...] = ()

    def merge(self, o: Tally) -> Tally:
        out: dict[str, object] = {}
        for f in fields(self):
            x, y = getattr(self, f.name), getattr(o, f.name)
            if isinstance(x, Side):
                out[f.name] = x.merge(y)
            elif f.name == "hist":
                both = dict(x)
                for k, v in y:
                    both[k] = both.get(k, 0) + v
                out[f.name] = tuple(sorted(both.items()))
            elif f.name == "diff_max":
                out[f.name] = max(x, y)
            else:
                out[f.name] = x + y
        return Tally(**out)  # type: ignore[arg-type]


def chip_difference(a: Sequence[int], b: Sequence[int]) -> int:
    """Half the sum over seats of |a - b|: how many chips end up with someone else."""
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) // 2


def paired_deals(pair: Pair, players: int, seeds: range, policy: str, backend: str = "reference") -> Tally:
    if backend == "fast" and backend not in BATCH_BACKENDS:  # a worker process started afresh
        from comet.fast.diverge import register

        register()
    if backend in BATCH_BACKENDS:
        return BATCH_BACKENDS[backend](pair, players, seeds, policy)
    play = BACKENDS[backend]
    hist: dict[int, int] = {}
    a, b = Side(), Side()
    deals = changed_w = changed_c = diff = diff2 = diff_max = 0
    for seed in seeds:
        ra = play(pair.a, players, seed, policy)
        rb = play(pair.b, players, seed, policy)
        a, b = a.add(ra), b.add(rb)
        d = chip_difference(ra.chips, rb.chips)
        deals += 1
        changed_w += ra.winner_pos != rb.winner_pos
        changed_c += ra.chips != rb.chips
        diff += d
        diff2 += d * d
        diff_max = max(diff_max, d)
        hist[d] = hist.get(d, 0) + 1
    return Tally(deals, changed_w, changed_c, diff, diff2, diff_max, a, b, hist=tuple(sorted(hist.items())))


def check_batch(name: str, pair: Pair, players: int, seeds: range, policy: str) -> str | None:
    """Why batch backend ``name`` disagrees with the reference engine on ``seeds`` (None: it agrees)."""
    got = BATCH_BACKENDS[name](pair, players, seeds, policy)
    want = paired_deals(pair, players, seeds, policy, "reference")
    if got == want:
        return None
    wrong = [f.name for f in fields(Tally) if getattr(got, f.name) != getattr(want, f.name)]
    return (
        f"batch backend {name!r} disagrees with the reference engine on {pair.key}, policy {policy}, "
        f"seeds {seeds.start}..{seeds.stop - 1}: {', '.join(wrong)} differ "
        f"(e.g. deals {got.deals} against {want.deals}, chips changed {got.chips_changed} against {want.chips_changed})"
    )


def _game(rules: Ruleset, players: int, seed: int, policy: str) -> tuple[bool, tuple[int, ...], tuple[int, ...], int]:
    try:
        g = play_game(rules, players, None, seed, make_policy(policy, seed))
    except RecordError:
        return False, (), (), 0
    return True, winners(g), g.balances, g.deal_index


def paired_games(pair: Pair, players: int, seeds: range, policy: str) -> Tally:
    games = changed_w = changed_c = ref_a = ref_b = len_a = len_b = dec_a = dec_b = 0
    for seed in seeds:
        ok_a, wa, ba, na = _game(pair.a, players, seed, policy)
        ok_b, wb, bb, nb = _game(pair.b, players, seed, policy)
        games += 1
        ref_a += not ok_a
        ref_b += not ok_b
        changed_w += wa != wb
        start_a = pair.a.starting_chips if variant_of(pair.a).scoring == "chips" else 0
        start_b = pair.b.starting_chips if variant_of(pair.b).scoring == "chips" else 0
        changed_c += tuple(x - start_a for x in ba) != tuple(x - start_b for x in bb)
        len_a += na
        len_b += nb
        dec_a += len(wa) == 1
        dec_b += len(wb) == 1
    return Tally(
        games=games,
        game_winners_changed=changed_w,
        game_chips_changed=changed_c,
        game_refused_a=ref_a,
        game_refused_b=ref_b,
        game_deals_a=len_a,
        game_deals_b=len_b,
        game_decisive_a=dec_a,
        game_decisive_b=dec_b,
    )


@dataclass(frozen=True, slots=True)
class Job:
    pair: Pair
    players: int
    policy: str
    deal_seeds: range
    game_seeds: range
    backend: str = "reference"


def run_job(job: Job) -> Tally:
    t = paired_deals(job.pair, job.players, job.deal_seeds, job.policy, job.backend)
    return t.merge(paired_games(job.pair, job.players, job.game_seeds, job.policy))


def chunks(n: int, size: int) -> list[range]:
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


def impact(
    pair: Pair,
    deals: int,
    games: int,
    policies: Sequence[str],
    players: int | None = None,
    workers: int = 1,
    chunk: int = 200,
    on_done: Callable[[int], None] | None = None,
    backend: str = "reference",
) -> dict[str, Tally]:
    """Per policy, the paired tally over seeds ``0..deals-1`` (and ``0..games-1`` for whole games)."""
    n = variant_of(pair.a).default_players if players is None else players
    jobs: list[tuple[str, Job]] = []
    game_chunks = chunks(games, max(1, chunk // 20))
    for policy in policies:
        dchunks = chunks(deals, chunk)
        for i in range(max(len(dchunks), len(game_chunks))):
            d = dchunks[i] if i < len(dchunks) else range(0)
            g = game_chunks[i] if i < len(game_chunks) else range(0)
            jobs.append((policy, Job(pair, n, policy, d, g, backend)))
    out = {p: Tally() for p in policies}
    if workers <= 1:
        for policy, job in jobs:
            out[policy] = out[policy].merge(run_job(job))
            if on_done is not None:
                on_done(len(job.deal_seeds) + len(job.game_seeds))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for (policy, job), t in zip(jobs, pool.map(run_job, [j for _, j in jobs]), strict=True):
            out[policy] = out[policy].merge(t)
            if on_done is not None:
                on_done(len(job.deal_seeds) + len(job.game_seeds))
    return out


# --------------------------------------------------------------------- figures


def interval(total: int, total2: int, n: int) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    var = max(0.0, total2 / n - mean * mean) * n / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def side_figures(s: Side, n: int) -> dict[str, float]:
    if n == 0 or not s.wins:
        return {}
    shares = [w / n for w in s.wins]
    return {
        "first_wins": shares[0],
        "dealer_wins": shares[-1],
        "first_chips": s.first_chips / n,
        "dealer_chips": s.dealer_chips / n,
        "balance": 1 - (max(shares) - min(shares)),
        "decisive": sum(s.wins) / n,
        "length": s.length / n,
        "drawn": s.drawn / n,
        "stuck": s.stuck / n,
    }


def figures(t: Tally) -> dict[str, float]:
    """The headline numbers of a tally (shares in 0..1)."""
    n = t.deals
    mean, half = interval(t.diff, t.diff2, n)
    out: dict[str, float] = {
        "deals": n,
        "winner_changed": t.winner_changed / n if n else 0.0,
        "chips_changed": t.chips_changed / n if n else 0.0,
        "diff_mean": mean,
        "diff_ci": half,
        "diff_max": t.diff_max,
        "games": t.games,
        "game_winners_changed": t.game_winners_changed / t.games if t.games else 0.0,
        "game_chips_changed": t.game_chips_changed / t.games if t.games else 0.0,
        "game_refused_a": t.game_refused_a,
        "game_refused_b": t.game_refused_b,
    }
    if t.games:
        out["a_game_decisive"] = t.game_decisive_a / t.games
        out["b_game_decisive"] = t.game_decisive_b / t.games
        out["a_game_deals"] = t.game_deals_a / t.games
        out["b_game_deals"] = t.game_deals_b / t.games
    for k, v in side_figures(t.a, n).items():
        out[f"a_{k}"] = v
    for k, v in side_figures(t.b, n).items():
        out[f"b_{k}"] = v
    return out
