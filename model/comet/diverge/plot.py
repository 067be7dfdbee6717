"""One PNG per reading pair: the distribution of the chip difference per deal, and the shift in seat
advantage (win share by position under each reading).  matplotlib with the Agg backend (no display)."""

from __future__ import annotations

import io
from pathlib import Path

from comet.diverge.impact import Tally


def plot_pair(title: str, label_a: str, label_b: str, tally: Tally, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right, third) = plt.subplots(1, 3, figsize=(14, 3.9), dpi=100)
    n = max(1, tally.deals)
    same = dict(tally.hist).get(0, 0)
    moved = [(d, c) for d, c in tally.hist if d > 0]
    if moved:
        top = max(d for d, _ in moved)
        bins = min(40, top)
        left.hist(
            [d for d, _ in moved],
            bins=bins,
            range=(0.5, top + 0.5),
            weights=[c / n for _, c in moved],
            color="#c0504d",
        )
    else:
        left.text(0.5, 0.5, "no deal changed", ha="center", va="center", transform=left.transAxes)
    left.set_title(f"chip difference per deal ({100 * same / n:.1f}% of deals unchanged)", fontsize=9)
    left.set_xlabel("chips that end up with another seat (deals with a difference)")
    left.set_ylabel("share of all deals")
    wins_a = tally.a.wins or (0,)
    wins_b = tally.b.wins or (0,)
    pos = list(range(len(wins_a)))
    names = [
        (
            "dealer"
            if i == len(pos) - 1
            else f"{i + 1}{'st' if i == 0 else 'nd' if i == 1 else 'rd' if i == 2 else 'th'}"
        )
        for i in pos
    ]
    right.bar([p - 0.2 for p in pos], [w / n for w in wins_a], width=0.4, label=f"A: {label_a}", color="#4f81bd")
    right.bar([p + 0.2 for p in pos], [w / n for w in wins_b], width=0.4, label=f"B: {label_b}", color="#f79646")
    right.set_xticks(pos, names)
    right.set_title("seat advantage: share of deals won by position", fontsize=9)
    right.set_xlabel("position (from the dealer's left; the dealer last)")
    right.legend(fontsize=8, loc="lower right")
    chips_a = tally.a.chips or (0,) * len(pos)
    chips_b = tally.b.chips or (0,) * len(pos)
    third.bar([p - 0.2 for p in pos], [c / n for c in chips_a], width=0.4, label="A", color="#4f81bd")
    third.bar([p + 0.2 for p in pos], [c / n for c in chips_b], width=0.4, label="B", color="#f79646")
    third.axhline(0, color="black", linewidth=0.6)
    third.set_xticks(pos, names)
    third.set_title("mean chips (points) per deal by position", fontsize=9)
    third.set_xlabel("position (from the dealer's left; the dealer last)")
    third.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72, metadata={"Software": None})
    plt.close(fig)
    # a 64-colour palette keeps the file small (the plots are flat colours and text)
    from PIL import Image

    with Image.open(io.BytesIO(buf.getvalue())) as img:
        img.convert("RGB").quantize(colors=64).save(out, format="PNG", optimize=True)
