"""Rules are pure functions over a trace: hand-built traces, no torch, no subprocess."""

from __future__ import annotations

import sys

from gradscope.trace.locations import Site
from gradscope.rules import diagnose, freed_graph, inplace_saved, leaf_inplace
from gradscope.trace.model import BackwardCall, ErrorInfo, FreedFailure, InplaceChange, Leaf, Node, OpFailure, SavedTensor, TensorArg, Trace, UncaughtError, VersionFailure

F = "/src/train.py"


def site(line):
    return Site(F, line)


def locs(finding):
    return [(loc.line, loc.role) for loc in finding.locations]


def version_trace(changes, via=None):
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "AddBackward0", "add", site(8), seq=1, backwards_before=0)
    trace.nodes[2] = Node(2, "MulBackward0", "__mul__", site(9), seq=2, backwards_before=0, saved=[
        SavedTensor("_saved_self", (2,), "float32", "cpu", 0, storage=4096, producer_node=1)])
    for i, (line, op, storage) in enumerate(changes):
        trace.inplace_changes.append(InplaceChange(seq=3 + i, op=op, site=site(line), storage=storage,
                                                   shape=(2,), version_before=i, version_after=i + 1,
                                                   grad_enabled=True, via=via))
    trace.backward_calls.append(BackwardCall(
        index=0, api="Tensor.backward", site=site(14), seq=10, retain_graph=False, create_graph=False,
        roots=[2], error=ErrorInfo("RuntimeError", "... modified by an inplace operation ..."),
        version_failure=VersionFailure(node=2, attr="_saved_self", expected_version=0,
                                       current_version=sum(c[2] == 4096 for c in changes))))
    trace.error = UncaughtError("RuntimeError", "...", site(14), backward_call=0)
    return trace


def test_inplace_rule_names_save_every_change_and_backward():
    trace = version_trace([(11, "__setitem__", 4096), (12, "add_", 4096), (13, "add_", 9999)])
    [finding] = inplace_saved.check(trace)
    assert finding.rule == "inplace-modified-saved-tensor"
    assert locs(finding) == [(11, "fix"), (12, "fix"), (8, "created"), (9, "saved"), (11, "modified"), (12, "modified"),
                             (14, "backward")]
    assert "version 0" in finding.explanation and "version 2" in finding.explanation
    assert "clone()" in finding.fix
    assert finding.details["uncaught"] is True


def test_inplace_rule_ignores_changes_before_the_save():
    trace = version_trace([(11, "add_", 4096)])
    trace.inplace_changes[0].seq = 0  # happened before the node saved the tensor
    [finding] = inplace_saved.check(trace)
    assert (11, "modified") not in locs(finding)
    assert "did not see" in finding.explanation


def test_inplace_fix_fits_the_cause():
    assert "step()" in inplace_saved.check(version_trace([(11, "add_", 4096)], via="torch/optim/sgd.py:SGD.step"))[0].fix
    assert "inplace=False" in inplace_saved.check(version_trace([(11, "relu_", 4096)]))[0].fix
    assert "x = x + y" in inplace_saved.check(version_trace([(11, "__iadd__", 4096)]))[0].fix


def freed_trace(root_epoch, consumer=True, same_line=False):
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "TanhBackward0", "tanh", site(5), seq=1, backwards_before=0, freed_by=0)
    trace.nodes[2] = Node(2, "AddmmBackward0", "linear", site(5 if same_line else 9), seq=5, backwards_before=root_epoch)
    trace.backward_calls = [
        BackwardCall(0, "Tensor.backward", site(7), seq=3, retain_graph=False, create_graph=False, roots=[3]),
        BackwardCall(1, "Tensor.backward", site(10), seq=8, retain_graph=False, create_graph=False,
                     roots=[2 if consumer else 1],
                     error=ErrorInfo("RuntimeError", "Trying to backward through the graph a second time"),
                     freed_failures=[FreedFailure(1, 2 if consumer else None)]),
    ]
    return trace


def test_freed_graph_backward_twice_on_same_loss():
    [finding] = freed_graph.check(freed_trace(root_epoch=0, consumer=False))
    assert finding.title == "backward() called twice on the same graph"
    assert locs(finding) == [(10, "fix"), (5, "created"), (7, "freed"), (10, "backward")]
    assert "retain_graph=True" in finding.fix


def test_freed_graph_two_losses_sharing_a_graph():
    [finding] = freed_graph.check(freed_trace(root_epoch=0))
    assert "share one graph" in finding.title
    assert "(loss_a + loss_b).backward()" in finding.fix


