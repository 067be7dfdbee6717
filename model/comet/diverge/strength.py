"""How strong the competent player is: PIMC (``comet.diverge.pimc``, or ``comet.fast.pimc`` where the fast engine
plays the preset) in one seat against a policy in the others, paired with the same deals played by that policy
alone, and the report's section on it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from comet.diverge.pimc import GAME_SAMPLES, SAMPLES, Pimc, samples_for, value
from comet.diverge.policies import make_policy
from comet.diverge.stats import mean_estimate, share_text
from comet.engine import apply, legal_actions, shuffled_deal
from comet.presets import preset
from comet.variant import variant_of


@dataclass(frozen=True, slots=True)
class Strength:
    """PIMC in one seat against ``opponent`` in the others, over ``deals`` seeded deals, paired with the same
    deals played by ``opponent`` in every seat (the baseline: the seat's share of wins without PIMC)."""

    opponent: str
    players: int
    deals: int
    wins: int  # deals the PIMC seat won
    baseline: int  # deals the same seat won when the opponent's policy played it
    diff: int  # sum over deals of (PIMC won) - (baseline won)
    diff2: int
    chips: int  # chips (points; penalty points negated where the lowest total wins) of the PIMC seat, summed
    chips2: int
    preset: str = "standard"


def strength_engine(rules_name: str) -> str:
    """``fast`` if ``comet.fast.pimc`` plays the preset's game, else ``reference``."""
    from comet.fast.pimc import pimc_unsupported

    return "fast" if pimc_unsupported(preset(rules_name).rules) is None else "reference"


def strength(
    rules_name: str, players: int, deals: int, opponent: str, samples: int | None = None, engine: str = "auto"
) -> Strength:
    """PIMC's seat moves round the table: in deal ``seed`` it is seat ``(seed // players) % players`` and the
    dealer is ``seed % players``, so over ``players ** 2`` deals it sits in every position equally.
    ``samples``: the player's worlds per choice (None: its game's, ``samples_for``).  ``engine``: ``fast``,
    ``reference`` or ``auto`` (``strength_engine``); the same figures on either."""

    rules = preset(rules_name).rules
    if samples is None:
        samples = samples_for(rules)
    if engine == "auto":
        engine = strength_engine(rules_name)
    if engine == "fast":
        return fast_strength(rules_name, players, deals, opponent, samples)
    wins = base = diff = diff2 = chips = chips2 = 0
    for seed in range(deals):
        seat = (seed // players) % players
        won = []
        for me in (Pimc(seed, samples), make_policy(opponent, seed)):
            other = make_policy(opponent, seed)
            s = shuffled_deal(rules, players, seed % players, seed)
            while not s.terminal:
                legal = legal_actions(s)
                s = apply(s, (me if s.to_move == seat else other)(s, legal))
            won.append(int(s.winner == seat))
            if len(won) == 1:
                v = value(s, seat)
                chips += v
                chips2 += v * v
        wins += won[0]
        base += won[1]
        diff += won[0] - won[1]
        diff2 += (won[0] - won[1]) ** 2
    return Strength(opponent, players, deals, wins, base, diff, diff2, chips, chips2, rules_name)


def fast_strength(rules_name: str, players: int, deals: int, opponent: str, samples: int | None = None) -> Strength:
    """``strength`` played by ``comet.fast.pimc`` (the PIMC seat) and ``comet.fast.api`` (the baseline)."""
    import numpy as np

    from comet.fast.api import play_deals
    from comet.fast.diverge import policy_named
    from comet.fast.pimc import play_pimc

    rules = preset(rules_name).rules
    if samples is None:
        samples = samples_for(rules)
    seeds = np.arange(deals, dtype=np.int64)
    seats = (seeds // players) % players
    out = play_pimc(rules, players, seeds, samples=samples, pimc_seats=seats, opponent=opponent)
    base = play_deals(rules, players, seeds, policy_named(opponent))
    won = (out.winner == seats).astype(np.int64)
    baseline = (base.winner == seats).astype(np.int64)
    game = variant_of(rules)
    scores = out.points if game.scoring == "points" else out.chips
    v = scores[np.arange(deals), seats] * (-1 if game.scoring == "points" and game.lower_wins else 1)
    d = won - baseline
    return Strength(
        opponent,
        players,
        deals,
        int(won.sum()),
        int(baseline.sum()),
        int(d.sum()),
        int((d * d).sum()),
        int(v.sum()),
        int((v * v).sum()),
        rules_name,
    )


def strength_lines(results: Sequence[Strength], samples: int = SAMPLES, engines: Sequence[str] = ()) -> list[str]:
    """The report's section on the competent player: one row per preset and opponent (``engines``: the engine
    that played each preset's rows, in their order; default the one ``strength_engine`` picks)."""

    presets = list(dict.fromkeys(r.preset for r in results))
    used = list(engines) or [strength_engine(p) for p in presets]
    engine = used[0] if len(set(used)) == 1 else "fast or reference"
    games = {preset(p).rules.variant for p in presets}
    own = [f"{GAME_SAMPLES[g]} in {g}" for g in sorted(games) if g in GAME_SAMPLES]
    lines = [
        "## The competent player",
        "",
        f"`pimc` (`comet.diverge.pimc`): determinized Monte Carlo with {samples} sampled deals per choice"
        + (f" ({', '.join(own)}, whose choices are few and close: `comet.diverge.pimc.GAME_SAMPLES`)" if own else "")
        + f" and greedy roll-outs, played here by the {engine} engine"
        + (" (`comet.fast.pimc`, the same choices as the reference player)" if engine == "fast" else "")
        + "; it sees only its own hand, the cards played and the hand sizes. Its strength in "
        + ", ".join(f"`{p}`" for p in presets)
        + " (at each game's usual player count and at every other count where it is measured): PIMC in one seat (moving round the table deal by deal), the "
        "opponent's policy in the others; the baseline is the same seat on the same deals played by the "
        "opponent's policy. Parity is a win rate of 1 / players (a deal is won by going out first). The mean "
        "result is in chips, or points in a points game (penalty points negated where the lowest total wins: "
        "Red Nines). The `greedy` rows decide the headline: at a preset and player count whose paired gain over "
        "greedy has its 95 % interval above zero, PIMC is the headline player of every ruling measured there; "
        "elsewhere `random` is, and the ruling's row says why.",
        "",
        "| preset | opponents | players | deals | PIMC seat's win rate (95 %) | baseline seat | PIMC − baseline "
        "(paired) | PIMC seat's mean result per deal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        d = mean_estimate(r.deals, r.diff, r.diff2)
        c = mean_estimate(r.deals, r.chips, r.chips2)
        lines.append(
            f"| {r.preset} | {r.opponent} | {r.players} | {r.deals:,} | {share_text(r.wins, r.deals)} | "
            f"{share_text(r.baseline, r.deals)} | {d.text(2, scale=100)} points | {c.text(2)} |"
        )
    return [*lines, ""]
