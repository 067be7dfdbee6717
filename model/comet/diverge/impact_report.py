"""The impact sections of the divergence report: per player count, a table with one column per player
(policy), every figure with its paired 95 % interval, one verdict line per player, and a plot with one
panel per player (``plot_measured``).  The headline is the most competent player measured: ``pimc`` where
it is measurably stronger than ``greedy`` at that player count (``headline``), else ``random``, the only
other player that takes every kind of option, with the reason stated."""

from __future__ import annotations

import io
from pathlib import Path

from comet.diverge.effect import arises_text, effect, position_name, verdict
from comet.diverge.measure import DEALT, GamePaired, Paired
from comet.diverge.stats import mean_estimate, share_text
from comet.diverge.study import Measured

HEADLINE_ORDER = ("pimc", "random", "greedy", "hoarder", "simple")


def headline_policy(policies: list[str]) -> str:
    return next((p for p in HEADLINE_ORDER if p in policies), policies[0])


def competent(m: Measured) -> bool | None:
    """Whether the PIMC player is measurably stronger than ``greedy`` at ``m``'s preset and player count: its
    seat's paired win-rate gain over the greedy seat on the same deals (``comet.diverge.strength``) has a 95 %
    interval above zero.  None: its strength was not measured at this count."""
    s = m.strength
    if s is None:
        return None
    return mean_estimate(s.deals, s.diff, s.diff2).low > 0


def strength_text(m: Measured) -> str:
    """The PIMC player's paired win-rate gain over greedy at ``m``'s player count, with its interval and deals."""
    s = m.strength
    if s is None:
        return "its strength against greedy was not measured at this player count"
    gain = mean_estimate(s.deals, s.diff, s.diff2).text(2, scale=100)
    return f"its seat's win rate against greedy {gain} points over {s.deals:,} deals at {s.players} players"


def headline(m: Measured) -> tuple[str, str]:
    """The headline player of ``m`` and, where it is not ``pimc`` although ``pimc`` was measured, why: the
    competent player heads only where it is measurably stronger than greedy (``competent``; not measured:
    it heads, and the note says its strength is unknown here)."""
    pols = list(m.deals)
    if "pimc" in pols and competent(m) is False:
        rest = [p for p in pols if p != "pimc"]
        if rest:
            return headline_policy(rest), f"pimc is not measurably stronger than greedy here: {strength_text(m)}"
    head = headline_policy(pols)
    if head == "pimc" and m.strength is None:
        return head, strength_text(m)
    return head, ""


def unit_of(points: bool) -> str:
    return "points" if points else "chips"


