"""Gradient-flow findings from `--grad-flow` statistics: vanishing, exploding, dead ReLUs, and
the first layer where gradients stopped being finite.

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

from ..findings import Finding, Location
from ..trace import FlowSeries, GradFlow, Trace
from ._words import backward_call, call_words

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


def check(trace: Trace) -> list[Finding]:
    flow = trace.grad_flow
    if flow is None or not flow.steps:
        return []
    limits = {**THRESHOLDS, **flow.thresholds}
    findings = []
    nonfinite = _first_nonfinite(trace, flow)
    if nonfinite is not None:
        findings.append(nonfinite)
    findings += _vanishing(flow, limits) + _exploding(trace, flow, limits) + _dead_relus(flow, limits)
    return findings


def weights(flow: GradFlow) -> list[FlowSeries]:
    """Weight (not bias) gradients in forward order: the layers compared with each other."""
    return [s for s in flow.series if s.kind == "parameter" and not s.name.endswith("bias")
            and any(n is not None for n in s.norms)]


def rms(series: FlowSeries, values: list[float | None]) -> list[float]:
    return [v / math.sqrt(max(series.numel, 1)) for v in values if v is not None and math.isfinite(v)]


def typical(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _vanishing(flow: GradFlow, limits: dict) -> list[Finding]:
    layers = weights(flow)
    if len(layers) < 2:
        return []
    recent = {s.name: typical(rms(s, s.norms)[-WINDOW:]) for s in layers}
    largest = max((v for v in recent.values() if v), default=None)
    if not largest:
        return []
    # Exactly zero is not vanishing: nothing reached the layer at all (dead units, a cut): other rules.
    low = [s for s in layers if recent[s.name] and recent[s.name] < limits["vanishing-ratio"] * largest]
    reason = f"below {limits['vanishing-ratio']:g} of the largest layer's ({largest:.2g})"
    if not low and len(flow.steps) >= 2 * WINDOW:
        nearest_loss = layers[-1]
        out_drop = _drop(nearest_loss)
        low = [s for s in layers[:-1] if out_drop and _drop(s) is not None
               and _drop(s) < limits["vanishing-drop"] * out_drop]
        reason = (f"fell below {limits['vanishing-drop']:g} of their first steps' (more than the layer nearest "
                  f"the loss, {nearest_loss.name}, fell)")
    if not low:
        return []
    names = ", ".join(f"`{s.name}` ({recent[s.name]:.2g})" for s in low[:6])
    strongest = max(layers, key=lambda s: recent[s.name] or 0)
    return [Finding.naming(
        "vanishing-gradient", "warning", "Vanishing gradients",
        f"The gradient RMS of {len(low)} of {len(layers)} layers is {reason}: {names}. Their weights barely "
        f"change, so these layers learn next to nothing. Gradients shrink as they pass back through "
        f"saturating activations (sigmoid, tanh) or many layers; the largest is `{strongest.name}`.",
        "Use non-saturating activations (ReLU, GELU), an initialisation that keeps the variance (kaiming_/"
        "xavier_ init), normalisation layers (BatchNorm, LayerNorm) or residual connections.",
        [*(Location.at(s.site, "layer", f"{s.name}: gradient RMS {recent[s.name]:.2g}") for s in low[:4]),
         Location.at(strongest.site, "reference", f"{strongest.name}: {recent[strongest.name]:.2g}")],
        {"layers": [s.name for s in low], "rms": {s.name: recent[s.name] for s in layers}})]


def _drop(series: FlowSeries) -> float | None:
    values = rms(series, series.norms)
    first, last = typical(values[:WINDOW]), typical(values[-WINDOW:])
    return last / first if first and last is not None else None


def _exploding(trace: Trace, flow: GradFlow, limits: dict) -> list[Finding]:
    hits = []  # (series, column, norm, why)
    for series in flow.series:
        if series.kind != "parameter":
            continue
        norms = [(c, n) for c, n in enumerate(series.norms) if n is not None and math.isfinite(n)]
        if not norms:
            continue
        start = typical([n for _, n in norms[:WINDOW]])
        for column, norm in norms:
            if norm > limits["exploding-norm"]:
                hits.append((series, column, norm, f"above {limits['exploding-norm']:g}"))
                break
            if column >= WINDOW and start and norm > limits["exploding-growth"] * start:
                hits.append((series, column, norm, f"{norm / start:.3g}× its first steps'"))
                break
    if not hits:
        return []
    hits.sort(key=lambda hit: (hit[1], -hit[2]))
    first_series, column, norm, why = hits[0]
    call = backward_call(trace, flow.steps[column])
    names = ", ".join(f"`{s.name}`" for s, *_ in hits[:6])
    return [Finding.naming(
        "exploding-gradient", "warning", "Exploding gradients",
        f"Gradient norms of {len(hits)} parameters grow out of bounds: {names}. The first, `{first_series.name}`, "
        f"reached {norm:.3g} ({why}) at {call_words(call) if call else f'backward call #{flow.steps[column] + 1}'}. "
        "Each step multiplies the error; training diverges or ends in NaN.",
        "Clip gradients before the optimizer step (`torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)`), "
        "lower the learning rate, or initialise recurrent weights smaller (orthogonal_ init); LSTM/GRU cells "
        "keep gradients steadier than a plain RNN.",
        [*(Location.at(s.site, "layer", f"{s.name}: gradient norm {n:.3g}") for s, _, n, _ in hits[:4]),
         Location.at(call.site if call else None, "backward", "first step out of bounds")],
        {"parameters": [s.name for s, *_ in hits], "step": flow.steps[column] + 1})]


def _dead_relus(flow: GradFlow, limits: dict) -> list[Finding]:
    findings = []
    for index, series in enumerate(flow.series):
        dead = [d for d in series.dead_units if d is not None]
        if not dead or typical(dead) < limits["dead-fraction"]:
            continue
        before = next((s for s in reversed(flow.series[:index]) if s.kind == "parameter"
                       and not s.name.endswith("bias")), None)
        bias = next((s for s in flow.series if before is not None and s.name == before.name[:-6] + "bias"), None)
        share = typical(dead)
        findings.append(Finding.naming(
            "dead-relu", "warning", f"Dead ReLU units in `{series.name}`",
            f"{share:.0%} of the units of `{series.name}` output zero for every sample in the batch"
            f" (median over {len(dead)} steps). A dead unit passes no gradient back, so the layer before it"
            + (f" (`{before.name}`)" if before else "") + " gets none through it and cannot recover: the "
            "pre-activations are negative for every input (a large negative bias, a bad initialisation, "
            "or a learning rate that pushed them there).",
            "Initialise for ReLU (`nn.init.kaiming_normal_`, biases at 0), lower the learning rate, or use "
            "LeakyReLU/GELU, which keep a gradient for negative inputs.",
            [Location.at(series.site, "activation", f"{share:.0%} of units dead"),
             Location.at(before.site if before else None, "layer", "the layer that feeds it"),
             Location.at(bias.site if bias and bias.site != (before.site if before else None) else None,
                         "layer", "its bias")],
            {"module": series.name, "dead_fraction": share}))
    return findings


def _first_nonfinite(trace: Trace, flow: GradFlow) -> Finding | None:
    if flow.first_nonfinite is None or trace.nan_origins:
        return None  # --check-nan named the op itself: that finding says more
    index, column = flow.first_nonfinite
    series = flow.series[index]
    call = backward_call(trace, flow.steps[column])
    what = "output" if series.kind == "output" else "parameter"
    return Finding.naming(
        "nonfinite-gradient", "warning", "NaN/inf gradient first seen in " + f"`{series.name}`",
        f"The first non-finite gradient appeared at the {what} of `{series.name}` ({series.module_type}) during "
        f"{call_words(call) if call else f'backward call #{flow.steps[column] + 1}'}: it is the watched tensor "
        f"nearest the loss whose gradient went NaN/inf, so the cause is in the ops between it and the loss "
        f"(or in the loss itself). Every step after it updates weights with NaN.",
        "Look at the forward code between this module and the loss: log/sqrt/division at 0, an overflowing "
        "exp, or a too large learning rate. Re-run with `--check-nan` to name the exact op.",
        [Location.at(series.site, "forward", f"{series.name} ({what})"),
         Location.at(call.site if call else None, "backward", "first step with NaN/inf")],
        {"series": series.name, "step": flow.steps[column] + 1})


def flags(flow: GradFlow, limits: dict | None = None) -> dict[str, list[str]]:
    """Per series name, the short flags the terminal table shows (shared with the findings)."""
    limits = {**THRESHOLDS, **flow.thresholds, **(limits or {})}
    marks: dict[str, list[str]] = {}
    fake = Trace(argv=[], grad_flow=flow)
    for finding in _vanishing(flow, limits):
        for name in finding.details["layers"]:
            marks.setdefault(name, []).append("vanishing")
    for finding in _exploding(fake, flow, limits):
        for name in finding.details["parameters"]:
            marks.setdefault(name, []).append("exploding")
    for finding in _dead_relus(flow, limits):
        marks.setdefault(finding.details["module"], []).append("dead")
    for series in flow.series:
        if any(f is False for f in series.finite):
            marks.setdefault(series.name, []).append("nan/inf")
    return marks

