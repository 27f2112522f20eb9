"""The catalog rules (issue 3) on hand-built traces: no torch, no subprocess."""

from __future__ import annotations

from gradscope.trace.locations import Site
from gradscope.rules import diagnose
from gradscope.trace.model import BackwardCall, ErrorInfo, Escape, GradHazard, GraphCut, InplaceChange, Leaf, ModuleCall, Node, OpFailure, SavedHazard, SavedTensor, StaleLink, TensorArg, Trace, UncaughtError, VersionFailure

F = "/src/train.py"  # does not exist: rules must not need the file


def site(line):
    return Site(F, line)


def locs(finding):
    return [(loc.line, loc.role) for loc in finding.locations]


def no_graph_call(**extra):
    return BackwardCall(index=0, api="Tensor.backward", site=site(20), seq=50, retain_graph=False,
                        create_graph=False,
                        error=ErrorInfo("RuntimeError", "element 0 of tensors does not require grad and does "
                                                        "not have a grad_fn"), **extra)


def tensor(**extra):
    return TensorArg(shape=(), requires_grad=False, is_leaf=True, leaf=None, base_leaf=None, node=None, **extra)


def test_backward_without_graph_names_the_cut():
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "AddmmBackward0", "linear", site(12), seq=1, backwards_before=0)
    trace.cuts[7] = GraphCut(id=7, seq=2, op="detach", site=site(14), reason="detach", backwards_before=0, input_node=1)
    trace.backward_calls.append(no_graph_call(outputs=[tensor(cut=7)]))
    (finding,) = diagnose(trace)
    assert finding.rule == "backward-without-graph"
    assert locs(finding) == [(14, "fix"), (14, "cut"), (12, "cut-input"), (20, "backward")]
    assert "detach" in finding.explanation and "requires_grad = True" in finding.explanation


def test_backward_without_graph_frozen_parameters_and_escapes():
    frozen = Trace(argv=["train.py"])
    frozen.backward_calls.append(no_graph_call(outputs=[tensor()], trainable_params=0, total_params=4))
    assert "frozen" in diagnose(frozen)[0].explanation

    escaped = Trace(argv=["train.py"])
    escaped.escapes.append(Escape(seq=3, op="item", site=site(9), backwards_before=0))
    escaped.backward_calls.append(no_graph_call(outputs=[tensor()], trainable_params=2, total_params=2))
    (finding,) = diagnose(escaped)
    assert locs(finding) == [(9, "fix"), (9, "cut"), (20, "backward")]


def test_forward_error_names_where_the_view_was_made():
    trace = Trace(argv=["train.py"])
    trace.nodes[3] = Node(3, "UnbindBackward0", "unbind", site(5), seq=1, backwards_before=0)
    message = ("Output 0 of Unbind is a view and is being modified inplace. This view is the output of a "
               "function that returns multiple views.")
    trace.op_failures.append(OpFailure(seq=2, op="sub_", site=site(6), error=ErrorInfo("RuntimeError", message),
                                       tensors=[TensorArg((3,), True, False, None, None, 3)]))
    (finding,) = diagnose(trace)
    assert finding.rule == "multi-output-view-inplace" and locs(finding) == [(5, "created"), (6, "failed")]


def test_optimizer_non_leaf_uses_the_tensor_from_the_raising_frame():
    trace = Trace(argv=["train.py"])
    trace.nodes[4] = Node(4, "MulBackward0", "__mul__", site(3), seq=1, backwards_before=0)
    trace.error = UncaughtError("ValueError", "can't optimize a non-leaf Tensor", site(5),
                                tensors=[TensorArg((10,), True, False, None, None, 4)])
    (finding,) = diagnose(trace)
    assert finding.rule == "optimizer-non-leaf" and locs(finding) == [(3, "fix"), (3, "non-leaf"), (5, "failed")]


def _data_write(ran_by=None):
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "SigmoidBackward0", "sigmoid", site(5), seq=1, backwards_before=0, freed_by=ran_by, ran_by=ran_by, saved=[
        SavedTensor("_saved_result", (4,), "float32", "cpu", 0, storage=64)])
    change = InplaceChange(seq=2, op="clamp_", site=site(7), storage=64, shape=(4,), version_before=0,
                           version_after=1, grad_enabled=True, bypasses_version=True)
    trace.inplace_changes.append(change)
    trace.saved_hazards.append(SavedHazard(change, node=1, attr="_saved_result", silent=True))
    # The forward went on using that graph after the change (a later op consumes its output).
    trace.nodes[2] = Node(2, "MulBackward0", "mul", site(6), seq=3, backwards_before=0, next_ids=[1])
    return trace


