"""The impact study of one reading pair: which player counts it is measured at, which engine plays it,
and the paired sums per player count and policy (``comet.diverge.measure``).

A ruling is measured at every player count of its game where it can matter, derived from the rule sets
themselves: if the two readings set up the deal differently (packs in rotation, cards per hand, dead
hand) at some player counts and identically at others, the ruling is about the deal's set-up and is
measured where the set-up differs (``commit_five`` only at five players); otherwise at every count the
game allows, less the counts where a game's own account of the rule says its readings cannot part
(``Variant.ruling_absent``: no rest to read, too few seats, too few red nines).  A single deal is the first of
a game, dealt from the first pack in rotation, so packs that differ only later in the rotation are a
difference between deals (``absent_reason``).  Game-level rulings (the deal is played identically; ``comet.fast.GAME_LEVEL_FIELDS``) are
measured over whole games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from comet.diverge.measure import GamePaired, Paired, reference_games, reference_paired
from comet.diverge.pairs import Pair
from comet.diverge.pimc import SAMPLES, samples_for
from comet.engine import deal_sizes, packs_in_rotation
from comet.errors import RecordError
from comet.ruleset import Ruleset
from comet.variant import variant_of

if TYPE_CHECKING:
    from comet.diverge.strength import Strength


def setup_of(rules: Ruleset, players: int) -> object:
    """What a single deal is dealt from at ``players``: the cards and wild cards of the first pack in rotation
    (a single deal is the first of a game, ``engine.shuffled_deal``; later packs only change later deals)
    and the deal sizes (None: refused).  Packs are compared by their cards, not their names (RUL-RED9-SUITS
    at eight players adds the same four suits in either order)."""
    try:
        p = packs_in_rotation(rules, players)[0]
        return (p.cards, p.wild, deal_sizes(rules, players, len(p.cards)))
    except (ValueError, RecordError):
        return None


def absent_reason(pair: Pair, players: int) -> str | None:
    """Why the pair's readings cannot part in any single deal of ``players`` (None: they may, or the
    ruling acts between deals): the game's own account (``Variant.ruling_absent``, derived from its pack,
    deal sizes and turn order, the same under both readings), or a ruling about the deal's set-up (the
    readings set up deals differently at other player counts) that sets this count's deal up alike."""
    if game_level(pair):
        return None
    hook = variant_of(pair.a).ruling_absent
    if hook is not None and pair.field:
        why_a, why_b = hook(pair.field, pair.a, players), hook(pair.field, pair.b, players)
        if why_a is not None and why_b is not None:
            return why_a
    counts = variant_of(pair.a).player_counts
    differ = [n for n in counts if setup_of(pair.a, n) != setup_of(pair.b, n)]
    if differ and len(differ) < len(counts) and players not in differ:
        rotation = [p.cards for p in packs_in_rotation(pair.a, players)] != [
            p.cards for p in packs_in_rotation(pair.b, players)
        ]
        later = "; B takes other packs for a game's later deals, which single deals do not show" if rotation else ""
        return (
            f"a deal of {players} players is dealt from the same cards in the same hand sizes under both readings, "
            f"which differ only in the deal's set-up (at {', '.join(map(str, differ))} players){later}"
        )
    return None


def player_counts(pair: Pair) -> tuple[int, ...]:
    """The player counts the pair is measured at (see the module note): where both readings deal, less
    those where the readings cannot part (``absent_reason``)."""
    counts = variant_of(pair.a).player_counts
    both = tuple(n for n in counts if setup_of(pair.a, n) is not None and setup_of(pair.b, n) is not None)
    return tuple(n for n in both if absent_reason(pair, n) is None) or both


def unmeasured(pair: Pair) -> tuple[tuple[int, str], ...]:
    """(player count, why) for every count of the game the pair is not measured at."""
    counts = player_counts(pair)
    out = []
    for n in variant_of(pair.a).player_counts:
        if n in counts:
            continue
        why = absent_reason(pair, n)
        if why is None:
            why = "a deal of this many players is refused under one of the readings"
        out.append((n, why))
    return tuple(out)


def game_level(pair: Pair) -> bool:
    """True if the two readings play every single deal alike (they differ only between deals:
    ``comet.fast.GAME_LEVEL_FIELDS``, which adds RUL-OLD-ESCALATION to ``comet.ruleset.GAME_LEVEL_FIELDS``)."""
    from comet.fast.api import GAME_LEVEL_FIELDS

    diff = pair.a.differences(pair.b)
    return bool(diff) and all(f in GAME_LEVEL_FIELDS for f in diff)


def fast_plays(pair: Pair) -> bool:
    from comet.fast.api import unsupported_reason

    return unsupported_reason(pair.a) is None and unsupported_reason(pair.b) is None


def fast_pimc_plays(pair: Pair) -> bool:
    """True if the PIMC player runs on the fast engine for both rule sets (``comet.fast.pimc``)."""
    from comet.fast.pimc import pimc_unsupported

    return pimc_unsupported(pair.a) is None and pimc_unsupported(pair.b) is None


