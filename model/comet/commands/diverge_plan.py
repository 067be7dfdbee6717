"""What ``comet diverge`` measures where: the player counts of a pair, where whole games and the PIMC player
are played, the PIMC player's strength (saved with the results) and which reports it heads."""

from __future__ import annotations

from pathlib import Path

from comet.diverge.pairs import Pair
from comet.diverge.report import PairReport
from comet.diverge.strength import Strength
from comet.diverge.study import Job, player_counts
from comet.presets import PRESETS, preset


def pimc_deals_at(usual: int, other: int | None, at_usual: bool) -> int:
    """The PIMC player's paired deals for a unit: ``usual`` (``--pimc-deals``) at the player count whole games
    are played at (``games_at``: the game's usual count where the ruling is measured there), ``other``
    (``--pimc-deals-other``; None: a quarter of ``usual``) at every other count; none without ``usual``."""
    if not usual:
        return 0
    if at_usual:
        return usual
    return usual // 4 if other is None else other


def fast_pimc_presets() -> list[str]:
    """The presets whose game the PIMC player plays on the fast engine (``comet.fast.pimc``)."""
    from comet.fast.pimc import pimc_unsupported

    return [name for name, p in PRESETS.items() if pimc_unsupported(p.rules) is None]


def with_strength(reports: list[PairReport], strengths: list[Strength]) -> list[PairReport]:
    """The reports with each player count's PIMC figures given the PIMC player's strength against greedy at
    that preset and count (which decides whether it is the headline there, ``impact_report.headline``)."""
    import dataclasses

    greedy = {(s.preset, s.players): s for s in strengths if s.opponent == "greedy"}
    return [
        dataclasses.replace(
            r,
            impact=[
                dataclasses.replace(m, strength=greedy.get((r.pair.preset, m.players))) if "pimc" in m.deals else m
                for m in r.impact
            ],
        )
        for r in reports
    ]


def strength_counts(name: str, jobs: list[Job]) -> list[int]:
    """The player counts the PIMC player's strength is measured at in preset ``name``: its game's usual count
    and every count where a job of the run measures ``pimc`` (so every headline figure has its strength)."""
    from comet.variant import variant_of

    counts = {variant_of(preset(name).rules).default_players}
    for job in jobs:
        for (_, pair), extra in zip(job.pairs, job.extra, strict=True):
            if pair.preset == name and any(p == "pimc" and k > 0 for p, k in extra):
                counts.add(job.players)
    return sorted(counts)


def saved_strength(out_dir: Path | None, name: str, deals: int, opponent: str, players: int | None = None) -> Strength:
    """The PIMC player's strength against ``opponent`` in preset ``name`` at ``players`` (default: its game's
    usual player count), read from ``DIR/results`` if it was measured with the same parameters, else measured
    (and saved)."""
    import dataclasses

    from comet.diverge.pimc import samples_for
    from comet.diverge.results import FORMAT, load_json, rules_digest, save_json
    from comet.diverge.strength import Strength, strength, strength_engine
    from comet.records.deal_record import JsonObject
    from comet.variant import variant_of

    if players is None:
        players = variant_of(preset(name).rules).default_players
    key: JsonObject = {
        "format": FORMAT,
        "engine": strength_engine(name),
        "strength": name,
        "players": players,
        "deals": deals,
        "opponent": opponent,
        "samples": samples_for(preset(name).rules),
        "rules": rules_digest(preset(name).rules),
    }
    path = None if out_dir is None else out_dir / "results" / f"strength-{name}-{players}p-{opponent}.json"
    if path is not None:
        got = load_json(path, key)
        if got is not None:
            try:
                return Strength(**got)  # type: ignore[arg-type]
            except TypeError:
                pass
    r = strength(name, players, deals, opponent)
    if path is not None:
        save_json(path, key, dict(dataclasses.asdict(r)))
    return r


def counts_of(pair: Pair, players: int | None) -> tuple[int, ...]:
    """The player counts a pair is measured at: ``--players`` if given (checked), else where it applies."""
    from comet.variant import variant_of

    if players is None:
        return player_counts(pair)
    allowed = variant_of(pair.a).player_counts
    if players not in allowed:
        raise ValueError(f"{pair.preset} is played by {', '.join(map(str, allowed))} players, not {players}")
    return (players,)


def games_at(pair: Pair, counts: tuple[int, ...]) -> int:
    """The player count whole games are played at: the game's usual count if measured, else the first."""
    from comet.variant import variant_of

    usual = variant_of(pair.a).default_players
    return usual if usual in counts else counts[0]
