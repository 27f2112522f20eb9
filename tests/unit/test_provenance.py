"""Provenance over hand-built traces, no torch: graphs of create_graph gradients nothing used."""

from __future__ import annotations

from gradscope.analyses.provenance import unused_gradient_graphs
from gradscope.trace.locations import Site
from gradscope.trace.model import BackwardCall, Node, Trace


def penalty_trace(penalty_ran: bool) -> Trace:
    """A forward (1), autograd.grad with create_graph=True (call 0), the gradient's node autograd
    made (2, seen late), the penalty computed from it (3), the loss (4) and its backward (call 1)."""
    trace = Trace(argv=["train.py"])
    trace.nodes = {
        1: Node(1, "AddmmBackward0", "linear", Site("train.py", 10), seq=1, backwards_before=0),
        2: Node(2, "MmBackward0", "pow", Site("train.py", 12), seq=3, backwards_before=1, first_seen_late=True,
                next_ids=[1], ran_by=1 if penalty_ran else None),
        3: Node(3, "PowBackward0", "pow", Site("train.py", 12), seq=4, backwards_before=1, next_ids=[2],
                ran_by=1 if penalty_ran else None),
        4: Node(4, "MeanBackward0", "mean", Site("train.py", 13), seq=5, backwards_before=1, next_ids=[1], ran_by=1),
    }
    trace.backward_calls = [
        BackwardCall(0, "torch.autograd.grad", Site("train.py", 11), seq=2, retain_graph=True, create_graph=True,
                     roots=[1]),
        BackwardCall(1, "Tensor.backward", Site("train.py", 14), seq=6, retain_graph=False, create_graph=False,
                     roots=[4]),
    ]
    return trace


def test_a_penalty_left_out_of_the_loss_is_an_unused_gradient_graph():
    (unused,) = unused_gradient_graphs(penalty_trace(penalty_ran=False))
    assert (unused.call.index, unused.value.id, unused.next_backward.index) == (0, 3, 1)


def test_a_penalty_the_backward_went_through_is_used():
    assert unused_gradient_graphs(penalty_trace(penalty_ran=True)) == []


def test_nothing_is_known_where_the_later_backward_says_nothing_of_what_it_ran():
    trace = penalty_trace(penalty_ran=False)
    trace.nodes[4].ran_by = None  # (an old record: which backward ran it is forgotten)
    assert unused_gradient_graphs(trace) == []


def test_a_reduction_beside_the_loss_that_no_backward_ran_is_left_out():
    from gradscope.analyses.provenance import values_left_out

    trace = Trace(argv=["train.py"])
    trace.nodes = {
        1: Node(1, "AddmmBackward0", "linear", Site("train.py", 10), seq=1, backwards_before=0, ran_by=0),
        2: Node(2, "MseLossBackward0", "mse_loss", Site("train.py", 11), seq=2, backwards_before=0, next_ids=[1],
                ran_by=0),
        3: Node(3, "AbsBackward0", "abs", Site("train.py", 12), seq=3, backwards_before=0),
        4: Node(4, "MeanBackward0", "mean", Site("train.py", 12), seq=4, backwards_before=0, next_ids=[3]),
        5: Node(5, "MeanBackward0", "mean", Site("train.py", 13), seq=5, backwards_before=0, next_ids=[1]),
    }
    trace.backward_calls = [BackwardCall(0, "Tensor.backward", Site("train.py", 14), seq=6, retain_graph=False,
                                         create_graph=False, roots=[2])]
    (left,) = values_left_out(trace, lambda a, b: True)
    # (node 5 is a metric over the output the loss trained through: not a term left out)
    assert (left.value.id, left.loss.id, left.backward.index) == (4, 2, 0)


def test_a_term_that_reaches_the_loss_along_two_paths_of_sums_is_counted_twice():
    from gradscope.analyses.provenance import terms_summed_twice
    from gradscope.trace.model import BackwardCall, Node, Trace
    from gradscope.trace.locations import Site

    def node(nid, name, op, line, nxt):
        return Node(nid, name, op, Site("m.py", line), seq=nid, backwards_before=0, next_ids=nxt)

    trace = Trace(argv=["m.py"])
    for n in (node(9, "AddBackward0", "add", 27, [8, 7]), node(8, "AddBackward0", "add_", 18, [5, 6]),
              node(7, "MeanBackward0", "mean", 26, [6]), node(6, "MulBackward0", "mul", 17, [4]),
              node(5, "PowBackward0", "pow", 16, [3]), node(4, "PowBackward0", "pow", 17, [3])):
        trace.nodes[n.id] = n
    trace.backward_calls.append(BackwardCall(0, "Tensor.backward", Site("m.py", 29), 10, False, False, roots=[9]))
    found = terms_summed_twice(trace)
    assert found.term.id == 6 and {v.id for v in found.via} == {7, 8}
    trace.nodes[7] = node(7, "MeanBackward0", "mean", 18, [6])  # (both in one statement: meant)
    assert terms_summed_twice(trace) is None
    trace.nodes[7] = node(7, "MeanBackward0", "mean", 26, [6])
    trace.nodes[8] = node(8, "AddBackward0", "add", 18, [5, 6])  # (a sum written out twice: a weighting)
    assert terms_summed_twice(trace) is None