def test_data_write_to_saved_tensor_then_backward_is_a_warning():
    trace = _data_write(ran_by=0)
    trace.backward_calls.append(BackwardCall(index=0, api="Tensor.backward", site=site(8), seq=4,
                                             retain_graph=False, create_graph=False, roots=[2]))
    trace.nodes[2].ran_by = 0
    (finding,) = diagnose(trace)
    assert (finding.rule, finding.severity) == ("data-write-to-saved-tensor", "warning")
    assert locs(finding) == [(7, "fix"), (5, "saved"), (7, "modified"), (8, "backward")]


def test_data_write_without_backward_is_a_hazard():
    (finding,) = diagnose(_data_write())
    assert (finding.rule, finding.severity) == ("inplace-hazard", "error")
    assert locs(finding) == [(7, "fix"), (5, "saved"), (7, "modified")] and "silently wrong" in finding.explanation


def test_inplace_hazard_is_quiet_when_the_backward_error_explains_it():
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "ExpBackward0", "exp", site(3), seq=1, backwards_before=0, saved=[
        SavedTensor("_saved_result", (4,), "float32", "cpu", 0, storage=64)])
    change = InplaceChange(seq=2, op="__iadd__", site=site(4), storage=64, shape=(4,), version_before=0,
                           version_after=1, grad_enabled=True)
    trace.inplace_changes.append(change)
    trace.saved_hazards.append(SavedHazard(change, node=1, attr="_saved_result"))
    assert diagnose(trace) == []  # nothing used the graph after the change: no backward needs it
    trace.nodes[2] = Node(2, "MulBackward0", "mul", site(5), seq=3, backwards_before=0, next_ids=[1])
    (hazard,) = diagnose(trace)
    assert hazard.rule == "inplace-hazard" and locs(hazard) == [(4, "fix"), (3, "saved"), (4, "modified")]
    assert "x = x + y" in hazard.fix

    trace.backward_calls.append(BackwardCall(
        index=0, api="Tensor.backward", site=site(6), seq=4, retain_graph=False, create_graph=False,
        error=ErrorInfo("RuntimeError", "... modified by an inplace operation ..."),
        version_failure=VersionFailure(node=1, attr="_saved_result", expected_version=0, current_version=1)))
    assert [f.rule for f in diagnose(trace)] == ["inplace-modified-saved-tensor"]


def test_parameter_without_gradient_finds_the_cut_in_its_module():
    trace = Trace(argv=["train.py"])
    trace.leaves[1] = Leaf(1, "encoder.weight", "parameter", (4, 4), "float32", site(11))
    trace.module_calls[1] = ModuleCall(1, "Linear", "encoder")
    trace.nodes[2] = Node(2, "AddmmBackward0", "linear", site(15), seq=1, backwards_before=0, module_call=1)
    trace.cuts[1] = GraphCut(id=1, seq=2, op="detach", site=site(15), reason="detach", backwards_before=0, input_node=2)
    trace.grad_hazards.append(GradHazard("never-graded", [1], site(25), "Adam", 1))
    (finding,) = diagnose(trace)
    assert finding.rule == "parameter-without-gradient"
    assert locs(finding) == [(15, "fix"), (15, "cut"), (11, "parameter"), (25, "step")]


def test_graph_kept_alive_is_quiet_when_backward_failed_on_it():
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "MeanBackward0", "mean", site(8), seq=1, backwards_before=0)
    trace.stale_links.append(StaleLink(seq=5, op="__iadd__", site=site(10), backwards_before=1, old_node=1))
    assert diagnose(trace) == []  # once: not a leak
    trace.stale_links[0].repeats = 3
    assert diagnose(trace) == []  # every step, but consumed within the step (a logged sum): not a leak
    trace.stale_links[0].carried = 2
    (finding,) = diagnose(trace)
    assert finding.rule == "graph-kept-alive" and locs(finding) == [(10, "fix"), (8, "created"), (10, "kept")]
