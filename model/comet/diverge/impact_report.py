"""The impact sections of the divergence report: per player count, a table with one column per player
(policy), every figure with its paired 95 % interval, one verdict line per player, and a plot with one
panel per player (``plot_measured``).  The headline is the most competent player measured: ``pimc`` where
it is measurably stronger than ``greedy`` at that player count (``headline``), else ``random``, the only
other player that takes every kind of option, with the reason stated."""

from __future__ import annotations

import io
from pathlib import Path

from comet.diverge.effect import effect, position_name
from comet.diverge.glossary import EXACT
from comet.diverge.measure import DEALT, GamePaired, Paired
from comet.diverge.pairs import Pair, value_text
from comet.diverge.stats import mean_estimate, share_text
from comet.diverge.study import Measured
from comet.diverge.verdicts import (
    DESIGN_ZEROS,
    Answer,
    ExactEffect,
    Scale,
    answer,
    arose,
    game_answer,
    payment_only,
    swing_where_arises,
    z_of,
)

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


def deal_table(deals: dict[str, Paired], unit: str, together: int = 1, lower_wins: bool = False) -> list[str]:
    """Every player's figures, each with the one interval of its answer (simultaneous 95 %,
    ``verdicts.z_of``); the swing's interval never below zero; a penalty-points game says so."""
    pols = list(deals)
    noun = "penalty points" if lower_wins else unit
    lines = ["| figure (B − A, paired) | " + " | ".join(pols) + " |", "|---|" + "---|" * len(pols)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    zs = {p: z_of(t, together) for p, t in deals.items()}
    effs = {p: effect(t, zs[p]) for p, t in deals.items()}
    dealt = any(t.classes[DEALT] for t in deals.values())
    row("paired deals", [f"{t.deals:,}" for t in deals.values()])
    if dealt:
        row("deals", ["other cards are dealt under B, so deals are not compared one by one" for _ in pols])
    else:
        row("deals where the case arises", [share_text(arose(t), t.deals) for t in deals.values()])
        row("deals whose result or winner change", [share_text(t.changed, t.deals) for t in deals.values()])
        row(
            f"swing where it arises ({noun} that end up with another seat)",
            [
                (lambda e: f"{e.value:.3f} ({e.low:.3f} to {e.high:.3f}); largest {t.transfer_max}")(
                    swing_where_arises(t, zs[p])
                )
                if arose(t)
                else "-"
                for p, t in deals.items()
            ],
        )
    players = next(iter(deals.values())).players
    for i in range(players):
        name = position_name(i, players)
        row(
            f"{name}: mean {noun} per deal, A → change",
            [f"{effs[p].chips_a[i]:+.3f} → {effs[p].chips_change[i].text(3)}" for p in pols],
        )
    for i in range(players):
        name = position_name(i, players)
        row(
            f"{name}: win rate, A → change (percentage points)",
            [f"{100 * effs[p].wins_a[i]:.2f} % → {effs[p].win_change[i].text(2, scale=100)}" for p in pols],
        )
    row(
        "deal length (actions), A → change", [f"{effs[p].length_a:.1f} → {effs[p].length_change.text(2)}" for p in pols]
    )
    row("drawn deals A / B", [f"{t.drawn_a} / {t.drawn_b}" for t in deals.values()])
    row("stuck deals A / B", [f"{t.stuck_a} / {t.stuck_b}" for t in deals.values()])
    if lower_wins:
        lines += ["", "Penalty points: a positive change is worse for the seat (the lowest total wins)."]
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
    """One player's whole-game answer in a sentence (``comet.diverge.verdicts.game_answer``, its phrase checked
    against the glossary)."""
    return game_answer(g).sentence


def scale_of(pair: Pair | None, points: bool = False) -> Scale:
    """How ``pair``'s game reads its results (chips, points, or penalty points where the lowest wins)."""
    if pair is None:
        return Scale("points" if points else "chips")
    from comet.variant import variant_of

    v = variant_of(pair.a)
    return Scale("chips" if v.scoring == "chips" else "points", v.lower_wins)


#: deals per player replayed for an exact effect (``comet.diverge.exact``), and the players whose actions
EXACT_SEEDS = 300
EXACT_POLICIES = ("random", "greedy", "hoarder")
EXACT_VERSION = 1


def exact_for(pair: Pair, players: int, out_dir: Path | None) -> ExactEffect | None:
    """The exact effect of payment-only ``pair`` at ``players`` (None: its play can part), saved in
    ``out_dir/results`` keyed by both rule sets, so a rewrite of the report replays nothing again."""
    from comet.diverge.exact import exact_effect
    from comet.diverge.results import load_json, rules_digest, save_json
    from comet.records.deal_record import JsonObject

    key: JsonObject = {
        "exact": EXACT_VERSION,
        "pair": pair.key,
        "players": players,
        "seeds": EXACT_SEEDS,
        "policies": list(EXACT_POLICIES),
        "rules_a": rules_digest(pair.a),
        "rules_b": rules_digest(pair.b),
    }
    name = f"exact-{pair.preset}--{pair.field}={value_text(pair.value_b)}-{players}p.json"
    path = None if out_dir is None else out_dir / "results" / name
    if path is not None:
        got = load_json(path, key)
        if got is not None:
            if got.get("none"):
                return None
            changes = got.get("changes")
            assert isinstance(changes, list)
            return ExactEffect(
                int(str(got["deals"])),
                int(str(got["arose"])),
                tuple(((int(c[0][0]), int(c[0][1])), int(c[1])) for c in changes),  # type: ignore[index,arg-type]
                players,
            )
    x = exact_effect(pair, players, range(EXACT_SEEDS), EXACT_POLICIES)
    if path is not None:
        body: JsonObject = (
            {"none": True}
            if x is None
            else {"deals": x.deals, "arose": x.arose, "changes": [[[w, o], k] for (w, o), k in x.changes]}
        )
        save_json(path, key, body)
    return x


def answers_of(m: Measured, pair: Pair | None, together: int, out_dir: Path | None) -> dict[str, Answer]:
    """Each player's answer at ``m``'s player count (``comet.diverge.verdicts.answer``): penalty points
    oriented, a placebo without a changed-deal share, a zero by design named, a payment-only ruling exact."""
    from comet.diverge.placebo import placebo_reason

    scale = scale_of(pair)
    placebo = pair is not None and placebo_reason(pair) is not None
    exact = None
    if pair is not None and pair.field and not placebo and payment_only(m.deals):
        exact = exact_for(pair, m.players, out_dir)
    out: dict[str, Answer] = {}
    for pol, t in m.deals.items():
        design = DESIGN_ZEROS.get((pair.field, value_text(pair.value_b), pol), "") if pair is not None else ""
        out[pol] = answer(t, scale, together, placebo, design, exact)
    return out


def answer_parts(a: Answer) -> list[str]:
    """The answer's parts, one line each: how often, who gains, how much where it arises, how sure."""
    parts = [("How often", a.often), ("Who gains", a.who), ("How much, where it arises", a.much), ("How sure", a.sure)]
    return [f"- {label}: {text}." for label, text in parts if text]


def player_table(m: Measured, answers: dict[str, Answer]) -> list[str]:
    """One row per player: its paired deals and its one-sentence answer."""
    lines = ["| player | paired deals | answer |", "|---|---|---|"]
    for pol, t in m.deals.items():
        a = answers[pol]
        text = f"{a.phrase}: {a.often}" if a.phrase == EXACT else a.sentence
        lines.append(f"| {pol} | {t.deals:,} | {text.replace('|', '/')} |")
    return lines


def impact_lines(
    measured: list[Measured],
    points: bool,
    out_dir: Path | None,
    plot_name: str,
    title: str,
    together: int = 1,
    unmeasured: tuple[tuple[int, str], ...] = (),
    pair: Pair | None = None,
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
        answers = answers_of(m, pair, together, out_dir)
        a = answers[head]
        lines += [f"**Impact at {m.players} players** ({n} paired deals per player, {engine}):", ""]
        who = (
            f"{head}, whose strength against greedy was not measured here"
            if head == "pimc" and m.strength is None
            else f"{head}, the headline player"
        )
        lines.append(f"- **Answer ({who}): {a.sentence}.**")
        lines += answer_parts(a)
        if together > 1:
            lines.append(
                f"- A placebo reading: every answer here is judged with the placebo check's family of {together:,} "
                "measurements, as in the placebo check (method.md)."
            )
        if why and not (head == "pimc" and m.strength is None):
            lines.append(f"- Headline: {why}.")
        elif head == "pimc" and m.strength is not None:
            lines.append(f"- Headline: pimc is measurably stronger than greedy here: {strength_text(m)}.")
        for p, g in m.games.items():
            lines.append(f"- whole games ({p}): {game_verdict(g)}.")
        lines += ["", *player_table(m, answers), ""]
        lines += ["", *deal_table(m.deals, unit, together, scale_of(pair).lower_wins), ""]
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
