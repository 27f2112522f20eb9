"""A loss term cut from the graph, when the record no longer holds the backward's root (pruned in a
long run): hand-built traces, no torch."""

from __future__ import annotations

from gradscope.rules.silent import dead_loss_terms
from gradscope.trace.locations import Site
from gradscope.trace.model import BackwardCall, DeadTerm, GraphCut, Node, Trace

TRAIN = "/src/train.py"


def trace_with(parent: str | None) -> Trace:
    trace = Trace(argv=["train.py"])
    trace.cuts[1] = GraphCut(1, 3, "linear", Site(TRAIN, 10), "detach", 0)
    trace.nodes[17] = Node(17, "AddBackward0", "add", Site(TRAIN, 20), seq=5, backwards_before=0, ran_by=0)
    trace.dead_terms = [DeadTerm(4, Site(TRAIN, 20), cut=1, node=17)]
    # backward call #0 ran the sum, through a root the record pruned (node 18 is gone)
    trace.backward_calls = [BackwardCall(0, "Tensor.backward", Site(TRAIN, 21), 6, False, False, roots=[18])]
    if parent is not None:  # what the sum went into, when the record still holds it
        trace.nodes[16] = Node(16, parent, "pow", Site(TRAIN, 20), seq=6, backwards_before=0, next_ids=[17])
    return trace


def test_a_term_whose_backward_root_was_pruned_is_told_by_the_backward_that_ran_its_sum():
    (finding,) = dead_loss_terms(trace_with(None))
    assert finding.rule == "loss-term-without-gradient"


def test_a_sum_that_goes_into_something_else_than_a_sum_says_nothing():
    assert dead_loss_terms(trace_with("PowBackward0")) == []  # inside `(q - target) ** 2`: meant
