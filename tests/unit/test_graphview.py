"""The graph builder on hand-built traces: selection, highlights, folding, focus, golden DOT."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradscope.render.graphview import GraphError, Options, build
from gradscope.trace.locations import Site
from gradscope.render.dot import to_dot
from gradscope.trace.model import BackwardCall, ErrorInfo, FreedFailure, InplaceChange, Leaf, ModuleCall, Node, SavedTensor, Trace, VersionFailure

F = "/src/train.py"
GOLDEN = Path(__file__).parent / "golden"


def inplace_trace() -> Trace:
    """b = a + 2 (line 9); loss = (b * b).mean() (line 12); b[0] = 1000. (13); backward (16)."""
    trace = Trace(argv=["train.py"])
    trace.leaves[1] = Leaf(1, None, "tensor", (2,), "float32", Site(F, 8))
    trace.nodes[1] = Node(1, "AddBackward0", "add", Site(F, 9), seq=1, backwards_before=0, leaf_ids=[1])
    saved = SavedTensor("_saved_self", (2,), "float32", "cpu", 0, 4096, producer_node=1, version_now=1)
    trace.nodes[2] = Node(2, "MulBackward0", "mul", Site(F, 12), seq=2, backwards_before=0, saved=[saved], next_ids=[1])
    trace.nodes[3] = Node(3, "MeanBackward0", "mean", Site(F, 12), seq=3, backwards_before=0, next_ids=[2])
    trace.inplace_changes.append(InplaceChange(4, "__setitem__", Site(F, 13), 4096, (2,), 0, 1, True))
    trace.backward_calls.append(BackwardCall(
        0, "Tensor.backward", Site(F, 16), seq=5, retain_graph=False, create_graph=False, roots=[3],
        error=ErrorInfo("RuntimeError", "... modified by an inplace operation ..."),
        version_failure=VersionFailure(2, "_saved_self", 0, 1)))
    return trace


def chain_trace(length: int, with_modules: bool = False) -> Trace:
    """A chain of `length` nodes from one line, like `for _ in ...: h = h * 1.0001`."""
    trace = Trace(argv=["loop.py"])
    for i in range(1, length + 1):
        module = None
        if with_modules:
            trace.module_calls[i] = ModuleCall(i, "Block", None, parent=None)
            module = i
        trace.nodes[i] = Node(i, "MulBackward0", "mul", Site(F, 5), seq=i, backwards_before=0,
                              next_ids=[i - 1] if i > 1 else [], module_call=module)
    trace.backward_calls.append(BackwardCall(0, "Tensor.backward", Site(F, 7), seq=length + 1,
                                             retain_graph=False, create_graph=False, roots=[length]))
    return trace


def by_id(view):
    return {box.id: box for box in view.boxes}


def test_inplace_graph_shows_the_stale_saved_tensor_and_the_write():
    view = build(inplace_trace())
    boxes = by_id(view)
    assert view.title.endswith("failing backward call #1")
    assert boxes["n2"].roles == ["failed"] and boxes["n3"].roles == ["root"]
    assert boxes["s2_0"].roles == ["modified-saved"] and "v0 → now v1" in boxes["s2_0"].lines
    assert boxes["i2_0"].kind == "inplace" and boxes["i2_0"].lines[0] == "train.py:13"
    assert boxes["l1"].kind == "leaf"
    arrows = {(a.src, a.dst, a.kind) for a in view.arrows}
    assert {("n1", "n2", "flow"), ("n2", "n3", "flow"), ("s2_0", "n2", "saved"),
            ("i2_0", "s2_0", "inplace"), ("l1", "n1", "flow")} <= arrows
    assert view.roles == ["failed", "modified-saved", "inplace", "root"]
    assert (view.total_nodes, view.shown_nodes, view.hidden_nodes) == (3, 3, 0)


def test_golden_dot_for_a_small_graph():
    dot = to_dot(build(inplace_trace()))
    assert dot == (GOLDEN / "inplace_small.dot").read_text()


def test_call_selection_and_errors():
    trace = chain_trace(5)
    assert build(trace, Options(call=1)).total_nodes == 5
    with pytest.raises(GraphError, match="no backward call #3"):
        build(trace, Options(call=3))
    trace.nodes.pop(5)  # the graph was freed before the trace was taken
    with pytest.raises(GraphError, match="freed"):
        build(trace, Options(call=1))


def test_freed_graph_highlights():
    trace = chain_trace(6)
    trace.nodes[3].freed_by = 0
    trace.backward_calls.append(BackwardCall(
        1, "Tensor.backward", Site(F, 9), seq=20, retain_graph=False, create_graph=False, roots=[6],
        error=ErrorInfo("RuntimeError", "Trying to backward through the graph a second time"),
        freed_failures=[FreedFailure(3, 4)]))
    view = build(trace)
    boxes = by_id(view)
    assert "freed" in boxes["n3"].roles and "used" in boxes["n4"].roles
    assert view.title.endswith("failing backward call #2")


def test_a_long_chain_folds_but_keeps_its_ends_and_highlights():
    trace = chain_trace(100_000)  # also proves the walks are iterative
    view = build(trace, Options(max_boxes=50))
    kinds = sorted(b.kind for b in view.boxes)
    assert kinds == ["op", "op", "op", "repeat"]
    repeat = next(b for b in view.boxes if b.kind == "repeat")
    assert repeat.members == 99_997 and repeat.title == "×99997 nodes"
    assert view.total_nodes == 100_000 and view.grouped_nodes == 99_997 and view.hidden_nodes == 0
    assert "n100000" in by_id(view)  # the root stays visible


def test_module_boxes_at_a_chosen_depth():
    trace = chain_trace(30, with_modules=True)
    view = build(trace, Options(depth=0, max_boxes=1000))
    assert sum(b.kind == "group" for b in view.boxes) == 29  # the root node is highlighted, kept as is
    assert view.depth == 0


def test_focus_keeps_only_the_neighbourhood():
    view = build(inplace_trace(), Options(focus=True, radius=1))
    assert {b.id for b in view.boxes if b.kind == "op"} == {"n1", "n2", "n3"}
    long = chain_trace(50)
    long.backward_calls[0].error = ErrorInfo("RuntimeError", "x")
    long.backward_calls[0].failed_node = 25
    view = build(long, Options(focus=True, radius=2, max_boxes=1000))
    around_failure = {f"n{i}" for i in range(23, 28)}
    around_root = {"n48", "n49", "n50"}  # where backward started is highlighted too
    assert {b.id for b in view.boxes if b.kind == "op"} == around_failure | around_root
    assert view.hidden_nodes == 50 - 8


def test_weights_changed_by_the_step_after_their_backward_are_not_highlighted():
    """A correct training step: the optimizer changes the weights a node saved, after the
    backward that ran the node. Only a change before that backward is a hazard to highlight."""
    trace = Trace(argv=["train.py"])
    trace.leaves[1] = Leaf(1, "weight", "parameter", (2,), "float32", Site(F, 3))
    after_step = SavedTensor("_saved_mat2", (2,), "float32", "cpu", 0, 4096, producer_leaf=1,
                             version_now=1, version_at_backward=0)
    trace.nodes[1] = Node(1, "MmBackward0", "mm", Site(F, 9), seq=1, backwards_before=0, saved=[after_step], leaf_ids=[1],
                          ran_by=0, freed_by=0)
    trace.backward_calls.append(BackwardCall(0, "Tensor.backward", Site(F, 10), seq=2, retain_graph=False,
                                             create_graph=False, roots=[1]))
    trace.inplace_changes.append(InplaceChange(3, "SGD.step", Site(F, 11), 4096, (2,), 0, 1, False, leaf=1))
    view = build(trace)
    assert not any("modified-saved" in box.roles for box in view.boxes)
    trace.nodes[1].saved[0].version_at_backward = 1  # changed before the backward: highlighted
    view = build(trace)
    assert any("modified-saved" in box.roles for box in view.boxes)
