"""An exploitability curve as a small, dependency-free SVG (``python -m comet.frameworks.solve --curve FILE``).

Both axes are logarithmic (CFR's exploitability falls about as 1/T, a straight line there); one line per
algorithm, a dot at each measured iteration.  The file holds no date or timing, so the same run writes the
same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

#: One line colour per curve, in order (distinguishable in grey too: dark, then light).
COLOURS = ("#1f4e79", "#d9822b", "#2e7d32", "#8e24aa")
WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 50
#: The least exploitability drawn (a curve that reaches 0 is drawn at this floor).
FLOOR = 1e-6


def _decades(low: float, high: float) -> tuple[int, int]:
    return math.floor(math.log10(low)), max(math.ceil(math.log10(high)), math.floor(math.log10(low)) + 1)


def _number(x: float) -> str:
    return f"{x:g}" if 1e-3 <= x < 1e5 else f"1e{round(math.log10(x))}"


def curve_svg(curves: Sequence[tuple[str, Sequence[tuple[int, float]]]], title: str) -> str:
    """The SVG text of ``curves``: (label, [(iteration, exploitability), ...]) each, on log-log axes."""
    if not curves or not all(points for _, points in curves):
        raise ValueError("nothing to plot: every curve needs at least one point")
    xs = [i for _, points in curves for i, _ in points]
    ys = [max(e, FLOOR) for _, points in curves for _, e in points]
    if min(xs) < 1:
        raise ValueError(f"iterations start at 1, not {min(xs)}")
    x0, x1 = 0, max(math.ceil(math.log10(max(xs))), 1)
    y0, y1 = _decades(min(ys), max(ys))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(i: float) -> float:
        return LEFT + (math.log10(i) - x0) / (x1 - x0) * plot_w

    def py(e: float) -> float:
        return TOP + (y1 - math.log10(max(e, FLOOR))) / (y1 - y0) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2:.1f}" y="22" text-anchor="middle" font-size="14">{escape(title)}</text>',
    ]
    for k in range(x0, x1 + 1):
        x = px(10**k)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{_number(10.0**k)}</text>')
    for k in range(y0, y1 + 1):
        y = py(10.0**k)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_number(10.0**k)}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 12}" text-anchor="middle">iterations</text>')
    out.append(
        f'<text x="16" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 16 {TOP + plot_h / 2:.1f})">exploitability</text>'
    )
    for n, (label, points) in enumerate(curves):
        colour = COLOURS[n % len(COLOURS)]
        coords = " ".join(f"{px(i):.1f},{py(e):.1f}" for i, e in points)
        out.append(
            f'<polyline class="curve" data-label="{escape(label)}" points="{coords}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        out += [f'<circle cx="{px(i):.1f}" cy="{py(e):.1f}" r="3" fill="{colour}"/>' for i, e in points]
        ly = TOP + 16 + 18 * n
        out.append(
            f'<line x1="{LEFT + plot_w - 150}" y1="{ly - 4}" x2="{LEFT + plot_w - 126}" y2="{ly - 4}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        out.append(f'<text x="{LEFT + plot_w - 120}" y="{ly}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
