"""The `--grad-flow` table: one row per watched tensor, its gradient norm over the steps as a
sparkline (log scale, shared by all rows so rows compare), its range, and flags."""

from __future__ import annotations

import math
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..trace import flow_stats
from ..trace.model import GradFlow

BARS = "▁▂▃▄▅▆▇█"
MAX_COLUMNS = 40  # sparkline width: longer runs are shown as the median of equal chunks
_FLAG_STYLE = {"vanishing": "bold blue", "exploding": "bold red", "dead": "bold magenta", "nan/inf": "bold red"}


def sparkline(values: list[float | None], low: float, high: float) -> str:
    """Log-scale bars between `low` and `high`; ' ' where there is no value, '!' for NaN/inf."""
    chunks = _chunks(values, MAX_COLUMNS)
    span = max(math.log10(high) - math.log10(low), 1e-12) if low > 0 and high > 0 else 1.0
    out = []
    for chunk in chunks:
        present = [v for v in chunk if v is not None]
        if not present:
            out.append(" ")
        elif any(not math.isfinite(v) for v in present):
            out.append("!")
        else:
            value = sorted(present)[len(present) // 2]
            level = 0 if value <= 0 else (math.log10(value) - math.log10(low)) / span
            out.append(BARS[min(len(BARS) - 1, max(0, int(level * (len(BARS) - 1) + 0.5)))])
    return "".join(out)


def _chunks(values: list, width: int) -> list[list]:
    if len(values) <= width:
        return [[v] for v in values]
    size = len(values) / width
    return [values[int(i * size):int((i + 1) * size)] for i in range(width)]


def rows(flow: GradFlow, marks: dict) -> list:
    """One row per layer (its weight), plus every other tensor that has a flag (a dead ReLU)."""
    layers = set(id(s) for s in flow_stats.weights(flow))
    return [s for s in flow.series if any(n is not None for n in s.norms)
            and (id(s) in layers or s.name in marks)]


def render(flow: GradFlow, stream: TextIO, width: int | None = None) -> None:
    finite = [n for s in flow.series for n in s.norms if n is not None and math.isfinite(n) and n > 0]
    if not finite:
        return
    low, high = min(finite), max(finite)
    marks = flow_stats.flags(flow)
    table = Table(title=f"gradient flow: gradient norm per layer over {len(flow.steps)} backward calls"
                        + (f" (every {flow.stride})" if flow.stride > 1 else "") + f", log scale {low:.0e}..{high:.0e}",
                  title_justify="left", show_edge=False, pad_edge=False)
    for header, justify in [("layer", "left"), ("norm per step", "left"), ("min..max", "right"),
                            ("last", "right"), ("zeros", "right"), ("flags", "left")]:
        table.add_column(header, justify=justify, no_wrap=header != "layer")
    for series in rows(flow, marks):
        present = [n for n in series.norms if n is not None]
        shown = [n for n in present if math.isfinite(n)] or [math.nan]
        zeros = [z for z in series.zero_fraction if z is not None]
        name = series.name if series.kind == "parameter" else f"{series.name} ({series.module_type} output)"
        flags = Text(" ".join(marks.get(series.name, [])))
        for flag, style in _FLAG_STYLE.items():
            flags.highlight_words([flag], style)
        table.add_row(name, sparkline(series.norms, low, high), f"{min(shown):.0e}..{max(shown):.0e}",
                      f"{present[-1]:.1e}", f"{zeros[-1]:.0%}" if zeros else "-", flags)
    Console(file=stream, width=width, highlight=False).print(table)
