"""`--grad-flow-svg PATH`: gradient norm per layer over the backward calls, as a plain SVG line chart.

Written by hand (a few dozen lines of SVG) rather than with matplotlib: gradscope installs next
to the user's torch in any environment, and a plotting stack would be the largest dependency by
far for one chart. Log-scale y axis, one line per weight, the legend in forward order.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..trace.flow_stats import weights
from ..trace.model import GradFlow

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 760, 420, 70, 220, 30, 40
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]


def render(flow: GradFlow, title: str = "gradient norm per layer") -> str:
    lines = weights(flow) or [s for s in flow.series if s.kind == "parameter"]
    values = [n for s in lines for n in s.norms if n is not None and math.isfinite(n) and n > 0]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="11">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{LEFT}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>']
    if not values or not flow.steps:
        parts.append(f'<text x="{LEFT}" y="{HEIGHT // 2}">no gradients recorded</text></svg>')
        return "\n".join(parts) + "\n"
    low, high = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
    high = max(high, low + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = len(flow.steps)

    def x(column: int) -> float:
        return LEFT + (column / max(steps - 1, 1)) * plot_w

    def y(value: float) -> float:
        return TOP + plot_h - (math.log10(value) - low) / (high - low) * plot_h

    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>')
    for exponent in range(low, high + 1):
        yy = y(10.0 ** exponent)
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">1e{exponent}</text>')
    for column in sorted({0, steps - 1, (steps - 1) // 2}):
        parts.append(f'<text x="{x(column):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
                     f'{flow.steps[column] + 1}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle">backward call</text>')
    for number, series in enumerate(lines):
        colour = COLOURS[number % len(COLOURS)]
        segment, segments = [], []
        for column, norm in enumerate(series.norms):
            if norm is None or not math.isfinite(norm) or norm <= 0:
                if segment:
                    segments.append(segment)
                segment = []
                continue
            segment.append(f"{x(column):.1f},{y(norm):.1f}")
        if segment:
            segments.append(segment)
        for points in segments:
            if len(points) == 1:
                cx, cy = points[0].split(",")
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="{colour}"/>')
            else:
                parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{" ".join(points)}"/>')
        ly = TOP + 14 * number + 8
        parts.append(f'<line x1="{WIDTH - RIGHT + 12}" x2="{WIDTH - RIGHT + 30}" y1="{ly}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 36}" y="{ly + 4}">{escape(series.name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