def deal_table(deals: dict[str, Paired], unit: str) -> list[str]:
    pols = list(deals)
    lines = ["| figure (B − A, paired) | " + " | ".join(pols) + " |", "|---|" + "---|" * len(pols)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    effs = {p: effect(t) for p, t in deals.items()}
    row("paired deals", [f"{t.deals:,}" for t in deals.values()])
    row("situation", [arises_text(t) for t in deals.values()])
    row("deals whose chips or winner change", [share_text(t.changed, t.deals) for t in deals.values()])
    row(
        f"{unit} that end up with another seat, per deal",
        [
            ("(other cards dealt) " if t.classes[DEALT] else "")
            + effs[p].transfer.text(3, signed=False)
            + f"; largest {t.transfer_max}"
            for p, t in deals.items()
        ],
    )
    players = next(iter(deals.values())).players
    for i in range(players):
        name = position_name(i, players)
        row(
            f"{name}: mean {unit} per deal, A → change",
            [f"{effs[p].chips_a[i]:+.3f} → {effs[p].chips_change[i].text(3)}" for p in pols],
        )
    for i in range(players):
        name = position_name(i, players)
        row(
            f"{name}: win rate, A → change (points)",
            [f"{100 * effs[p].wins_a[i]:.2f} % → {effs[p].win_change[i].text(2, scale=100)}" for p in pols],
        )
    row(
        "deal length (actions), A → change", [f"{effs[p].length_a:.1f} → {effs[p].length_change.text(2)}" for p in pols]
    )
    row("drawn deals A / B", [f"{t.drawn_a} / {t.drawn_b}" for t in deals.values()])
    row("stuck deals A / B", [f"{t.stuck_a} / {t.stuck_b}" for t in deals.values()])
    return lines


def game_table(games: dict[str, GamePaired]) -> list[str]:
    pols = list(games)
    lines = ["| whole games (B − A, paired) | " + " | ".join(pols) + " |", "|---|" + "---|" * len(pols)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    row("paired games (played under both)", [f"{g.games:,} ({g.played:,})" for g in games.values()])
    row("refused A / B", [f"{g.refused_a} / {g.refused_b}" for g in games.values()])
    row("games whose winners change", [share_text(g.winners_changed, g.played) for g in games.values()])
    row(
        "deals per game, A → change",
        [
            f"{g.length_a / max(1, g.played):.2f} → {mean_estimate(g.played, g.length_d, g.length_d2).text(2)}"
            for g in games.values()
        ],
    )
    row(
        "final spread (best − worst), A → change",
        [
            f"{g.spread_a / max(1, g.played):.1f} → {mean_estimate(g.played, g.spread_d, g.spread_d2).text(2)}"
            for g in games.values()
        ],
    )
    return lines


def game_verdict(g: GamePaired) -> str:
    if g.played == 0:
        return "no game played under both readings"
    w = share_text(g.winners_changed, g.played)
    dl = mean_estimate(g.played, g.length_d, g.length_d2)
    ds = mean_estimate(g.played, g.spread_d, g.spread_d2)
    if g.winners_changed == 0 and not dl.excludes_zero and not ds.excludes_zero:
        return f"no measurable effect on whole games: winners change in {w}"
    return f"winners change in {w}; deals per game {dl.text(2)}; final spread {ds.text(2)}"


def impact_lines(
    measured: list[Measured],
    points: bool,
    out_dir: Path | None,
    plot_name: str,
    title: str,
    together: int = 1,
    unmeasured: tuple[tuple[int, str], ...] = (),
) -> list[str]:
    """The impact part of one pair's section; ``together`` > 1 for a placebo reading, whose verdicts are judged
    with the placebo check's family of that many measurements (``comet.diverge.effect.verdict``)."""
    unit = unit_of(points)
    counts = ", ".join(str(m.players) for m in measured) or "none"
    lines: list[str] = [
        f"**Impact** (paired deals under A and B with coupled play, per player count where the readings can "
        f"differ: {counts}; per player, the headline player first):",
        "",
    ]
    if unmeasured:
        lines += [*(f"- Not measured at {n} players: {why}." for n, why in unmeasured), ""]
    at = [m.players for m in measured if m.games]
    idle = [m.players for m in measured if not m.deals and not m.games]
    if at and idle:
        lines += [
            f"- Whole games are played at {', '.join(map(str, at))} players only (the game's usual count, "
            f"`comet.commands.diverge_plan.games_at`): at {', '.join(map(str, idle))} players this ruling is not measured.",
            "",
        ]
    for m in measured:
        pols = list(m.deals)
        if not pols:
            if m.games:
                lines += [
                    f"**Impact at {m.players} players** (whole games, `reference` engine): the readings differ only "
                    "between deals (a deal dealt alike is played alike under both); each game is played under both "
                    "from the same first-dealer draw, and its k-th deal is shuffled from the same seed under both, so "
                    "what differs comes from the rule, not from the shuffle.",
                    "",
                    *[f"- {p}: {game_verdict(g)}." for p, g in m.games.items()],
                    "",
                    *game_table(m.games),
                    "",
                ]
            continue
        head, why = headline(m)
        sizes = sorted({t.deals for t in m.deals.values()})
        n = " or ".join(f"{x:,}" for x in sizes)
        engine = f"`{m.engine}` engine" + (
            f", `pimc` on the {m.pimc_engine or 'reference'} engine"
            if "pimc" in pols and (m.pimc_engine or "reference") != m.engine
            else ""
        )
        lines += [f"**Impact at {m.players} players** ({n} paired deals per player, {engine}):", ""]
        lines.append(f"- **Verdict ({head}, the headline player): {verdict(m.deals[head], unit, together).text}.**")
        if together > 1:
            lines.append(
                f"- A placebo reading: every verdict here is judged with the placebo check's family of {together:,} "
                "measurements, as in the report's Placebo check."
            )
        if why:
            lines.append(f"- Headline: {why}.")
        elif head == "pimc":
            lines.append(f"- Headline: pimc is measurably stronger than greedy here: {strength_text(m)}.")
        lines += [f"- {p}: {verdict(t, unit, together).text}." for p, t in m.deals.items() if p != head]
        for p, g in m.games.items():
            lines.append(f"- whole games ({p}): {game_verdict(g)}.")
        lines += ["", *deal_table(m.deals, unit), ""]
        if m.games:
            lines += [*game_table(m.games), ""]
        if out_dir is not None and any(t.changed for t in m.deals.values()):
            name = f"{plot_name}-{m.players}p.png"
            plot_if_changed(f"{title}, {m.players} players", m, unit, out_dir / name)
            lines += [f"![paired change per seat, one panel per player]({name})", ""]
    return lines


#: bump when ``plot_measured`` draws differently, so every plot is drawn again
PLOT_VERSION = 1


def plot_if_changed(title: str, m: Measured, unit: str, out: Path) -> None:
    """``plot_measured``, unless ``out`` exists and was drawn from the same figures and title (a digest per
    plot in ``results/plots/digests.json`` beside it): a rerun that measured nothing new draws nothing again (a
    plot takes about 1.5 s, the report about 420)."""
    import hashlib
    import json

    digest = hashlib.sha256(repr((PLOT_VERSION, title, unit, m.players, m.deals)).encode()).hexdigest()[:20]
    index = out.parent / "results" / "plots" / "digests.json"
    try:
        known = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    if out.exists() and known.get(out.name) == digest:
        return
    plot_measured(title, m, unit, out)
    known[out.name] = digest
    index.parent.mkdir(parents=True, exist_ok=True)
    tmp = index.with_name("digests.json.tmp")
    tmp.write_text(json.dumps(known, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(index)


def plot_measured(title: str, m: Measured, unit: str, out: Path) -> None:
    """One column per player (policy): the change in mean chips per seat and in win rate per seat, each
    with its 95 % interval, the number of paired deals in the panel's title."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pols = list(m.deals)
    fig, axes = plt.subplots(2, len(pols), figsize=(3.6 * len(pols) + 0.6, 5.6), dpi=100, squeeze=False)
    for j, p in enumerate(pols):
        t = m.deals[p]
        e = effect(t)
        names = [position_name(i, t.players) for i in range(t.players)]
        xs = list(range(t.players))
        for row, (ests, scale, label) in enumerate(
            (
                (e.chips_change, 1.0, f"change in mean {unit} per deal"),
                (e.win_change, 100.0, "change in win rate (points)"),
            )
        ):
            ax = axes[row][j]
            vals = [x.value * scale for x in ests]
            errs = [x.half * scale if x.half == x.half and x.half != float("inf") else 0 for x in ests]
            ax.bar(xs, vals, yerr=errs, capsize=3, color="#4f81bd" if row == 0 else "#f79646")
            ax.axhline(0, color="black", linewidth=0.6)
            ax.set_xticks(xs, names, fontsize=8)
            ax.set_ylabel(label, fontsize=8)
            if row == 0:
                ax.set_title(f"{p}: {t.deals:,} paired deals", fontsize=9)
    fig.suptitle(title + " (B − A; bars: 95 % intervals)", fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72, metadata={"Software": None})
    plt.close(fig)
    from PIL import Image

    with Image.open(io.BytesIO(buf.getvalue())) as img:
        img.convert("RGB").quantize(colors=64).save(out, format="PNG", optimize=True)
