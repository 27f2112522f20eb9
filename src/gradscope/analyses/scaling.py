"""Gradient scaling (torch.amp.GradScaler): the order of clipping and unscaling.

A GradScaler multiplies the loss by its scale (65536 at first), so the gradients backward leaves
are scaled too until `scaler.unscale_(optimizer)`, or `scaler.step(optimizer)`, divides them back.
Clipping measures the gradients: clipped before they are unscaled, they are clipped in scaled
units, and the step then divides them again (an update thousands of times too small).

Pure: reads trace.clips and trace.unscales (the first of each per line, with their order).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trace.model import BackwardCall, ScalerEvent, Trace


@dataclass
class ClippedWhileScaled:
    clip: ScalerEvent  # the clipping of still-scaled gradients
    unscale: ScalerEvent  # the unscaling that came after it (in `scaler.step`, typically)
    backward: BackwardCall | None  # the backward before the clip (of the scaled loss)


def clipped_while_scaled(trace: Trace) -> ClippedWhileScaled | None:
    """The first clipping that no unscaling preceded and one followed: the program unscales only
    after it clipped. (A program that calls `scaler.unscale_` before clipping unscales first; one
    with the scaler disabled never unscales at all.)"""
    for clip in sorted(trace.clips, key=lambda event: event.seq):
        if any(u.seq < clip.seq for u in trace.unscales):
            continue
        after = [u for u in trace.unscales if u.seq > clip.seq]
        if after:
            backward = next((c for c in reversed(trace.backward_calls) if c.seq < clip.seq and c.error is None), None)
            return ClippedWhileScaled(clip, min(after, key=lambda event: event.seq), backward)
    return None
