"""Gradient-flow findings from `--grad-flow` statistics: vanishing, exploding, dead ReLUs, and
the first layer where gradients stopped being finite.

Which series count (and the thresholds, set with `--grad-flow-threshold NAME=VALUE`) is decided
in flow_stats.py, shared with the `--grad-flow` table and chart; here the findings are worded.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.flow_stats import dead_relus, exploding, flags, limits_of, typical, vanishing
from ..trace.model import GradFlow, Trace
from ._words import backward_call, call_words

__all__ = ["check", "flags"]  # flags: the table's marks, kept importable from here


def check(trace: Trace) -> list[Finding]:
    flow = trace.grad_flow
    if flow is None or not flow.steps:
        return []
    limits = limits_of(flow)
    findings = []
    nonfinite = _first_nonfinite(trace, flow)
    if nonfinite is not None:
        findings.append(nonfinite)
    findings += _vanishing(flow, limits) + _exploding(trace, flow, limits) + _dead_relus(flow, limits)
    return findings


def _vanishing(flow: GradFlow, limits: dict) -> list[Finding]:
    found = vanishing(flow, limits)
    if found is None:
        return []
    layers, low, recent = found.layers, found.low, found.recent
    if found.by_drop:
        reason = (f"fell below {limits['vanishing-drop']:g} of their first steps' (more than the layer nearest "
                  f"the loss, {layers[-1].name}, fell)")
    else:
        reason = f"below {limits['vanishing-ratio']:g} of the largest layer's ({found.largest:.2g})"
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


def _exploding(trace: Trace, flow: GradFlow, limits: dict) -> list[Finding]:
    hits = exploding(flow, limits)
    if not hits:
        return []
    first_series, column, norm, growth = hits[0]
    why = f"above {limits['exploding-norm']:g}" if growth is None else f"{growth:.3g}× its first steps'"
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
    for index, series, dead in dead_relus(flow, limits):
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
