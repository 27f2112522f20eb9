"""The order of clipping and unscaling under a GradScaler: hand-built traces, no torch."""

from __future__ import annotations

from gradscope.analyses.scaling import clipped_before_backward, clipped_while_scaled
from gradscope.trace.locations import Site
from gradscope.trace.model import BackwardCall, OptimizerStep, ScalerEvent, Trace

LOOP = "/src/train.py"


def trace_with(events) -> Trace:
    trace = Trace(argv=["train.py"])
    trace.backward_calls = [BackwardCall(0, "Tensor.backward", Site(LOOP, 15), 5, False, False)]
    for seq, kind, line in events:
        (trace.clips if kind == "clip" else trace.unscales).append(ScalerEvent(seq, kind, Site(LOOP, line)))
    return trace


def test_clipping_before_the_step_unscales_is_clipping_scaled_gradients():
    found = clipped_while_scaled(trace_with([(10, "clip", 16), (12, "unscale", 17)]))
    assert (found.clip.site.line, found.unscale.site.line, found.backward.site.line) == (16, 17, 15)


def test_unscaling_first_then_clipping_is_right():
    assert clipped_while_scaled(trace_with([(9, "unscale", 16), (10, "clip", 17)])) is None


def test_a_disabled_scaler_never_unscales_and_clipping_is_then_right():
    assert clipped_while_scaled(trace_with([(10, "clip", 16)])) is None


def test_clipping_before_the_backward_of_the_step_is_found():
    trace = trace_with([(3, "clip", 14)])  # backward (seq 5) after the clip
    trace.first_steps = [OptimizerStep(8, Site(LOOP, 16), "SGD")]
    found = clipped_before_backward(trace)
    assert (found.clip.site.line, found.backward.site.line, found.step.line) == (14, 15, 16)
    assert clipped_while_scaled(trace) is None  # (that clip is not also one of scaled gradients)


def test_clipping_between_backward_and_step_is_right():
    trace = trace_with([(6, "clip", 16)])
    trace.first_steps = [OptimizerStep(8, Site(LOOP, 17), "SGD")]
    assert clipped_before_backward(trace) is None


def test_clipping_after_a_backward_whose_step_was_skipped_is_right():
    # backward (seq 5), clip (6), the GradScaler skips the step; next iteration: backward (9), step (11)
    trace = trace_with([(6, "clip", 16)])
    trace.backward_calls.append(BackwardCall(1, "Tensor.backward", Site(LOOP, 15), 9, False, False))
    trace.first_steps = [OptimizerStep(11, Site(LOOP, 17), "AdamW")]
    assert clipped_before_backward(trace) is None
