"""Silent findings from gradient clipping and scaling (analyses/scaling.py): gradients clipped
before the backward that makes them; gradients clipped while a GradScaler still had them
multiplied by its scale."""

from __future__ import annotations

from ..analyses import scaling
from ..analyses.settings import options_read
from ..trace.findings import Finding, Location
from ..trace.locations import Site, user_site
from ..trace.model import Trace
from ..trace.queries import project_files, user_files
from ..trace.source_search import calls_named
from ._words import where

RULE_ID = "clipped-while-scaled"
BEFORE_BACKWARD_RULE_ID = "clipped-before-backward"


def clipped_before_backward(trace: Trace) -> list[Finding]:
    found = scaling.clipped_before_backward(trace)
    clip = user_site(found.clip.site) if found is not None else None
    if clip is None:
        return []
    backward, step = user_site(found.backward.site), user_site(found.step)
    finding = Finding(
        rule=BEFORE_BACKWARD_RULE_ID, severity="warning", title="Gradients clipped before the backward that makes them",
        explanation=(f"The gradients are clipped at {where(clip)}, but the backward at {where(backward)} runs after "
                     f"the clipping and before the optimizer step at {where(step)}. The step uses the gradients "
                     "that backward made, which nothing clipped (the clipping saw no gradient yet, or the last "
                     "step's): the clipping has no effect on training."),
        fix="Clip after the backward, right before the optimizer step.")
    finding.mark_fix(clip, f"clips before the backward at {where(backward)} makes the gradients the step uses: "
                           "move it after that backward, before the step")
    finding.add(Location.at(backward, "backward", "makes the gradients the step uses, after the clipping"))
    finding.add(Location.at(step, "step", "steps with unclipped gradients"))
    return [finding]


def clipped_while_scaled(trace: Trace) -> list[Finding]:
    found = scaling.clipped_while_scaled(trace)
    if found is None:
        return []
    clip, unscale = user_site(found.clip.site), user_site(found.unscale.site)
    if clip is None:
        return []
    backward = user_site(found.backward.site) if found.backward else None
    scalers = [Site(path, line) for path in user_files(trace)[:24] for line in calls_named(path, "GradScaler")][:2]
    finding = Finding(
        rule=RULE_ID, severity="warning", title="Gradients clipped while still scaled by the GradScaler",
        explanation=(f"The gradients are clipped at {where(clip)} before the GradScaler unscales them"
                     + (f" (it does so only in the step at {where(unscale)})" if unscale else "")
                     + ". The scaled loss's backward"
                     + (f" (at {where(backward)})" if backward else "")
                     + " left them multiplied by the scale (65536 at first), so the clipping measures the scaled "
                       "norm and clips it to the limit; the step then divides by the scale again. Every update is "
                       "the limit divided by the scale: thousands of times too small, and training barely moves."),
        fix="Call `scaler.unscale_(optimizer)` right before clipping (then `scaler.step(optimizer)` as before).")
    finding.mark_fix(clip, "clips gradients that are still multiplied by the loss scale: call "
                           "`scaler.unscale_(optimizer)` on the line before")
    finding.add(Location.at(backward, "backward", "backward of the scaled loss: its gradients are scaled"))
    finding.add(Location.at(unscale, "step", "unscales only here, after the clipping"))
    files = project_files(trace)
    for place in scalers:
        finding.add(Location.at(place, "mode", "the GradScaler, scaling the loss"))
        for setting, name, value in options_read(place, files)[:1]:
            finding.add(Location.at(setting, "setting", f"sets `{name}` to {value}, which turns the scaling on"))
    return [finding]
