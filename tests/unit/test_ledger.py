"""The parameter ledger's analyses and the rules on them: hand-built traces, no torch."""

from __future__ import annotations

from gradscope.analyses import ledger
from gradscope.rules import ledger as ledger_rules
from gradscope.trace.locations import Site
from gradscope.trace.model import BackwardCall, Freeze, Leaf, Node, ParamStep, Trace

F = "/src/train.py"


def leaf(lid, name):
    return Leaf(lid, name, "parameter", (2,), "float32", Site(F, 3))


def steps(n, **fields):
    return [ParamStep("Adam", i + 1, Site(F, 20), 2, fields.get("changed", 0), seq=10 * (i + 1),
                      **{k: v for k, v in fields.items() if k != "changed"}) for i in range(n)]


def base() -> Trace:
    trace = Trace(argv=["train.py"])
    trace.leaves = {1: leaf(1, "backbone.0.weight"), 2: leaf(2, "backbone.3.weight"), 3: leaf(3, "head.weight")}
    return trace


def test_freeze_line_found_through_the_module_when_the_first_frozen_parameter_differs():
    trace = base()
    trace.freezes = [Freeze(1, Site(F, 8), leaf=1), Freeze(2, Site(F, 9), leaf=3)]
    trace.param_steps = steps(2, frozen_changed=[2], changed=1)
    found = ledger.frozen_but_changed(trace)
    assert [f.site.line for f in found.freezes] == [8]  # backbone's line, not head's


def test_no_freeze_line_blamed_when_none_belongs_to_the_parameters():
    trace = base()
    trace.freezes = [Freeze(1, Site(F, 8), leaf=3), Freeze(2, Site(F, 9), leaf=3)]
    trace.param_steps = steps(2, frozen_changed=[2], changed=1)
    assert ledger.frozen_but_changed(trace).freezes == []


def test_zero_gradient_needs_every_step():
    trace = base()
    trace.param_steps = steps(2, grad_zero=[3])
    assert ledger.zero_gradient_leaves(trace)[0] == [3]
    trace.param_steps[1].grad_zero = []
    assert ledger.zero_gradient_leaves(trace) is None


def test_rounding_detached_from_the_loss_is_no_zero_gradient_cause():
    """A straight-through estimator rounds, then detaches: that Round node is not on the way
    from the loss, so it explains no zero gradient."""
    trace = base()
    trace.param_steps = steps(2, grad_zero=[3])
    trace.nodes[5] = Node(5, "RoundBackward0", "round", Site(F, 12), seq=1, backwards_before=0, leaf_ids=[3])
    trace.nodes[6] = Node(6, "MulBackward0", "mul", Site(F, 13), seq=2, backwards_before=0, leaf_ids=[3])
    trace.backward_calls.append(BackwardCall(index=0, api="Tensor.backward", site=Site(F, 15), seq=3,
                                             retain_graph=False, create_graph=False, roots=[6]))
    assert ledger_rules.zero_gradients(trace) == []
    trace.nodes[6].next_ids = [5]  # now the rounding is on the loss's path
    [finding] = ledger_rules.zero_gradients(trace)
    assert finding.fix_sites[0].line == 12


def test_optimizer_without_gradients_does_not_blame_an_unrelated_cut():
    from gradscope.trace.model import GraphCut
    trace = base()
    trace.param_steps = steps(2, grad_none=[3])
    trace.backward_calls.append(BackwardCall(index=0, api="Tensor.backward", site=Site(F, 15), seq=3,
                                             retain_graph=False, create_graph=False, roots=[]))
    trace.cuts[1] = GraphCut(1, 1, "detach", Site(F, 30), "detach", 0)
    [finding] = ledger_rules.optimizer_without_gradients(trace)
    assert finding.fix_sites == [] and finding.fix_basis == "guess"


def test_gradients_reached_by_backward_then_reset_is_its_own_finding(tmp_path):
    path = tmp_path / "train.py"
    path.write_text("for _ in range(3):\n    loss = model(x).sum()\n    loss.backward()\n"
                    "    optimizer.zero_grad()\n    optimizer.step()\n")
    trace = base()
    step_site = Site(str(path), 5)
    trace.param_steps = [ParamStep("SGD", i + 1, step_site, 1, 0, grad_none=[3], seq=10 * (i + 1)) for i in range(2)]
    trace.nodes[6] = Node(6, "MmBackward0", "mm", Site(str(path), 2), seq=2, backwards_before=0, leaf_ids=[3], ran_by=0)
    trace.backward_calls.append(BackwardCall(index=0, api="Tensor.backward", site=Site(str(path), 3), seq=3,
                                             retain_graph=False, create_graph=False, roots=[6]))
    [finding] = ledger_rules.optimizer_without_gradients(trace)
    assert finding.title == "Every optimizer step finds no gradients"
    assert [(s.line) for s in finding.fix_sites] == [4]