@dataclass(frozen=True, slots=True)
class Measured:
    """One pair at one player count: the paired deals per policy, the paired games per policy."""

    players: int
    deals: dict[str, Paired] = field(default_factory=dict)
    games: dict[str, GamePaired] = field(default_factory=dict)
    engine: str = "reference"
    pimc_engine: str = ""  # the engine that played ``pimc``, if measured
    #: the PIMC player's strength against ``greedy`` at this preset and player count, if measured (``--strength``):
    #: whether ``pimc`` is the headline here (``comet.diverge.impact_report.headline``)
    strength: Strength | None = None


def measure_pair(
    pair: Pair,
    players: int,
    deals: int,
    games: int,
    policies: tuple[str, ...],
    backend: str = "auto",
    chunk: int = 20_000,
    on_done: Callable[[int], None] | None = None,
    extra: tuple[tuple[str, int], ...] = (),
) -> Measured:
    """Seeds ``0..deals-1`` paired under every policy (``extra``: more policies, each with its own number
    of deals), and ``0..games-1`` as whole games for a game-level ruling (whose single deals are played
    alike, so they are not measured deal by deal).  ``backend``: ``fast``, ``reference`` or ``auto`` (fast
    where it plays both rule sets; the PIMC player on the fast engine where ``comet.fast.pimc`` plays both,
    else on the reference engine)."""
    use_fast = backend == "fast" or (backend == "auto" and fast_plays(pair))
    if use_fast and not fast_plays(pair):
        raise ValueError(f"the fast engine does not play {pair.key}")
    out_deals: dict[str, Paired] = {}
    out_games: dict[str, GamePaired] = {}
    whole = game_level(pair)
    pimc_fast = use_fast and fast_pimc_plays(pair)
    pimc_engine = ""
    for policy, n in (*((p, deals) for p in policies), *extra):
        if policy == "pimc" and not whole:
            pimc_engine = "fast" if pimc_fast else "reference"
        if not whole:
            total = Paired()
            for lo in range(0, n, chunk):
                seeds = range(lo, min(n, lo + chunk))
                if use_fast and (policy != "pimc" or pimc_fast):
                    from comet.fast.diverge import paired_measure

                    part = paired_measure(pair, players, seeds, policy)
                else:
                    part = reference_paired(pair, players, seeds, policy)
                total = total.merge(part)
                if on_done is not None:
                    on_done(len(seeds))
            out_deals[policy] = total
        if games and whole and policy != "pimc":
            g = GamePaired()
            for lo in range(0, games, 50):
                seeds = range(lo, min(games, lo + 50))
                g = g.merge(reference_games(pair, players, seeds, policy))
                if on_done is not None:
                    on_done(len(seeds))
            out_games[policy] = g
    return Measured(players, out_deals, out_games, "fast" if use_fast else "reference", pimc_engine)


@dataclass(frozen=True, slots=True)
class Job:
    """The pairs of one preset at one player count, measured in one process (so the default side, shared
    by every pair of the preset, is played once per chunk of seeds)."""

    pairs: tuple[tuple[int, Pair], ...]
    players: int
    deals: tuple[int, ...]  # per pair
    games: tuple[int, ...]  # per pair
    policies: tuple[str, ...]
    backend: str
    extra: tuple[tuple[tuple[str, int], ...], ...]  # per pair


def run_job(job: Job) -> list[tuple[int, Measured]]:
    out = []
    for (i, pair), deals, games, extra in zip(job.pairs, job.deals, job.games, job.extra, strict=True):
        out.append((i, measure_pair(pair, job.players, deals, games, job.policies, job.backend, extra=extra)))
    return out


#: relative cost of one paired deal (or game) by how it is played, for the progress bar's estimate of the
#: time left (measured on this machine, README "The divergence report at scale"; only the ETA uses them)
COST_FAST = 1  # about 0.027 ms of CPU per pair and paired deal
COST_REFERENCE = 150
COST_GAME = 1_200  # the mean over the game-level pairs (8 to 190 ms per paired game)
COST_PIMC = 65_000
COST_PIMC_FAST = 140  # at ``pimc.SAMPLES`` deals per choice; scaled by the game's own count (``samples_for``)


def engine_of(job: Job) -> str:
    """The engine that plays a job's plain policies: ``fast`` or ``reference`` (``auto`` resolved)."""
    fast = job.backend == "fast" or (job.backend == "auto" and all(fast_plays(p) for _, p in job.pairs))
    return "fast" if fast else "reference"


def job_cost(job: Job) -> int:
    """A job's expected time in units of one fast-engine paired deal (see ``COST_*``)."""
    total = 0
    for (_, pair), deals, games, extra in zip(job.pairs, job.deals, job.games, job.extra, strict=True):
        fast = job.backend == "fast" or (job.backend == "auto" and fast_plays(pair))
        per = COST_FAST if fast else COST_REFERENCE
        # whole games are played by every policy but pimc, the extra ones too
        players_of_games = len(job.policies) + sum(1 for p, _ in extra if p != "pimc")
        total += deals * len(job.policies) * per + games * players_of_games * COST_GAME
        pimc = COST_PIMC_FAST * samples_for(pair.a) // SAMPLES if fast and fast_pimc_plays(pair) else COST_PIMC
        total += sum(n * (pimc if p == "pimc" else per) for p, n in extra)
    return total


def job_work(job: Job) -> int:
    """Deals and games a job plays (for a progress bar)."""
    return sum(
        d * len(job.policies) + g * len(job.policies) + sum(n for _, n in e)
        for d, g, e in zip(job.deals, job.games, job.extra, strict=True)
    )
