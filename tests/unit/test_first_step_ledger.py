"""The backward lines each of an optimizer's first steps applied (the ledger): hand-built traces,
no torch."""

from __future__ import annotations

from gradscope.analyses.ledger import leaked_into_first_step
from gradscope.trace.locations import Site
from gradscope.trace.model import ParamStep, Trace

LOOP = "/src/train.py"


def trace_with(*windows) -> Trace:
    trace = Trace(argv=["train.py"])
    trace.param_steps = [ParamStep("SGD", n, Site(LOOP, 30), 4, 4, backward_sites=[Site(LOOP, line) for line in lines])
                         for n, lines in enumerate(windows, 1)]
    return trace


def test_a_backward_before_the_loop_left_in_grad_is_found():
    found = leaked_into_first_step(trace_with([12, 28], [28], [28]))
    assert [s.line for s in found.extra] == [12] and [s.line for s in found.steady] == [28]


def test_a_loop_that_sums_two_losses_every_step_is_not_one():
    assert leaked_into_first_step(trace_with([27, 28], [27, 28], [27, 28])) is None


def test_steps_that_do_not_agree_say_nothing():
    assert leaked_into_first_step(trace_with([12, 28], [28], [28, 29])) is None
    assert leaked_into_first_step(trace_with([12, 28], [28])) is None  # (one later step: no pattern yet)