def test_eval_mode_on_a_module_holding_batch_norm_is_a_recipe_not_a_freeze():
    from gradscope.trace.model import ModuleCall
    trace = base()
    trace.param_steps = steps(2, changed_leaves=[1, 2], changed=2)
    trace.module_calls = {0: ModuleCall(0, "Net", "", training=True),
                          1: ModuleCall(1, "Sequential", "backbone", parent=0, training=False),
                          2: ModuleCall(2, "Linear", "backbone.0", parent=1, training=False),
                          3: ModuleCall(3, "Linear", "backbone.3", parent=1, training=False)}
    assert ledger.trained_in_eval(trace) is None  # no graph built in those calls: an evaluation's, maybe
    trace.nodes[7] = Node(7, "AddmmBackward0", "linear", None, seq=1, backwards_before=0, module_call=2)
    trace.nodes[8] = Node(8, "AddmmBackward0", "linear", None, seq=2, backwards_before=0, module_call=3)
    assert ledger.trained_in_eval(trace).module == "backbone"
    trace.module_calls[0].training = False  # the whole model evaluated: not a freeze of a part
    assert ledger.trained_in_eval(trace) is None
    trace.module_calls[0].training = True
    trace.module_calls[4] = ModuleCall(4, "BatchNorm1d", "backbone.1", parent=1, training=False)
    trace.nodes[9] = Node(9, "NativeBatchNormBackward0", "batch_norm", None, seq=3, backwards_before=0, module_call=4)
    assert ledger.trained_in_eval(trace) is None


def test_a_step_finding_names_the_optimizer_its_parameter_list_and_the_backward(tmp_path):
    """The training step around a finding: the statement that built the optimizer (through the
    program's own helper), the list of parameters it was given, and the backward it applied."""
    source = tmp_path / "train.py"
    source.write_text(
        "def build(model):\n"                                                 # 1
        "    params = [p for p in model.parameters() if p.requires_grad]\n"  # 2
        "    return torch.optim.Adam(params)\n"                              # 3
        "\n"                                                                  # 4
        "def train(model, x):\n"                                              # 5
        "    optimizer = build(model)\n"                                      # 6
        "    loss = model(x).sum()\n"                                         # 7
        "    loss.backward()\n"                                               # 8
        "    optimizer.step()\n")                                             # 9
    path = str(source)
    trace = Trace(argv=[path])
    trace.param_steps = [ParamStep("Adam", 1, Site(path, 9), 1, 1, backward_sites=[Site(path, 8)])]
    trace.backward_calls = [BackwardCall(index=0, api="Tensor.backward", site=Site(path, 8), seq=1,
                                         retain_graph=False, create_graph=False)]
    finding = ledger_rules.Finding("frozen-parameter-updated", "warning", "t", "e", "f")
    finding.add(ledger_rules.Location.at(Site(path, 9), "step", "changes them"))
    from gradscope.rules.training_step import name_training_step
    name_training_step(trace, [finding])
    assert [(loc.line, loc.role) for loc in finding.locations] == [
        (9, "step"), (6, "optimizer"), (3, "optimizer"), (2, "used"), (8, "backward")]


def test_a_silent_finding_without_a_backward_names_the_only_backward_line():
    from gradscope.rules.training_step import name_training_step
    trace = Trace(argv=["train.py"])
    trace.backward_calls = [BackwardCall(index=i, api="Tensor.backward", site=Site(F, 15), seq=i,
                                         retain_graph=False, create_graph=False) for i in range(2)]
    finding = ledger_rules.Finding("some-rule", "warning", "t", "e", "f")
    name_training_step(trace, [finding])
    assert [(loc.line, loc.role) for loc in finding.locations] == [(15, "affected")]
    trace.backward_calls.append(BackwardCall(index=2, api="Tensor.backward", site=Site(F, 30), seq=3,
                                             retain_graph=False, create_graph=False))
    other = ledger_rules.Finding("some-rule", "warning", "t", "e", "f")
    name_training_step(trace, [other])
    assert other.locations == []  # (two backward lines: which one is affected is not known)


def test_the_modules_of_a_model_local_to_a_function_keep_their_paths_after_it_is_gone():
    import torch
    import torch.nn as nn

    from tests.harness import record

    def program():
        model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model(torch.randn(3, 2)).sum().backward()
        optimizer.step()

    trace = record(program).trace
    assert {call.name for call in trace.module_calls.values()} == {"", "0", "1", "2"}
    assert all(call.registered_at is not None for call in trace.module_calls.values() if call.name)


def test_a_zero_grad_before_the_loop_is_not_blamed_when_the_loop_resets_too(tmp_path):
    from tests.harness import record

    script = tmp_path / "train.py"
    script.write_text(
        "import torch\n"
        "model = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "opt.zero_grad()\n"
        "for i in range(6):\n"
        "    if i % 3 == 0:\n"
        "        opt.zero_grad()\n"
        "    model(torch.rand(4, 3)).sum().backward()\n"
        "    opt.step()\n")
    run = record(str(script))
    marked = [loc.line for f in run.findings for loc in f.fix_sites]
    assert 4 not in marked
