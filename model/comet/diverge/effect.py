"""What a paired measurement says: every figure with its paired 95 % interval, and one verdict line.

``effect(paired)`` turns the integer sums of ``comet.diverge.measure.Paired`` into estimates
(``comet.diverge.stats``): per position the change in mean chips (points) per deal and in the win rate
(B minus A, paired deal by deal), the chips that end up with another seat per deal, the change in deal
length.  ``verdict(paired)`` answers *does it matter, to whom, how much* from the same figures, judged
with simultaneous intervals (Bonferroni over the figures it looks at), so a reading without effect is
called "no measurable effect" 95 % of the time however many seats are looked at.  Over many verdicts, one
in twenty of the readings without effect is therefore called one that matters by chance; the placebo
check, which must find no effect at all, judges its verdicts as one family (``together``).

When the cards dealt differ between the readings (class ``DEALT``: the reading is about the deal itself),
the deal-by-deal transfer compares two different deals and is left out of the verdict; only the signed
means per seat speak for the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from comet.diverge.measure import DEALT, OPTIONS, PAY, PLAY, SAME, Paired
from comet.diverge.stats import Z95, Estimate, bonferroni_z, mean_estimate, percent, share_text, zero_bound


def position_name(i: int, players: int) -> str:
    """``dealer`` for the last position, else ``1st``, ``2nd``... from the dealer's left."""
    if i == players - 1:
        return "dealer"
    return f"{i + 1}{'st' if i == 0 else 'nd' if i == 1 else 'rd' if i == 2 else 'th'}"


@dataclass(frozen=True, slots=True)
class Effect:
    deals: int
    players: int
    chips_change: tuple[Estimate, ...]  # per position: mean chips under B minus under A, per deal
    win_change: tuple[Estimate, ...]  # per position: win rate under B minus under A
    transfer: Estimate  # chips that end up with another seat, per deal
    length_change: Estimate  # actions per deal, B minus A
    chips_a: tuple[float, ...]  # per position: mean chips under A
    wins_a: tuple[float, ...]  # per position: win rate under A
    length_a: float


def effect(p: Paired, z: float = Z95) -> Effect:
    n = p.deals
    k = p.players
    return Effect(
        n,
        k,
        tuple(mean_estimate(n, p.chips_d[i], p.chips_d2[i], z) for i in range(k)),
        tuple(mean_estimate(n, p.wins_d[i], p.wins_d2[i], z) for i in range(k)),
        mean_estimate(n, p.transfer, p.transfer2, z),
        mean_estimate(n, p.length_d, p.length_d2, z),
        tuple(p.chips_a[i] / n for i in range(k)) if n else (),
        tuple(p.wins_a[i] / n for i in range(k)) if n else (),
        p.length_a / n if n else 0.0,
    )


def family_size(p: Paired) -> int:
    """How many figures the verdict looks at: chips and win rate per position, length, and the transfer
    unless the cards dealt differ."""
    return 2 * p.players + 1 + (0 if p.classes[DEALT] else 1)


def arises_text(p: Paired) -> str:
    """How often the situation arises and the option is taken, per 100 deals."""
    n = p.deals
    c = p.classes
    if c[DEALT]:
        return f"the cards dealt differ in {share_text(c[DEALT], n, 'deals')}"
    arose = c[PAY] + c[OPTIONS] + c[PLAY]
    parts = [f"arises in {share_text(arose, n, 'deals')}"]
    if c[OPTIONS] + c[PLAY]:
        parts.append(f"an option only one reading offers is taken (play parts) in {share_text(c[PLAY], n)}")
    if c[PAY]:
        parts.append(f"the same play is paid differently in {share_text(c[PAY], n)}")
    return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class Verdict:
    matters: bool
    text: str


def verdict(p: Paired, unit: str = "chips", together: int = 1) -> Verdict:
    """Does it matter, to whom, how much (see the module note).  ``together``: how many such verdicts are
    judged as one family (the placebo check's), so that the simultaneous level holds over all of them."""
    n = p.deals
    if n == 0:
        return Verdict(False, "not measured")
    if p.changed == 0 and p.classes[SAME] + p.classes[OPTIONS] == n:
        return Verdict(
            False,
            f"no effect: 0 of {n:,} deals change (at most {percent(zero_bound(n))} of deals would)",
        )
    zb = bonferroni_z(family_size(p) * together)
    e = effect(p, zb)
    names = [position_name(i, p.players) for i in range(p.players)]
    seats = [f"{names[i]} {x.text(3)} {unit}/deal" for i, x in enumerate(e.chips_change) if x.excludes_zero]
    wins = [f"{names[i]} {x.text(2, 100)} points" for i, x in enumerate(e.win_change) if x.excludes_zero]
    length = e.length_change.excludes_zero
    moved = not p.classes[DEALT] and e.transfer.excludes_zero
    if not (seats or wins or length or moved):
        chip_bound = max(x.bound for x in e.chips_change)
        win_bound = max(x.bound for x in e.win_change)
        return Verdict(
            False,
            f"no measurable effect over {n:,} paired deals: every seat's mean {unit} change by at most "
            f"{chip_bound:.3f} per deal and its win rate by at most {100 * win_bound:.2f} points, deal length "
            f"by at most {e.length_change.bound:.2f} actions (simultaneous 95 % bounds)"
            + (f"; {share_text(p.changed, n, 'deals')} change" if p.changed and not p.classes[DEALT] else ""),
        )
    parts = []
    if moved:
        parts.append(
            f"{e.transfer.text(3, signed=False)} {unit} per deal end up with another seat "
            f"({share_text(p.changed, n, 'deals')} change)"
        )
    parts.append(f"to whom: {', '.join(seats)}" if seats else "no seat's mean " + unit + " change measurably")
    if wins:
        parts.append(f"win rate: {', '.join(wins)}")
    if length:
        parts.append(f"deals {e.length_change.text(2)} actions long")
    return Verdict(True, "matters: " + "; ".join(parts) + " (in brackets: simultaneous 95 % intervals)")
