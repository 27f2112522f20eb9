"""Gradient-flow statistics shared by the grad-flow rules and the flow renderers: which layers
are compared, and which series vanish, explode, die or go non-finite.

Thresholds (defaults below, each can be set with `--grad-flow-threshold NAME=VALUE`):
  vanishing-ratio   a layer's weight-gradient RMS below this fraction of the largest layer's
  vanishing-drop    a layer's RMS that fell below this fraction of its own first steps, beyond
                    what the layer nearest the loss fell (so convergence alone never counts)
  exploding-norm    any gradient norm above this
  exploding-growth  a gradient norm that grew by this factor from its first steps
  dead-fraction     a ReLU whose units are zero for every sample of the batch, at least this
                    fraction of them (median over the steps)
Statistics are medians over a few steps, so one noisy batch does not decide.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from .model import FlowSeries, GradFlow

THRESHOLDS = {
    "vanishing-ratio": 1e-3,
    "vanishing-drop": 1e-3,
    "exploding-norm": 1e3,
    "exploding-growth": 1e2,
    "dead-fraction": 0.5,
}
WINDOW = 3  # steps whose median stands for "the first steps" and "the last steps"


def parse_thresholds(pairs: list[str]) -> dict:
    """NAME=VALUE strings (from the command line) as thresholds; ValueError says what is wrong."""
    chosen = {}
    for pair in pairs:
        name, _, value = (part.strip() for part in pair.partition("="))
        if name not in THRESHOLDS:
            raise ValueError(f"unknown threshold '{name}' (known: {', '.join(THRESHOLDS)})")
        try:
            chosen[name] = float(value)
        except ValueError:
            raise ValueError(f"'{pair}' is not NAME=NUMBER") from None
    return chosen


def limits_of(flow: GradFlow, extra: dict | None = None) -> dict:
    """The thresholds in force: the defaults, those the run was recorded with, then `extra`."""
    return {**THRESHOLDS, **flow.thresholds, **(extra or {})}


def weights(flow: GradFlow) -> list[FlowSeries]:
    """Weight (not bias) gradients in forward order: the layers compared with each other."""
    return [s for s in flow.series if s.kind == "parameter" and not s.name.endswith("bias")
            and any(n is not None for n in s.norms)]


def rms(series: FlowSeries, values: list[float | None]) -> list[float]:
    return [v / math.sqrt(max(series.numel, 1)) for v in values if v is not None and math.isfinite(v)]


def typical(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass
class Vanishing:
    layers: list[FlowSeries]  # every weight compared, in forward order
    low: list[FlowSeries]  # those whose gradients vanished
    recent: dict[str, float | None]  # per layer, the typical gradient RMS of the last steps
    largest: float  # the largest of `recent`
    by_drop: bool  # False: low against the largest layer; True: fell against their own first steps


def vanishing(flow: GradFlow, limits: dict) -> Vanishing | None:
    layers = weights(flow)
    if len(layers) < 2:
        return None
    recent = {s.name: typical(rms(s, s.norms)[-WINDOW:]) for s in layers}
    largest = max((v for v in recent.values() if v), default=None)
    if not largest:
        return None
    # Exactly zero is not vanishing: nothing reached the layer at all (dead units, a cut): other rules.
    low = [s for s in layers if recent[s.name] and recent[s.name] < limits["vanishing-ratio"] * largest]
    by_drop = False
    if not low and len(flow.steps) >= 2 * WINDOW:
        out_drop = _drop(layers[-1])  # the layer nearest the loss
        low = [s for s in layers[:-1] if out_drop and _drop(s) is not None
               and _drop(s) < limits["vanishing-drop"] * out_drop]
        by_drop = True
    return Vanishing(layers, low, recent, largest, by_drop) if low else None


def _drop(series: FlowSeries) -> float | None:
    values = rms(series, series.norms)
    first, last = typical(values[:WINDOW]), typical(values[-WINDOW:])
    return last / first if first and last is not None else None


def exploding(flow: GradFlow, limits: dict) -> list[tuple[FlowSeries, int, float, float | None]]:
    """Parameters whose gradient norm went out of bounds, the earliest step first: (series,
    column, norm, growth), growth being the factor over its first steps, or None when the norm
    is above the absolute bound."""
    hits = []
    for series in flow.series:
        if series.kind != "parameter":
            continue
        norms = [(c, n) for c, n in enumerate(series.norms) if n is not None and math.isfinite(n)]
        if not norms:
            continue
        start = typical([n for _, n in norms[:WINDOW]])
        for column, norm in norms:
            if norm > limits["exploding-norm"]:
                hits.append((series, column, norm, None))
                break
            if column >= WINDOW and start and norm > limits["exploding-growth"] * start:
                hits.append((series, column, norm, norm / start))
                break
    hits.sort(key=lambda hit: (hit[1], -hit[2]))
    return hits


def dead_relus(flow: GradFlow, limits: dict) -> list[tuple[int, FlowSeries, list[float]]]:
    """Series whose units output zero for every sample too often: (index, series, dead fraction per step)."""
    found = []
    for index, series in enumerate(flow.series):
        dead = [d for d in series.dead_units if d is not None]
        if dead and not typical(dead) < limits["dead-fraction"]:
            found.append((index, series, dead))
    return found


def flags(flow: GradFlow, limits: dict | None = None) -> dict[str, list[str]]:
    """Per series name, the short flags the terminal table shows (shared with the findings)."""
    limits = limits_of(flow, limits)
    marks: dict[str, list[str]] = {}
    low = vanishing(flow, limits)
    for series in low.low if low else []:
        marks.setdefault(series.name, []).append("vanishing")
    for series, *_ in exploding(flow, limits):
        marks.setdefault(series.name, []).append("exploding")
    for _, series, _ in dead_relus(flow, limits):
        marks.setdefault(series.name, []).append("dead")
    for series in flow.series:
        if any(f is False for f in series.finite):
            marks.setdefault(series.name, []).append("nan/inf")
    return marks
