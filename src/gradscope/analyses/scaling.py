"""Gradient clipping and scaling (torch.amp.GradScaler): the order of backward, clipping,
unscaling and the step.

Clipping changes the gradients the next step uses only if it runs after the backward that
made them: clipped before it (no gradient yet, or the last step's), the step uses them unclipped.

A GradScaler multiplies the loss by its scale (65536 at first), so the gradients backward leaves
are scaled too until `scaler.unscale_(optimizer)`, or `scaler.step(optimizer)`, divides them back.
Clipping measures the gradients: clipped before they are unscaled, they are clipped in scaled
units, and the step then divides them again (an update thousands of times too small).

Pure: reads trace.clips and trace.unscales (the first of each per line, with their order),
the backward calls and the optimizers' first steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trace.locations import Site
from ..trace.model import BackwardCall, ScalerEvent, Trace


@dataclass
class ClippedWhileScaled:
    clip: ScalerEvent  # the clipping of still-scaled gradients
    unscale: ScalerEvent  # the unscaling that came after it (in `scaler.step`, typically)
    backward: BackwardCall | None  # the backward before the clip (of the scaled loss)


@dataclass
class ClippedBeforeBackward:
    clip: ScalerEvent
    backward: BackwardCall  # the backward that made the step's gradients, after the clip
    step: Site | None  # the step that used them unclipped


def clipped_before_backward(trace: Trace) -> ClippedBeforeBackward | None:
    """The first clipping followed, before the next optimizer step, by a backward: that step
    uses the gradients the backward made, which nothing clipped."""
    steps = sorted([(s.seq, s.site) for s in trace.param_steps] + [(s.seq, s.site) for s in trace.first_steps],
                   key=lambda step: step[0])
    done = [c for c in trace.backward_calls if c.error is None]
    for clip in sorted(trace.clips, key=lambda event: event.seq):
        step = next((s for s in steps if s[0] > clip.seq), None)
        if step is None:
            continue
        # (a backward just before the clip, with no step between them: the clip follows the
        # backward it is meant for; the step after it may have been skipped, as a GradScaler
        # skips the first steps whose gradients overflow)
        before = [c for c in done if c.seq < clip.seq]
        if before and not any(before[-1].seq < s[0] < clip.seq for s in steps):
            continue
        between = [c for c in done if clip.seq < c.seq < step[0]]
        if between:
            return ClippedBeforeBackward(clip, between[-1], step[1])
    return None


def clipped_while_scaled(trace: Trace) -> ClippedWhileScaled | None:
    """The first clipping that no unscaling preceded and one followed: the program unscales only
    after it clipped. (A program that calls `scaler.unscale_` before clipping unscales first; one
    with the scaler disabled never unscales at all.)"""
    early = clipped_before_backward(trace)
    for clip in sorted(trace.clips, key=lambda event: event.seq):
        if any(u.seq < clip.seq for u in trace.unscales) or (early is not None and early.clip is clip):
            continue
        after = [u for u in trace.unscales if u.seq > clip.seq]
        if after:
            backward = next((c for c in reversed(trace.backward_calls) if c.seq < clip.seq and c.error is None), None)
            return ClippedWhileScaled(clip, min(after, key=lambda event: event.seq), backward)
    return None