def test_freed_graph_tensor_carried_from_earlier_iteration():
    [finding] = freed_graph.check(freed_trace(root_epoch=1, same_line=True))
    assert locs(finding) == [(5, "fix"), (5, "created"), (5, "used"), (7, "freed"), (10, "backward")]
    assert "carried from one iteration into the next" in finding.explanation
    assert "detach()" in finding.fix


def test_leaf_rule_names_the_parameter_and_suggests_no_grad():
    trace = Trace(argv=["train.py"])
    trace.leaves[1] = Leaf(1, "0.weight", "parameter", (4, 3), "float32", site(6), owner="Linear.weight")
    trace.op_failures.append(OpFailure(
        seq=4, op="__isub__", site=site(15),
        error=ErrorInfo("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation."),
        tensors=[TensorArg((4, 3), True, True, leaf=1, base_leaf=None, node=None)]))
    [finding] = leaf_inplace.check(trace)
    assert locs(finding) == [(15, "fix"), (6, "created"), (15, "modified")]
    assert "`0.weight`" in finding.explanation
    assert "torch.no_grad()" in finding.fix


def test_leaf_rule_on_a_view_names_the_view():
    trace = Trace(argv=["x.py"])
    trace.leaves[1] = Leaf(1, "weight", "parameter", (10, 4), "float32", site(5))
    trace.nodes[7] = Node(7, "SelectBackward0", "__getitem__", site(6), seq=2, backwards_before=0)
    trace.op_failures.append(OpFailure(
        seq=3, op="zero_", site=site(6),
        error=ErrorInfo("RuntimeError", "a view of a leaf Variable that requires grad is being used in an in-place operation."),
        tensors=[TensorArg((4,), True, False, leaf=None, base_leaf=1, node=7)]))
    [finding] = leaf_inplace.check(trace)
    assert locs(finding) == [(6, "fix"), (5, "created"), (6, "view"), (6, "modified")]
    assert "nn.init" in finding.fix


def test_a_broken_rule_is_reported_not_raised(monkeypatch):
    from gradscope import rules
    monkeypatch.setitem(rules.RULES, "boom", lambda trace: 1 / 0)
    trace = version_trace([(11, "add_", 4096)])
    findings = diagnose(trace)
    assert [f.rule for f in findings] == ["inplace-modified-saved-tensor"]
    assert any("rule boom failed: ZeroDivisionError" in e for e in trace.internal_errors)


def test_rules_import_no_torch():
    import subprocess
    code = "import sys, gradscope.rules, gradscope.trace; assert 'torch' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def revival_trace(asked_for_by_grad: bool):
    from gradscope.trace.model import GraphCut, Revival

    trace = Trace(argv=["train.py"])
    trace.cuts[1] = GraphCut(id=1, seq=1, op="detach", site=site(20), reason="detach", backwards_before=0)
    trace.revivals.append(Revival(seq=2, site=site(12), cut=1, leaf=7))
    trace.backward_calls.append(BackwardCall(
        index=0, api="torch.autograd.grad", site=site(14), seq=3, retain_graph=True, create_graph=True,
        input_leaves=[7] if asked_for_by_grad else [3]))
    return trace


def test_revival_is_a_warning_unless_its_gradient_is_asked_for():
    (finding,) = diagnose(revival_trace(asked_for_by_grad=False))
    assert finding.rule == "requires-grad-on-detached-result"
    assert locs(finding)[:2] == [(20, "fix"), (12, "requires-grad")] and (20, "cut") in locs(finding)
    # WGAN-GP: the revived interpolate is autograd.grad's `inputs`: intended (issue 16, section 7).
    assert diagnose(revival_trace(asked_for_by_grad=True)) == []


def test_frame_in_caller_of_finds_the_loop_line():
    from gradscope.trace.queries import frame_in_caller_of

    loop = Site(F, 40, "<module>")
    made = Site("/src/model.py", 19, "forward", callers=(loop,))
    backward = Site(F, 43, "<module>")
    assert frame_in_caller_of(made, backward) == loop
    assert frame_in_caller_of(Site(F, 40, "<module>"), backward) is None  # made in the loop itself
    helper = Site(F, 12, "train_step", callers=(Site(F, 50, "<module>"),))
    assert frame_in_caller_of(Site("/src/model.py", 19, "forward", callers=(Site(F, 9, "train_step"),)),
                              helper) == Site(F, 9, "train_step")
